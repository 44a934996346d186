"""The two-sided margin loss of the papers (SPEC §3; margin delta = 0.4 by default):

    l(g1, g2, n1, n2) = max(0, delta - cos(g1, g2) + cos(g1, n1)) + max(0, delta - cos(g2, g1) + cos(g2, n2))

averaged over the pairs of a mini-batch. n1 is the negative chosen for g1, n2 the one chosen for g2. A term whose
anchor has no valid negative (e.g. a mega-batch holding only that pair and its duplicates) is left out (weight 0).
"""
from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn


class MarginLoss(nn.Module):
    def __init__(self, margin: float = 0.4):
        super().__init__()
        self.margin = margin

    def forward(self, g1: torch.Tensor, g2: torch.Tensor, n1: torch.Tensor, n2: torch.Tensor,
                valid1: torch.Tensor | None = None, valid2: torch.Tensor | None = None) -> torch.Tensor:
        positive = F.cosine_similarity(g1, g2, dim=1)
        term1 = torch.relu(self.margin - positive + F.cosine_similarity(g1, n1, dim=1))
        term2 = torch.relu(self.margin - positive + F.cosine_similarity(g2, n2, dim=1))
        if valid1 is not None:
            term1 = term1 * valid1.float()
        if valid2 is not None:
            term2 = term2 * valid2.float()
        return (term1 + term2).mean()
