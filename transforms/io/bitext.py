"""Streaming bitext readers (no Beam inside; `readers.py` adapts them to Beam).

Every input record ends as exactly one pair row or one reject row (stage `read`), tagged with its shard:
a shard is a block of `shard_rows` consecutive records of ONE input file, named
`<file stem>[-<path hash>].<block:05d>` (the path hash only when two input files share a base name).

Formats
- `tsv`      generic TSV; `columns` maps `cs`/`ref` to 0-based columns (default source TAB reference). Too few
             columns is a reject (`wrong_column_count`); more columns than `columns` names are counted (Beam
             counter `read/extra_columns`, reported by the build) or, with `strict_columns`, rejected
             (`extra_columns`).
- `czeng16`  CzEng 1.6 plain-text export: `id TAB filter_score TAB cs TAB en`. The corpus/section is the id's
             leading letters without a trailing capital (`subtitlesM-b1-00train-f000001-s1` -> `subtitles`).
             `filter_score` goes to `source_scores`.
- `czeng20`  CzEng 2.0: `id TAB adq_score TAB cs_lang_score TAB en_lang_score TAB cs TAB en`; empty lines separate
             documents and are structure (counted as `separators`, not records). Corpus = the id's first
             `-`/`_`/`.`-separated segment.
- `moses`    two line-aligned files `PREFIX.<src>` + `PREFIX.<ref>`; when one file is longer, each surplus line is
             a reject (`line_count_mismatch`).
Ids: the corpus's own id for CzEng; `<corpus>:<file>:<line>` (1-based) otherwise, where the default corpus name
is the file name up to its first dot (`news.2019.tsv.gz` -> `news`; for moses, the prefix's base name).

Files: plain, .gz, .bz2, .xz/.lzma, .zst (detected by name and by magic bytes), opened through Beam's
FileSystems so any filesystem Beam supports (local, gs://) works. Lines are read as bytes with a length cap,
decoded as strict UTF-8. A file that cannot be decompressed to its end (truncated or corrupt) yields one reject
(`corrupt_file`) holding the unfinished line, after the records that were read intact.
"""
from __future__ import annotations

import bz2
import gzip
import hashlib
import io
import lzma
import os
import re
import zlib
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Iterator

from apache_beam.metrics import Metrics

from paranmt.schemas.records import empty_row, reject_row

STAGE = "read"
_MAGIC = {b"\x1f\x8b": "gz", b"BZh": "bz2", b"\xfd7zXZ\x00": "xz", b"\x28\xb5\x2f\xfd": "zst"}
_SUFFIX = {".gz": "gz", ".gzip": "gz", ".bz2": "bz2", ".xz": "xz", ".lzma": "xz", ".zst": "zst", ".zstd": "zst"}
_DECOMPRESS_ERRORS = (EOFError, OSError, zlib.error, lzma.LZMAError, ValueError)


class CorruptFile(Exception):
    """The compressed stream broke before its end; `partial` holds the bytes of the unfinished line."""

    def __init__(self, message: str, partial: bytes):
        super().__init__(message)
        self.partial = partial


@dataclass
class ReadOptions:
    format: str = "tsv"
    suffixes: tuple[str, str] = ("cs", "en")
    columns: dict[str, int] = field(default_factory=lambda: {"cs": 0, "ref": 1})
    corpus: str | None = None
    max_line_bytes: int = 1 << 20
    shard_rows: int = 50_000
    strict_columns: bool = False


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
        units = [((p,), _strip_compression(PurePosixPath(p).name)) for p in paths]
    # shard names are file names inside the output directory: no separators, no leading dot (hidden/temporary)
    units = [(pair, re.sub(r"[^A-Za-z0-9._-]", "_", stem).lstrip(".") or "input") for pair, stem in units]
    stems = [stem for _, stem in units]
    return [InputFile(pair, stem if stems.count(stem) == 1
                      else f"{stem}-{hashlib.sha1(pair[0].encode()).hexdigest()[:8]}")
            for pair, stem in units]


def _strip_compression(name: str) -> str:
    for suffix in _SUFFIX:
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return name


def _default_opener(path: str):
    from apache_beam.io.filesystem import CompressionTypes
    from apache_beam.io.filesystems import FileSystems
    return FileSystems.open(path, compression_type=CompressionTypes.UNCOMPRESSED)


