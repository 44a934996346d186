"""Paraphrastic sentence encoders (SPEC §3, §8). One interface: `encoder.encode(list[str]) -> np.ndarray [n, dim]`,
`encoder.save(dir)`, `load_encoder(dir)`; `create_encoder(kind, texts, ...)` builds a fresh (randomly initialized)
encoder whose vocabulary comes from `texts` (or a sentencepiece model trained on them / given).

Kinds (`BASE_KINDS`): averaging `word`, `trigram`, `sp`, `add`, `proj`, `dan`, `charagram`, `charagram-word`
(averaging.py); recurrent `lstm`, `blstm`, `blstm-ff`, `lstm-last`, `lstm-og`, `lstm-nog`, `rnn`, `irnn`, `gran`,
`gran-2` ... `gran-5`, `bigran` (recurrent.py); and combinations of any of them by sum (`word+trigram+lstm`) or
concatenation (`word,trigram,lstm`) (combined.py).
"""
from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from paranmt.models.encoders.averaging import (AdditiveEncoder, AveragingEncoder, CharagramEncoder,
                                               DeepAveragingEncoder, ProjectionEncoder)
from paranmt.models.encoders.base import FORMAT, SentenceEncoder, cosine_rows
from paranmt.models.encoders.combined import CombinedEncoder, split_kind
from paranmt.models.encoders.featurizers import (CharNgramFeaturizer, CharTrigramFeaturizer,
                                                 SentencePieceFeaturizer, WordFeaturizer)
from paranmt.models.encoders.recurrent import RECURRENT_CLASSES, PeepholeLSTMEncoder

AVERAGING_KINDS = ("word", "trigram", "sp", "add", "proj", "dan", "charagram", "charagram-word")
RECURRENT = {cls.kind: cls for cls in RECURRENT_CLASSES}
RECURRENT_KINDS = (*RECURRENT, "lstm-og", "lstm-nog")
BASE_KINDS = AVERAGING_KINDS + RECURRENT_KINDS
# every base kind plus the papers' combinations (P18 Tables 8/9); any other combination of base kinds works too
ENCODER_KINDS = BASE_KINDS + ("word+trigram", "word,trigram", "word+trigram+lstm", "word,trigram,lstm")
SQUARE_KINDS = tuple(kind for kind, cls in RECURRENT.items() if cls.square)   # need hidden == dim
UNITS = ("word", "sp")

__all__ = ["BASE_KINDS", "ENCODER_KINDS", "RECURRENT_KINDS", "SentenceEncoder", "cosine_rows", "create_encoder",
           "load_encoder", "shared_encoder", "check_kind", "EncoderError"]


class EncoderError(ValueError):
    """A missing or malformed encoder directory, or an unknown encoder kind."""


def check_kind(kind: str) -> tuple[list[str], str | None]:
    """(base kinds, combination mode) of `kind`, as `split_kind`; EncoderError for an unknown or mixed one."""
    try:
        parts, mode = split_kind(kind)
    except ValueError as error:
        raise EncoderError(str(error)) from None
    for part in parts:
        if part not in BASE_KINDS:
            raise EncoderError(f"unknown encoder {part!r}; choose one of {', '.join(BASE_KINDS)}, or a sum "
                               f"(word+trigram+lstm) or concatenation (word,trigram) of them")
    return parts, mode


def shared_encoder(directory: str) -> SentenceEncoder:
    """One loaded encoder per directory per process (the project's one cache, models.stage.process_model)."""
    from paranmt.models.stage import process_model

    return process_model(("encoder", directory), lambda: load_encoder(directory))


