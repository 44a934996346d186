"""`paranmt eval`: STS evaluation of a saved encoder over every dataset found under `--sts-dir` (SemEval
STS.input/STS.gs pairs, STS Benchmark sts-*.csv, SICK); writes `results.csv` (dataset,n,pearson,spearman) and
`summary.md` (per-dataset table, STS year means and their mean) into `--output`. `--hard` adds, from the pooled pairs
of the STS 2012-2016 test years found (thesis §5.6; models/evaluation/hard_sts.py), the Hard+ / Hard− subsets of
Table 47 as datasets `hard/Hard+` and `hard/Hard-`, and the difficulty splits of Table 49 (`hard/all`,
`hard/negation`, `hard/swer-...`, `hard/easy-...`; `--hard-negation` chooses the negation rule).
An --output holding the results of an earlier run is refused unless `--overwrite`; one that is, holds or lies
inside an input is refused; Ctrl-C, SIGTERM or a full disk stop it in one line naming the rerun, leaving no results
file (each is written whole, at the end).

Settings (EvalConfig): defaults <- `--config FILE.yaml` (its keys: the flags' names with underscores, e.g.
`sts_dir: ../shared/data/sts`, `select: [sts-dev]`) <- flags <- `--set KEY=VALUE`."""
from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from paranmt.models.evaluation.hard_sts import NEGATION_RULES, difficulty_splits, hard_subsets
from paranmt.models.evaluation.sts import (YEAR_GROUP, describe_mean, discover_datasets, score_dataset,
                                          write_results, year_means)
from paranmt.pipelines.runtime.command import Command, ResultsFolder
from paranmt.schemas.config import Config, bounded, check_ranges, choice, setting
from paranmt.schemas.errors import ConfigError

RESULTS = ("results.csv", "summary.md")
log = logging.getLogger(__name__)


@dataclass
class EvalConfig(Config):
    """The settings of `paranmt eval`: the keys of `--config FILE.yaml`, the flags (one per field) and `--set`."""
    RUN_FIELDS: ClassVar[tuple[str, ...]] = ("model", "sts_dir", "output")
    model: str = setting("", help="encoder directory (config.json, weights.npz, ...)")
    sts_dir: str = setting("", help="root folder holding the STS datasets")
    output: str = setting("", help="directory for results.csv and summary.md")
    select: list[str] = setting(default_factory=list, help="only datasets whose name contains one of these strings")
    hard: bool = setting(False, flag={"action": "store_true"}, help="add the Hard+/Hard- subsets and Table 49's "
                         "difficulty splits (negation; symmetric WER extremes x gold bands) of STS 2012-2016")
    hard_fraction: float = bounded(0.2, 0, 0.5, open_low=True, open_high=True, help="share of the SWER distribution "
                                   "at each extreme of Hard+/Hard- (the thesis: 0.2)")
    hard_negation: str = choice("tokens", NEGATION_RULES, help="negation split: tokens ('not', 'cannot', ...'t) or "
                                "substring ('not' or \"'t\" anywhere)")
    batch_size: int = bounded(1024, 1, help="sentences per encoder call")
    threads: int = bounded(1, 1, help="torch CPU threads")

    def validate(self) -> "EvalConfig":
        check_ranges(self)
        return self


def check(config: EvalConfig, args) -> None:
    if not Path(config.sts_dir).is_dir():
        raise ConfigError(f"--sts-dir {config.sts_dir} is not a directory")


def run(config: EvalConfig, args) -> int:
    from paranmt.models.encoders import open_encoder

    datasets, skipped = discover_datasets(config.sts_dir, config.select)
    if not datasets:
        raise ConfigError(f"no STS datasets found under {config.sts_dir}")
    if config.hard:
        years = [d for d in discover_datasets(config.sts_dir)[0] if YEAR_GROUP.match(d.group)]
        if not years:
            raise ConfigError(f"--hard pools the test-year folders (STS<year>-test, sts<year>-english...); none "
                              f"found under {config.sts_dir}")
        datasets += hard_subsets(years, config.hard_fraction) + difficulty_splits(years, config.hard_negation)
    encoder = open_encoder(config.model, config.threads)
    results = [score_dataset(lambda s: encoder.encode(s, config.batch_size), d) for d in datasets]
    write_results(results, skipped, config.output, title=f"STS: {config.model}")
    for result in results:
        print(f"{result.dataset}\t{result.n}\t{100 * result.pearson:.1f}\t{100 * result.spearman:.1f}")
    means = year_means(results)
    for year, value in means.items():
        print(f"year mean {year}\t{100 * value:.1f}" if year != "mean" else
              f"{describe_mean(means)}\t{100 * value:.1f}")
    for reason in skipped:
        log.warning("skipped %s", reason)
    return 0


COMMAND = Command("eval", EvalConfig, run, help="STS evaluation of a sentence encoder", description=__doc__,
                  inputs=("model", "sts_dir"), output=ResultsFolder(RESULTS), required=("model", "sts_dir", "output"),
                  check=check, example="hard_fraction=0.1")
