"""Cross-sentence PMI and adjusted PMI of word pairs (SPEC §4, T§4.9.1): a paraphrase lexicon from sentence pairs.

Words of a sentence: the set of lowercased Moses tokens made of letters (inner ' or - allowed): punctuation and
numbers are not lexicon words; each word type counts once per sentence.

Co-occurrence counts, each a joint count matrix #k(u, v) with marginals #k(u) = sum_v #k(u, v) and total
#k(., .) = sum_{u,v} #k(u, v):
    cross   k = x: u in ref and v in bt of the same pair, counted in both directions ((u, v) and (v, u)), so the
                   matrix is symmetric (paraphrase is a symmetric relation); u == v counts too (a word kept by the
                   translation is evidence of itself).
    within  k = r: u != v both in the same reference (both orders); k = t: the same within translations.
Within-sentence joint counts are only needed for the pairs that enter the lexicon, so the pipeline counts them in
a second pass restricted to those pairs (`within_pairs`).
PMI with add-alpha smoothing (alpha = 1 by default), so a pair never seen together gets a finite, low value:
    PMI_k(u, v) = ln( (#k(u, v) + alpha) * #k(., .) / ((#k(u) + alpha) * (#k(v) + alpha)) )
    PMI_cross   = PMI_x
    PMI_within  = (PMI_r + PMI_t) / 2           (computed on references and on translations separately, averaged)
    PMI_adj     = PMI_cross - PMI_within
Adjusted PMI discounts pairs that are merely topical (they co-occur within sentences as much as across them) and
favours words that replace each other across paraphrases. The lexicon keeps pairs u != v with #x(u, v) >=
min_count.
"""
from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterator

import regex

from paranmt.models.text.tokenize import tokenize

CROSS, WITHIN_REF, WITHIN_BT = "x", "r", "t"
KINDS = (CROSS, WITHIN_REF, WITHIN_BT)
LEXICON_WORD = regex.compile(r"^\p{L}+(?:['-]\p{L}+)*$")


def lexicon_words(sentence: str) -> list[str]:
    """Sorted distinct lexicon words of a sentence."""
    return sorted({token for token in tokenize(sentence.lower()) if LEXICON_WORD.match(token)})


def canonical(u: str, v: str) -> tuple[str, str]:
    return (u, v) if u <= v else (v, u)


class CooccurrenceCounter:
    """Cross counts of canonical pairs (a <= b; #x is symmetric, so #x(a, b) = #x(b, a) is stored once) plus the
    marginals and totals of all three kinds, computed directly per sentence pair without enumerating within pairs:
        #x(u) += |B| if u in R, += |R| if u in B        #x(., .) += 2 |R| |B|
        #r(u) += |R| - 1 if u in R                       #r(., .) += |R| (|R| - 1)      (same for t with B)
    for the word sets R of the reference and B of the translation. `drain()` hands the counts over and starts
    again (to bound memory)."""

    def __init__(self):
        self.cross: Counter = Counter()
        self.marginals: Counter = Counter()
        self.totals: Counter = Counter()

    def add_pair(self, ref: str | None, bt: str | None) -> None:
        if ref is None or bt is None:
            return
        ref_words, bt_words = lexicon_words(ref), lexicon_words(bt)
        self.cross.update(canonical(u, v) for u in ref_words for v in bt_words)
        for u in ref_words:
            self.marginals[CROSS, u] += len(bt_words)
            self.marginals[WITHIN_REF, u] += len(ref_words) - 1
        for v in bt_words:
            self.marginals[CROSS, v] += len(ref_words)
            self.marginals[WITHIN_BT, v] += len(bt_words) - 1
        self.totals[CROSS] += 2 * len(ref_words) * len(bt_words)
        self.totals[WITHIN_REF] += len(ref_words) * (len(ref_words) - 1)
        self.totals[WITHIN_BT] += len(bt_words) * (len(bt_words) - 1)

    def __len__(self) -> int:
        return len(self.cross) + len(self.marginals)

    def drain(self) -> tuple[Counter, Counter, Counter]:
        drained = self.cross, self.marginals, self.totals
        self.cross, self.marginals, self.totals = Counter(), Counter(), Counter()
        return drained


def within_pairs(words: list[str], wanted) -> Iterator[tuple[str, str]]:
    """Canonical pairs a < b of distinct words of one sentence (sorted `words`) that are in `wanted`."""
    for i, a in enumerate(words):
        for b in words[i + 1:]:
            if (a, b) in wanted:
                yield a, b


def pmi(joint: float, count_u: float, count_v: float, total: float, alpha: float = 1.0) -> float:
    """ln((joint + alpha) * total / ((count_u + alpha) * (count_v + alpha)))."""
    return math.log((joint + alpha) * total / ((count_u + alpha) * (count_v + alpha)))


def lexicon_entry(u: str, v: str, joints: dict[str, int], marginals: dict[tuple[str, str], int],
                  totals: dict[str, int], alpha: float = 1.0) -> dict:
    """The lexicon row of (u, v): `joints[kind]` = #kind(u, v), `marginals[(kind, word)]` = #kind(word),
    `totals[kind]` = #kind(., .)."""
    def pmi_of(kind: str) -> float:
        total = totals.get(kind, 0)
        if not total:
            return 0.0
        return pmi(joints.get(kind, 0), marginals.get((kind, u), 0), marginals.get((kind, v), 0), total, alpha)

    cross = pmi_of(CROSS)
    within = (pmi_of(WITHIN_REF) + pmi_of(WITHIN_BT)) / 2
    return {"u": u, "v": v, "cross_count": joints.get(CROSS, 0), "pmi_cross": cross, "pmi_within": within,
            "pmi_adj": cross - within}