def compression_of(path: str, raw) -> tuple[str | None, bool]:
    """(kind, guessed_from_magic_bytes) of a file: by suffix, then by magic bytes (`raw` must support peek)."""
    kind = next((k for s, k in _SUFFIX.items() if path.endswith(s)), None)
    if kind is not None:
        return kind, False
    head = raw.peek(6)[:6]
    kind = next((k for magic, k in _MAGIC.items() if head.startswith(magic)), None)
    return kind, kind is not None


def open_binary(path: str, opener=None, plain: bool = False, offset: int = 0) -> tuple[io.BufferedIOBase, bool]:
    """Open `path` for reading decompressed bytes; returns (stream, compression_guessed_from_magic_bytes).
    `opener(path)` returns a raw binary stream (default: Beam FileSystems, uncompressed, so gs:// works);
    compression is detected by suffix, then by magic bytes (unless `plain`). `offset`: start reading a plain
    file there (a block planned by `plan_reads`)."""
    raw = (opener or _default_opener)(path)
    if not hasattr(raw, "peek"):
        raw = io.BufferedReader(raw, buffer_size=1 << 20)
    kind, by_magic = (None, False) if plain else compression_of(path, raw)
    # The decompressors buffer small chunks themselves: a truncated stream loses at most one chunk of lines
    # before the break (they end up in the `corrupt_file` reject's scope, "could not be read past line N").
    if kind == "gz":
        return gzip.GzipFile(fileobj=raw), by_magic
    if kind == "bz2":
        return bz2.BZ2File(raw), by_magic
    if kind == "xz":
        return lzma.LZMAFile(raw), by_magic
    if kind == "zst":
        return io.BufferedReader(ZstdReader(raw)), by_magic
    if offset:
        raw.seek(offset)
    return raw, False


class ZstdReader(io.RawIOBase):
    """Decompress a (multi-frame) zstd stream; unlike zstandard's stream_reader, a stream that ends inside a
    frame raises EOFError instead of ending quietly (so truncation is never a silent loss)."""

    def __init__(self, raw, chunk: int = 1 << 17):
        import zstandard
        self._zstd, self._raw, self._chunk = zstandard, raw, chunk
        self._decoder = zstandard.ZstdDecompressor().decompressobj()
        self._buffer = b""
        self._started = False

    def readable(self) -> bool:
        return True

    def readinto(self, target) -> int:
        while not self._buffer:
            data = self._raw.read(self._chunk)
            if not data:
                if self._started and not self._decoder.eof:
                    raise EOFError("zstd stream ended inside a frame")
                return 0
            while data:
                self._started = True
                try:
                    self._buffer += self._decoder.decompress(data)
                except self._zstd.ZstdError as error:
                    raise ValueError(f"zstd: {error}") from None
                data = self._decoder.unused_data if self._decoder.eof else b""
                if data or self._decoder.eof:
                    self._decoder = self._zstd.ZstdDecompressor().decompressobj()
                    self._started = bool(data)
        n = min(len(target), len(self._buffer))
        target[:n] = self._buffer[:n]
        self._buffer = self._buffer[n:]
        return n


def file_lines(path: str, max_line_bytes: int, opener=None, offset: int = 0) -> Iterator[tuple[bytes, bool]]:
    """`iter_lines` over a file, decompressed (a plain file from byte `offset`). A file whose compression was only
    guessed from its first bytes and that fails to decompress before its first line is read as plain text instead
    (a text file may begin with `BZh`)."""
    stream, by_magic = open_binary(path, opener, offset=offset)
    started = False
    try:
        for item in iter_lines(stream, max_line_bytes):
            started = True
            yield item
    except CorruptFile:
        if started or not by_magic:
            raise
        stream.close()
        stream, _ = open_binary(path, opener, plain=True)
        yield from iter_lines(stream, max_line_bytes)
    finally:
        stream.close()


