"""Where things are: the project's root, model paths as a shell reads them with the shipped models named by their
asset name (`asset_path`), URLs of remote filesystems (`is_remote`) and a local output directory made before any
work (`make_output_dir`)."""
from __future__ import annotations

import os
from pathlib import Path

from paranmt.schemas.errors import ConfigError

PROJECT_ROOT = Path(__file__).resolve().parents[1]
ASSETS = "assets"           # the folder of the shipped models, and the first part of their asset names


def is_remote(path: str) -> bool:
    """True for a URL of a non-local Beam filesystem (`scheme://...` other than `file://`)."""
    scheme, sep, _ = path.partition("://")
    return bool(sep) and scheme.lower() != "file"


def asset_path(path: str) -> str:
    """A model path as a shell reads it: absolute paths and URLs as given, a relative path relative to the working
    directory. One exception, the shipped models' asset names (`assets/encoder-sp`, `assets/parser-en`, `assets`:
    the names the defaults and configs/ use): a relative path under `assets/` that does not exist in the working
    directory is the shipped asset of that name in the project's `assets/`, so the defaults work from any working
    directory. A path that exists in the working directory always wins, and no other relative path is looked up
    in the project."""
    if "://" in path or os.path.isabs(path) or os.path.exists(path):
        return path
    parts = Path(path).parts
    shipped = PROJECT_ROOT / path
    return str(shipped) if parts and parts[0] == ASSETS and shipped.exists() else path


def make_output_dir(path: str | Path, flag: str = "--output") -> Path:
    """The local output directory `path`, created if missing; ConfigError when it is a file or cannot be
    created (a user's mistake: one line, before any work)."""
    output = Path(path)
    if output.exists() and not output.is_dir():
        raise ConfigError(f"{flag} {path} exists and is not a directory")
    try:
        output.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ConfigError(f"{flag} {path} is not writable: {error}") from None
    return output
