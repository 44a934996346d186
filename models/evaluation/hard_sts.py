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

**The difficulty splits of the thesis' Table 49** (§5.6.3-5.6.4, SPEC §12.7; `difficulty_splits`), each a dataset
`hard/<name>` scored like any STS dataset. Pool: the pairs of the given datasets with exact duplicates removed (the
same s1 and s2, in that order; the first occurrence's gold is kept: the thesis pools "all unique pairs", n 13,023
for STS 2012-2016). Percentiles of SWER are taken over that pool; "bottom p" = SWER <= the pool's p-quantile, "top p"
= SWER >= its (1 - p)-quantile (ties at the cut all go in); gold bands are closed intervals of the 0-5 scale.

- `all`: the whole pool;
- `negation`: exactly one of the two sentences is negated (`is_negated`, below);
- `swer-bottom20-gold0-2`: bottom 20% SWER, gold in [0, 2] (look alike, mean different: hard);
- `swer-bottom10-gold0-1`: bottom 10% SWER, gold in [0, 1] (Hard-'s rule at `fraction` 0.1, on the unique pool);
- `swer-top20-gold3-5`: top 20% SWER, gold in [3, 5] (look different, mean alike: hard);
- `swer-top10-gold4-5`: top 10% SWER, gold in [4, 5] (Hard+'s rule at `fraction` 0.1, on the unique pool);
- `easy-swer-top20-gold0-2`: top 20% SWER, gold in [0, 2] (look different, mean different: easy);
- `easy-swer-bottom20-gold3-5`: bottom 20% SWER, gold in [3, 5] (look alike, mean alike: easy).

Decisions on the table's AMBIGs (SPEC §12.7): the two "easy" rows say "WER"; they use SWER like the others (SWER is
the symmetric form of the same rate, and the only one whose percentiles do not depend on which sentence is first).
Negation (`negation` = "tokens", the default): a sentence is negated when one of its lowercased Moses tokens is in
NEGATION_TOKENS ("not", "cannot": the words holding the thesis' "not"; "never", "no" are not, as the thesis names
only "not" and "'t") or ends in "'t" (Moses splits "don't" into "don" + "'t") or "n't" (other tokenizers' split);
`negation` = "substring" reads the thesis literally: the lowercased sentence contains "not" or "'t" anywhere (so
also "nothing", "another"). The splits themselves are the table DIFFICULTY_SPLITS (name, SWER side, share, gold
band): another split is one more row there.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from paranmt.models.evaluation.sts import STSDataset
from paranmt.models.text.tokenize import lowercase_tokens

HIGH_GOLD = (4.0, 5.0)
LOW_GOLD = (0.0, 1.0)


def edit_distance(a: tuple[str, ...], b: tuple[str, ...]) -> int:
    """Word-level Levenshtein distance (unit costs, so symmetric in `a` and `b`), O(|a| |b|) time, O(|b|) memory;
    the common leading and trailing tokens, which an optimal alignment matches at no cost, are skipped first."""
    start = 0
    while start < len(a) and start < len(b) and a[start] == b[start]:
        start += 1
    end_a, end_b = len(a), len(b)
    while end_a > start and end_b > start and a[end_a - 1] == b[end_b - 1]:
        end_a, end_b = end_a - 1, end_b - 1
    a, b = a[start:end_a], b[start:end_b]
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


def token_swer(ta: tuple[str, ...], tb: tuple[str, ...]) -> float:
    """Symmetric word error rate of two token tuples; the distance is computed once (it is symmetric)."""
    if not ta or not tb:
        return 0.5 * word_error_rate(ta, tb) + 0.5 * word_error_rate(tb, ta)
    distance = edit_distance(ta, tb)
    return 0.5 * distance / len(tb) + 0.5 * distance / len(ta)


def swer(a: str, b: str) -> float:
    """Symmetric word error rate of two sentences (module docstring)."""
    return token_swer(lowercase_tokens(a), lowercase_tokens(b))


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


NEGATION_TOKENS = frozenset({"not", "cannot"})
NEGATION_SUFFIXES = ("'t", "n't")
NEGATION_SUBSTRINGS = ("not", "'t")
NEGATION_RULES = ("tokens", "substring")


@dataclass(frozen=True)
class DifficultySplit:
    """One SWER-by-gold split of Table 49: the pairs in the `side` ("bottom" or "top") `share` of the pooled SWER
    distribution whose gold lies in `gold` (closed interval)."""
    name: str
    side: str
    share: float
    gold: tuple[float, float]


DIFFICULTY_SPLITS = (
    DifficultySplit("swer-bottom20-gold0-2", "bottom", 0.2, (0.0, 2.0)),
    DifficultySplit("swer-bottom10-gold0-1", "bottom", 0.1, (0.0, 1.0)),
    DifficultySplit("swer-top20-gold3-5", "top", 0.2, (3.0, 5.0)),
    DifficultySplit("swer-top10-gold4-5", "top", 0.1, (4.0, 5.0)),
    DifficultySplit("easy-swer-top20-gold0-2", "top", 0.2, (0.0, 2.0)),
    DifficultySplit("easy-swer-bottom20-gold3-5", "bottom", 0.2, (3.0, 5.0)),
)


def is_negated(sentence: str, rule: str = "tokens") -> bool:
    """Whether `sentence` carries a negation under `rule` ("tokens" or "substring"; module docstring)."""
    if rule == "substring":
        lowered = sentence.lower()
        return any(marker in lowered for marker in NEGATION_SUBSTRINGS)
    if rule != "tokens":
        raise ValueError(f"negation rule must be one of {', '.join(NEGATION_RULES)}, not {rule!r}")
    return negated_tokens(lowercase_tokens(sentence))


def negated_tokens(tokens: tuple[str, ...]) -> bool:
    """Whether lowercased Moses `tokens` carry a negation under the "tokens" rule (module docstring)."""
    return any(token in NEGATION_TOKENS or token.endswith(NEGATION_SUFFIXES) for token in tokens)


def unique_pairs(datasets: list[STSDataset]) -> tuple[list[str], list[str], np.ndarray]:
    """s1, s2 and gold of the pooled pairs of `datasets`, each (s1, s2) once (its first occurrence)."""
    first: dict[tuple[str, str], float] = {}
    for dataset in datasets:
        for a, b, score in zip(dataset.s1, dataset.s2, dataset.gold):
            first.setdefault((a, b), float(score))
    return [a for a, _ in first], [b for _, b in first], np.array(list(first.values()), dtype=np.float64)


def difficulty_splits(datasets: list[STSDataset], negation: str = "tokens", splits=DIFFICULTY_SPLITS,
                      group: str = "hard") -> list[STSDataset]:
    """Table 49's datasets (module docstring) of the unique pooled pairs of `datasets`: `all`, `negation`, then
    `splits` in order; a split with fewer than 3 pairs (no defined correlation) is left out."""
    s1, s2, gold = unique_pairs(datasets)
    if not len(gold):
        return []
    tokens = {sentence: lowercase_tokens(sentence) for sentence in {*s1, *s2}}   # each sentence tokenized once
    rates = np.array([token_swer(tokens[a], tokens[b]) for a, b in zip(s1, s2)])
    if negation == "tokens":
        negated = {sentence: negated_tokens(words) for sentence, words in tokens.items()}
    else:
        negated = {sentence: is_negated(sentence, negation) for sentence in tokens}
    negated = np.array([negated[a] != negated[b] for a, b in zip(s1, s2)], dtype=bool)
    chosen = [("all", np.ones(len(gold), dtype=bool)), ("negation", negated)]
    for split in splits:
        if split.side == "bottom":
            extreme = rates <= np.quantile(rates, split.share)
        else:
            extreme = rates >= np.quantile(rates, 1 - split.share)
        chosen.append((split.name, extreme & (gold >= split.gold[0]) & (gold <= split.gold[1])))
    subsets = []
    for name, keep in chosen:
        index = np.flatnonzero(keep)
        if len(index) >= 3:
            subsets.append(STSDataset(f"{group}/{name}", group, [s1[i] for i in index], [s2[i] for i in index],
                                      gold[index]))
    return subsets
