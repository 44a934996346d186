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

from paranmt.pipelines.runtime.arguments import (EVALUATION_REQUIRED, EvaluationConfig, add_config_command,
                                                 add_overwrite_flag, load_command_config)
from paranmt.pipelines.runtime.outputs import results_output
from paranmt.schemas.config import setting
from paranmt.schemas.errors import ConfigError

RESULTS = ("results.csv", "summary.md")


@dataclass
class WordSimilarityConfig(EvaluationConfig):
    """The settings of `paranmt eval-words`: EvaluationConfig's (model, data_dir, output, threads), the keys of
    `--config FILE.yaml`, the flags (one per field) and `--set`."""
    data_dir: str = setting("", help="folder laid out like ../shared/data (its word-sim/)")


def run(args) -> int:
    from paranmt.models.encoders import open_encoder
    from paranmt.models.evaluation.word_similarity import discover_benchmarks, evaluate, write_results

    c = load_command_config(WordSimilarityConfig, args, "eval-words config", required=EVALUATION_REQUIRED)
    folder = Path(c.data_dir) / "word-sim"
    if not folder.is_dir():
        raise ConfigError(f"--data-dir {c.data_dir} has no word-sim/ folder")
    with results_output(c.output, [c.model, c.data_dir], RESULTS, args.overwrite, getattr(args, "argv", None),
                        "eval-words"):
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


def register(subparsers) -> None:
    parser = add_config_command(subparsers, "eval-words", WordSimilarityConfig, run, example="threads=2",
                                help="word similarity (SimLex-999, WS-353, SimVerb-3500, MEN) of an encoder: "
                                "Spearman of the cosine", description=__doc__)
    add_overwrite_flag(parser, "the results.csv and summary.md")
