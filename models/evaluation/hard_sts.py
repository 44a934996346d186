"""Hard STS (thesis §5.6): the STS pairs whose surface overlap disagrees with their gold score.

Symmetric word error rate of two sentences, over lowercased Moses tokens (`paranmt.models.text.tokenize`):

    WER(h, r) = edit_distance(h, r) / |r|        (word-level Levenshtein: substitutions, insertions, deletions)
    SWER(a, b) = ½ WER(a, b) + ½ WER(b, a)        (0 for identical token lists; 1 for a one-word-to-empty edit)

An empty side gives WER = 0 when both sides are empty, else 1 per direction that divides by an empty reference.
Pairs are pooled over the given datasets (`paranmt eval --hard`: the STS 2012-2016 test years found); with
`fraction` = 0.2 (the thesis' 20% extremes):

- **Hard+**: SWER in the top `fraction` of the pool (little word overlap) and gold in the top band
  [4, 5] — paraphrases that do not look alike;
- **Hard−**: SWER in the bottom `fraction` of the pool (much word overlap) and gold in the bottom band
  [0, 1] — unrelated meanings that look alike.

The gold bands are for the 0-5 SemEval scale. The thesis' text and its Table 47 name the two subsets the other way
round (SPEC §10, AMBIG); the names here follow Table 47: "+" = the gold score is high. Each subset is scored like
any STS dataset (Pearson of cosine against gold), so the numbers are comparable across encoders, not to the other
datasets' (the gold range is narrow by construction).
"""
from __future__ import annotations

import numpy as np

from paranmt.models.evaluation.sts import STSDataset
from paranmt.models.text.tokenize import lowercase_tokens

HIGH_GOLD = (4.0, 5.0)
LOW_GOLD = (0.0, 1.0)


def edit_distance(a: tuple[str, ...], b: tuple[str, ...]) -> int:
    """Word-level Levenshtein distance (unit costs), O(|a| |b|) time, O(|b|) memory."""
    previous = list(range(len(b) + 1))
    for i, token in enumerate(a, 1):
        current = [i]
        for j, other in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (token != other)))
        previous = current
    return previous[-1]


def word_error_rate(hypothesis: tuple[str, ...], reference: tuple[str, ...]) -> float:
    if not reference:
        return 0.0 if not hypothesis else 1.0
    return edit_distance(hypothesis, reference) / len(reference)


def swer(a: str, b: str) -> float:
    """Symmetric word error rate of two sentences (module docstring)."""
    ta, tb = lowercase_tokens(a), lowercase_tokens(b)
    return 0.5 * word_error_rate(ta, tb) + 0.5 * word_error_rate(tb, ta)


def hard_subsets(datasets: list[STSDataset], fraction: float = 0.2, group: str = "hard") -> list[STSDataset]:
    """The Hard+ and Hard− datasets (module docstring) of the pooled pairs of `datasets`; a subset with fewer
    than 3 pairs (no defined correlation) is left out."""
    if not 0 < fraction < 0.5:
        raise ValueError(f"fraction must be in (0, 0.5), got {fraction}")
    s1 = [s for d in datasets for s in d.s1]
    s2 = [s for d in datasets for s in d.s2]
    gold = np.concatenate([d.gold for d in datasets]) if datasets else np.zeros(0)
    if not len(gold):
        return []
    rates = np.array([swer(a, b) for a, b in zip(s1, s2)])
    high, low = np.quantile(rates, 1 - fraction), np.quantile(rates, fraction)
    subsets = []
    for name, keep in (("Hard+", (rates >= high) & (gold >= HIGH_GOLD[0]) & (gold <= HIGH_GOLD[1])),
                       ("Hard-", (rates <= low) & (gold >= LOW_GOLD[0]) & (gold <= LOW_GOLD[1]))):
        index = np.flatnonzero(keep)
        if len(index) >= 3:
            subsets.append(STSDataset(f"{group}/{name}", group, [s1[i] for i in index], [s2[i] for i in index],
                                      gold[index]))
    return subsets
