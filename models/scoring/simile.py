"""SIMILE (Wieting et al. 2019, "Beyond BLEU"; thesis §7.2; SPEC §6): the paraphrastic similarity of a hypothesis
h and a reference r, discounted by their length difference,

    SIM(r, h)   = cos(f(r), f(h))                                   (the encoder's cosine, = para_score)
    LP(r, h)    = exp(1 - max(|r|, |h|) / min(|r|, |h|))            in (0, 1], 1 iff |r| = |h|
    SIMILE(r, h) = SIM(r, h) * LP(r, h) ** alpha,   alpha = 0.25    in [-1, 1]

Lengths |x| are counted in the units of the scoring encoder, as in the authors' code: their SIM model is a
sentencepiece averaging model and their SIMILE reward takes |r| and |h| from its batch of piece ids (the lengths
of the SP sequences after lowercasing and tokenizing). Here |x| = len(encoder.featurizer.ids([x])[0]): pieces of
the shipped SP encoder (`assets/encoder-sp`; its featurizer lowercases, it does not PTB-tokenize first), words of a
WORD encoder, character trigrams of a TRIGRAM encoder; a combined encoder counts its first part's units. Pieces
unknown to the vocabulary count (they are pieces of the sequence, as in the authors' batches).
Examples (|r|, |h|, SIM): (10, 10, 0.8) -> 0.8; (4, 8, 0.8) -> 0.8 * e**(-0.25) = 0.6230;
(12, 9, 0.6) -> 0.6 * e**(-1/12) = 0.5520.
Undefined (NaN here, null in the shards): SIM undefined, or a side without units (min length 0).
The corpus score of `paranmt simile` is the mean of the sentence scores, an undefined sentence counting 0
(a system that outputs nothing must not gain by it).
"""
from __future__ import annotations

import numpy as np

from paranmt.models.encoders import SentenceEncoder
from paranmt.models.scoring.para_score import ParaScorer

ALPHA = 0.25


def encoder_units(encoder: SentenceEncoder):
    """The featurizer whose units are SIMILE's lengths: the encoder's own, or a combined encoder's first part's."""
    while not hasattr(encoder, "featurizer"):
        encoder = encoder.parts[0]
    return encoder.featurizer


def unit_counts(encoder: SentenceEncoder, sentences: list[str]) -> np.ndarray:
    """int64 [n]: |x| of every sentence, in the encoder's units."""
    return np.fromiter(map(len, encoder_units(encoder).ids(sentences)), dtype=np.int64, count=len(sentences))


def simile_rows(sims: np.ndarray, ref_lens: np.ndarray, hyp_lens: np.ndarray, alpha: float = ALPHA) -> np.ndarray:
    """float32 [n] SIMILE of row-wise SIM (NaN = undefined) and lengths, vectorized; NaN where undefined."""
    shorter = np.minimum(ref_lens, hyp_lens).astype(np.float64)
    longer = np.maximum(ref_lens, hyp_lens).astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        penalty = np.where(shorter > 0, np.exp(1 - longer / shorter), np.nan)
    return (np.asarray(sims, dtype=np.float64) * penalty ** alpha).astype(np.float32)


class SimileScorer:
    """SIMILE of hypothesis/reference batches with one encoder (its cosine is SIM, its units are the lengths)."""

    def __init__(self, encoder: SentenceEncoder, batch_size: int = 1024, alpha: float = ALPHA):
        self.encoder, self.alpha = encoder, alpha
        self.para = ParaScorer(encoder, batch_size)

    def score(self, refs: list[str], hyps: list[str]) -> np.ndarray:
        """float32 [n] sentence SIMILE (NaN where undefined)."""
        sims = self.para.score(refs, hyps)
        return simile_rows(sims, unit_counts(self.encoder, refs), unit_counts(self.encoder, hyps), self.alpha)


def corpus_simile(scores: np.ndarray) -> float:
    """Mean of the sentence scores, an undefined (NaN) sentence counting 0; 0.0 for no sentences."""
    return float(np.nan_to_num(np.asarray(scores, dtype=np.float64), nan=0.0).mean()) if len(scores) else 0.0