def iter_lines(stream, max_line_bytes: int) -> Iterator[tuple[bytes, bool]]:
    """Yield (line without EOL, too_long) for each line; a line over `max_line_bytes` is yielded truncated to the
    cap with too_long=True, its rest consumed in chunks (memory stays bounded). Raises CorruptFile when the
    stream fails mid-file; the last line is only yielded once the next read succeeded (so a line cut by
    truncation is never mistaken for a complete one)."""
    pending: tuple[bytes, bool] | None = None
    while True:
        try:
            line = stream.readline(max_line_bytes + 1)
            too_long = False
            if len(line) > max_line_bytes and not line.endswith(b"\n"):
                too_long = True
                while True:
                    rest = stream.readline(1 << 20)
                    if not rest or rest.endswith(b"\n"):
                        break
                line = line[:max_line_bytes]
        except _DECOMPRESS_ERRORS as error:
            partial = pending[0] if pending else b""
            raise CorruptFile(f"{type(error).__name__}: {error}", partial) from None
        if pending is not None:
            yield pending
        if not line:
            return
        pending = (line.rstrip(b"\r\n") if not too_long else line, too_long)


CZECH_LETTERS = set("áčďéěíňóřšťúůýžÁČĎÉĚÍŇÓŘŠŤÚŮÝŽ")


def guess_encoding(raw: bytes) -> str:
    """A guess at the legacy encoding of bytes that are not UTF-8: `UTF-16` (NUL bytes or a BOM), `cp1250`
    (decodes to Czech letters under Windows-1250; ISO-8859-2 differs from it in a few letters only) or `latin-1`."""
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")) or b"\x00" in raw:
        return "UTF-16"
    if CZECH_LETTERS & set(raw.decode("cp1250", "replace")):
        return "cp1250"
    return "latin-1"


UTF8_PROBLEM = re.compile(r"^(?P<file>.*) line (?P<line>\d+): (?P<what>invalid UTF-8 .*) "
                          r"\(encoding guess: (?P<guess>[\w-]+)\)$")


def utf8_problem(raw: bytes, file_name: str, line_no: int) -> tuple[str | None, str]:
    """(text, "") for UTF-8 bytes, else (None, detail): `news.tsv line 57: invalid UTF-8 at byte 3: b'\\xe8ra'
    (encoding guess: cp1250)` (UTF8_PROBLEM parses it back). The guess is about this line alone; whether the input
    is in a legacy encoding is decided over all lines of a file (`encoding_advice`)."""
    try:
        return raw.decode("utf-8"), ""
    except UnicodeDecodeError as error:
        return None, (f"{file_name} line {line_no}: invalid UTF-8 at byte {error.start}: "
                      f"{raw[error.start:error.start + 4]!r} (encoding guess: {guess_encoding(raw)})")


def encoding_advice(invalid: int, read: int, first_problem: str, guesses: list[str]) -> str:
    """One line about the lines of one input file that are not UTF-8 (`invalid` of `read` records, the detail of
    the first one and the per-line guesses): an encoding is guessed (the commonest guess, with an `iconv` command)
    only when MOST lines fail (invalid > read / 2); otherwise the file is UTF-8 with a few bad lines, and the first
    bad line is named (converting the file would garble its good lines)."""
    match = UTF8_PROBLEM.match(first_problem)
    where = f"{match['file']} line {match['line']}" if match else first_problem
    if invalid * 2 > read and guesses:
        guess = max(sorted(set(guesses)), key=guesses.count)
        name = match["file"] if match else "IN"
        return (f"{invalid} of {read} lines are not UTF-8 (the first: {where}): the file looks like {guess}: convert "
                f"it first, e.g. `iconv -f {guess} -t UTF-8 {name} > {name}.utf8`, and build from that")
    what = f" ({match['what']})" if match else ""
    return (f"{invalid} of {read} lines are not UTF-8, the first at {where}{what}; they are rejects "
            f"(read/invalid_utf8), the other lines were read")


def _czeng16_corpus(sentence_id: str) -> str:
    head = re.match(r"[A-Za-z]+", sentence_id)
    if not head:
        return "czeng16"
    word = head.group(0)
    return word[:-1] if len(word) > 1 and word[-1].isupper() else word


def _czeng20_corpus(sentence_id: str) -> str:
    return re.split(r"[-_.]", sentence_id, maxsplit=1)[0] or "czeng20"


