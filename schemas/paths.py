"""Where things are: the project's root, model paths relative to it (`asset_path`), URLs of remote filesystems
(`is_remote`) and a local output directory made before any work (`make_output_dir`)."""
from __future__ import annotations

import os
from pathlib import Path

from paranmt.schemas.errors import ConfigError

PROJECT_ROOT = Path(__file__).resolve().parents[1]


def is_remote(path: str) -> bool:
    """True for a URL of a non-local Beam filesystem (`scheme://...` other than `file://`)."""
    scheme, sep, _ = path.partition("://")
    return bool(sep) and scheme.lower() != "file"


def asset_path(path: str) -> str:
    """Resolve a model path: absolute or URL paths as given; `assets/...` relative to the project if it exists
    there (so configs work from any working directory), else relative to the working directory."""
    if "://" in path or os.path.isabs(path):
        return path
    project = PROJECT_ROOT / path
    return str(project) if project.exists() else path


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
