"""The one reader of local files of pairs: the inputs of the trainers (`read_pairs`: `paranmt train`, `train-bgt`,
`probe`) and the readers each layout has (`shard_rows`, `tsv_pairs`, `aligned_pairs`), which the paraphrasers'
inputs (models/generation/data.py) and the NMT recipe's bitext (models/nmt/recipe.py) are read with too.

Formats of `read_pairs` (`auto` picks by what the path is):
- `shards`: a directory written by `paranmt build` (its top-level *.parquet files; rejects/ is ignored) or a
  single Parquet file with the shard schema (a filtered corpus): pairs (ref, bt) (`shard_columns`; bitext
  trainers read (ref, cs)); rows whose second column is null or empty are skipped (e.g. not translated yet).
- `tsv`: one pair per line, `side1 TAB side2` (extra columns ignored); lines without two non-empty sides skipped.
  A first line naming `ref` and `bt` is a header (`filter --tsv`'s pairs.tsv): the file is a table TSV
  (schemas/tsv.py), its `ref` and `bt` columns are the sides.
- `moses`: a two-file prefix `PREFIX.<s1>` / `PREFIX.<s2>` (suffixes given, or auto: en/cs then eng/ces, English
  first); the two files must have the same number of lines.
Text lines are read as `paranmt build` reads them (models/encoding.py `LineRejects`): a line that is not UTF-8
(a Moses pair with such a side), a blank TSV line and a TSV line without both columns are rejects, counted under the
build's reasons (`read/invalid_utf8`, `read/empty_line`, `read/wrong_column_count`), never pairs of U+FFFD
characters; a TSV or Moses file that is mostly not UTF-8 text (a binary file given by mistake;
models/files.require_text) is an error naming it. Pairs with an empty side or with more than `max_words` whitespace
words on a side are skipped and counted. `carry` names further shard columns read with each pair, returned as
(side1, side2, *values) (e.g. the score a probe ranks by; shards only). A missing column or an unreadable Parquet
file is a TrainingDataError.
"""
from __future__ import annotations

import csv
import json
import logging
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import zip_longest
from pathlib import Path

from paranmt.models.encoding import LineRejects
from paranmt.models.files import require_text
from paranmt.schemas import layout, tsv
from paranmt.schemas.errors import ConfigError

FORMATS = ("auto", "shards", "tsv", "moses")
AUTO_SUFFIXES = (("en", "cs"), ("eng", "ces"))
TRAIN_DATA = "train_data.json"      # what a trainer read: inputs, format, counts (PairCounts.record)
log = logging.getLogger(__name__)


class TrainingDataError(ValueError):
    """A training input that cannot be read (missing file, mismatched line counts, unknown format)."""


@dataclass
class PairCounts:
    """What reading training inputs found: records read (rejects included), pairs kept (in all and per input, in
    the order of the inputs), pairs skipped by reason, and the rejected lines (models/encoding.py)."""
    read: int = 0
    kept: int = 0
    kept_per_input: list[int] = field(default_factory=list)
    skipped: dict[str, int] = field(default_factory=dict)
    rejects: LineRejects = field(default_factory=LineRejects)

    def skip(self, reason: str) -> None:
        self.skipped[reason] = self.skipped.get(reason, 0) + 1

    def record(self) -> dict:
        """The counts as a run records them (train_data.json): read, kept, skipped, rejected by `read/<reason>`
        and the line per file with lines that are not UTF-8."""
        return {"read": self.read, "kept": self.kept, "skipped": self.skipped, "rejected": self.rejects.by_reason,
                "not_utf8": self.rejects.advice()}


def detect_format(path: str, suffixes: tuple[str, str] | None = None) -> str:
    """The format of `path` (`auto`): a Moses prefix when its two files exist (the given suffixes, else
    AUTO_SUFFIXES)."""
    p = Path(path)
    if p.is_dir():
        return "shards"
    if p.suffix == ".parquet":
        return "shards"
    if p.is_file():
        return "tsv"
    if any(Path(f"{path}.{a}").is_file() and Path(f"{path}.{b}").is_file() for a, b in
           ([suffixes] if suffixes else AUTO_SUFFIXES)):
        return "moses"
    raise TrainingDataError(f"training input {path!r} not found (not a shard dir, Parquet, TSV or Moses prefix)")


