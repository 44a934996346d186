"""Diversity of a pair (schema v2 `unigram_f1`, `kendall_tau`): how much of the reference's wording and word order
the back-translation changed, the signals later paraphrase-generation work filters ParaNMT on.

Words: the sacremoses English tokens (escape=False), lowercased (as `trigram_overlap`), keeping only tokens with
a letter or digit (punctuation is shared by almost every pair and would inflate both measures).

    unigram_f1(ref, bt): multiset overlap of the two word bags,
        common = sum over words w of min(count_ref(w), count_bt(w))
        P = common / |bt|, R = common / |ref|, F1 = 2 P R / (P + R)    (0 when common = 0)     in [0, 1]
    kendall_tau(ref, bt): order of the shared words. The shared words are those occurring exactly once in ref and
        exactly once in bt (a word repeated on either side has no unambiguous counterpart and is left out); with
        their positions x_k in ref and y_k in bt, over all m (m-1) / 2 pairs k < l,
        tau = (concordant - discordant) / (m (m-1) / 2),  concordant: (x_k - x_l)(y_k - y_l) > 0     in [-1, 1]
        (positions are distinct, so there are no ties: this is Kendall's tau-a = tau-b). 1 = same order,
        -1 = reversed.
Null (None): unigram_f1 when a side has no words; kendall_tau when fewer than 2 words are shared (no order).
Examples: ("The cat sat on the mat.", "The cat sat.") -> common 3 (the, cat, sat), P = 3/3, R = 3/6, F1 = 2/3;
("He bought a car yesterday", "Yesterday he bought a car") -> F1 = 1, shared in ref order he, bought, a, car,
yesterday at bt positions 1, 2, 3, 4, 0: 6 concordant, 4 discordant pairs, tau = (6 - 4) / 10 = 0.2.
"""
from __future__ import annotations

from collections import Counter
from functools import lru_cache

import regex

from paranmt.models.text.tokenize import SENTENCE_CACHE_ENTRIES, lowercase_tokens

WORD = regex.compile(r"[\p{L}\p{N}]")


@lru_cache(maxsize=SENTENCE_CACHE_ENTRIES)
def words(sentence: str) -> tuple[str, ...]:
    """The lowercased tokens of `sentence` that contain a letter or a digit."""
    return tuple(token for token in lowercase_tokens(sentence) if WORD.search(token))


def unigram_f1(ref: str, bt: str) -> float | None:
    """Multiset unigram F1 of the words of ref and bt (module docstring); None when a side has no words."""
    a, b = words(ref), words(bt)
    if not a or not b:
        return None
    common = sum((Counter(a) & Counter(b)).values())
    return 2 * common / (len(a) + len(b))


def kendall_tau(ref: str, bt: str) -> float | None:
    """Kendall tau of the order of the words occurring once on each side; None when fewer than 2 are shared."""
    a, b = words(ref), words(bt)
    count_a, count_b = Counter(a), Counter(b)
    position_b = {w: i for i, w in enumerate(b)}
    order = [position_b[w] for w in a if count_a[w] == 1 and count_b.get(w) == 1]
    m = len(order)
    if m < 2:
        return None
    balance = sum((1 if order[k] < order[l] else -1) for k in range(m) for l in range(k + 1, m))
    return balance / (m * (m - 1) / 2)
