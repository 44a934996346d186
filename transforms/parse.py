"""Beam adapter of the parse stage: `stage_transform(config)` for `paranmt build --stages ...,parse`.

`(shard, row)` -> `(rows, rejects)`: rows gain `ref_parse, ref_template, bt_parse, bt_template`
(see `paranmt.models.parsing.stage.ParseStage`). A sentence without a parse (too long, empty, parser failure) keeps
its pair, with null parse columns and a Beam counter `parse/<reason>` (`null_too_long`, `null_empty`,
`null_parser_error`); `parse/sentences`, `parse/parsed` and `parse/dedup_hits` count the work done. The parser is
loaded once per worker process (shared by every DoFn instance in it).
"""
from __future__ import annotations

import threading

import apache_beam as beam
from apache_beam.metrics import Metrics

from paranmt.models.parsing.parser import DEVICES, ParserModelError, StanzaParser, model_files
from paranmt.models.parsing.stage import ParseStage
from paranmt.schemas.config import BuildConfig, ConfigError, ParseConfig, asset_path
from paranmt.transforms.io.model_cache import local_model_path
from paranmt.transforms.stage import ApplyStage

_PARSERS: dict[tuple, StanzaParser] = {}
_PARSERS_LOCK = threading.Lock()


def shared_parser(model_dir: str, device: str, batch_size: int) -> StanzaParser:
    """One StanzaParser per (model_dir, device, batch_size) per process."""
    key = (model_dir, device, batch_size)
    with _PARSERS_LOCK:
        if key not in _PARSERS:
            _PARSERS[key] = StanzaParser(model_dir, device=device, batch_size=batch_size)
        return _PARSERS[key]


class _ParserLoader:
    """A picklable `load_parser` callable for ParseStage."""

    def __init__(self, model_dir: str, device: str, batch_size: int):
        self.model_dir, self.device, self.batch_size = model_dir, device, batch_size

    def __call__(self) -> StanzaParser:
        return shared_parser(local_model_path(self.model_dir), self.device, self.batch_size)


class CountedParseStage(ParseStage):
    """ParseStage that reports each batch's counts (`ParseStage.last_counts`) as Beam counters `parse/<reason>`."""

    def process_batch(self, rows: list[dict]) -> list[dict]:
        outputs = super().process_batch(rows)
        for reason, count in self.last_counts.items():
            if count:
                Metrics.counter(self.name, reason).inc(count)
        return outputs


def validate_parse_config(config: ParseConfig) -> str:
    """The resolved model directory; ConfigError (one message) for a missing model or a bad setting."""
    model_dir = asset_path(config.model_dir)
    try:
        model_files(local_model_path(model_dir))
    except ParserModelError as error:
        raise ConfigError(f"parse.model_dir: {error}") from None
    if config.max_tokens < 1:
        raise ConfigError("parse.max_tokens must be >= 1")
    if config.batch_size < 1:
        raise ConfigError("parse.batch_size must be >= 1")
    if config.cache_size < 0:
        raise ConfigError("parse.cache_size must be >= 0")
    if config.device not in DEVICES:
        raise ConfigError(f"parse.device must be one of {', '.join(DEVICES)}; got {config.device!r}")
    return model_dir


def make_parse_stage(config: ParseConfig) -> CountedParseStage:
    model_dir = validate_parse_config(config)
    return CountedParseStage(_ParserLoader(model_dir, config.device, config.batch_size),
                             max_tokens=config.max_tokens, cache_size=config.cache_size)


def stage_transform(config: BuildConfig) -> beam.PTransform:
    """The parse stage of `paranmt build` (validates `config.parse` first; ConfigError before any work)."""
    stage = make_parse_stage(config.parse)
    return ApplyStage(stage, max_batch=config.parse.batch_size)