def parse_line(text: str, fmt: str, columns: dict[str, int], corpus: str, fallback_id: str,
               strict_columns: bool = False) -> dict:
    """One decoded line -> a pair row or a reject row (id = fallback_id unless the format carries one)."""
    fields = text.split("\t")
    if fmt == "tsv":
        need = max(columns.values()) + 1
        if len(fields) < need:
            return reject_row(fallback_id, STAGE, "wrong_column_count",
                              f"expected at least {need} tab-separated columns, got {len(fields)}", text)
        if len(fields) > need:
            if strict_columns:
                return reject_row(fallback_id, STAGE, "extra_columns",
                                  f"{len(fields)} tab-separated columns, read.columns names {need}", text)
            Metrics.counter(STAGE, "extra_columns").inc()
        return empty_row(fallback_id, corpus, fields[columns["cs"]], fields[columns["ref"]])
    expected = 4 if fmt == "czeng16" else 6
    if len(fields) != expected:
        return reject_row(fields[0] if len(fields) > 1 and fields[0] else fallback_id, STAGE, "wrong_column_count",
                          f"{fmt} lines have {expected} tab-separated columns, got {len(fields)}", text)
    sentence_id = fields[0] or fallback_id
    names = ["filter_score"] if fmt == "czeng16" else ["adq_score", "cs_lang_score", "en_lang_score"]
    try:
        scores = {name: float(value) for name, value in zip(names, fields[1:1 + len(names)])}
    except ValueError as error:
        return reject_row(sentence_id, STAGE, "bad_score", f"{fmt} score column is not a number: {error}", text)
    row_corpus = corpus if corpus != "" else (_czeng16_corpus if fmt == "czeng16" else _czeng20_corpus)(sentence_id)
    return empty_row(sentence_id, row_corpus, fields[-2], fields[-1], scores)


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
    from `start` (None: the beginning of the file)."""
    unit: InputFile
    first_block: int = 0
    end_block: int | None = None
    start: ReadStart | None = None

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


def _block_starts(path: str, options: ReadOptions, separators: bool) -> tuple[list[tuple[int, int]], int]:
    """[(byte offset, line number before it)] at every block boundary of a plain local file (block k starts after
    its record k*shard_rows - 1), and the file's number of blocks (a last block may hold only separator lines).
    One pass over the raw bytes, no decoding."""
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
    (which can only be read from their start: their shards are made one after the other by one worker)."""
    tasks = []
    for unit in units:
        if not all(_plain_local(p) for p in unit.paths):
            tasks.append(ReadTask(unit))
            continue
        scans = [_block_starts(p, options, options.format == "czeng20") for p in unit.paths]
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
                                                                    block * options.shard_rows)))
    return tasks


def read_file(unit: InputFile, options: ReadOptions, skip_shards: frozenset = frozenset(),
              opener=None, task: ReadTask | None = None) -> Iterator[tuple[str, dict]]:
    """Yield (shard, row-or-reject) for every record of one InputFile (or of one planned ReadTask); records of
    shards in `skip_shards` are read past without being yielded (resume). When a shard's last record has been
    read, also yields (shard, {"_count": ...}) with the number of records read into it and the number of
    structural separators, for the accounting check."""
    reader = _read_moses if options.format == "moses" else _read_single
    task = task or ReadTask(unit)
    current, tally = None, {"read": 0, "separators": 0}
    for shard, record in reader(unit, options, opener, task.start):
        block = int(shard.rsplit(".", 1)[1])
        if task.end_block is not None and block >= task.end_block:
            break
        if block < task.first_block:
            continue
        if shard != current:
            if current is not None and current not in skip_shards:
                yield current, {"_count": tally}
            current, tally = shard, {"read": 0, "separators": 0}
        if record is None:
            tally["separators"] += 1
            continue
        tally["read"] += 1
        if shard not in skip_shards:
            yield shard, record
    if current is not None and current not in skip_shards:
        yield current, {"_count": tally}


