"""Combinations of any number of encoders trained jointly (every part's parameters get gradients; P18 Tables 8/9):

- sum (`word+trigram`, `word+trigram+lstm`): g(s) = g_1(s) + ... + g_N(s)      (parts of equal dim, e.g. 300)
- concatenation (`word,trigram`, `word,trigram,lstm`): g(s) = [g_1(s); ...; g_N(s)]   (dims add up, e.g. 900)

The kind names the parts in order, joined by `+` (sum) or `,` (concatenation); one separator per combination.
A saved combination keeps part i in the subdirectory `config["parts"][i]` (`part-1`, `part-2`, ...).
"""
from __future__ import annotations

from pathlib import Path

import torch
from torch import nn

from paranmt.models.encoders.base import SentenceEncoder

SEPARATORS = {"+": "sum", ",": "concat"}


def split_kind(kind: str) -> tuple[list[str], str | None]:
    """`"word+trigram+lstm"` -> (["word", "trigram", "lstm"], "sum"); `"word,trigram"` -> (..., "concat");
    a single kind -> ([kind], None). Mixing `+` and `,` raises ValueError."""
    used = [separator for separator in SEPARATORS if separator in kind]
    if len(used) > 1:
        raise ValueError(f"encoder {kind!r} mixes '+' and ','; a combination is either a sum or a concatenation")
    if not used:
        return [kind], None
    return kind.split(used[0]), SEPARATORS[used[0]]


class CombinedEncoder(SentenceEncoder):
    def __init__(self, parts: list[SentenceEncoder], mode: str):
        super().__init__()
        if mode not in ("sum", "concat"):
            raise ValueError(f"combination mode must be sum or concat, not {mode!r}")
        if len(parts) < 2:
            raise ValueError(f"a combination needs at least two parts, got {len(parts)}")
        if mode == "sum" and len({part.dim for part in parts}) > 1:
            raise ValueError(f"a sum needs equal dims, got {', '.join(str(part.dim) for part in parts)}")
        self.parts, self.mode = nn.ModuleList(parts), mode
        self.kind = ("+" if mode == "sum" else ",").join(part.kind for part in parts)
        self.dim = parts[0].dim if mode == "sum" else sum(part.dim for part in parts)

    @property
    def weights_dtype(self) -> str:
        return self.parts[0].weights_dtype

    def spec(self) -> dict:
        return {"mode": self.mode}

    def prepare(self, sentences: list[str]):
        return [part.prepare(sentences) for part in self.parts]

    def forward(self, inputs) -> torch.Tensor:
        vectors = [part(part_inputs) for part, part_inputs in zip(self.parts, inputs)]
        return torch.stack(vectors).sum(0) if self.mode == "sum" else torch.cat(vectors, dim=1)

    def _save_parts(self, directory: Path, dtype: str) -> dict:
        names = [f"part-{i}" for i in range(1, len(self.parts) + 1)]
        for name, part in zip(names, self.parts):
            part.save(directory / name, dtype)
        return {"parts": names}

    @classmethod
    def from_config(cls, directory: Path, config: dict) -> "CombinedEncoder":
        from paranmt.models.encoders import load_encoder

        return cls([load_encoder(directory / name) for name in config["parts"]], config["mode"])
