"""`paranmt eval-words`: word-similarity evaluation of a saved encoder (paranmt.models.evaluation.word_similarity):
Spearman's rho of cos(f(w1), f(w2)) against the human ratings of every benchmark in `<data-dir>/word-sim`
(SimLex-999, WS-353 all/sim/rel, SimVerb-3500, MEN in ../shared/data). Writes `results.csv`
(dataset,n,spearman,covered,spearman_all) and `summary.md` into `--output`.
An --output holding the results of an earlier run is refused unless `--overwrite`; one that is, holds or lies
inside an input is refused; Ctrl-C, SIGTERM or a full disk stop it in one line naming the rerun, leaving no
results file. Settings (WordSimilarityConfig: pipelines/runtime/arguments.py EvaluationConfig's): defaults <-
`--config FILE.yaml` (keys: model, data_dir, output, threads) <- flags <- `--set KEY=VALUE`.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from paranmt.pipelines.runtime.arguments import EVALUATION_REQUIRED, EvaluationConfig
from paranmt.pipelines.runtime.command import Command, ResultsFolder
from paranmt.schemas.errors import ConfigError

RESULTS = ("results.csv", "summary.md")


@dataclass
class WordSimilarityConfig(EvaluationConfig):
    """The settings of `paranmt eval-words`: EvaluationConfig's (model, data_dir, output, threads), the keys of
    `--config FILE.yaml`, the flags (one per field) and `--set`."""
    HELP: ClassVar[dict[str, str]] = {"data_dir": "folder laid out like ../shared/data (its word-sim/)"}


def check(c: WordSimilarityConfig, args) -> None:
    if not (Path(c.data_dir) / "word-sim").is_dir():
        raise ConfigError(f"--data-dir {c.data_dir} has no word-sim/ folder")


def run(c: WordSimilarityConfig, args) -> int:
    from paranmt.models.encoders import open_encoder
    from paranmt.models.evaluation.word_similarity import discover_benchmarks, evaluate, write_results

    folder = Path(c.data_dir) / "word-sim"
    try:
        if not discover_benchmarks(folder):
            raise ConfigError(f"no word-similarity benchmarks (*.txt) in {folder}")
    except ValueError as error:
        raise ConfigError(str(error)) from None
    encoder = open_encoder(c.model, c.threads)
    results = evaluate(encoder, folder)
    write_results(results, c.output, f"Word similarity: {c.model}")
    for r in results:
        rho = "-" if r.spearman is None else f"{100 * r.spearman:.1f}"
        print(f"{r.dataset}\t{r.n}\tcovered {r.covered}\tspearman {rho}")
    return 0


COMMAND = Command("eval-words", WordSimilarityConfig, run, help="word similarity (SimLex-999, WS-353, SimVerb-3500, "
                  "MEN) of an encoder: Spearman of the cosine", description=__doc__, inputs=("model", "data_dir"),
                  output=ResultsFolder(RESULTS), required=EVALUATION_REQUIRED, check=check, example="threads=2")