def _read_single(unit: InputFile, options: ReadOptions, opener,
                 start: ReadStart | None) -> Iterator[tuple[str, dict | None]]:
    path = unit.paths[0]
    corpus = options.corpus if options.corpus is not None else (
        "" if options.format in ("czeng16", "czeng20") else unit.stem.split(".")[0])
    record_no = start.record_no if start else 0
    line_no = start.line_no if start else 0
    try:
        for raw, too_long in file_lines(path, options.max_line_bytes, opener, start.offsets[0] if start else 0):
            line_no += 1
            if options.format == "czeng20" and not raw.strip() and not too_long:
                yield block_shard_name(unit.stem, record_no // options.shard_rows), None
                continue
            shard = block_shard_name(unit.stem, record_no // options.shard_rows)
            record_no += 1
            fallback_id = f"{corpus or options.format}:{unit.name}:{line_no}"
            yield shard, _record(raw, too_long, options, corpus, fallback_id, unit.name, line_no)
    except CorruptFile as error:
        line_no += 1
        shard = block_shard_name(unit.stem, record_no // options.shard_rows)
        yield shard, reject_row(f"{corpus or options.format}:{unit.name}:{line_no}", STAGE, "corrupt_file",
                                f"{path} could not be read past line {line_no - 1}: {error}",
                                error.partial.decode("utf-8", "replace"))


def _record(raw: bytes, too_long: bool, options: ReadOptions, corpus: str, fallback_id: str, file_name: str,
            line_no: int) -> dict:
    if too_long:
        return reject_row(fallback_id, STAGE, "line_too_long",
                          f"line longer than max_line_bytes={options.max_line_bytes}",
                          raw.decode("utf-8", "replace"))
    text, problem = utf8_problem(raw, file_name, line_no)
    if text is None:
        return reject_row(fallback_id, STAGE, "invalid_utf8", problem, raw.decode("utf-8", "replace"))
    if not text.strip():
        return reject_row(fallback_id, STAGE, "empty_line", "blank line", text)
    return parse_line(text, options.format, options.columns, corpus, fallback_id, options.strict_columns)


def _read_moses(unit: InputFile, options: ReadOptions, opener,
                start: ReadStart | None) -> Iterator[tuple[str, dict | None]]:
    corpus = options.corpus if options.corpus is not None else unit.stem
    source_name = unit.name
    iterators = [file_lines(p, options.max_line_bytes, opener, start.offsets[i] if start else 0)
                 for i, p in enumerate(unit.paths)]
    line_no = start.line_no if start else 0
    try:
        while True:
            sides = []
            for iterator in iterators:
                try:
                    sides.append(next(iterator))
                except StopIteration:
                    sides.append(None)
            if sides[0] is None and sides[1] is None:
                return
            line_no += 1
            shard = block_shard_name(unit.stem, (line_no - 1) // options.shard_rows)
            record_id = f"{corpus}:{source_name}:{line_no}"
            if sides[0] is None or sides[1] is None:
                present = 1 if sides[0] is None else 0
                yield shard, reject_row(record_id, STAGE, "line_count_mismatch",
                                        f"{unit.paths[1 - present]} ended before line {line_no} of "
                                        f"{unit.paths[present]}", sides[present][0].decode("utf-8", "replace"))
                continue
            yield shard, _moses_record(sides, options, corpus, record_id, unit, line_no)
    except CorruptFile as error:
        line_no += 1
        yield (block_shard_name(unit.stem, (line_no - 1) // options.shard_rows),
               reject_row(f"{corpus}:{source_name}:{line_no}", STAGE, "corrupt_file",
                          f"{unit.paths} could not be read past line {line_no - 1}: {error}",
                          error.partial.decode("utf-8", "replace")))
    finally:
        for iterator in iterators:
            iterator.close()


def _moses_record(sides, options: ReadOptions, corpus: str, record_id: str, unit: InputFile, line_no: int) -> dict:
    raw = "\t".join(side[0].decode("utf-8", "replace") for side in sides)
    if any(too_long for _, too_long in sides):
        return reject_row(record_id, STAGE, "line_too_long",
                          f"a side is longer than max_line_bytes={options.max_line_bytes}", raw)
    texts = []
    for (side, _), path in zip(sides, unit.paths):
        text, problem = utf8_problem(side, PurePosixPath(path).name, line_no)
        if text is None:
            return reject_row(record_id, STAGE, "invalid_utf8", problem, raw)
        texts.append(text)
    return empty_row(record_id, corpus, texts[0], texts[1])
