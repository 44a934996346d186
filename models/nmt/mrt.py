"""Minimum risk training (MRT) of NMT with SIMILE or BLEU as the cost (thesis ch. 7; SPEC §10), the pure part.

For a source x with reference t and U(x), the model's n-best list (beam search, the reference removed),

    L_Risk(x) = Σ_{u ∈ U(x)} cost(t, u) · p(u | x) / Σ_{u' ∈ U(x)} p(u' | x)
              = Σ_u cost(t, u) · softmax_u(log p(u | x))                 (log p: summed token log-probabilities)
    L         = γ · L_TokLS + (1 − γ) · L_Risk                           (γ = `gamma`, the thesis: 0.2-0.4)

with L_TokLS the label-smoothed token cross-entropy averaged over the batch's target tokens and L_Risk averaged
over its sentences. Costs (`COSTS`), each in [0, 1] for the usual case (1 − SIMILE reaches 2 for a negative SIM):

    simile: 1 − SIMILE(t, u)            (models/scoring/simile.py; an undefined SIMILE counts 0, i.e. cost 1)
    bleu:   1 − BLEU+1(t, u)            sentence BLEU (sacrebleu, 4-grams) with +1 smoothing of the n ≥ 2 counts
    both:   1 − ½ (BLEU+1(t, u) + SIMILE(t, u))

The fairseq criterion that uses these is `models/nmt/paranmt_mrt/` (loaded with `--user-dir`).
"""
from __future__ import annotations

import logging
from functools import lru_cache

import numpy as np
import torch

COSTS = ("simile", "bleu", "both")


@lru_cache(maxsize=1)
def _bleu_plus1():
    """sacrebleu's BLEU with add-1 smoothing; its per-call advice to use effective order (which would drop the
    orders a short hypothesis cannot have, i.e. not BLEU+1) is silenced."""
    from sacrebleu.metrics import BLEU

    logging.getLogger("sacrebleu").setLevel(logging.ERROR)
    return BLEU(smooth_method="add-k", smooth_value=1, effective_order=False)


def sentence_bleu_plus1(hypothesis: str, reference: str) -> float:
    """BLEU+1 in [0, 1]: sacrebleu's sentence BLEU, add-1 smoothing of the 2- to 4-gram counts (Lin & Och 2004)."""
    return _bleu_plus1().sentence_score(hypothesis, [reference]).score / 100.0


class RiskCost:
    """cost(t, u) of hypothesis/reference batches (module docstring); `simile` needs a SimileScorer."""

    def __init__(self, kind: str, simile_scorer=None):
        if kind not in COSTS:
            raise ValueError(f"unknown MRT cost {kind!r}; choose one of {', '.join(COSTS)}")
        if kind != "bleu" and simile_scorer is None:
            raise ValueError(f"the {kind!r} cost needs a SIMILE scorer")
        self.kind, self.simile_scorer = kind, simile_scorer

    def __call__(self, hypotheses: list[str], references: list[str]) -> np.ndarray:
        """float64 [n] costs of hypotheses[i] against references[i]."""
        if not hypotheses:
            return np.zeros(0)
        bleu = simile = None
        if self.kind in ("bleu", "both"):
            bleu = np.array([sentence_bleu_plus1(h, r) for h, r in zip(hypotheses, references)])
        if self.kind in ("simile", "both"):
            simile = np.nan_to_num(self.simile_scorer.score(references, hypotheses).astype(np.float64), nan=0.0)
        if self.kind == "bleu":
            return 1.0 - bleu
        if self.kind == "simile":
            return 1.0 - simile
        return 1.0 - 0.5 * (bleu + simile)


def expected_risk(sequence_log_probs: torch.Tensor, costs: torch.Tensor) -> torch.Tensor:
    """Σ_u cost(u) · softmax(log p)(u) over one n-best list (1-d tensors of equal length); differentiable in the
    log-probabilities."""
    return (torch.softmax(sequence_log_probs, dim=0) * costs).sum()
