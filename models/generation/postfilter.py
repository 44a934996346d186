"""The post-filter of generated paraphrases (thesis §6.3.3, SPEC §7): a paraphrase is kept when

    overlap(source, paraphrase)   >= min_overlap      (default 0.5)
    para_score(source, paraphrase) >= min_similarity  (default 0.7)

overlap = the corpus's word-trigram overlap (`paranmt.models.scoring.overlap.trigram_overlap`: shared lowercased
trigrams / the smaller trigram set; a sentence under 3 tokens is one "trigram"). The thesis says "n-gram overlap"
without n (AMBIG): the corpus's own trigram overlap is used, so thresholds mean the same here as in `paranmt
filter`. para_score = cosine of a paraphrastic encoder's embeddings (`ParaScorer`; the thesis used WORD,TRIGRAM,
the default here is the shipped `assets/encoder-sp`; any encoder directory works).
Two guards for a user who wants paraphrases (issue 32, measured in docs/paraphrase.md, Decoding guards; on by
default, each can be turned off):
- `copy`: the paraphrase is the source again, up to case, punctuation and spacing (words(p) == words(s)): it passes
  both thresholds, but it is not a paraphrase;
- `repeated_word`: the paraphrase says a word twice in a row where the source does not ("it's time time"), or
  has a word of 4+ characters more often than the source (count_p(w) >= 2 and count_p(w) > count_s(w): "the
  Defense completion of Defense"); the commonest way an undertrained generator is disfluent. Shorter words (the,
  a, of, to, in, is, ...) repeat in fluent English and are not counted apart from the first rule.
words(x) = the lowercased runs of word characters (`\w+`) of x, in order.
Reasons, in this order: `empty_paraphrase` (no tokens: overlap undefined), `copy`, `repeated_word`, `low_overlap`,
`low_similarity` (a NaN cosine counts as below). Scores are returned for every candidate, so a new threshold is a
cheap re-run.
"""
from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass

import numpy as np

from paranmt.models.encoders import SentenceEncoder
from paranmt.models.scoring.overlap import trigram_overlap
from paranmt.models.scoring.para_score import ParaScorer

MIN_OVERLAP = 0.5
MIN_SIMILARITY = 0.7
WORD = re.compile(r"\w+")


def words(text: str) -> list[str]:
    """The lowercased runs of word characters of `text`, in order."""
    return WORD.findall(text.lower())


def is_copy(source: str, paraphrase: str) -> bool:
    """The paraphrase repeats the source, up to case, punctuation and spacing."""
    return words(source) == words(paraphrase)


def repeats_a_word(source: str, paraphrase: str) -> bool:
    """The paraphrase says a word twice in a row where the source does not, or has a word of 4+ characters at
    least twice and more often than the source."""
    said, have = words(paraphrase), words(source)
    doubled = {(a, b) for a, b in zip(have, have[1:]) if a == b}
    if any(a == b and (a, b) not in doubled for a, b in zip(said, said[1:])):
        return True
    counts = Counter(have)
    return any(count >= 2 and count > counts[word] and len(word) >= 4 for word, count in Counter(said).items())


@dataclass
class FilterScores:
    overlap: list[float | None]       # trigram overlap per candidate (None: a side without tokens)
    para_score: np.ndarray            # float32 cosines (NaN where undefined)
    reasons: list[str | None]         # None = kept, else why it was dropped

    @property
    def kept(self) -> list[bool]:
        return [reason is None for reason in self.reasons]


class PostFilter:
    def __init__(self, encoder: SentenceEncoder, min_overlap: float = MIN_OVERLAP,
                 min_similarity: float = MIN_SIMILARITY, batch_size: int = 1024, drop_copies: bool = True,
                 drop_repeats: bool = True):
        for name, value in (("min_overlap", min_overlap), ("min_similarity", min_similarity)):
            if not -1.0 <= value <= 1.0:
                raise ValueError(f"{name} must be in [-1, 1], not {value}")
        self.min_overlap, self.min_similarity = min_overlap, min_similarity
        self.drop_copies, self.drop_repeats = drop_copies, drop_repeats
        self.scorer = ParaScorer(encoder, batch_size)

    def reason(self, source: str, paraphrase: str, overlap: float | None, para_score: float) -> str | None:
        if overlap is None:
            return "empty_paraphrase"
        if self.drop_copies and is_copy(source, paraphrase):
            return "copy"
        if self.drop_repeats and repeats_a_word(source, paraphrase):
            return "repeated_word"
        if overlap < self.min_overlap:
            return "low_overlap"
        if math.isnan(para_score) or para_score < self.min_similarity:
            return "low_similarity"
        return None

    def score(self, sources: list[str], paraphrases: list[str]) -> FilterScores:
        """Scores and keep/drop reasons of each (source, paraphrase) pair; one encoder call for the batch."""
        overlaps = [trigram_overlap(s, p) for s, p in zip(sources, paraphrases)]
        para = self.scorer.score(sources, paraphrases) if sources else np.zeros(0, np.float32)
        return FilterScores(overlaps, para, [self.reason(s, p, o, float(c))
                                             for s, p, o, c in zip(sources, paraphrases, overlaps, para)])
