"""The parse stage's factory for the stage table: `parse_stage(config.parse, config.stages)` -> a `ParseStage`.

Rows gain `ref_parse, ref_template, bt_parse, bt_template` (see `paranmt.models.parsing.stage.ParseStage`). A
sentence without a parse (too long, empty, parser failure) keeps its pair, with null parse columns and a counter
`parse/<reason>` (`null_too_long`, `null_empty`, `null_parser_error`); `parse/sentences`, `parse/parsed` and
`parse/dedup_hits` count the work done; `parse/rows_skipped_only_if` the rows `parse.only_if` left unparsed
(their `parse_skipped` is `only_if`) and `parse/sides_kept` the parses an earlier run filled and this one kept.
The parser is loaded once per worker process (`process_model`), from a local copy of the model when it lives on
gs:// (`local_model_path`).
"""
from __future__ import annotations

from paranmt.models.parsing.parser import ParserModelError, StanzaParser, loadable_model_files
from paranmt.models.parsing.stage import ParseStage
from paranmt.models.stage import process_model
from paranmt.schemas.build_config import ParseConfig
from paranmt.transforms.io.model_cache import local_model_path
from paranmt.transforms.stage import checked_model


class _ParserLoader:
    """A picklable `load_parser` callable for ParseStage: one StanzaParser per (model, device, batch, threads) per
    process."""

    def __init__(self, model_dir: str, device: str, batch_size: int, threads: int):
        self.model_dir, self.device, self.batch_size, self.threads = model_dir, device, batch_size, threads

    def __call__(self) -> StanzaParser:
        local = local_model_path(self.model_dir)
        return process_model(("parse", local, self.device, self.batch_size, self.threads),
                             lambda: StanzaParser(local, device=self.device, batch_size=self.batch_size,
                                                  threads=self.threads))


def parse_stage(config: ParseConfig, stages: list[str]) -> ParseStage:
    """The parse stage of `config` in a build running `stages`; ConfigError (one message) for a missing or invalid
    model or a bad `parse.only_if`. Parses already filled are kept when no stage of the build rewrites ref or bt
    (neither clean nor translate runs)."""
    model_dir = checked_model("parse.model_dir", config.model_dir, loadable_model_files,
                              (ParserModelError,))
    return ParseStage(_ParserLoader(model_dir, config.device, config.batch_size, config.threads), config,
                      keep_parsed=not {"clean", "translate"} & set(stages))
