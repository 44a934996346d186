"""Averaging encoders: WORD, TRIGRAM and SP embed a sentence as the mean of its unit embeddings,

    g(s) = (1 / |u(s)|) * sum_{t in u(s)} E[t]

where u(s) are the featurizer's units (words, character trigrams, sentencepieces). Their relatives (SPEC §8):

- ADD (`add`, Elgohary & Carpuat's additive composition): g(s) = sum_{t in u(s)} E[t] (word units);
- proj (`proj`): g(s) = W_p avg(s) + b                          (dim = hidden);
- DAN (`dan`): g(s) = f(W_L ... f(W_1 avg(s) + b_1) ... + b_L), `layers` layers, f = `activation` (dim = hidden);
- CHARAGRAM (`charagram`, `charagram-word`): g(s) = h(b + sum_{n-gram x of s, x in V} W[x]), character n-grams of
  orders 2-4 (a sum, not a mean), h = `activation` (tanh or linear); `charagram` n-grams span words (sentences,
  phrases), `charagram-word` stay inside each word (on a single word both are the same).

A sentence without (known) units embeds to the zero vector for every one of them (its cosine with anything is
undefined), also where a bias would otherwise give it a non-zero vector. Inference uses `torch.nn.functional.embedding_bag`
(mode `mean`) over a flat id list + offsets. Training uses the same weights through an explicit segment mean, so
that dropout (on unit embeddings, probability `dropout`) and word dropout (each unit dropped with probability
`word_dropout`, never all units of a sentence) can act on the units.
"""
from __future__ import annotations

from itertools import chain

import numpy as np

import torch
import torch.nn.functional as F
from torch import nn

from paranmt.models.encoders.base import FeaturizedEncoder
from paranmt.models.encoders.cells import activation_fn


class AveragingEncoder(FeaturizedEncoder):
    pooling = "mean"                   # mean | sum of the unit embeddings
    saved_options = {"dim": "dim", "dropout": "dropout", "word_dropout": "word_dropout"}

    def __init__(self, featurizer, dim: int = 300, dropout: float = 0.0, word_dropout: float = 0.0,
                 init_scale: float = 0.1):
        super().__init__()
        self.featurizer, self.dim, self.word_dim = featurizer, dim, dim
        if not type(self).kind:
            self.kind = featurizer.kind
        self.dropout, self.word_dropout = dropout, word_dropout
        self.embedding = nn.Embedding(featurizer.vocab_size, dim, sparse=True)
        nn.init.uniform_(self.embedding.weight, -init_scale, init_scale)

    def spec(self) -> dict:
        return {"dropout": self.dropout, "word_dropout": self.word_dropout}

    def prepare(self, sentences: list[str]) -> tuple[torch.Tensor, torch.Tensor]:
        """(flat ids [total units], offsets [n]) for embedding_bag."""
        ids = self.featurizer.ids(sentences)
        lengths = np.fromiter(map(len, ids), dtype=np.int64, count=len(ids))
        offsets = np.zeros(len(ids), dtype=np.int64)
        np.cumsum(lengths[:-1], out=offsets[1:])
        flat = np.fromiter(chain.from_iterable(ids), dtype=np.int64, count=int(lengths.sum()))
        return torch.from_numpy(flat), torch.from_numpy(offsets)

    def forward(self, inputs: tuple[torch.Tensor, torch.Tensor]) -> torch.Tensor:
        return self.pool(inputs)

    def has_units(self, inputs: tuple[torch.Tensor, torch.Tensor]) -> torch.Tensor:
        """[n] float: 1 for a sentence with at least one unit, else 0."""
        flat, offsets = inputs
        return (torch.diff(offsets, append=torch.tensor([flat.numel()])) > 0).float().to(self.embedding.weight.device)

    def pool(self, inputs: tuple[torch.Tensor, torch.Tensor]) -> torch.Tensor:
        """Mean (or sum) of the unit embeddings, [n, word_dim]; dropout and word dropout in training mode."""
        device = self.embedding.weight.device
        flat, offsets = inputs[0].to(device), inputs[1].to(device)
        if not self.training or (self.dropout == 0 and self.word_dropout == 0):
            return F.embedding_bag(flat, self.embedding.weight, offsets, mode=self.pooling,
                                   sparse=self.embedding.sparse)
        n = offsets.numel()
        segment = torch.repeat_interleave(torch.arange(n, device=device),
                                          torch.diff(offsets, append=torch.tensor([flat.numel()], device=device)))
        keep = torch.ones(flat.numel(), device=device)
        if self.word_dropout > 0:
            keep = (torch.rand(flat.numel(), device=device) >= self.word_dropout).float()
            kept_per_sentence = torch.zeros(n, device=device).index_add_(0, segment, keep)
            keep = torch.where(kept_per_sentence[segment] > 0, keep, torch.ones_like(keep))
        vectors = F.dropout(self.embedding(flat), self.dropout, training=True) * keep[:, None]
        sums = torch.zeros(n, self.word_dim, device=device).index_add_(0, segment, vectors)
        if self.pooling == "sum":
            return sums
        counts = torch.zeros(n, device=device).index_add_(0, segment, keep).clamp_min(1.0)
        return sums / counts[:, None]


