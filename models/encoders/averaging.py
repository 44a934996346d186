"""Averaging encoders: WORD, TRIGRAM and SP embed a sentence as the mean of its unit embeddings,

    g(s) = (1 / |u(s)|) * sum_{t in u(s)} E[t]

where u(s) are the featurizer's units (words, character trigrams, sentencepieces). A sentence without units embeds
to the zero vector (its cosine with anything is undefined). Inference uses `torch.nn.functional.embedding_bag`
(mode `mean`) over a flat id list + offsets. Training uses the same weights through an explicit segment mean, so
that dropout (on unit embeddings, probability `dropout`) and word dropout (each unit dropped with probability
`word_dropout`, never all units of a sentence) can act on the units.
"""
from __future__ import annotations

from itertools import chain
from pathlib import Path

import numpy as np

import torch
import torch.nn.functional as F
from torch import nn

from paranmt.models.encoders.base import SentenceEncoder
from paranmt.models.encoders.featurizers import load_featurizer


class AveragingEncoder(SentenceEncoder):
    def __init__(self, featurizer, dim: int = 300, dropout: float = 0.0, word_dropout: float = 0.0,
                 init_scale: float = 0.1):
        super().__init__()
        self.featurizer, self.dim = featurizer, dim
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
        device = self.embedding.weight.device
        flat, offsets = inputs[0].to(device), inputs[1].to(device)
        if not self.training or (self.dropout == 0 and self.word_dropout == 0):
            return F.embedding_bag(flat, self.embedding.weight, offsets, mode="mean", sparse=self.embedding.sparse)
        n = offsets.numel()
        segment = torch.repeat_interleave(torch.arange(n, device=device),
                                          torch.diff(offsets, append=torch.tensor([flat.numel()], device=device)))
        keep = torch.ones(flat.numel(), device=device)
        if self.word_dropout > 0:
            keep = (torch.rand(flat.numel(), device=device) >= self.word_dropout).float()
            kept_per_sentence = torch.zeros(n, device=device).index_add_(0, segment, keep)
            keep = torch.where(kept_per_sentence[segment] > 0, keep, torch.ones_like(keep))
        vectors = F.dropout(self.embedding(flat), self.dropout, training=True) * keep[:, None]
        sums = torch.zeros(n, self.dim, device=device).index_add_(0, segment, vectors)
        counts = torch.zeros(n, device=device).index_add_(0, segment, keep).clamp_min(1.0)
        return sums / counts[:, None]

    def _save_parts(self, directory: Path, dtype: str) -> dict:
        return {"featurizer": self.featurizer.save(directory), **self.save_weights(directory, dtype)}

    @classmethod
    def from_config(cls, directory: Path, config: dict) -> "AveragingEncoder":
        encoder = cls(load_featurizer(directory, config["featurizer"]), dim=config["dim"],
                      dropout=config["dropout"], word_dropout=config["word_dropout"])
        encoder.load_weights(directory, config)
        return encoder
