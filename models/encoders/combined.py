"""Combinations of two encoders trained jointly (both parts' parameters get gradients):

- WORD+TRIGRAM (`word+trigram`): g(s) = g_word(s) + g_trigram(s)        (same dim as each part, e.g. 300)
- WORD,TRIGRAM (`word,trigram`): g(s) = [g_word(s); g_trigram(s)]       (concatenation, e.g. 600)
"""
from __future__ import annotations

from pathlib import Path

import torch

from paranmt.models.encoders.base import SentenceEncoder


class CombinedEncoder(SentenceEncoder):
    def __init__(self, first: SentenceEncoder, second: SentenceEncoder, mode: str):
        super().__init__()
        if mode not in ("sum", "concat"):
            raise ValueError(f"combination mode must be sum or concat, not {mode!r}")
        if mode == "sum" and first.dim != second.dim:
            raise ValueError(f"a sum needs equal dims, got {first.dim} and {second.dim}")
        self.first, self.second, self.mode = first, second, mode
        self.kind = f"{first.kind}{'+' if mode == 'sum' else ','}{second.kind}"
        self.dim = first.dim if mode == "sum" else first.dim + second.dim

    @property
    def weights_dtype(self) -> str:
        return self.first.weights_dtype

    def spec(self) -> dict:
        return {"mode": self.mode}

    def prepare(self, sentences: list[str]):
        return self.first.prepare(sentences), self.second.prepare(sentences)

    def forward(self, inputs) -> torch.Tensor:
        a, b = self.first(inputs[0]), self.second(inputs[1])
        return a + b if self.mode == "sum" else torch.cat([a, b], dim=1)

    def _save_parts(self, directory: Path, dtype: str) -> dict:
        self.first.save(directory / "first", dtype)
        self.second.save(directory / "second", dtype)
        return {"parts": ["first", "second"]}

    @classmethod
    def from_config(cls, directory: Path, config: dict) -> "CombinedEncoder":
        from paranmt.models.encoders import load_encoder

        return cls(load_encoder(directory / "first"), load_encoder(directory / "second"), config["mode"])