class AdditiveEncoder(AveragingEncoder):
    """ADD: the sum of the word embeddings (Elgohary & Carpuat 2016's composition for BiCVM)."""

    kind = "add"
    pooling = "sum"


class ProjectionEncoder(AveragingEncoder):
    """proj: g(s) = W_p avg(s) + b, [n, hidden]; a sentence without units gives 0."""

    kind = "proj"
    saved_options = {"dim": "word_dim", "hidden": "hidden"}

    def __init__(self, featurizer, dim: int = 300, hidden: int = 300, **kwargs):
        super().__init__(featurizer, dim=dim, **kwargs)
        self.dim, self.hidden = hidden, hidden
        self.word_dim = dim
        self.projection = nn.Linear(dim, hidden)

    def spec(self) -> dict:
        return {**super().spec(), "word_dim": self.word_dim, "hidden": self.hidden}

    def forward(self, inputs):
        return self.projection(self.pool(inputs)) * self.has_units(inputs)[:, None]


class DeepAveragingEncoder(ProjectionEncoder):
    """DAN: `layers` layers h_l = f(W_l h_{l-1} + b_l) over h_0 = avg(s), f = `activation` (tanh or relu)."""

    kind = "dan"
    saved_options = {"layers": "layers", "activation": "activation"}

    def __init__(self, featurizer, dim: int = 300, hidden: int = 300, layers: int = 1, activation: str = "tanh",
                 **kwargs):
        super().__init__(featurizer, dim=dim, hidden=hidden, **kwargs)
        if layers < 1:
            raise ValueError(f"a DAN needs at least one layer, got {layers}")
        self.layers, self.activation_name, self.activation = layers, activation, activation_fn(activation)
        self.deeper = nn.ModuleList(nn.Linear(hidden, hidden) for _ in range(layers - 1))

    def spec(self) -> dict:
        return {**super().spec(), "layers": self.layers, "activation": self.activation_name}

    def forward(self, inputs):
        h = self.activation(self.projection(self.pool(inputs)))
        for layer in self.deeper:
            h = self.activation(layer(h))
        return h * self.has_units(inputs)[:, None]


class CharagramEncoder(AveragingEncoder):
    """CHARAGRAM: h(b + sum of the embeddings of the known character n-grams), h = `activation` (tanh|linear)."""

    pooling = "sum"
    saved_options = {"activation": "activation"}

    def __init__(self, featurizer, dim: int = 300, activation: str = "tanh", **kwargs):
        super().__init__(featurizer, dim=dim, **kwargs)
        self.kind = "charagram" if featurizer.span_words else "charagram-word"
        self.activation_name, self.activation = activation, activation_fn(activation)
        self.bias = nn.Parameter(torch.zeros(dim))

    def reset_parameters(self) -> None:
        """b starts at 0 (the n-gram table is reset as every embedding table)."""
        with torch.no_grad():
            self.bias.zero_()

    def spec(self) -> dict:
        return {**super().spec(), "activation": self.activation_name}

    def forward(self, inputs):
        return self.activation(self.bias + self.pool(inputs)) * self.has_units(inputs)[:, None]
