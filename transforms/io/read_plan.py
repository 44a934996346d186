"""Planning the reading of bitext input: which files (InputFile: a file or a two-file Moses pair, with its shard
stem), and the units of reading work (ReadTask: one per shard of a plain local file, found by one pass over its raw
bytes, or one per compressed / remote file, which can only be read from its start).

A shard is a block of `shard_rows` consecutive records of ONE input file, named `<file stem>[-<path hash>].<block:05d>`
(`block_shard_name`; the path hash only when two input files share a base name).

A TSV file read with a header (`ReadConfig.has_header`: `read.header`, or columns given by name) has its first line
read here (`read_header`), and the names of `read.columns` looked up in it (`tsv_layout`): a name the header lacks
is a ConfigError before any work. The header line is neither a record nor a reject; it keeps its line number, so
ids (`<corpus>:<file>:<line>`) are the lines of the file.
"""
from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from paranmt.schemas.build_config import BuildConfig, ReadConfig
from paranmt.schemas.config import bounded
from paranmt.schemas.errors import ConfigError
from paranmt.schemas.stages import SHARD_ROWS
from paranmt.transforms.io.streams import CorruptFile, compression_of, file_lines, open_raw, strip_compression


@dataclass
class ReadOptions(ReadConfig):
    """What a reader needs: the build's `read` section (ReadConfig, where every default lives), the input
    `format` (required) and the build's `source_lang` (the `src_lang` of rows whose input does not name one).
    `shard_rows` is a number here: a build passes its resolved one (BuildConfig.validate); a reader made on its
    own gets SHARD_ROWS."""
    shard_rows: int = bounded(SHARD_ROWS, 1)
    format: str = field(kw_only=True)
    source_lang: str = field(default=BuildConfig.source_lang, kw_only=True)


@dataclass
class InputFile:
    """One unit of reading: a file (or a two-file Moses pair) with its shard-name stem."""
    paths: tuple[str, ...]
    stem: str

    @property
    def name(self) -> str:
        return PurePosixPath(self.paths[0]).name


def block_shard_name(stem: str, block: int) -> str:
    """The name of block `block` of the input file with shard stem `stem`: `news.00003`."""
    return f"{stem}.{block:05d}"


def plan_inputs(paths: list[str], fmt: str, suffixes=("cs", "en")) -> list[InputFile]:
    """Group matched paths into InputFiles with unique shard stems (sorted, deterministic).

    For `moses`, `paths` are the matches of the source side (`PREFIX.<src>`); the reference file is derived.
    """
    paths = sorted(set(paths))
    if fmt == "moses":
        units = [((p, p[: -len(suffixes[0])] + suffixes[1]), PurePosixPath(p[: -len(suffixes[0]) - 1]).name)
                 for p in paths]
    else:
        units = [((p,), strip_compression(PurePosixPath(p).name)) for p in paths]
    # shard names are file names inside the output directory: no separators, no leading dot (hidden/temporary)
    units = [(pair, re.sub(r"[^A-Za-z0-9._-]", "_", stem).lstrip(".") or "input") for pair, stem in units]
    stems = [stem for _, stem in units]
    return [InputFile(pair, stem if stems.count(stem) == 1
                      else f"{stem}-{hashlib.sha1(pair[0].encode()).hexdigest()[:8]}")
            for pair, stem in units]


@dataclass(frozen=True)
class ReadStart:
    """Where a planned block starts: byte offset in each file of the unit, 1-based line number and 0-based record
    number of the line before it (so ids and shard names are those of a read from the start)."""
    offsets: tuple[int, ...]
    line_no: int
    record_no: int


@dataclass(frozen=True)
class ReadTask:
    """A unit of reading work: the shards `first_block` .. `end_block - 1` (None: to the end) of one InputFile,
    from `start` (None: the beginning of the file). `header`: the fields of the file's header line when it has
    one (`ReadConfig.has_header`), read when planning, so that a block that starts mid-file knows the columns."""
    unit: InputFile
    first_block: int = 0
    end_block: int | None = None
    start: ReadStart | None = None
    header: tuple[str, ...] | None = None

    def shard_names(self) -> list[str] | None:
        """The shards this task writes, when known before reading (planned blocks)."""
        if self.end_block is None:
            return None
        return [block_shard_name(self.unit.stem, b) for b in range(self.first_block, self.end_block)]


def _plain_local(path: str) -> bool:
    if "://" in path and not path.startswith("file://"):
        return False
    local = path[len("file://"):] if path.startswith("file://") else path
    with open(local, "rb") as raw:
        return compression_of(path, raw)[0] is None


def header_fields(raw: bytes) -> tuple[str, ...]:
    """The column names of a TSV header line (decoded with replacement characters, stripped, without a BOM)."""
    return tuple(name.strip() for name in raw.decode("utf-8", "replace").lstrip("\ufeff").split("\t"))


