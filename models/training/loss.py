"""Training objectives, each an nn.Module over the encoder (SPEC §3, §8).

Objectives, called on a `PairBatch` (pairs + k negatives per sentence), mean over the pairs of the mini-batch:

- `MarginLoss` (the papers' paraphrase objective; margin delta = 0.4 by default, k = 1):
      l = max(0, delta - s(g1, g2) + s(g1, n1)) + max(0, delta - s(g1, g2) + s(g2, n2))
  with s = cosine (`distance="cosine"`) or s(a, b) = -||a - b||^2 (`distance="euclidean"`, squared Euclidean
  distance as in BiCVM; Elgohary & Carpuat tuned delta in {1, 10, 100} for it).
- `BiCVMLoss` (Elgohary & Carpuat 2016's J_bi, Hermann & Blunsom's BiCVM; meant for the additive `add` encoder):
      l = sum_{i=1..k} [delta + ||g1 - g2||^2 - ||g1 - n1_i||^2]_+ + [delta + ||g1 - g2||^2 - ||g2 - n2_i||^2]_+
  with k noise sentences per side (`noise_samples`, drawn at random from the mega-batch, never the pair's own).
A term whose negative is not valid (no candidate outside the pair) is left out (weight 0).

The regularizers (lambda_w, lambda_c, the Frobenius penalty) are models/training/regularizers.py.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

DISTANCES = ("cosine", "euclidean")


@dataclass
class PairBatch:
    """A mini-batch: pairs (side1[i], side2[i]) and k negatives per sentence; valid* [n, k] bool."""

    side1: list[str]
    side2: list[str]
    negatives1: list[list[str]]
    negatives2: list[list[str]]
    valid1: np.ndarray
    valid2: np.ndarray

    def __len__(self) -> int:
        return len(self.side1)

    @property
    def k(self) -> int:
        return self.valid1.shape[1]


def embed_batch(model: nn.Module, batch: PairBatch) -> tuple[torch.Tensor, ...]:
    """One forward pass over every sentence of the batch: g1 [n, d], g2 [n, d], n1 [n, k, d], n2 [n, k, d], float32
    (under autocast the encoder's output may be bf16 or fp16: the objectives compute in fp32)."""
    n, k = len(batch), batch.k
    flat1 = [s for row in batch.negatives1 for s in row]
    flat2 = [s for row in batch.negatives2 for s in row]
    vectors = model.embed(batch.side1 + batch.side2 + flat1 + flat2).float()
    g1, g2, n1, n2 = vectors.split([n, n, n * k, n * k])
    return g1, g2, n1.reshape(n, k, -1), n2.reshape(n, k, -1)


def _mask(valid: np.ndarray | torch.Tensor | None, like: torch.Tensor) -> torch.Tensor:
    if valid is None:
        return torch.ones_like(like)
    return torch.as_tensor(valid, device=like.device).reshape(like.shape).to(like.dtype)


class MarginLoss(nn.Module):
    def __init__(self, model: nn.Module, margin: float = 0.4, distance: str = "cosine"):
        super().__init__()
        if distance not in DISTANCES:
            raise ValueError(f"distance must be one of {', '.join(DISTANCES)}, not {distance!r}")
        self.model, self.margin, self.distance = model, margin, distance

    def similarity(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        if self.distance == "cosine":
            return F.cosine_similarity(a, b, dim=-1)
        return -(a - b).pow(2).sum(-1)

    def hinge(self, g1: torch.Tensor, g2: torch.Tensor, n1: torch.Tensor, n2: torch.Tensor,
              valid1=None, valid2=None) -> torch.Tensor:
        """The loss of embeddings g1, g2, n1, n2 [n, d] (one negative each), mean over the n pairs."""
        positive = self.similarity(g1, g2)
        term1 = torch.relu(self.margin - positive + self.similarity(g1, n1))
        term2 = torch.relu(self.margin - positive + self.similarity(g2, n2))
        return (term1 * _mask(valid1, term1) + term2 * _mask(valid2, term2)).mean()

    def forward(self, batch: PairBatch) -> torch.Tensor:
        if batch.k != 1:
            raise ValueError(f"the margin objective takes one negative per sentence, got {batch.k}")
        g1, g2, n1, n2 = embed_batch(self.model, batch)
        return self.hinge(g1, g2, n1[:, 0], n2[:, 0], batch.valid1, batch.valid2)


class BiCVMLoss(nn.Module):
    def __init__(self, model: nn.Module, margin: float = 1.0):
        super().__init__()
        self.model, self.margin = model, margin

    def hinge(self, g1: torch.Tensor, g2: torch.Tensor, n1: torch.Tensor, n2: torch.Tensor,
              valid1=None, valid2=None) -> torch.Tensor:
        """g1, g2 [n, d]; n1, n2 [n, k, d] noise embeddings; the sum over the k noise terms, mean over pairs."""
        positive = (g1 - g2).pow(2).sum(-1)[:, None]                       # [n, 1]
        term1 = torch.relu(self.margin + positive - (g1[:, None] - n1).pow(2).sum(-1))
        term2 = torch.relu(self.margin + positive - (g2[:, None] - n2).pow(2).sum(-1))
        return (term1 * _mask(valid1, term1) + term2 * _mask(valid2, term2)).sum(1).mean()

    def forward(self, batch: PairBatch) -> torch.Tensor:
        return self.hinge(*embed_batch(self.model, batch), batch.valid1, batch.valid2)
