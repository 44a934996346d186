"""Paraphrastic sentence encoders (SPEC §3, §8). One interface: `encoder.encode(list[str]) -> np.ndarray [n, dim]`,
`encoder.save(dir)`, `load_encoder(dir)`; `create_encoder(kind, texts, ...)` builds a fresh (randomly initialized)
encoder whose vocabulary comes from `texts` (or a sentencepiece model trained on them / given).

Kinds (`BASE_KINDS`): averaging `word`, `trigram`, `sp`, `add`, `proj`, `dan`, `charagram`, `charagram-word`
(averaging.py); recurrent `lstm`, `blstm`, `blstm-ff`, `lstm-last`, `lstm-og`, `lstm-nog`, `rnn`, `irnn`, `gran`,
`gran-2` ... `gran-5`, `bigran` (recurrent.py); and combinations of any of them by sum (`word+trigram+lstm`) or
concatenation (`word,trigram,lstm`) (combined.py). Each base kind is registered once, in `KINDS`: the class that
loads it, the units it reads, and how `create_encoder` builds it.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import torch

from paranmt.models.encoders.averaging import (AdditiveEncoder, AveragingEncoder, CharagramEncoder,
                                               DeepAveragingEncoder, ProjectionEncoder)
from paranmt.models.encoders.base import FORMAT, SentenceEncoder, cosine_rows
from paranmt.models.encoders.combined import CombinedEncoder, split_kind
from paranmt.models.encoders.featurizers import (CharNgramFeaturizer, CharTrigramFeaturizer,
                                                 SentencePieceFeaturizer, WordFeaturizer)
from paranmt.models.encoders.recurrent import RECURRENT_CLASSES, PeepholeLSTMEncoder
from paranmt.models.files import ModelFileError, model_directory, read_json, reading
from paranmt.schemas.errors import ConfigError
from paranmt.schemas.paths import asset_path

UNITS = ("word", "sp")


@dataclass(frozen=True)
class BuildOptions:
    """The architecture options of `create_encoder` that a kind's builder may read."""
    dim: int
    hidden: int
    dropout: float
    word_dropout: float
    activation: str
    layers: int
    peepholes: bool
    bidirectional_combine: str

    @property
    def common(self) -> dict:
        return {"dropout": self.dropout, "word_dropout": self.word_dropout}


@dataclass(frozen=True)
class EncoderKind:
    """A base kind: `cls` loads a saved one; `units` is the featurizer it reads (`None`: create_encoder's
    `recurrent_units`, word or sp); `build(featurizer, options, kind)` makes a fresh one."""
    cls: type
    units: str | None
    build: Callable[[object, BuildOptions, str], SentenceEncoder]


def _averaging(featurizer, o: BuildOptions, kind: str) -> SentenceEncoder:
    return AveragingEncoder(featurizer, dim=o.dim, **o.common)


def _charagram(featurizer, o: BuildOptions, kind: str) -> SentenceEncoder:
    return CharagramEncoder(featurizer, dim=o.dim, activation=o.activation, **o.common)


def _peephole(featurizer, o: BuildOptions, kind: str) -> SentenceEncoder:
    return PeepholeLSTMEncoder(featurizer, word_dim=o.dim, hidden=o.hidden, output_gate=kind == "lstm-og",
                               peepholes=o.peepholes, **o.common)


def _recurrent(cls: type) -> EncoderKind:
    extra = {"rnn": lambda o: {"activation": o.activation},
             "bigran": lambda o: {"bidirectional_combine": o.bidirectional_combine}}.get(cls.kind, lambda o: {})
    return EncoderKind(cls, None, lambda featurizer, o, kind: cls(featurizer, word_dim=o.dim, hidden=o.hidden,
                                                                   **extra(o), **o.common))


