"""Word-similarity evaluation of a lexicon: Spearman's rho between lexicon scores and human ratings (SimLex-999,
format `word1 TAB word2 TAB score`, lowercased; ../shared/data/word-sim/EN-SIMLEX-999.txt).

A benchmark pair is covered when the lexicon has a score for (w1, w2) or (w2, w1) (the lexicon is symmetric, the
two agree). Two numbers, because a small corpus covers few pairs:
    rho_covered = Spearman over the covered pairs only (what a lexicon with full coverage would be judged on)
    rho_all     = Spearman over all pairs, an uncovered pair scored below every covered one (ties among them)
"""
from __future__ import annotations

from pathlib import Path

from scipy.stats import spearmanr

from paranmt.models.files import DataFileError, read_text


def read_word_pairs(path: str | Path) -> list[tuple[str, str, float]]:
    """(word1, word2, rating) of each non-blank line; DataFileError naming the file (and line) when it cannot be
    read, is not UTF-8, holds no pair or a line is not `word1 TAB word2 TAB score`."""
    pairs = []
    for number, line in enumerate(read_text(path, "word-similarity file").splitlines(), 1):
        if not line.strip():
            continue
        fields = line.split("\t")
        try:
            pairs.append((fields[0].lower(), fields[1].lower(), float(fields[2])))
        except (IndexError, ValueError):
            raise DataFileError(f"{path}:{number}: expected word1 TAB word2 TAB score, got {line[:80]!r}") from None
    if not pairs:
        raise DataFileError(f"{path}: no word pairs (an empty file?)")
    return pairs


def evaluate(scores: dict[tuple[str, str], float], pairs: list[tuple[str, str, float]]) -> dict:
    """{pairs, covered, rho_covered, rho_all} (rho None when fewer than 3 pairs or a constant side)."""
    gold_covered, predicted_covered, gold_all, predicted_all = [], [], [], []
    covered_scores = [s for (w1, w2, _) in pairs for s in [scores.get((w1, w2), scores.get((w2, w1)))]
                      if s is not None]
    floor = (min(covered_scores) - 1.0) if covered_scores else 0.0
    for w1, w2, gold in pairs:
        score = scores.get((w1, w2), scores.get((w2, w1)))
        gold_all.append(gold)
        predicted_all.append(floor if score is None else score)
        if score is not None:
            gold_covered.append(gold)
            predicted_covered.append(score)

    def rho(a, b):
        if len(a) < 3 or len(set(a)) < 2 or len(set(b)) < 2:
            return None
        return float(spearmanr(a, b).statistic)

    return {"pairs": len(pairs), "covered": len(gold_covered), "rho_covered": rho(gold_covered, predicted_covered),
            "rho_all": rho(gold_all, predicted_all)}