def shard_rows(path: str, columns: tuple[str, ...], optional: tuple[str, ...] = (),
               error: type[Exception] = TrainingDataError) -> Iterator[tuple]:
    """The rows of the local shards at `path` (a directory's top-level *.parquet files, or one Parquet file:
    schemas/layout.local_shards) as tuples of the values of `columns` and then of `optional` (None where a file has
    no such column); a path without shards, a file without one of `columns` or one that cannot be read is an
    `error` naming it."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    files = layout.local_shards(path)
    if not files:
        raise error(f"{path}: no shard files (*.parquet) at its top level")
    for file in files:
        try:
            names = pq.read_schema(file).names
            missing = [name for name in columns if name not in names]
            if missing:
                raise error(f"{file} has no column {', '.join(missing)} (its columns: {', '.join(names)})")
            table = pq.read_table(file, columns=[name for name in (*columns, *optional) if name in names])
        except pa.ArrowException as problem:
            raise error(f"{file} is not a readable Parquet file: {problem}") from None
        yield from zip(*(table.column(name).to_pylist() if name in names else [None] * table.num_rows
                         for name in (*columns, *optional)))


def tsv_pairs(path: str | Path, rejects: LineRejects, columns: tuple[str, ...] = tsv.PAIRS_COLUMNS,
              optional: tuple[str, ...] = (), error: type[Exception] = TrainingDataError) -> Iterator[dict]:
    """The rows of a TSV of pairs (schemas/tsv.py `pair_rows`: a header naming `columns`, or plain lines of
    `columns` in that order) as {column: value} of `columns` and of the `optional` columns the header names (when
    the row has them); its lines read as `paranmt build` reads them (`rejects`), a row short of one of `columns` a
    `wrong_column_count` reject. A file that is mostly not UTF-8 text (models/files.require_text) or not a
    readable TSV is an error naming it."""
    require_text(path, "training input")
    index, rows = tsv.pair_rows(rejects.text_lines(path), columns, optional)
    needed = max(index[column] for column in columns) + 1
    try:
        for parts in rows:
            if len(parts) < needed:
                rejects.add("wrong_column_count")
            else:
                yield {column: parts[i] for column, i in index.items() if i < len(parts)}
    except csv.Error as problem:
        raise error(f"{path}: not a readable TSV ({problem})") from None


def aligned_pairs(first: str | Path, second: str | Path, rejects: LineRejects,
                  error: type[Exception] = TrainingDataError) -> Iterator[tuple[str, str]]:
    """The pairs of lines of two line-aligned text files, read as `paranmt build` reads lines (`rejects`: a pair
    with a line that is not UTF-8 is an `invalid_utf8` reject); files of different lengths are an `error` naming
    both lengths."""
    ended = object()
    sides = zip_longest(rejects.lines(first), rejects.lines(second), fillvalue=ended)
    for line1, line2 in sides:
        if ended in (line1, line2):
            for _ in sides:         # the rest of the longer file, to count its lines
                pass
            raise error(f"{first} has {rejects.files[str(first)].lines} lines but {second} has "
                        f"{rejects.files[str(second)].lines}")
        if line1 is None or line2 is None:
            rejects.add("invalid_utf8")
        else:
            yield line1, line2


def _raw_pairs(path: str, fmt: str, suffixes: tuple[str, str] | None, shard_columns: tuple[str, ...],
               rejects: LineRejects):
    if fmt == "shards":
        yield from shard_rows(path, shard_columns)
    elif len(shard_columns) > 2:
        raise TrainingDataError(f"{path} is a {fmt} file of pairs: it has no column "
                                f"{', '.join(shard_columns[2:])} (a shard directory or Parquet corpus has)")
    elif fmt == "tsv":
        for row in tsv_pairs(path, rejects):
            yield tuple(row[column] for column in tsv.PAIRS_COLUMNS)
    elif fmt == "moses":
        if suffixes is None:
            found = [s for s in AUTO_SUFFIXES if all(Path(f"{path}.{x}").is_file() for x in s)]
            if not found:
                raise TrainingDataError(f"{path}: no {' or '.join('.%s/.%s' % s for s in AUTO_SUFFIXES)} files")
            suffixes = found[0]
        first, second = (Path(f"{path}.{s}") for s in suffixes)
        for file in (first, second):
            require_text(file, "training input")
        yield from aligned_pairs(first, second, rejects)
    else:
        raise TrainingDataError(f"unknown training format {fmt!r}; choose one of {', '.join(FORMATS)}")


def read_pairs(paths: list[str], fmt: str = "auto", suffixes: tuple[str, str] | None = None,
               max_words: int = 100, shard_columns: tuple[str, str] = ("ref", "bt"), carry: tuple[str, ...] = ()
               ) -> tuple[list[tuple], PairCounts]:
    """All usable pairs of `paths` (in order) and the counts of what was read and skipped; with `carry`, each
    pair is followed by the values of those columns."""
    pairs, counts = [], PairCounts()
    for path in paths:
        path_format = detect_format(path, suffixes) if fmt == "auto" else fmt
        before = len(pairs)
        for side1, side2, *values in _raw_pairs(path, path_format, suffixes, (*shard_columns, *carry),
                                                counts.rejects):
            counts.read += 1
            side1, side2 = (side1 or "").strip(), (side2 or "").strip()
            if not side1 or not side2:
                counts.skip("empty_side")
            elif max(len(side1.split()), len(side2.split())) > max_words:
                counts.skip("too_long")
            else:
                pairs.append((side1, side2, *values))
        counts.kept_per_input.append(len(pairs) - before)
    counts.kept = len(pairs)
    counts.read += counts.rejects.total
    return pairs, counts


def load_training_pairs(paths: list[str], fmt: str, output: Path, suffixes: tuple[str, str] | None = None,
                        max_words: int = 100, shard_columns: tuple[str, str] = ("ref", "bt")
                        ) -> tuple[list[tuple[str, str]], PairCounts]:
    """The usable pairs of a trainer's inputs (read_pairs) and what reading them counted; unreadable or empty inputs
    are a ConfigError. Creates `output` and records the counts in `output/TRAIN_DATA` (PairCounts.record)."""
    try:
        pairs, counts = read_pairs(paths, fmt, suffixes, max_words, shard_columns)
    except (TrainingDataError, OSError) as error:
        raise ConfigError(str(error)) from None
    if not pairs:
        raise ConfigError(f"no usable training pairs in {paths} ({counts.record()})")
    log.info("training pairs: %d kept of %d read; skipped %s", counts.kept, counts.read, counts.skipped)
    output.mkdir(parents=True, exist_ok=True)
    (output / TRAIN_DATA).write_text(json.dumps({"inputs": paths, "format": fmt, **counts.record()}, indent=2) + "\n")
    return pairs, counts
