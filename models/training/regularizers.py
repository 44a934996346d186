"""L2 toward the initial parameters (SPEC §8-9: λ_w‖W_init − W‖², "embeddings pulled to init"):

    R(θ) = λ · Σ_p ‖θ_p − θ_p(init)‖²        over the parameters p chosen at construction

The initial values are copied when the regularizer is built (the trained model the fine-tuning starts from, or
the pretrained word vectors). λ = 0 gives 0 without touching the parameters. The gradient 2λ(θ − θ_init) is
dense: an embedding table regularized this way needs dense gradients (`nn.Embedding(sparse=False)`).
"""
from __future__ import annotations

import torch
from torch import nn


class L2ToInitial(nn.Module):
    def __init__(self, parameters: dict[str, nn.Parameter], weight: float):
        super().__init__()
        if weight < 0:
            raise ValueError(f"the L2-to-initial weight must be >= 0, got {weight}")
        self.weight = weight
        self.parameters_ = parameters
        self.initial = {name: p.detach().clone() for name, p in parameters.items()} if weight > 0 else {}

    def forward(self) -> torch.Tensor:
        if self.weight == 0:
            return torch.zeros(())
        return self.weight * sum(((p - self.initial[name].to(p.device)) ** 2).sum()
                                 for name, p in self.parameters_.items())