def create_encoder(kind: str, texts: Sequence[str] = (), *, dim: int = 300, hidden: int | None = None,
                   vocab_size: int = 200_000, sp_model: str | Path | None = None, sp_vocab_size: int = 20_000,
                   recurrent_units: str = "word", dropout: float = 0.0, word_dropout: float = 0.0,
                   activation: str = "tanh", layers: int = 1, peepholes: bool = True,
                   bidirectional_combine: str = "sum", ngram_orders: Sequence[int] = (2, 3, 4),
                   ngram_min_count: int = 2, work_dir: str | Path = "work/encoder-sp") -> SentenceEncoder:
    """A randomly initialized encoder of `kind` (a base kind or a combination of them, see `check_kind`).

    Word/trigram/n-gram vocabularies are the `vocab_size` most frequent units of `texts` (CHARAGRAM n-grams of
    `ngram_orders` seen at least `ngram_min_count` times); an SP encoder uses `sp_model` if given, else trains a
    sentencepiece model of `sp_vocab_size` pieces on `texts` under `work_dir`. Recurrent encoders and the
    averaging relatives add/proj/dan run over `recurrent_units` (`word` or `sp`); hidden size defaults to `dim`.
    `activation`: dan (tanh|relu), rnn (tanh|relu), charagram (tanh|linear); `layers`: dan; `peepholes`:
    lstm-og/lstm-nog; `bidirectional_combine`: bigran (sum|ff).
    """
    parts, mode = check_kind(kind)
    if recurrent_units not in UNITS:
        raise EncoderError(f"unknown units {recurrent_units!r}; choose word or sp")
    common = {"dropout": dropout, "word_dropout": word_dropout}
    hidden = hidden or dim
    built: dict[str, object] = {}

    def featurizer(units: str):
        if units not in built:          # one featurizer (vocabulary / sp model) per unit type, shared by parts
            if units == "word":
                built[units] = WordFeaturizer.build(texts, vocab_size)
            elif units == "trigram":
                built[units] = CharTrigramFeaturizer.build(texts, vocab_size)
            elif units in ("charagram", "charagram-word"):
                built[units] = CharNgramFeaturizer.build(texts, vocab_size, ngram_min_count, tuple(ngram_orders),
                                                         span_words=units == "charagram")
            elif sp_model:
                built[units] = SentencePieceFeaturizer(sp_model)
            else:
                built[units] = SentencePieceFeaturizer.train(texts, Path(work_dir) / "sp", sp_vocab_size)
        return built[units]

    def build(part: str) -> SentenceEncoder:
        if part in ("word", "trigram", "sp"):
            return AveragingEncoder(featurizer(part), dim=dim, **common)
        if part in ("charagram", "charagram-word"):
            return CharagramEncoder(featurizer(part), dim=dim, activation=activation, **common)
        units = featurizer(recurrent_units)
        if part == "add":
            return AdditiveEncoder(units, dim=dim, **common)
        if part == "proj":
            return ProjectionEncoder(units, dim=dim, hidden=hidden, **common)
        if part == "dan":
            return DeepAveragingEncoder(units, dim=dim, hidden=hidden, layers=layers, activation=activation,
                                        **common)
        if part in ("lstm-og", "lstm-nog"):
            return PeepholeLSTMEncoder(units, word_dim=dim, hidden=hidden, output_gate=part == "lstm-og",
                                       peepholes=peepholes, **common)
        extra = {"rnn": {"activation": activation}, "bigran": {"bidirectional_combine": bidirectional_combine}}
        return RECURRENT[part](units, word_dim=dim, hidden=hidden, **extra.get(part, {}), **common)

    try:
        encoders = [build(part) for part in parts]
        return encoders[0] if mode is None else CombinedEncoder(encoders, mode)
    except ValueError as error:
        raise EncoderError(str(error)) from None


def encoder_class(kind: str):
    """The class that loads a saved encoder of `kind` (EncoderError if none does)."""
    if kind in ("word", "trigram", "sp"):
        return AveragingEncoder
    if kind == "bgt":                   # the semantic encoder of a trained BGT (train-bgt), loaded lazily
        from paranmt.models.encoders.bgt import BGTEncoder

        return BGTEncoder
    classes = {"add": AdditiveEncoder, "proj": ProjectionEncoder, "dan": DeepAveragingEncoder,
               "charagram": CharagramEncoder, "charagram-word": CharagramEncoder, "lstm-og": PeepholeLSTMEncoder,
               "lstm-nog": PeepholeLSTMEncoder, **RECURRENT}
    if kind in classes:
        return classes[kind]
    check_kind(kind)
    return CombinedEncoder


def load_encoder(directory: str | Path) -> SentenceEncoder:
    """Load an encoder saved with `SentenceEncoder.save` (config.json + weights.npz + featurizer files)."""
    directory = Path(directory)
    config_file = directory / "config.json"
    if not config_file.is_file():
        raise EncoderError(f"{directory} is not an encoder directory (no config.json)")
    config = json.loads(config_file.read_text())
    if config.get("format") != FORMAT:
        raise EncoderError(f"{config_file}: format {config.get('format')!r}, expected {FORMAT!r}")
    try:
        cls = encoder_class(config["kind"])
    except EncoderError as error:
        raise EncoderError(f"{config_file}: {error}") from None
    return cls.from_config(directory, config).eval()
