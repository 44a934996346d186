"""Paraphrastic sentence encoders (SPEC §3): WORD, TRIGRAM, SP averaging; LSTMavg, BLSTM, GRAN; WORD+TRIGRAM (sum)
and WORD,TRIGRAM (concatenation). One interface: `encoder.encode(list[str]) -> np.ndarray [n, dim]`,
`encoder.save(dir)`, `load_encoder(dir)`; `create_encoder(kind, texts, ...)` builds a fresh (randomly initialized)
encoder whose vocabulary comes from `texts` (or a sentencepiece model trained on them / given).
"""
from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from paranmt.models.encoders.averaging import AveragingEncoder
from paranmt.models.encoders.base import FORMAT, SentenceEncoder, cosine_rows
from paranmt.models.encoders.combined import CombinedEncoder
from paranmt.models.encoders.featurizers import (CharTrigramFeaturizer, SentencePieceFeaturizer, WordFeaturizer)
from paranmt.models.encoders.recurrent import BLSTMEncoder, GRANEncoder, LSTMAvgEncoder

ENCODER_KINDS = ("word", "trigram", "sp", "lstm", "blstm", "gran", "word+trigram", "word,trigram")
RECURRENT_KINDS = ("lstm", "blstm", "gran")
RECURRENT = {cls.kind: cls for cls in (LSTMAvgEncoder, BLSTMEncoder, GRANEncoder)}

__all__ = ["ENCODER_KINDS", "RECURRENT_KINDS", "SentenceEncoder", "cosine_rows", "create_encoder", "load_encoder",
           "EncoderError"]


class EncoderError(ValueError):
    """A missing or malformed encoder directory."""


def create_encoder(kind: str, texts: Sequence[str] = (), *, dim: int = 300, hidden: int | None = None,
                   vocab_size: int = 200_000, sp_model: str | Path | None = None, sp_vocab_size: int = 20_000,
                   recurrent_units: str = "word", dropout: float = 0.0, word_dropout: float = 0.0,
                   work_dir: str | Path = "work/encoder-sp") -> SentenceEncoder:
    """A randomly initialized encoder of `kind` (one of ENCODER_KINDS).

    Word/trigram vocabularies are the `vocab_size` most frequent units of `texts`; an SP encoder uses `sp_model`
    if given, else trains a sentencepiece model of `sp_vocab_size` pieces on `texts` under `work_dir`.
    Recurrent encoders run over `recurrent_units` (`word` or `sp`); hidden size defaults to `dim`.
    """
    if kind not in ENCODER_KINDS:
        raise EncoderError(f"unknown encoder {kind!r}; choose one of {', '.join(ENCODER_KINDS)}")
    common = {"dropout": dropout, "word_dropout": word_dropout}

    def featurizer(units: str):
        if units == "word":
            return WordFeaturizer.build(texts, vocab_size)
        if units == "trigram":
            return CharTrigramFeaturizer.build(texts, vocab_size)
        if units == "sp":
            if sp_model:
                return SentencePieceFeaturizer(sp_model)
            return SentencePieceFeaturizer.train(texts, Path(work_dir) / "sp", sp_vocab_size)
        raise EncoderError(f"unknown units {units!r}; choose word, trigram or sp")

    if kind in ("word", "trigram", "sp"):
        return AveragingEncoder(featurizer(kind), dim=dim, **common)
    if kind in RECURRENT:
        return RECURRENT[kind](featurizer(recurrent_units), word_dim=dim, hidden=hidden or dim, **common)
    mode = "sum" if "+" in kind else "concat"
    return CombinedEncoder(AveragingEncoder(featurizer("word"), dim=dim, **common),
                           AveragingEncoder(featurizer("trigram"), dim=dim, **common), mode)


def load_encoder(directory: str | Path) -> SentenceEncoder:
    """Load an encoder saved with `SentenceEncoder.save` (config.json + weights.npz + featurizer files)."""
    directory = Path(directory)
    config_file = directory / "config.json"
    if not config_file.is_file():
        raise EncoderError(f"{directory} is not an encoder directory (no config.json)")
    config = json.loads(config_file.read_text())
    if config.get("format") != FORMAT:
        raise EncoderError(f"{config_file}: format {config.get('format')!r}, expected {FORMAT!r}")
    kind = config["kind"]
    if kind in ("word", "trigram", "sp"):
        encoder = AveragingEncoder.from_config(directory, config)
    elif kind in RECURRENT:
        encoder = RECURRENT[kind].from_config(directory, config)
    elif kind in ("word+trigram", "word,trigram"):
        encoder = CombinedEncoder.from_config(directory, config)
    elif kind == "bgt":
        from paranmt.models.encoders.bgt import BGTEncoder

        encoder = BGTEncoder.from_config(directory, config)
    else:
        raise EncoderError(f"{config_file}: unknown encoder kind {kind!r}")
    return encoder.eval()
