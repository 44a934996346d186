"""Recurrent encoders over unit embeddings x_1..x_T (units from a word or sentencepiece featurizer):

- LSTMavg: h_t = LSTM(x_1..x_t); g(s) = mean_t h_t                                  (dim = hidden)
- BLSTM:   g(s) = mean_t (h_t^fwd + h_t^bwd) / 2  (directions averaged, not concatenated; dim = hidden)
- GRAN:    h_t from an LSTM; a_t = x_t * sigmoid(W_x x_t + W_h h_t + b); g(s) = mean_t a_t   (dim = word dim)

Means run over the real (unpadded) positions; an empty sentence embeds to the zero vector. Dropout (probability
`dropout`) acts on the unit embeddings; word dropout drops whole units (never all units of a sentence).
"""
from __future__ import annotations

from pathlib import Path

import torch
import torch.nn.functional as F
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

from paranmt.models.encoders.base import SentenceEncoder
from paranmt.models.encoders.featurizers import load_featurizer


class RecurrentEncoder(SentenceEncoder):
    architecture = ""

    def __init__(self, featurizer, word_dim: int = 300, hidden: int = 300, dropout: float = 0.0,
                 word_dropout: float = 0.0, init_scale: float = 0.1):
        super().__init__()
        self.featurizer, self.word_dim, self.hidden = featurizer, word_dim, hidden
        self.dropout, self.word_dropout = dropout, word_dropout
        self.embedding = nn.Embedding(featurizer.vocab_size, word_dim, sparse=True)
        nn.init.uniform_(self.embedding.weight, -init_scale, init_scale)
        self.lstm = nn.LSTM(word_dim, hidden, batch_first=True, bidirectional=self.architecture == "blstm")

    def spec(self) -> dict:
        return {"featurizer_kind": self.featurizer.kind, "word_dim": self.word_dim, "hidden": self.hidden,
                "dropout": self.dropout, "word_dropout": self.word_dropout}

    def prepare(self, sentences: list[str]) -> tuple[torch.Tensor, torch.Tensor]:
        """(padded ids [n, max_len], lengths [n])."""
        ids = self.featurizer.ids(sentences)
        lengths = torch.tensor([len(x) for x in ids], dtype=torch.long)
        padded = torch.zeros(len(ids), max(1, int(lengths.max()) if len(ids) else 1), dtype=torch.long)
        for row, sentence in enumerate(ids):
            padded[row, :len(sentence)] = torch.tensor(sentence, dtype=torch.long)
        return padded, lengths

    def _drop_words(self, padded: torch.Tensor, lengths: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Remove each unit with probability word_dropout (keeping at least one), re-packing to the left."""
        mask = torch.arange(padded.shape[1])[None, :] < lengths[:, None]
        keep = mask & (torch.rand(padded.shape) >= self.word_dropout)
        keep = torch.where(keep.any(1, keepdim=True), keep, mask)
        new_lengths = keep.sum(1)
        order = torch.argsort((~keep).int(), dim=1, stable=True)
        return torch.gather(padded, 1, order), new_lengths

    def forward(self, inputs: tuple[torch.Tensor, torch.Tensor]) -> torch.Tensor:
        padded, lengths = inputs                      # CPU tensors; lengths stay on the CPU (packing needs that)
        if self.training and self.word_dropout > 0:
            padded, lengths = self._drop_words(padded, lengths)
        device = self.embedding.weight.device
        x = F.dropout(self.embedding(padded.to(device)), self.dropout, training=self.training)
        packed = pack_padded_sequence(x, lengths.clamp_min(1), batch_first=True, enforce_sorted=False)
        states, _ = pad_packed_sequence(self.lstm(packed)[0], batch_first=True, total_length=padded.shape[1])
        mask = (torch.arange(padded.shape[1])[None, :] < lengths[:, None]).float().to(device)
        outputs = self.combine(x, states)
        return (outputs * mask[..., None]).sum(1) / lengths.clamp_min(1)[:, None].float().to(device)

    def combine(self, x: torch.Tensor, states: torch.Tensor) -> torch.Tensor:
        """Per-position outputs to average, [n, T, dim]."""
        raise NotImplementedError

    def _save_parts(self, directory: Path, dtype: str) -> dict:
        return {"featurizer": self.featurizer.save(directory), **self.save_weights(directory, dtype)}

    @classmethod
    def from_config(cls, directory: Path, config: dict) -> "RecurrentEncoder":
        encoder = cls(load_featurizer(directory, config["featurizer"]), word_dim=config["word_dim"],
                      hidden=config["hidden"], dropout=config["dropout"], word_dropout=config["word_dropout"])
        encoder.load_weights(directory, config)
        return encoder


class LSTMAvgEncoder(RecurrentEncoder):
    kind = architecture = "lstm"

    @property
    def dim(self) -> int:
        return self.hidden

    def combine(self, x, states):
        return states


class BLSTMEncoder(RecurrentEncoder):
    kind = architecture = "blstm"

    @property
    def dim(self) -> int:
        return self.hidden

    def combine(self, x, states):
        return (states[..., :self.hidden] + states[..., self.hidden:]) / 2


class GRANEncoder(RecurrentEncoder):
    kind = architecture = "gran"

    def __init__(self, featurizer, word_dim: int = 300, hidden: int = 300, **kwargs):
        super().__init__(featurizer, word_dim=word_dim, hidden=hidden, **kwargs)
        self.gate_x = nn.Linear(word_dim, word_dim)
        self.gate_h = nn.Linear(hidden, word_dim, bias=False)

    @property
    def dim(self) -> int:
        return self.word_dim

    def combine(self, x, states):
        return x * torch.sigmoid(self.gate_x(x) + self.gate_h(states))
