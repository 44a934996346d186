"""Word-similarity evaluation of an encoder (SimLex-999, WS-353 all/sim/rel, SimVerb-3500, MEN; SPEC §8):
Spearman's rho between human ratings and cos(f(w1), f(w2)), f = the encoder applied to the word as a one-word
sentence (a `word` encoder: its word vector; a sentencepiece or trigram encoder: the mean of the word's units).

Benchmarks: every `*.txt` of a word-sim folder (but SOURCE*, README*, LICENSE*) in the `word1 TAB word2 TAB score` format (read by
paranmt.models.lexicon.simlex.read_word_pairs, the one reader of these files), named by the lowercased file stem
without its `EN-` prefix (`EN-SIMLEX-999.txt` -> `simlex-999`, `EN-WS-353-SIM.txt` -> `ws-353-sim`).
Coverage as the wordvectors.org scripts the files come from: a pair is covered when both words have at least one
unit the encoder knows (featurizer id != 0, the unknown id); `spearman` is over the covered pairs (what a model
with full coverage is judged on), `spearman_all` over all pairs with an uncovered pair ranked below every covered
one (simlex.evaluate), so a small vocabulary cannot look better by skipping hard pairs.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from paranmt.models.encoders.base import cosine_rows
from paranmt.models.evaluation.tables import write_result_file, write_results_csv
from paranmt.models.lexicon.simlex import evaluate as rank_correlations
from paranmt.models.lexicon.simlex import read_word_pairs


NOT_BENCHMARKS = ("SOURCE", "README", "LICENSE")


@dataclass
class WordSimResult:
    dataset: str
    n: int
    covered: int
    spearman: float | None
    spearman_all: float | None


def benchmark_name(path: Path) -> str:
    stem = path.stem.lower()
    return stem[3:] if stem.startswith("en-") else stem


def discover_benchmarks(folder: str | Path) -> dict[str, list[tuple[str, str, float]]]:
    """{name: [(w1, w2, score), ...]} for every benchmark file of `folder`, sorted by name."""
    folder = Path(folder)
    if not folder.is_dir():
        raise FileNotFoundError(f"word-similarity folder {folder} not found")
    files = [p for p in folder.glob("*.txt") if not p.name.upper().startswith(NOT_BENCHMARKS)]
    return {benchmark_name(p): read_word_pairs(p) for p in sorted(files, key=benchmark_name)}


def known_words(encoder, words: list[str]) -> np.ndarray:
    """bool [n]: the word has at least one unit the encoder knows (id != 0) in its featurizer (a combined encoder:
    its first part's)."""
    from paranmt.models.scoring.simile import encoder_units

    return np.array([any(i != 0 for i in ids) for ids in encoder_units(encoder).ids(words)], dtype=bool)


def evaluate_benchmark(encoder, name: str, pairs: list[tuple[str, str, float]]) -> WordSimResult:
    words = list(dict.fromkeys(w for w1, w2, _ in pairs for w in (w1, w2)))
    index = {w: i for i, w in enumerate(words)}
    vectors, known = encoder.encode(words), known_words(encoder, words)
    first = np.array([index[w1] for w1, _, _ in pairs])
    second = np.array([index[w2] for _, w2, _ in pairs])
    similarity = cosine_rows(vectors[first], vectors[second])
    covered = known[first] & known[second] & ~np.isnan(similarity)
    scores = {(w1, w2): float(s) for (w1, w2, _), s, c in zip(pairs, similarity, covered) if c}
    result = rank_correlations(scores, pairs)
    return WordSimResult(name, result["pairs"], result["covered"], result["rho_covered"], result["rho_all"])


def evaluate(encoder, folder: str | Path) -> list[WordSimResult]:
    return [evaluate_benchmark(encoder, name, pairs) for name, pairs in discover_benchmarks(folder).items()]


def write_results(results: list[WordSimResult], output: str | Path, title: str) -> None:
    """`results.csv` (dataset,n,spearman,covered,spearman_all; empty when undefined) and `summary.md` (x100)."""
    write_results_csv(output, ["dataset", "n", "spearman", "covered", "spearman_all"],
                      ([r.dataset, r.n, "" if r.spearman is None else r.spearman, r.covered,
                        "" if r.spearman_all is None else r.spearman_all] for r in results))

    def cell(value):
        return "–" if value is None else f"{100 * value:.1f}"

    lines = [f"# {title}", "", "Spearman rho x100 of cosine similarity against human ratings (covered pairs; all "
             "pairs with uncovered ones ranked lowest).", "",
             "| dataset | pairs | covered | Spearman | Spearman, all pairs |", "|---|---:|---:|---:|---:|"]
    lines += [f"| {r.dataset} | {r.n} | {r.covered} | {cell(r.spearman)} | {cell(r.spearman_all)} |"
              for r in results]
    write_result_file(Path(output) / "summary.md", "\n".join(lines) + "\n")
