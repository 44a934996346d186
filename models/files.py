"""Reading the files paranmt is given: model directories, model files and text inputs, one line per problem.

`model_directory(path, what)` is run by every loader of a model directory (encoders, paraphrasers and parse
generators, the parser, NMT models) and by `paranmt build`'s model check before any work: the path must be a
directory (a file, or nothing, is said as such), and when it holds a MANIFEST.json (every shipped model does, and
every model `paranmt train-parser` or `convert-nmt` packages) each file the manifest lists must be there with the
sha256 it records (`manifest_problems`), so a truncated or replaced file is named before anything loads.

The files are then read with `read_json` (UTF-8 JSON of the expected type) or inside `reading(file, kind)` (the
library's error while parsing the file becomes one line naming the file). Every problem is a ModelFileError, a
ConfigError: one line on stderr, exit 2.

Text inputs: `read_text` reads a whole UTF-8 file (a DataFileError naming the file and the first bad byte else);
readers that take a few undecodable lines in their stride (training pairs, sentence files) first run
`require_text`: a file where such lines (or lines with a NUL byte) are the majority is not a text file at all (a
binary, compressed or otherwise encoded file), a DataFileError naming it rather than pairs of U+FFFD characters.
"""
from __future__ import annotations

import json
import os
from contextlib import contextmanager
from pathlib import Path

from paranmt.schemas.errors import ConfigError
from paranmt.schemas.metadata import file_sha256

MANIFEST = "MANIFEST.json"


class ModelFileError(ConfigError):
    """A model directory or model file that cannot be used: missing, not a directory, changed since its
    MANIFEST.json was written, or not readable as what it should be."""


class DataFileError(ConfigError):
    """An input data file that cannot be read as what it should be (UTF-8 text, Parquet)."""


def manifest_problems(path: str | Path) -> list[str]:
    """Problems found when checking a model directory against its MANIFEST.json (`"files": {relative path:
    sha256}` or a list of `{"path": ..., "sha256": ...}`): missing or changed files. No manifest: nothing to check."""
    manifest = Path(path) / MANIFEST
    if not manifest.is_file():
        return []
    try:
        files = json.loads(manifest.read_text(encoding="utf-8")).get("files", {})
        if isinstance(files, list):
            files = {entry.get("path") or entry.get("file"): entry.get("sha256") for entry in files}
        listed = sorted(files.items())
    except (ValueError, AttributeError, TypeError) as error:
        return [f"{manifest} is not a JSON object with a `files` entry: {error}"]
    problems = []
    for name, expected in listed:
        file = Path(path) / str(name)
        if not file.is_file():
            problems.append(f"{file} is listed in {MANIFEST} but missing")
        elif expected and file_sha256(file) != expected:
            problems.append(f"{file} does not match the sha256 in {MANIFEST} (corrupt or replaced)")
    return problems


def model_directory(path: str | Path, what: str = "model", error: type[ModelFileError] = ModelFileError) -> Path:
    """`path` as a Path, after checking that it is a directory that passes its MANIFEST.json check (module
    docstring); else `error` (the loader's own ModelFileError subclass) `<what> <path> ...`."""
    directory = Path(path)
    if directory.is_file():
        raise error(f"{what} {path} is a file, not a model directory")
    if not directory.is_dir():
        raise error(f"{what} directory {path} does not exist")
    problems = manifest_problems(directory)
    if problems:
        raise error(f"{what} {path}: " + "; ".join(problems))
    return directory


def first_line(error: BaseException) -> str:
    """`Type: first line of the message` of an exception, for a one-line report."""
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0]}" if text else type(error).__name__


@contextmanager
def reading(file: str | Path, kind: str, error_type: type[ConfigError] = ModelFileError):
    """Around the library call that parses `file` (a `kind`, e.g. "safetensors weights file"): any error it
    raises becomes `error_type` `<file> is not a readable <kind> (<error>)`; ConfigErrors (a refused pickle,
    paranmt.models.safe_load) pass as they are."""
    try:
        yield
    except ConfigError:
        raise
    except FileNotFoundError:
        raise error_type(f"{file} does not exist (a {kind} is expected there)") from None
    except Exception as error:      # noqa: BLE001 - whatever the parser of one file raises means the file is bad
        raise error_type(f"{file} is not a readable {kind} ({first_line(error)})") from None


def read_json(file: str | Path, expected: type = dict, kind: str = "JSON file"):
    """The JSON value in `file` (UTF-8), which must be a `expected` (dict: an object, list: an array);
    ModelFileError naming the file and what is wrong with it."""
    with reading(file, kind):
        value = json.loads(Path(file).read_text(encoding="utf-8"))
    if not isinstance(value, expected):
        names = {dict: "an object", list: "an array"}
        raise ModelFileError(f"{file} is not a readable {kind}: it holds a JSON {type(value).__name__}, not "
                             f"{names.get(expected, expected.__name__)}")
    return value


def is_text_line(raw: bytes) -> bool:
    """Whether the bytes of one line are UTF-8 without a NUL byte."""
    if b"\0" in raw:
        return False
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def require_text(path: str | Path, what: str = "input") -> None:
    """Nothing when `path` is a text file; DataFileError `<what> <path> is not UTF-8 text ...` when more than half
    of its lines are not UTF-8 or hold a NUL byte (a binary, compressed or otherwise encoded file given by
    mistake), or when it cannot be read. A few such lines among text lines are the reader's to handle."""
    bad, total, first_bad = 0, 0, 0
    with reading(path, f"{what} file", DataFileError), open(path, "rb") as handle:
        for total, raw in enumerate(handle, 1):
            if not is_text_line(raw):
                bad, first_bad = bad + 1, first_bad or total
    if bad * 2 > total:
        raise DataFileError(f"{what} {path} is not UTF-8 text: {bad} of {total} lines are not (the first: line "
                            f"{first_bad}); a binary or compressed file, or text in another encoding (convert it "
                            f"first, e.g. with iconv)")


def read_text(path: str | Path, what: str = "input") -> str:
    """The whole text file `path`, decoded as UTF-8; DataFileError `<what> <path> ...` when it is missing, cannot
    be read or is not UTF-8 (the first bad byte named)."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise DataFileError(f"{what} {path} is not UTF-8 text (byte {error.start}: "
                            f"{error.object[error.start:error.start + 4]!r})") from None
    except FileNotFoundError:
        raise DataFileError(f"{what} {path} does not exist") from None
    except OSError as error:
        raise DataFileError(f"{what} {path} cannot be read ({first_line(error)})") from None


def write_text_atomically(path: str | Path, text: str) -> None:
    """`text` (UTF-8) into `path`, atomically (`write_bytes_atomically`)."""
    write_bytes_atomically(path, text.encode("utf-8"))


def write_bytes_atomically(path: str | Path, data: bytes) -> None:
    """`data` into `path` through a temporary beside it (`.<name>.tmp-<pid>`), renamed over `path` once complete
    and deleted when the write fails, so that a full disk or Ctrl-C never leaves `path` half-written."""
    path = Path(path)
    temporary = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    try:
        temporary.write_bytes(data)
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
