"""The inference network of the bilingual generative transformer (BGT, thesis §5.4) and the paranmt encoder it
gives.

`TransformerInference` maps a sentence (sentencepiece ids) to the parameters of a diagonal Gaussian:

    H = TransformerEncoder(E[x] + P)                      (pre-norm layers; E shared token embeddings, P learned
                                                           positions)
    h = mean_t H_t                                         (over the real, unpadded positions)
    mu = W_mu h + b_mu,   log sigma² = W_var h + b_var     (both [latent])

BGT has three of them (the semantic one and one per language); the translation baselines use the semantic one
alone. `BGTEncoder` is the paranmt encoder of the semantic network: g(s) = mu(s), the mean of q(z_sem | s)
(AMBIG in the thesis: mean or sample at test time; the mean is deterministic, so cosine similarities are too).
It is saved, loaded, evaluated and exported like every other encoder (kind `bgt`).
"""
from __future__ import annotations

import torch
from torch import nn

from paranmt.models.encoders.base import FeaturizedEncoder


class TransformerInference(nn.Module):
    """Sentence -> (mu, log sigma²) of a diagonal Gaussian over a `latent`-dim space (module docstring)."""

    def __init__(self, embedding: nn.Embedding, latent: int, layers: int, heads: int, ffn: int, dropout: float,
                 max_len: int):
        super().__init__()
        dim = embedding.embedding_dim
        self.embedding = embedding
        self.positions = nn.Embedding(max_len, dim)
        layer = nn.TransformerEncoderLayer(dim, heads, ffn, dropout, batch_first=True, norm_first=True)
        self.layers = nn.TransformerEncoder(layer, layers, norm=nn.LayerNorm(dim), enable_nested_tensor=False)
        self.mu = nn.Linear(dim, latent)
        self.log_var = nn.Linear(dim, latent)

    def forward(self, ids: torch.Tensor, pad: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """ids [n, T], pad [n, T] (True = padding) -> (mu, log_var), each [n, latent]."""
        positions = torch.arange(ids.shape[1], device=ids.device)
        states = self.layers(self.embedding(ids) + self.positions(positions)[None], src_key_padding_mask=pad)
        keep = (~pad).float()[..., None]
        pooled = (states * keep).sum(1) / keep.sum(1).clamp_min(1.0)
        return self.mu(pooled), self.log_var(pooled)


def pad_ids(sequences: list[list[int]], pad_id: int, max_len: int) -> tuple[torch.Tensor, torch.Tensor]:
    """Right-padded LongTensor [n, T] of sequences cut to `max_len` (an empty one keeps a single pad position, so
    every row has at least one column), and the padding mask (True = padding)."""
    cut = [s[:max_len] for s in sequences]
    width = max([1, *map(len, cut)])
    ids = torch.full((len(cut), width), pad_id, dtype=torch.long)
    for row, seq in enumerate(cut):
        ids[row, :len(seq)] = torch.tensor(seq, dtype=torch.long)
    return ids, ids == pad_id


class BGTEncoder(FeaturizedEncoder):
    """The semantic inference network as a paranmt encoder: g(s) = mu of q(z_sem | s), dim = `latent`."""

    kind = "bgt"
    saved_options = {"dim": "model_dim", "latent": "latent", "layers": "layers", "heads": "heads", "ffn": "ffn",
                     "dropout": "dropout", "max_len": "max_len", "variant": "variant"}

    def __init__(self, featurizer, dim: int = 256, latent: int = 256, layers: int = 2, heads: int = 4,
                 ffn: int = 1024, dropout: float = 0.1, max_len: int = 100, variant: str = "bgt"):
        super().__init__()
        self.featurizer, self.model_dim, self.latent = featurizer, dim, latent
        self.layers_n, self.heads, self.ffn, self.drop, self.max_len = layers, heads, ffn, dropout, max_len
        self.variant = variant
        self.pad_id = featurizer.vocab_size                      # sentencepiece ids, then PAD, BOS, EOS
        embedding = nn.Embedding(featurizer.vocab_size + 3, dim, padding_idx=self.pad_id)
        nn.init.normal_(embedding.weight, 0.0, dim ** -0.5)
        self.semantic = TransformerInference(embedding, latent, layers, heads, ffn, dropout, max_len)

    @property
    def dim(self) -> int:
        return self.latent

    def spec(self) -> dict:
        return {"model_dim": self.model_dim, "latent": self.latent, "layers": self.layers_n, "heads": self.heads,
                "ffn": self.ffn, "dropout": self.drop, "max_len": self.max_len, "variant": self.variant}

    def prepare(self, sentences: list[str]) -> tuple[torch.Tensor, torch.Tensor]:
        return pad_ids(self.featurizer.ids(sentences), self.pad_id, self.max_len)

    def forward(self, inputs: tuple[torch.Tensor, torch.Tensor]) -> torch.Tensor:
        ids, pad = (t.to(self.device) for t in inputs)
        return self.semantic(ids, pad)[0]
