"""`paranmt adversarial`: syntactically adversarial examples against a BiLSTM classifier, before and after
training on paraphrases (thesis §6.5, Table 62; models/adversarial/).

    paranmt adversarial --task sick-e --paraphraser assets [--output DIR] [--attack-rows 200] [--augment-rows 500]

1. train the task's BiLSTM classifier (Tai et al. 2015) on the training split; test accuracy on the test split;
2. paraphrase the first --attack-rows test examples (SICK-E: sentence A only): SCPN with 10 templates drawn from
   the top 20, and the baseline, the plain paraphraser's 10-best; broken share = correctly classified examples
   that some paraphrase makes wrong;
3. paraphrase the first --augment-rows training examples the same way, append them (original labels), retrain;
   test accuracy and broken share (same attack paraphrases) again.
Prints the before/after table; --output DIR also gets results.csv, results.md and the paraphrases
(DIR/paraphrases/*.jsonl, written as each is made: generation is the slow part on CPU). A DIR holding an earlier
run's results or paraphrases is refused unless `--resume` (finish a stopped run: its paraphrases of the same
settings are reused) or `--overwrite` (delete them first); one that is, holds or lies inside an input is refused;
Ctrl-C, SIGTERM or a full disk stop it in one line naming the --resume command when paraphrases are kept.
The data folder is ../shared/data beside the repository unless --data says otherwise.
Settings (AdversarialConfig): defaults <- `--config FILE.yaml` (the paraphrasers' settings under `paraphrase:`,
ParaphraseConfig's keys; the classifier's under `classifier:`, ClassifierConfig's, e.g. `classifier: {lr: 0.003}`)
<- flags (`--paraphraser` is paraphrase.model, `--dim` classifier.dim) <- `--set KEY=VALUE`.
"""
from __future__ import annotations

import dataclasses
import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

from paranmt.models.adversarial.classifier import ClassifierConfig
from paranmt.models.adversarial.experiment import CACHE, RESULTS
from paranmt.models.adversarial.tasks import TASKS
from paranmt.models.generation.config import DEFAULT_MODELS, ParaphraseConfig
from paranmt.pipelines.runtime import outputs
from paranmt.pipelines.runtime.arguments import check_generator_section
from paranmt.pipelines.runtime.command import Command, RunFolder, RunLayout
from paranmt.schemas.config import Config, bounded, check_ranges, choice, setting
from paranmt.schemas.errors import ConfigError
from paranmt.schemas.paths import PROJECT_ROOT, asset_path

LOG = logging.getLogger(__name__)
DEFAULT_DATA = PROJECT_ROOT.parent / "shared" / "data"


def held_output(output: Path) -> tuple[str | None, bool]:
    """What `output` holds of an earlier run, for the output contract (pipelines/runtime/outputs.py `claim`): a
    description, and whether --resume has something to do (cached paraphrases and no results yet)."""
    cached = sorted((output / CACHE).glob("*.jsonl")) if (output / CACHE).is_dir() else []
    if any((output / name).exists() for name in RESULTS):
        return "the results of an earlier run", False
    if cached:
        return (f"the cached paraphrases of a run that stopped before its end ({len(cached)} file(s) in "
                f"{output / CACHE})"), True
    return None, False


class AttackLayout(RunLayout):
    """`--output` (none: nothing is written there): the results, written at the end, and the paraphrases cached as
    they are made, which --resume reuses; a stop removes the results written so far (an incomplete set; each
    file's temporary is removed by its writer, models/evaluation/tables.py `write_result_file`)."""

    def __init__(self, config: "AdversarialConfig", args):
        self.directory = config.output
        self.output = Path(config.output) if config.output else None

    def claim(self, resume: bool, overwrite: bool) -> None:
        if self.output is None:
            if resume or overwrite:
                raise ConfigError("--resume and --overwrite are about --output; give it")
            return
        super().claim(resume, overwrite)

    def held(self) -> tuple[str | None, bool]:
        return held_output(self.output)

    def replaced(self) -> list[Path]:
        return [*(self.output / name for name in RESULTS), self.output / CACHE]

    def cached(self) -> int:
        """How many files of paraphrases are cached."""
        return len(list((self.output / CACHE).glob("*.jsonl"))) if self.output and (self.output / CACHE).is_dir() \
            else 0

    def status(self) -> str:
        return "no results were written" + (f"; {self.cached()} file(s) of paraphrases are kept in "
                                            f"{self.output / CACHE}" if self.cached() else "")

    def resumable(self) -> bool:
        return bool(self.cached())

    def cleanup(self) -> None:
        if self.output:
            outputs.remove_paths(outputs.left_in(str(self.output), RESULTS))


