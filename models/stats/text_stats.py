"""Word-level statistics of SPEC §1 Table 1: IDF, vocabulary entropy, parse (template) entropy.

Tokens: the project's Moses tokenizer (paranmt.models.text.tokenize) on the lowercased sentence, keeping only tokens
that contain a letter or digit (punctuation is not a word here).

    idf(w)            = ln((1 + N) / (1 + df(w)))     N = sentences of the IDF reference, df(w) = how many contain w
                        (an unseen word gets ln(1 + N), the rarest possible value)
    avg_idf(s)        = mean of idf(w) over the tokens of s (per-token average within a sentence; a sentence
                        without word tokens has no avg_idf); the report gives mean +- sd of avg_idf over sentences
    vocab_entropy     = -sum_w p(w) ln p(w), p = unigram frequencies of all tokens of the sample   (nats)
    template_entropy  = -sum_t p(t) ln p(t), p = frequencies of the templates (top two parse levels)   (nats)
Natural logarithms: the magnitudes then match P18-Tab1 (vocabulary entropy 6.4-7.2, parse entropy 3.0-4.1).
"""
from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable

import regex

from paranmt.models.text.tokenize import tokenize

WORDLIKE = regex.compile(r"[\p{L}\p{N}]")


def words(sentence: str) -> list[str]:
    return [token for token in tokenize(sentence.lower()) if WORDLIKE.search(token)]


def entropy(counts: Counter | dict) -> float:
    """Shannon entropy in nats of the distribution given by counts (0 for an empty or one-item distribution)."""
    total = sum(counts.values())
    if total == 0:
        return 0.0
    return -sum(c / total * math.log(c / total) for c in counts.values() if c > 0)


class IdfTable:
    """Document frequencies over a reference set of sentences (each sentence is one document)."""

    def __init__(self, tokenized_sentences: Iterable[list[str]]):
        self.df: Counter = Counter()
        self.documents = 0
        for tokens in tokenized_sentences:
            self.documents += 1
            self.df.update(set(tokens))

    def idf(self, word: str) -> float:
        return math.log((1 + self.documents) / (1 + self.df.get(word, 0)))

    def sentence_idf(self, tokens: list[str]) -> float | None:
        if not tokens:
            return None
        return sum(self.idf(word) for word in tokens) / len(tokens)
