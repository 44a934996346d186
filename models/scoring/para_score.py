"""The paraphrase score (schema v1 `para_score`, P18 §3): cosine of a paraphrastic encoder's embeddings,

    para_score(ref, bt) = cos(f(ref), f(bt)) = f(ref) . f(bt) / (|f(ref)| |f(bt)|)        in [-1, 1]

computed for a whole batch at once: the batch's distinct sentences are encoded in one call and the row-wise
cosines are one vectorized op. Undefined cosines (a sentence whose embedding is the zero vector: no units, e.g.
an empty string) are NaN here and null in the shards.
"""
from __future__ import annotations

import numpy as np

from paranmt.models.encoders import SentenceEncoder, cosine_rows


class ParaScorer:
    def __init__(self, encoder: SentenceEncoder, batch_size: int = 1024):
        self.encoder, self.batch_size = encoder, batch_size

    def score(self, refs: list[str], bts: list[str]) -> np.ndarray:
        """float32 [n] cosines (NaN where undefined)."""
        if len(refs) != len(bts):
            raise ValueError(f"{len(refs)} references but {len(bts)} back-translations")
        unique = list(dict.fromkeys([*refs, *bts]))
        index = {s: i for i, s in enumerate(unique)}
        vectors = self.encoder.encode(unique, self.batch_size)
        a = vectors[[index[s] for s in refs]]
        b = vectors[[index[s] for s in bts]]
        return cosine_rows(a, b).astype(np.float32)