KINDS: dict[str, EncoderKind] = {
    "word": EncoderKind(AveragingEncoder, "word", _averaging),
    "trigram": EncoderKind(AveragingEncoder, "trigram", _averaging),
    "sp": EncoderKind(AveragingEncoder, "sp", _averaging),
    "add": EncoderKind(AdditiveEncoder, None, lambda f, o, kind: AdditiveEncoder(f, dim=o.dim, **o.common)),
    "proj": EncoderKind(ProjectionEncoder, None,
                        lambda f, o, kind: ProjectionEncoder(f, dim=o.dim, hidden=o.hidden, **o.common)),
    "dan": EncoderKind(DeepAveragingEncoder, None, lambda f, o, kind: DeepAveragingEncoder(
        f, dim=o.dim, hidden=o.hidden, layers=o.layers, activation=o.activation, **o.common)),
    "charagram": EncoderKind(CharagramEncoder, "charagram", _charagram),
    "charagram-word": EncoderKind(CharagramEncoder, "charagram-word", _charagram),
    **{cls.kind: _recurrent(cls) for cls in RECURRENT_CLASSES},
    "lstm-og": EncoderKind(PeepholeLSTMEncoder, None, _peephole),
    "lstm-nog": EncoderKind(PeepholeLSTMEncoder, None, _peephole),
}
BASE_KINDS = tuple(KINDS)
RECURRENT_KINDS = tuple(kind for kind, spec in KINDS.items()
                        if spec.cls in (*RECURRENT_CLASSES, PeepholeLSTMEncoder))
# every base kind plus the papers' combinations (P18 Tables 8/9); any other combination of base kinds works too
ENCODER_KINDS = BASE_KINDS + ("word+trigram", "word,trigram", "word+trigram+lstm", "word,trigram,lstm")
SQUARE_KINDS = tuple(cls.kind for cls in RECURRENT_CLASSES if cls.square)     # need hidden == dim

__all__ = ["BASE_KINDS", "ENCODER_KINDS", "RECURRENT_KINDS", "SentenceEncoder", "cosine_rows", "create_encoder",
           "load_encoder", "open_encoder", "shared_encoder", "check_kind", "EncoderError"]


class EncoderError(ModelFileError):
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
    options = BuildOptions(dim=dim, hidden=hidden or dim, dropout=dropout, word_dropout=word_dropout,
                           activation=activation, layers=layers, peepholes=peepholes,
                           bidirectional_combine=bidirectional_combine)
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
        spec = KINDS[part]
        return spec.build(featurizer(spec.units or recurrent_units), options, part)

    try:
        encoders = [build(part) for part in parts]
        return encoders[0] if mode is None else CombinedEncoder(encoders, mode)
    except ValueError as error:
        raise EncoderError(str(error)) from None


def encoder_class(kind: str):
    """The class that loads a saved encoder of `kind` (EncoderError if none does)."""
    if kind == "bgt":                   # the semantic encoder of a trained BGT (train-bgt), loaded lazily
        from paranmt.models.encoders.bgt import BGTEncoder

        return BGTEncoder
    if kind in KINDS:
        return KINDS[kind].cls
    check_kind(kind)
    return CombinedEncoder


def load_encoder(directory: str | Path) -> SentenceEncoder:
    """Load an encoder saved with `SentenceEncoder.save` (config.json + weights.npz + featurizer files), after the
    directory's MANIFEST.json check (models/files.py); a corrupt file is a ConfigError naming it."""
    directory = model_directory(directory, "encoder", EncoderError)
    config_file = directory / "config.json"
    if not config_file.is_file():
        raise EncoderError(f"{directory} is not an encoder directory (no config.json)")
    config = read_json(config_file, dict, "encoder config")
    if config.get("format") != FORMAT:
        raise EncoderError(f"{config_file}: format {config.get('format')!r}, expected {FORMAT!r}")
    try:
        cls = encoder_class(str(config.get("kind")))
    except EncoderError as error:
        raise EncoderError(f"{config_file}: {error}") from None
    with reading(config_file, "encoder config"):     # its files' own errors name them (load_weights, featurizers)
        return cls.from_config(directory, config).eval()


def open_encoder(directory: str, threads: int = 1) -> SentenceEncoder:
    """The saved encoder at `directory` (read by `asset_path`: an asset name such as assets/encoder-sp is the shipped
    encoder) with torch on `threads` CPU threads (0: torch's default, one per core), for every command that takes
    `--model`/`--encoder`; a bad directory is a ConfigError."""
    if threads:
        torch.set_num_threads(threads)
    try:
        return load_encoder(asset_path(directory))
    except EncoderError as error:
        raise ConfigError(str(error)) from None
