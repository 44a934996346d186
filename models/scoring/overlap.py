"""Word-trigram overlap of a reference and its back-translation (schema v1 `trigram_overlap`, T§4.5.4):

    T(s) = set of word trigrams of s, tokens = sacremoses English tokenizer (escape=False), lowercased
    trigram_overlap(ref, bt) = |T(ref) & T(bt)| / min(|T(ref)|, |T(bt)|)        in [0, 1]

Edge cases: a sentence with fewer than 3 tokens contributes its whole token tuple as its only "trigram"
(T("Thank you") = {("thank", "you")}), so two identical short sentences score 1.0 and a short sentence never
matches a trigram of a longer one (0.0); a side without tokens (empty or whitespace) gives None (null).
Examples: ("The cat sat down.", "The cat sat up.") -> T sizes 3 and 3, shared {the cat sat} -> 1/3.
"""
from __future__ import annotations

from functools import lru_cache

from paranmt.models.text.tokenize import SENTENCE_CACHE_ENTRIES, lowercase_tokens


def word_trigrams(tokens: list[str]) -> set[tuple[str, ...]]:
    """Set of consecutive token triples; under 3 tokens the whole tuple is the only element; no tokens -> {}."""
    if len(tokens) < 3:
        return {tuple(tokens)} if tokens else set()
    return set(zip(tokens, tokens[1:], tokens[2:]))


@lru_cache(maxsize=SENTENCE_CACHE_ENTRIES)
def sentence_trigrams(sentence: str) -> frozenset[tuple[str, ...]]:
    """T(sentence); cached per process (tokenization dominates the cost, and short sentences such as subtitles'
    "Thank you." repeat often, also as ref == bt). The tokens come from the per-process cache the pair signals
    also read (models.text.tokenize.lowercase_tokens), so the score stage tokenizes each sentence once."""
    return frozenset(word_trigrams(list(lowercase_tokens(sentence, "en"))))


def overlap_of_sets(a: set, b: set) -> float | None:
    if not a or not b:
        return None
    return len(a & b) / min(len(a), len(b))


def trigram_overlap(ref: str, bt: str) -> float | None:
    """|T(ref) & T(bt)| / min(|T(ref)|, |T(bt)|) as in the module docstring; None when a side has no tokens."""
    return overlap_of_sets(sentence_trigrams(ref), sentence_trigrams(bt))
