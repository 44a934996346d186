"""Byte streams of input files: decompression detected by name and by magic bytes (plain, .gz, .bz2, .xz/.lzma,
.zst), opened through Beam's FileSystems so any filesystem Beam supports (local, gs://) works, and lines read as
bytes with a length cap. A stream that cannot be decompressed to its end (truncated or corrupt) raises CorruptFile
with the unfinished line, after every line that was read intact. Used by the bitext readers (bitext.py) and, through
`read_sentences` (the one reader of a file of sentences), by `paranmt mine`, `eval-xling`, `paraphrase`, `simile`
and `train-paraphraser --sentences`.
"""
from __future__ import annotations

import bz2
import gzip
import io
import lzma
import zlib
from pathlib import Path
from typing import Iterator

from paranmt.schemas.errors import ConfigError

MAGIC = {b"\x1f\x8b": "gz", b"BZh": "bz2", b"\xfd7zXZ\x00": "xz", b"\x28\xb5\x2f\xfd": "zst"}
SUFFIXES = {".gz": "gz", ".gzip": "gz", ".bz2": "bz2", ".xz": "xz", ".lzma": "xz", ".zst": "zst", ".zstd": "zst"}
DECOMPRESS_ERRORS = (EOFError, OSError, zlib.error, lzma.LZMAError, ValueError)


class CorruptFile(Exception):
    """The compressed stream broke before its end; `partial` holds the bytes of the unfinished line."""

    def __init__(self, message: str, partial: bytes):
        super().__init__(message)
        self.partial = partial


def strip_compression(name: str) -> str:
    for suffix in SUFFIXES:
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return name


def open_raw(path: str):
    """The raw bytes of `path` on any Beam filesystem (no decompression)."""
    from apache_beam.io.filesystem import CompressionTypes
    from apache_beam.io.filesystems import FileSystems
    return FileSystems.open(path, compression_type=CompressionTypes.UNCOMPRESSED)


def compression_of(path: str, raw) -> tuple[str | None, bool]:
    """(kind, guessed_from_magic_bytes) of a file: by suffix, then by magic bytes (`raw` must support peek)."""
    kind = next((k for s, k in SUFFIXES.items() if path.endswith(s)), None)
    if kind is not None:
        return kind, False
    head = raw.peek(6)[:6]
    kind = next((k for magic, k in MAGIC.items() if head.startswith(magic)), None)
    return kind, kind is not None


def open_binary(path: str, opener=None, plain: bool = False, offset: int = 0) -> tuple[io.BufferedIOBase, bool]:
    """Open `path` for reading decompressed bytes; returns (stream, compression_guessed_from_magic_bytes).
    `opener(path)` returns a raw binary stream (default: Beam FileSystems, uncompressed, so gs:// works);
    compression is detected by suffix, then by magic bytes (unless `plain`). `offset`: start reading a plain
    file there (a block planned by `plan_reads`)."""
    raw = (opener or open_raw)(path)
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
        except DECOMPRESS_ERRORS as error:
            partial = pending[0] if pending else b""
            raise CorruptFile(f"{type(error).__name__}: {error}", partial) from None
        if pending is not None:
            yield pending
        if not line:
            return
        pending = (line.rstrip(b"\r\n") if not too_long else line, too_long)


def read_sentences(path: str, column: int | None = None, counts: dict | None = None,
                   max_line_bytes: int = 1 << 20, *, what: str = "input", strict: bool = False,
                   empty_ok: bool = True) -> Iterator[str]:
    """The one reader of a file of sentences (`paranmt mine`, `eval-xling`, `paraphrase`, `simile`,
    `train-paraphraser --sentences`): the lines of `path` (decompressed, split at line feeds, line ends removed), or
    their tab-separated `column`. Every problem is a ConfigError naming `what` (the flag or kind) and the file: a
    path that is not a file (checked at the call; a `scheme://` path is left to Beam), a corrupt compressed file,
    and, unless `empty_ok`, a file without lines (`<what> <path> is empty`). Lines that are not UTF-8, too long
    (over `max_line_bytes`) or lack the column are, with `strict` (inputs whose lines must all be there, e.g.
    line-aligned files), a DataFileError naming the first; else counted in `counts` (by reason) and skipped, and a
    file where undecodable lines are the majority (a binary file given by mistake) is a DataFileError after its
    last line."""
    if "://" not in path and not Path(path).is_file():
        raise ConfigError(f"{what} {path} is not a file")
    return _sentences(path, column, counts if counts is not None else {}, max_line_bytes, what, strict, empty_ok)


def _sentences(path: str, column: int | None, counts: dict, max_line_bytes: int, what: str, strict: bool,
               empty_ok: bool) -> Iterator[str]:
    """The lines of `read_sentences`, read as they are asked for."""
    from paranmt.models.files import DataFileError

    lines = 0
    try:
        for lines, (raw, too_long) in enumerate(file_lines(path, max_line_bytes), 1):
            reason, text = None, None
            if too_long:
                reason = "line_too_long"
            else:
                try:
                    text = raw.decode("utf-8")
                except UnicodeDecodeError:
                    reason = "invalid_utf8"
            if text is not None and column is not None:
                fields = text.split("\t")
                reason, text = ("missing_column", None) if len(fields) <= column else (None, fields[column])
            if reason is None:
                yield text
            elif strict:
                problem = {"line_too_long": f"is longer than {max_line_bytes} bytes",
                           "invalid_utf8": "is not UTF-8 text", "missing_column": f"has no column {column}"}[reason]
                raise DataFileError(f"{what} {path}: line {lines} {problem}")
            else:
                counts[reason] = counts.get(reason, 0) + 1
    except CorruptFile as error:
        raise ConfigError(f"{what} {path}: corrupt or truncated compressed file ({error})") from None
    if not lines and not empty_ok:
        raise ConfigError(f"{what} {path} is empty")
    if counts.get("invalid_utf8", 0) * 2 > lines:
        raise DataFileError(f"{what} {path} is not UTF-8 text: {counts['invalid_utf8']} of {lines} lines are not (a "
                            f"binary file, or text in another encoding: convert it first, e.g. with iconv)")