def read_header(path: str, options: ReadOptions, opener=None) -> tuple[str, ...] | None:
    """The header fields of a file (its first line), None when it has no line or breaks before its end."""
    lines = file_lines(path, options.max_line_bytes, opener)
    try:
        first = next(lines, None)
    except CorruptFile:
        return None
    finally:
        lines.close()
    return header_fields(first[0]) if first else None


def tsv_layout(columns: dict[str, int | str], header: tuple[str, ...] | None,
               path: str = "") -> tuple[dict[str, int], int | None]:
    """(field -> 0-based column, the header's number of columns or None) of `read.columns`: numbers as given,
    names looked up in `header` (the first column of that name); ConfigError naming the file when the header
    lacks a name."""
    resolved = {}
    for name, column in columns.items():
        if isinstance(column, int):
            resolved[name] = column
        elif header is not None and column in header:
            resolved[name] = header.index(column)
        else:
            raise ConfigError(f"input {path}: the header line has no column {column!r} (read.columns.{name}); "
                              f"its columns: {', '.join(header or ())}")
    return resolved, len(header) if header is not None else None


def parquet_fields(path: str, options: ReadOptions, opener=None) -> None:
    """Check a Parquet input's columns against `read.columns` (ReadConfig.record_fields): ConfigError naming the
    file when it is not Parquet, or lacks `cs`, `ref` or a column named explicitly."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    fields, explicit = options.record_fields()
    try:
        with (opener or open_raw)(path) as handle:
            names = pq.read_schema(handle).names
    except (OSError, pa.ArrowException) as error:
        raise ConfigError(f"input {path} is not a Parquet file: {error}") from None
    missing = [f"{fields[name]} ({name})" for name in fields if (name in explicit or name in ("cs", "ref"))
               and fields[name] not in names]
    if missing:
        raise ConfigError(f"input {path} has no column {', '.join(missing)} (read.columns); its columns: "
                          f"{', '.join(names)}")


def _block_starts(path: str, options: ReadOptions, separators: bool,
                  header: bool = False) -> tuple[list[tuple[int, int]], int]:
    """[(byte offset, line number before it)] at every block boundary of a plain local file (block k starts after
    its record k*shard_rows - 1), and the file's number of blocks (a last block may hold only separator lines).
    A `header` line (the first) is not a record. One pass over the raw bytes, no decoding."""
    starts, offset, line_no, records, trailing = [(0, 0)], 0, 0, 0, False
    with open(path[len("file://"):] if path.startswith("file://") else path, "rb", buffering=1 << 20) as handle:
        while True:
            line = handle.readline(1 << 20)
            if not line:
                break
            length = len(line)
            while not line.endswith(b"\n"):
                rest = handle.readline(1 << 20)
                if not rest:
                    break
                length += len(rest)
                line = line[:64] + rest[-64:]
            offset += length
            line_no += 1
            if header and line_no == 1:
                continue
            if separators and length <= options.max_line_bytes + 2 and not line.strip():
                trailing = True
                continue
            records, trailing = records + 1, False
            if records % options.shard_rows == 0:
                starts.append((offset, line_no))
    blocks = -(-records // options.shard_rows)
    return starts, blocks + (trailing and records % options.shard_rows == 0)


def plan_reads(units: list[InputFile], options: ReadOptions) -> list[ReadTask]:
    """One ReadTask per shard for plain local files (cheap byte-offset planning: one pass over the raw bytes, so
    the shards of one big file spread over every worker); one task per file for compressed or remote files
    (which can only be read from their start: their shards are made one after the other by one worker), and for
    Parquet files. A TSV file with a header line has its header read here, and named columns checked against it;
    a Parquet file's columns are checked (ConfigError)."""
    tasks = []
    with_header = options.format == "tsv" and options.has_header()
    for unit in units:
        header = read_header(unit.paths[0], options) if with_header else None
        if header is not None:
            tsv_layout(options.columns, header, unit.paths[0])
        if options.format == "parquet":
            parquet_fields(unit.paths[0], options)
        if options.format == "parquet" or not all(_plain_local(p) for p in unit.paths):
            tasks.append(ReadTask(unit, header=header))
            continue
        scans = [_block_starts(p, options, options.format == "czeng20", with_header) for p in unit.paths]
        blocks = max(n for _, n in scans)
        for block in range(blocks):
            offsets = []
            for (starts, _), path in zip(scans, unit.paths):
                offsets.append(starts[block][0] if block < len(starts) else os.path.getsize(
                    path[len("file://"):] if path.startswith("file://") else path))
            line_no = max(starts[block][1] if block < len(starts) else 0 for starts, _ in scans)
            if unit.paths[1:]:         # moses: line number = record number
                line_no = block * options.shard_rows
            tasks.append(ReadTask(unit, block, block + 1, ReadStart(tuple(offsets), line_no,
                                                                    block * options.shard_rows), header))
    return tasks
