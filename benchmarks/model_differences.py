"""Mean absolute Pearson difference between pairs of models over the STS datasets (ParaNMT-50M Table 10, thesis
Table 34), issue 44 item 3.

    python benchmarks/model_differences.py [--eval NAME=RESULTS_CSV ...] [--probe RESULTS_CSV ...] [--all-datasets]

Inputs are the per-dataset results the project writes: `--eval NAME=PATH`, the results.csv of `paranmt eval --output
DIR` (dataset,n,pearson,spearman; one model, named NAME), and `--probe PATH`, the results.csv of `paranmt probe`
(corpus,fold,model,pairs,dataset,pearson; one model per (corpus, fold, model), named by its model, with the corpus
and fold added when the file holds more than one, and the probe's folder name `[DIR]` when several are given). The
datasets are the STS test-year sets (`STS20xx-test/...`, the papers' 2012-2016 sets, whichever are there;
`--all-datasets`: every dataset of the results). Printed as Markdown: each model's mean Pearson over the datasets
(x100), then per pair of models the mean over their shared datasets of |r_a - r_b| (x100, models/evaluation/sts.py
`model_differences`), the difference of their means over those datasets (the part of the gap a uniform shift
explains: the mean absolute difference is never below it), the number of datasets and the one where they differ
most.
"""
from __future__ import annotations

import csv
import sys
from pathlib import Path

import numpy as np

from paranmt.models.evaluation.sts import model_differences, year_datasets
from paranmt.pipelines.cli import CommandLineParser, exit_code
from paranmt.schemas.errors import ConfigError

EVAL_HEADER = ("dataset", "n", "pearson", "spearman")


def existing(flag: str, path: str) -> Path:
    if not Path(path).is_file():
        raise ConfigError(f"{flag} {path} does not exist")
    return Path(path)


def eval_pearsons(spec: str) -> tuple[str, dict[str, float]]:
    """NAME and dataset -> r of `--eval NAME=PATH` (a `paranmt eval` results.csv)."""
    name, _, path = spec.partition("=")
    if not name or not path:
        raise ConfigError(f"--eval {spec}: give NAME=PATH (the results.csv of `paranmt eval`)")
    with existing("--eval", path).open(newline="") as handle:
        reader = csv.DictReader(handle)
        if tuple(reader.fieldnames or ()) != EVAL_HEADER:
            raise ConfigError(f"{path} is not a results.csv of `paranmt eval` (columns {reader.fieldnames}, "
                              f"expected {','.join(EVAL_HEADER)})")
        return name, {row["dataset"]: float(row["pearson"]) for row in reader}


def probe_pearsons(path: str, qualify: bool = False) -> dict[str, dict[str, float]]:
    """model -> dataset -> r of a `paranmt probe` results.csv (models named by kind, plus corpus/fold when the
    file holds several, plus the probe's folder name with `qualify`)."""
    from paranmt.models.training.probe import read_results         # imports the trainer (torch): only when needed

    rows = read_results(existing("--probe", path))
    runs = {(row["corpus"], row["fold"]) for row in rows}
    models: dict[str, dict[str, float]] = {}
    for row in rows:
        name = row["model"] if len(runs) == 1 else f"{row['model']} ({row['corpus']}, fold {row['fold']})"
        name = f"{name} [{Path(path).parent.name}]" if qualify else name
        models.setdefault(name, {})[row["dataset"]] = float(row["pearson"])
    return models


def main() -> None:
    parser = CommandLineParser(description=__doc__.splitlines()[0])
    parser.add_argument("--eval", nargs="+", default=[], metavar="NAME=RESULTS_CSV",
                        help="results.csv of `paranmt eval`, named")
    parser.add_argument("--probe", nargs="+", default=[], metavar="RESULTS_CSV", help="results.csv of `paranmt probe`")
    parser.add_argument("--all-datasets", action="store_true", help="every dataset, not only the STS test years")
    args = parser.parse_args()
    models: dict[str, dict[str, float]] = {}
    for path in args.probe:
        models.update(probe_pearsons(path, qualify=len(args.probe) > 1))
    models.update(eval_pearsons(spec) for spec in args.eval)
    if not args.all_datasets:
        models = {name: year_datasets(pearsons) for name, pearsons in models.items()}
    models = {name: pearsons for name, pearsons in models.items() if pearsons}
    if len(models) < 2:
        raise ConfigError("two models with STS test-year results are needed (give --eval / --probe; "
                          "--all-datasets counts every dataset)")
    print("| model | datasets | mean Pearson |")
    print("|---|---:|---:|")
    for name, pearsons in models.items():
        print(f"| {name} | {len(pearsons)} | {100 * np.mean(list(pearsons.values())):.1f} |")
    print("\n| models | mean abs. Pearson difference | difference of the means | datasets | largest on |")
    print("|---|---:|---:|---:|---|")
    for a, b, gap, count, widest in model_differences(models):
        shared = [d for d in models[a] if d in models[b]]
        shift = 100 * abs(np.mean([models[a][d] for d in shared]) - np.mean([models[b][d] for d in shared]))
        widest_gap = 100 * abs(models[a][widest] - models[b][widest])
        print(f"| {a} / {b} | {100 * gap:.2f} | {shift:.2f} | {count} | {widest} ({widest_gap:.1f}) |")


if __name__ == "__main__":
    sys.exit(exit_code(main))
