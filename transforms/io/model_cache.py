"""Models on remote filesystems: copy a model (file or directory) from any Beam FileSystems URL (gs://, s3://,
hdfs://, ...) to a local cache once per machine, and return the local path that model loaders can open.

    local = local_model_path("gs://bucket/models/nmt-cs-en")   # -> <tempdir>/paranmt-models/<hash16>-nmt-cs-en

- A local path (no `scheme://`, or `file://`) is returned as it is: nothing is copied.
- The cache directory is `$PARANMT_MODEL_CACHE`, else `<tempdir>/paranmt-models`. A model's cache entry is
  `<sha256(URL without trailing slashes)[:16]>-<basename>`: two URLs never share an entry, the same URL maps to
  the same entry on every worker, and a single-file model keeps its file name's suffix (`model.pt`).
- Concurrency: every DoFn instance of every SDK process on a worker VM may ask for the same model at once. The
  copy is made under an exclusive `fcntl.flock` on `<entry>.lock` (flock locks conflict between processes and
  between separate opens in one process) into `<entry>.partial-<pid>-<random>` (a directory, or a file for a
  single-file model); each copied file's size is checked against the remote listing; the finished copy is
  published with one atomic `os.rename` to `<entry>`. An entry that exists is therefore complete, and later
  callers return it without taking the lock. A copy interrupted by a crash leaves only a `.partial-*` path,
  which the next copier deletes.
- A URL is a directory model when listing `URL/**` finds files (object stores have no real directories), else a
  single-file model when `URL` itself exists, else a `ModelCacheError`.
"""
from __future__ import annotations

import fcntl
import hashlib
import logging
import os
import shutil
import tempfile
import threading
import uuid
from pathlib import Path

from apache_beam.io.filesystem import CompressionTypes
from apache_beam.io.filesystems import FileSystems
from tqdm import tqdm

from paranmt.schemas.paths import is_remote

log = logging.getLogger(__name__)

CACHE_ENV = "PARANMT_MODEL_CACHE"
COPY_CHUNK_BYTES = 8 << 20
_PROCESS_LOCK = threading.Lock()     # serializes the threads of one process before they take the file lock


class ModelCacheError(RuntimeError):
    """A remote model that cannot be found or copied completely."""


def cache_root() -> Path:
    """`$PARANMT_MODEL_CACHE`, else `<tempdir>/paranmt-models`."""
    return Path(os.environ.get(CACHE_ENV) or Path(tempfile.gettempdir()) / "paranmt-models")


def cache_entry_name(url: str) -> str:
    """`<first 16 hex digits of sha256(url without trailing slashes)>-<basename>`."""
    url = url.rstrip("/")
    basename = url.rsplit("/", 1)[-1] or "model"
    return f"{hashlib.sha256(url.encode()).hexdigest()[:16]}-{basename}"


def local_model_path(path: str, root: str | os.PathLike | None = None) -> str:
    """The local path of the model at `path`: `path` itself when local (a `file://` prefix is dropped), else the
    cache entry holding a complete copy of the remote file or directory (copied now if this machine has none)."""
    if not is_remote(path):
        return path[len("file://"):] if path.startswith("file://") else path
    root = Path(root) if root is not None else cache_root()
    entry = root / cache_entry_name(path)
    if entry.exists():
        return str(entry)
    root.mkdir(parents=True, exist_ok=True)
    with _PROCESS_LOCK, open(root / f"{entry.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            if not entry.exists():
                _copy_into(path.rstrip("/"), entry)
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
    return str(entry)


def remote_files(url: str) -> list[tuple[str, str, int]]:
    """`(remote path, relative path, size in bytes)` of every file of the model at `url` (see the module
    docstring for how a directory and a single file are told apart)."""
    matched = FileSystems.match([f"{url}/**"])[0].metadata_list
    if matched:
        prefix = f"{url}/"
        return sorted((m.path, m.path[len(prefix):], m.size_in_bytes) for m in matched
                      if m.path.startswith(prefix) and not m.path.endswith("/"))
    if FileSystems.exists(url):
        metadata = FileSystems.match([url])[0].metadata_list[0]
        return [(metadata.path, "", metadata.size_in_bytes)]
    raise ModelCacheError(f"no model at {url}: no such file, and no files under {url}/")


def _copy_into(url: str, entry: Path) -> None:
    """Copy the model at `url` to `entry` (partial copy, size checks, atomic rename)."""
    for stale in entry.parent.glob(f"{entry.name}.partial-*"):
        _remove(stale)
    files = remote_files(url)
    single_file = len(files) == 1 and not files[0][1]
    partial = entry.parent / f"{entry.name}.partial-{os.getpid()}-{uuid.uuid4().hex[:8]}"
    total = sum(size for _, _, size in files)
    log.info("copying model %s (%d file(s), %.1f MB) to %s", url, len(files), total / 1e6, entry)
    try:
        with tqdm(total=total, unit="B", unit_scale=True, desc=f"model {entry.name}", disable=None,
                  mininterval=5) as progress:
            for remote, relative, size in files:
                target = partial if single_file else partial / relative
                target.parent.mkdir(parents=True, exist_ok=True)
                _copy_file(remote, target, size, progress)
        os.rename(partial, entry)
    except BaseException:
        _remove(partial)
        raise


def _copy_file(remote: str, target: Path, size: int, progress: tqdm) -> None:
    copied = 0
    with FileSystems.open(remote, compression_type=CompressionTypes.UNCOMPRESSED) as source, open(target, "wb") as sink:
        while chunk := source.read(COPY_CHUNK_BYTES):
            sink.write(chunk)
            copied += len(chunk)
            progress.update(len(chunk))
    if copied != size:
        raise ModelCacheError(f"copy of {remote} is incomplete: {copied} of {size} bytes")


def _remove(path: Path) -> None:
    if path.is_dir():
        shutil.rmtree(path, ignore_errors=True)
    elif path.exists():
        path.unlink()
