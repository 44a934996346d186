"""The settings of a paraphrasing run: `ParaphraseConfig`, what `paranmt paraphrase`, `eval-paraphraser` and
`adversarial` fill from their flags, check and resolve (`resolve`) before any model is loaded, and what the Beam
stage (transforms/paraphrase.py) pickles; `pipeline.open_pipeline` makes a ParaphrasePipeline of it."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from paranmt.models.generation import RERANK
from paranmt.schemas.build_config import ParseConfig, ScoreConfig
from paranmt.schemas.config import DEVICES, check_choice
from paranmt.schemas.errors import ConfigError
from paranmt.schemas.paths import asset_path, is_remote

DEFAULT_MODELS = "assets"           # the shipped demo models (a directory of models: models.find_models)


@dataclass
class ParaphraseConfig:
    """Everything a paraphrasing run needs besides its input and output (also what the Beam stage pickles)."""
    model: str = DEFAULT_MODELS
    task: str = "scpn"
    arch: str | None = None
    parse_generator: str | None = None
    templates: str | None = None
    parser: str = ParseConfig.model_dir
    max_tokens: int = ParseConfig.max_tokens
    encoder: str = ScoreConfig.encoder
    min_overlap: float = 0.5
    min_similarity: float = 0.7
    keep_copies: bool = False               # post-filter guards (models/generation/postfilter.py): off with True
    keep_repeats: bool = False
    beam: int = 4
    n_best: int = 1
    rerank: str = "template"                # score | template | simile (models/generation/pipeline.py; the
                                            # default measured in docs/paraphrase.md, Decoding guards)
    no_repeat_ngram: int = 0                # > 0: no repeated n-gram of output units in beam search
    batch_size: int = 32
    device: str = "auto"
    threads: int = 0
    template_list: list[str] = field(default_factory=list)     # resolved by `resolve`

    def resolve(self, local_copy: Callable[[str], str] | None = None) -> ParaphraseConfig:
        """Check the settings and the model directories and resolve the templates (ConfigError before any
        work). Loads no model weights. A model on a remote filesystem (gs://) is checked on the local copy that
        `local_copy(url)` makes (the commands pass transforms/io/model_cache.local_model_path; the launcher needs
        read access) and kept as its remote path for the workers; without `local_copy` it is a ConfigError."""
        from paranmt.models.generation.models import ModelSetError, find_models
        from paranmt.models.generation.paraphraser import read_templates
        from paranmt.models.generation.templates import TemplateError, choose_templates
        from paranmt.models.parsing.parser import ParserModelError, model_files

        if not 1 <= self.n_best <= self.beam:
            raise ConfigError(f"need 1 <= --n-best <= --beam, got --n-best {self.n_best} --beam {self.beam}")
        if self.rerank not in RERANK:
            raise ConfigError(f"--rerank must be one of {', '.join(RERANK)}, not {self.rerank!r}")
        if self.no_repeat_ngram < 0:
            raise ConfigError(f"--no-repeat-ngram must be >= 0 (0: off), not {self.no_repeat_ngram}")
        check_choice("--device", self.device, DEVICES)
        for name in ("min_overlap", "min_similarity"):
            if not -1 <= getattr(self, name) <= 1:
                raise ConfigError(f"--{name.replace('_', '-')} must be in [-1, 1], not {getattr(self, name)}")
        remote = [name for name in ("model", "parse_generator", "parser", "encoder")
                  if getattr(self, name) and is_remote(getattr(self, name))]
        if remote and ("model" in remote) != ("parse_generator" in remote or self.task != "scpn"):
            raise ConfigError("a model on a remote filesystem needs --parse-generator there too (a directory of "
                              "models is found by listing, which only local paths get)")
        if remote and local_copy is None:
            raise ConfigError(f"--{remote[0].replace('_', '-')} {getattr(self, remote[0])}: a model on a remote "
                              "filesystem needs a local copy to be checked (transforms/io/model_cache.py)")
        local = {name: local_copy(getattr(self, name)) if name in remote else asset_path(getattr(self, name))
                 for name in ("model", "parse_generator", "parser", "encoder") if getattr(self, name)}
        try:
            models = find_models(local["model"], self.task, self.arch, local.get("parse_generator"))
        except ModelSetError as error:
            raise ConfigError(str(error)) from None
        try:
            model_files(local["parser"])
        except ParserModelError as error:
            raise ConfigError(f"--parser: {error}") from None
        if not (Path(local["encoder"]) / "config.json").is_file():
            raise ConfigError(f"--encoder {self.encoder} is not an encoder directory (no config.json)")
        if self.task == "scpn":
            try:
                self.template_list = choose_templates(
                    self.templates, [t for t, _ in read_templates(models.paraphraser.path)])
            except TemplateError as error:
                raise ConfigError(f"--templates: {error}") from None
        if "model" not in remote:       # remote paths stay as given: each worker copies them (local_model_path)
            self.model = str(models.paraphraser.path)
            self.parse_generator = str(models.parse_generator.path) if models.parse_generator else None
        self.parser, self.encoder = (getattr(self, n) if n in remote else local[n] for n in ("parser", "encoder"))
        return self