@dataclass
class AttackParaphrasers(ParaphraseConfig):
    """The paraphrasers of `paranmt adversarial` (its section `paraphrase:`): a ParaphraseConfig whose models
    (`--paraphraser`) include the plain baseline, whose n-best is the baseline's hypotheses per example."""
    HELP: ClassVar[dict[str, str]] = {"templates": "template pool (default: the model's top 20; see `paraphrase`)"}
    model: str = setting(DEFAULT_MODELS, flag={"name": "--paraphraser"}, help="directory of paraphraser models (scpn "
                         "+ parse generator, and plain for the baseline)")
    n_best: int = bounded(10, 1, help="plain baseline: hypotheses per example")


@dataclass
class AdversarialConfig(Config):
    """The settings of `paranmt adversarial`: the keys of `--config FILE.yaml` (the paraphrasers' under
    `paraphrase:`, a ParaphraseConfig whose n_best is the plain baseline's; the victim's under `classifier:`, a
    ClassifierConfig), the flags (one per field and per field of the sections: `--paraphraser` is paraphrase.model,
    `--dim` classifier.dim) and `--set`. The classifier's seed and device follow `seed` and paraphrase.device (--seed, --device)."""
    RUN_FIELDS: ClassVar[tuple[str, ...]] = ("data", "output")
    task: str = choice("", TASKS, help="the classification task, sick-e or mr")
    data: str = setting(str(DEFAULT_DATA), help="the shared data folder (sts/, transfer/)")
    output: str | None = setting(None, help="directory for results.csv, results.md, samples and cached paraphrases")
    train_rows: int = bounded(0, 0, help="training examples (0 = all)")
    test_rows: int = bounded(0, 0, help="test examples for accuracy (0 = all)")
    attack_rows: int = bounded(200, 1, help="test examples attacked")
    augment_rows: int = bounded(500, 0, help="training examples paraphrased for augmentation (0 = none)")
    templates_per_example: int = bounded(10, 1, help="SCPN templates drawn per example")
    no_filter: bool = setting(False, flag={"action": "store_true"}, help="use paraphrases without the post-filter")
    seed: int = setting(1, help="seed of the classifier and of the templates drawn")
    paraphrase: AttackParaphrasers = field(default_factory=AttackParaphrasers)
    classifier: ClassifierConfig = field(default_factory=lambda: ClassifierConfig(epochs=3))

    def validate(self) -> "AdversarialConfig":
        check_ranges(self)
        check_generator_section(self.paraphrase)
        for name, value in (("seed", self.seed), ("device", self.paraphrase.device)):
            if getattr(self.classifier, name) not in (getattr(ClassifierConfig, name), value):
                raise ConfigError(f"classifier.{name} follows {'seed' if name == 'seed' else 'paraphrase.device'}; "
                                  f"set that instead")
            setattr(self.classifier, name, value)
        self.classifier.validate("classifier.")
        return self

    def methods(self, local_copy) -> dict:
        """The ParaphraseRun of each method: scpn (one paraphrase per template) and, when the models
        hold a plain paraphraser, plain (its n-best list)."""
        from paranmt.models.generation.models import ModelSetError, find_models

        section = self.paraphrase
        methods = {"scpn": dataclasses.replace(section, n_best=1).resolve(local_copy)}
        try:
            find_models(asset_path(section.model), "plain", section.arch)
            methods["plain"] = dataclasses.replace(section, task="plain", parse_generator=None, templates=None,
                                                   beam=max(section.beam, section.n_best)).resolve(local_copy)
        except ModelSetError as error:
            LOG.warning("no plain baseline: %s", error)
        return methods


def check(c: AdversarialConfig, args) -> None:
    """The task's data read and the paraphrasers resolved before the output is claimed, for `run` as
    `args.task_data` and `args.methods`."""
    from paranmt.models.adversarial.tasks import load_task
    from paranmt.models.evaluation.transfer import TransferDataError
    from paranmt.transforms.io.model_cache import local_model_path

    try:
        args.task_data = load_task(c.task, c.data)
    except TransferDataError as error:
        raise ConfigError(str(error)) from None
    args.methods = c.methods(local_model_path)


def run(c: AdversarialConfig, args) -> int:
    from paranmt.models.adversarial.experiment import Experiment

    print(Experiment(c, args.task_data, Path(c.output) if c.output else None).run(args.methods))
    return 0


COMMAND = Command("adversarial", AdversarialConfig, run, help="syntactically adversarial examples against a BiLSTM "
                  "classifier, before and after paraphrase augmentation", description=__doc__.split("\n\n")[0],
                  required=("task",), sections=("paraphrase", "classifier"), example="classifier.lr=0.003",
                  inputs=("data", "paraphrase.model", "paraphrase.parse_generator", "paraphrase.parser",
                          "paraphrase.encoder"), check=check,
                  output=RunFolder(AttackLayout, "replace the results and cached paraphrases of an earlier run in "
                                   "--output (without --resume or --overwrite, an --output holding them is refused)",
                                   "finish a run that stopped, reusing the paraphrases it cached in DIR/paraphrases/ "
                                   "(refused when there are none)"))
