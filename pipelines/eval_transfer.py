"""`paranmt eval-transfer`: SentEval-style transfer evaluation of a saved encoder (frozen embeddings, logistic-
regression probes; paranmt.models.evaluation.transfer has the protocol): MR, CR, SUBJ (K-fold cross-validation),
SICK-E (train/trial/test), MRPC (train/val; accuracy and F1). `--data-dir` is a folder laid out like ../shared/data
(`transfer/*.tsv`, `sts/SICK/`). Writes `results.csv` (model,task,metric,value; fractions) and `summary.md` (x100)
into `--output`, with the bag-of-words baseline and a random encoder of the same architecture as further models.
An --output holding the results of an earlier run is refused unless `--overwrite`; one that is, holds or lies
inside an input is refused; Ctrl-C, SIGTERM or a full disk stop it in one line naming the rerun, leaving no
results file. Settings (TransferConfig): defaults <- `--config FILE.yaml` (keys: the flags' names with
underscores) <- flags <- `--set KEY=VALUE`.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from paranmt.models.evaluation.transfer import DEFAULT_TASKS, TASKS, TransferProbeConfig
from paranmt.pipelines.runtime.arguments import EVALUATION_REQUIRED, EvaluationConfig
from paranmt.pipelines.runtime.command import Command, ResultsFolder
from paranmt.schemas.config import bounded, setting
from paranmt.schemas.errors import ConfigError

log = logging.getLogger(__name__)
RESULTS = ("results.csv", "summary.md")
BASELINES = ("bag-of-words", "random")


@dataclass
class TransferConfig(EvaluationConfig, TransferProbeConfig):
    """The settings of `paranmt eval-transfer` (EvaluationConfig's and the probes': TransferProbeConfig, folds,
    inner_folds, c_grid, limit, seed, max_iter): the keys of `--config FILE.yaml`, the flags (one per field) and
    `--set`."""
    HELP: ClassVar[dict[str, str]] = {"data_dir": "folder laid out like ../shared/data (transfer/, sts/SICK/)"}
    tasks: list[str] = setting(default_factory=lambda: list(DEFAULT_TASKS), help=f"tasks, of {' '.join(TASKS)}")
    baselines: list[str] = setting(default_factory=lambda: list(BASELINES), choices=BASELINES, flag={"nargs": "*"},
                                   help="baseline models added as rows (none: --baselines alone)")
    name: str | None = setting(None, help="the model's name in the table (default: the directory name)")
    batch_size: int = bounded(1024, 1, help="sentences per encoder call")

    def validate(self) -> "TransferConfig":
        EvaluationConfig.validate(self)
        TransferProbeConfig.validate(self)
        unknown = sorted(set(self.tasks) - set(TASKS))
        if unknown:
            raise ConfigError(f"unknown task(s) {', '.join(unknown)}; choose from {', '.join(TASKS)}")
        return self


def check(c: TransferConfig, args) -> None:
    if not Path(c.data_dir).is_dir():
        raise ConfigError(f"--data-dir {c.data_dir} is not a directory")


def run(c: TransferConfig, args) -> int:
    from paranmt.models.encoders import open_encoder
    from paranmt.models.encoders.base import random_copy
    from paranmt.models.evaluation.transfer import TransferDataError, evaluate, load_task, write_results

    try:
        tasks = [load_task(name, c.data_dir) for name in c.tasks]
    except TransferDataError as error:
        raise ConfigError(str(error)) from None
    encoder = open_encoder(c.model, c.threads)
    name = c.name or Path(c.model).name
    models = {name: lambda s: encoder.encode(s, c.batch_size)}
    if "random" in c.baselines:
        randomized = random_copy(encoder, c.seed)
        models[f"random {name}"] = lambda s: randomized.encode(s, c.batch_size)
    if "bag-of-words" in c.baselines:
        models["bag-of-words"] = None
    results = evaluate(models, tasks, c)
    write_results(results, c.output, f"Transfer tasks: {c.model}")
    print(f"wrote {Path(c.output) / 'results.csv'} and summary.md")
    return 0


COMMAND = Command("eval-transfer", TransferConfig, run, help="SentEval-style transfer tasks (MR, CR, SUBJ, SICK-E, "
                  "MRPC) with logistic-regression probes on frozen embeddings", description=__doc__,
                  inputs=("model", "data_dir"), output=ResultsFolder(RESULTS), required=EVALUATION_REQUIRED,
                  check=check, example="folds=5")
