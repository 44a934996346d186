"""The settings of a paraphrasing run and what they resolve to. `ParaphraseConfig`, a typed config
(schemas/config.py) that `paranmt paraphrase` loads (with its input and output: pipelines/paraphrase.py) and that
`eval-paraphraser` and `adversarial` hold as their `paraphrase:` section, holds the user's settings; checked
(`validate`) and resolved (`resolve`) before any model is loaded into a `ParaphraseRun`: the settings with the model
directories found, and the templates chosen. The run is what the Beam stage (transforms/paraphrase.py) pickles;
`pipeline.open_pipeline` makes a ParaphrasePipeline of its settings."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from paranmt.models.generation import ARCHS, RERANK
from paranmt.models.generation.models import TASKS
from paranmt.schemas.build_config import ParseConfig, ScoreConfig
from paranmt.schemas.config import DEVICES, Config, bounded, check_ranges, choice, setting
from paranmt.schemas.errors import ConfigError
from paranmt.schemas.paths import asset_path, is_remote

DEFAULT_MODELS = "assets"           # the shipped demo models (a directory of models: models.find_models)


def guard_switch(reason: str, kept: str) -> Any:
    """The setting that, set to True, turns off the post-filter guard `reason` (postfilter.GUARDS): a switch whose
    help names the paraphrases it keeps (`kept`) and the reason they are otherwise dropped with."""
    return setting(False, flag={"action": "store_true"}, metadata={"guard": reason},
                   help=f"post-filter: keep paraphrases {kept} (dropped by default, reason {reason})")


@dataclass
class ParaphraseConfig(Config):
    """Everything a paraphrasing run needs besides its input and output (also what the Beam stage pickles)."""
    model: str = setting(DEFAULT_MODELS, help="model directory or directory of models (assets: the shipped demo "
                         "models)")
    task: str = choice("scpn", TASKS, flag={"section": False}, help="scpn: one paraphrase per template; plain: the "
                       "uncontrolled paraphraser")
    arch: str | None = choice(None, ARCHS, help="architecture, when the models directory has both")
    parse_generator: str | None = setting(None, help="parse generator directory (default: the one beside the model)")
    templates: str | None = setting(None, help="top<N> | top<N>:STATS_DIR | FILE | one template (default top20)")
    parser: str = setting(ParseConfig.model_dir, help="parser model directory")
    max_tokens: int = bounded(ParseConfig.max_tokens, 1, help="sources of more PTB tokens than this are not parsed, "
                              "so not paraphrased")
    min_english: float = bounded(0.01, 0, 1, help="sources whose probability of being English (language ID, "
                                 "py3langid) is below this are not paraphrased (reason not_english; 0: off)")
    encoder: str = setting(ScoreConfig.encoder, help="post-filter / para_score encoder")
    min_overlap: float = bounded(0.5, -1, 1, help="post-filter: trigram overlap")
    min_similarity: float = bounded(0.7, -1, 1, help="post-filter: para_score")
    keep_copies: bool = guard_switch("copy", "that repeat the source up to case and punctuation")
    keep_repeats: bool = guard_switch("repeated_word", "that repeat a word more often than the source does")
    keep_unbalanced: bool = guard_switch("unbalanced", "with a quote or bracket left open or closing nothing where "
                                         "the source's are balanced")
    keep_lowercase_start: bool = guard_switch("lowercase_start", "that start lowercase where the source starts "
                                              "uppercase")
    keep_doubled_punctuation: bool = guard_switch("doubled_punctuation", "with a run of . ! ? or , (\"..\") that the "
                                                  "source lacks")
    beam: int = bounded(8, 1, help="beam size")
    n_best: int = bounded(1, 1, help="paraphrases per source and template")
    rerank: str = choice("template", RERANK, help="which hypotheses of the beam are returned: template / simile = the "
                         "whole beam, kept ones first, then by template match / SIMILE to the source; score = the "
                         "generator's best as they come")
    no_repeat_ngram: int = bounded(0, 0, flag={"metavar": "N"}, help="beam search never repeats an N-gram of output "
                                   "units (0: off)")
    fusion_model: str | None = setting("auto", help="SCPN's beam search fused with this plain paraphraser on the same "
                                       "units: auto = the plain model beside the SCPN model when it has the same "
                                       "units, none = off, or a directory")
    fusion_weight: float = bounded(1.0, 0, help="fusion: unit score log P_scpn + W log P_plain (0: off)")
    parses: int = bounded(1, 1, help="target parses per (sentence, template): the parse generator's N best, each "
                          "decoded by SCPN, all hypotheses reranked together")
    batch_size: int = bounded(32, 1, help="sentences per generator call")
    device: str = choice("auto", DEVICES, help="device of the generators (auto: CUDA when available)")
    threads: int = bounded(0, 0, help="CPU threads (0 = torch's default)")

    def guards_kept(self) -> list[str]:
        """The post-filter guards (reasons) this config turns off (`PostFilter(keep=...)`)."""
        return [reason for key, reason in GUARD_KEYS.items() if getattr(self, key)]

    def validate(self, where: str = "") -> ParaphraseConfig:
        """ConfigError naming the key (`where`: its section, e.g. `paraphrase.`) of a value out of its range or
        choices."""
        check_ranges(self, where)
        return self

    def resolve(self, local_copy: Callable[[str], str] | None = None) -> ParaphraseRun:
        """The run of these settings: the settings checked (`validate`, and n_best <= beam), the model directories
        found and checked, the templates chosen (ConfigError before any work); the settings themselves stay as
        they are. Loads no model weights. A model on a remote filesystem (gs://) is checked on
        the local copy that `local_copy(url)` makes (the commands pass transforms/io/model_cache.local_model_path;
        the launcher needs read access) and kept as its remote path for the workers; without `local_copy` it is a
        ConfigError."""
        from paranmt.models.generation.models import ModelSetError, find_models
        from paranmt.models.generation.paraphraser import read_templates
        from paranmt.models.generation.templates import TemplateError, choose_templates
        from paranmt.models.parsing.parser import ParserModelError, model_files

        self.validate()
        if self.n_best > self.beam:
            raise ConfigError(f"need n_best <= beam (n_best of the beam's hypotheses), got n_best {self.n_best}, "
                              f"beam {self.beam}")
        fusion = "none" if not self.fusion_model or self.fusion_weight == 0 or self.task != "scpn" else \
            self.fusion_model
        remote = [name for name in ("model", "parse_generator", "parser", "encoder")
                  if getattr(self, name) and is_remote(getattr(self, name))]
        if fusion not in ("auto", "none") and is_remote(fusion):
            remote.append("fusion_model")
        elif fusion == "auto" and "model" in remote:
            fusion = "none"         # found beside a local model only; name a remote one with --fusion-model
        if remote and ("model" in remote) != ("parse_generator" in remote or self.task != "scpn"):
            raise ConfigError("a model on a remote filesystem needs --parse-generator there too (a directory of "
                              "models is found by listing, which only local paths get)")
        if remote and local_copy is None:
            raise ConfigError(f"--{remote[0].replace('_', '-')} {getattr(self, remote[0])}: a model on a remote "
                              "filesystem needs a local copy to be checked (transforms/io/model_cache.py)")
        local = {name: local_copy(getattr(self, name)) if name in remote else asset_path(getattr(self, name))
                 for name in ("model", "parse_generator", "parser", "encoder") if getattr(self, name)}
        if fusion not in ("auto", "none"):
            fusion = local_copy(fusion) if "fusion_model" in remote else asset_path(fusion)
        try:
            models = find_models(local["model"], self.task, self.arch, local.get("parse_generator"), fusion)
        except ModelSetError as error:
            raise ConfigError(str(error)) from None
        try:
            model_files(local["parser"])
        except ParserModelError as error:
            raise ConfigError(f"--parser: {error}") from None
        if not (Path(local["encoder"]) / "config.json").is_file():
            raise ConfigError(f"--encoder {self.encoder} is not an encoder directory (no config.json)")
        templates = []
        if self.task == "scpn":
            try:
                templates = choose_templates(self.templates, [t for t, _ in read_templates(models.paraphraser.path)])
            except TemplateError as error:
                raise ConfigError(f"--templates: {error}") from None
        found = {name: getattr(self, name) if name in remote else local[name] for name in ("parser", "encoder")}
        if "model" not in remote:       # remote paths stay as given: each worker copies them (local_model_path)
            found["model"] = str(models.paraphraser.path)
            found["parse_generator"] = str(models.parse_generator.path) if models.parse_generator else None
        if "fusion_model" not in remote:
            found["fusion_model"] = str(models.fusion.path) if models.fusion else None
        return ParaphraseRun(dataclasses.replace(self, **found), templates)


# key -> the post-filter guard (its reason, postfilter.GUARDS) that the key set to True turns off (`guard_switch`)
GUARD_KEYS = {spec.name: spec.metadata["guard"] for spec in dataclasses.fields(ParaphraseConfig)
              if "guard" in spec.metadata}


@dataclass(frozen=True)
class ParaphraseRun:
    """A paraphrasing run as `ParaphraseConfig.resolve` makes it: `settings`, a ParaphraseConfig whose model keys
    name the directories found (`model`, `parse_generator`, `fusion_model`, `parser`, `encoder`), and `templates`,
    the template requests chosen from `settings.templates` (SCPN; none for the plain task)."""
    settings: ParaphraseConfig
    templates: list[str]

    def record(self) -> dict:
        """What a run records of itself (OUT.parts/run.json, the corpus summary, adversarial's cache keys): every
        setting and, as `template_list`, the templates."""
        return {**dataclasses.asdict(self.settings), "template_list": list(self.templates)}
