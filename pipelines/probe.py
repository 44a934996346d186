"""`paranmt probe`: judge paraphrase corpora by the encoder each trains (ParaNMT-50M Tables 4-5).

    paranmt probe --input CORPUS [CORPUS ...] --output DIR --sts-dir DIR [--by COLUMN [--folds 10]]
                  [--pairs 100000] [--models KIND [KIND ...]] [--resume | --overwrite] [--config YAML] [--set KEY=VALUE ...]

A CORPUS is anything `paranmt train` reads (a shard directory, a Parquet corpus, a TSV of pairs, a Moses prefix).
For each corpus, or each fold of its ranking by COLUMN (`--by para_score --folds 10`: tenths, fold 0 lowest),
`--pairs` pairs are drawn (seeded) and one encoder of each `--models` kind is trained on them for one epoch of the
mega-batch trainer; each is scored on STS2017 en-en (`--datasets`). Writes DIR/results.csv
(corpus,fold,model,pairs,dataset,pearson), DIR/probe.png, DIR/probe_config.yaml and DIR/train_data.json (what
reading each corpus counted: its rejects are said on stderr, and `--max-reject-rate` stops the probe before any run,
exit 1, as in `paranmt train`); one line per run on stderr.
Settings: ProbeConfig defaults <- `--config YAML` <- flags <- `--set KEY=VALUE` (training settings as `--set
train.epochs=2`). models/training/probe.py has the details; docs/encoders.md the measured cost.

Output (docs/reliability.md, "Every command that writes"): an `--output` that is, holds or lies inside an input (a
corpus, `--sts-dir`) is refused; one holding an earlier probe's results.csv needs `--resume` (do the runs it lacks,
with the same settings) or `--overwrite` (delete its results.csv, probe.png, probe_config.yaml, train_data.json and
runs/ first).
Ctrl-C, SIGTERM or a full disk stop it with one line naming the `--resume` command (exit 130 / 143 / 1); the run cut
short is removed (the runs in results.csv are kept).
"""
from __future__ import annotations

from pathlib import Path

from paranmt.models.pairs import TRAIN_DATA, PairCounts
from paranmt.models.training.probe import RESULTS, ProbeConfig, read_results, run_name, run_probe
from paranmt.pipelines.runtime.command import Command, RunFolder, RunLayout
from paranmt.pipelines.runtime.outputs import remove_paths
from paranmt.pipelines.runtime.rejects import EXIT_REJECTS, over_reject_rate, report_rejects

WRITES = (RESULTS, "probe.png", "probe_config.yaml", "runs", TRAIN_DATA)      # what a probe writes into its output


def run(config: ProbeConfig, args) -> int:
    output = Path(config.output)

    def admit(counts: PairCounts) -> bool:
        report_rejects("probe", counts.rejects, counts.read, str(output / TRAIN_DATA))
        return not over_reject_rate("probe", counts.read - counts.kept, counts.read, args.max_reject_rate)

    return EXIT_REJECTS if run_probe(config, admit) is None else 0


class ProbeLayout(RunLayout):
    """A probe's output (module docstring): its results.csv holds the runs done; a stop removes the run cut short."""

    def __init__(self, config: ProbeConfig, args):
        self.directory, self.output = config.output, Path(config.output)

    def held(self) -> tuple[str | None, bool]:
        if not (self.output / RESULTS).is_file():
            return None, False
        return f"an earlier probe ({len(finished_runs(self.output))} run(s) in {RESULTS})", True

    def replaced(self) -> list[Path]:
        return [self.output / name for name in WRITES]

    def status(self) -> str:
        return f"{len(finished_runs(self.output))} run(s) are kept in {self.output / RESULTS}"

    def resumable(self) -> bool:
        return bool(finished_runs(self.output))

    def cleanup(self) -> None:
        remove_paths(unfinished_runs(self.output))


def finished_runs(output: Path) -> set[str]:
    """The run names (`run_name`) that the results.csv in `output` holds (none without one)."""
    results = output / RESULTS
    if not results.is_file():
        return set()
    return {run_name(row["corpus"], row["fold"], row["model"]) for row in read_results(results)}


def unfinished_runs(output: Path) -> list[Path]:
    """The run directories under `output/runs` of runs that results.csv does not hold: a run cut short."""
    finished = finished_runs(output)
    return [path for path in sorted((output / "runs").glob("*")) if path.name not in finished]


COMMAND = Command("probe", ProbeConfig, run, help="train small encoders on each corpus (or fold) and compare STS",
                  description=__doc__, rejects=True, example="train.epochs=2", inputs=("input", "sts_dir"),
                  output=RunFolder(ProbeLayout, "delete an earlier probe in --output first (without --resume or "
                                   "--overwrite, an --output holding one is refused)"))
