"""The post-filter of generated paraphrases (thesis §6.3.3, SPEC §7): a paraphrase is kept when

    overlap(source, paraphrase)   >= min_overlap      (default 0.5)
    para_score(source, paraphrase) >= min_similarity  (default 0.7)

overlap = the corpus's word-trigram overlap (`paranmt.models.scoring.overlap.trigram_overlap`: shared lowercased
trigrams / the smaller trigram set; a sentence under 3 tokens is one "trigram"). The thesis says "n-gram overlap"
without n (AMBIG): the corpus's own trigram overlap is used, so thresholds mean the same here as in `paranmt
filter`. para_score = cosine of a paraphrastic encoder's embeddings (`ParaScorer`; the thesis used WORD,TRIGRAM,
the default here is the shipped `assets/encoder-sp`; any encoder directory works).
Reasons, in this order: `empty_paraphrase` (no tokens: overlap undefined), `low_overlap`, `low_similarity`
(a NaN cosine counts as below). Scores are returned for every candidate, so a new threshold is a cheap re-run.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from paranmt.models.encoders import SentenceEncoder
from paranmt.models.scoring.overlap import trigram_overlap
from paranmt.models.scoring.para_score import ParaScorer

MIN_OVERLAP = 0.5
MIN_SIMILARITY = 0.7


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
                 min_similarity: float = MIN_SIMILARITY, batch_size: int = 1024):
        for name, value in (("min_overlap", min_overlap), ("min_similarity", min_similarity)):
            if not -1.0 <= value <= 1.0:
                raise ValueError(f"{name} must be in [-1, 1], not {value}")
        self.min_overlap, self.min_similarity = min_overlap, min_similarity
        self.scorer = ParaScorer(encoder, batch_size)

    def reason(self, overlap: float | None, para_score: float) -> str | None:
        if overlap is None:
            return "empty_paraphrase"
        if overlap < self.min_overlap:
            return "low_overlap"
        if math.isnan(para_score) or para_score < self.min_similarity:
            return "low_similarity"
        return None

    def score(self, sources: list[str], paraphrases: list[str]) -> FilterScores:
        """Scores and keep/drop reasons of each (source, paraphrase) pair; one encoder call for the batch."""
        overlaps = [trigram_overlap(s, p) for s, p in zip(sources, paraphrases)]
        para = self.scorer.score(sources, paraphrases) if sources else np.zeros(0, np.float32)
        return FilterScores(overlaps, para, [self.reason(o, float(c)) for o, c in zip(overlaps, para)])
