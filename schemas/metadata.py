"""Parquet key-value metadata carried by every shard, and model identities.

Keys (all values UTF-8 strings):
  paranmt.schema_version   record schema version (schemas/records.py SCHEMA_VERSION)
  paranmt.package_version  version of the `paranmt` distribution that wrote the file
  paranmt.config_hash      BuildConfig.hash() of the run
  paranmt.tokenizer        the tokenizer behind ref_len / bt_len / trigram_overlap
  paranmt.models           JSON {stage: {"path": ..., "sha256": ...}} of the models the run used
  paranmt.counts           JSON accounting of the shard (added by the writer)
No timestamps go into shard files, so the same input and config give byte-identical shards.
"""
from __future__ import annotations

import hashlib
import json
from importlib import metadata as importlib_metadata
from pathlib import Path

from paranmt.schemas.records import SCHEMA_VERSION, TOKENIZER


def package_version() -> str:
    try:
        return importlib_metadata.version("paranmt")
    except importlib_metadata.PackageNotFoundError:
        return "unknown"


def file_sha256(path: Path, chunk: int = 1 << 20) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(chunk), b""):
            digest.update(block)
    return digest.hexdigest()


def model_identity(path: str) -> dict:
    """{"path", "sha256"} of a model file or directory (a directory's digest covers each file's relative path and
    sha256, sorted); remote paths (scheme://) are identified by path only."""
    if "://" in path:
        return {"path": path, "sha256": None}
    root = Path(path)
    if root.is_file():
        return {"path": str(root), "sha256": file_sha256(root)}
    digest = hashlib.sha256()
    for file in sorted(p for p in root.rglob("*") if p.is_file()):
        digest.update(f"{file.relative_to(root)}\0{file_sha256(file)}\n".encode())
    return {"path": str(root), "sha256": digest.hexdigest()}


def manifest_languages(path: str) -> list[str] | None:
    """The languages a model directory declares in its MANIFEST.json (`"languages": ["cs", "en"]`, ISO 639-1),
    None when it declares none (or has no manifest): what such a model can handle is then not checked."""
    manifest = Path(path) / "MANIFEST.json"
    if "://" in path or not manifest.is_file():
        return None
    try:
        languages = json.loads(manifest.read_text()).get("languages")
    except (ValueError, AttributeError):
        return None
    return [str(language) for language in languages] if isinstance(languages, list) else None


LANGUAGE_ALIASES = {"li": "liv"}
"""Language labels of this project's data that stand for another code, which a MANIFEST.json lists: wmt-bt (WMT22's
liv-en, ../shared/data/wmt-bt) labels its Livonian rows `li`, ISO 639-1 for Limburgish (no data here is Limburgish),
while a model lists Livonian under its ISO 639-3 code `liv`. `covers` reads every label through this table."""


def covers(languages: list[str] | None, label: str) -> bool:
    """Whether a model declaring `languages` (manifest_languages; None: declares none, so covers everything) covers
    the language `label`, a label and the codes listed both read through LANGUAGE_ALIASES (`li` is `liv`)."""
    if languages is None:
        return True
    return LANGUAGE_ALIASES.get(label, label) in {LANGUAGE_ALIASES.get(code, code) for code in languages}


def shard_metadata(config_hash: str, models: dict) -> dict[str, str]:
    return {
        "paranmt.schema_version": SCHEMA_VERSION,
        "paranmt.package_version": package_version(),
        "paranmt.config_hash": config_hash,
        "paranmt.tokenizer": TOKENIZER,
        "paranmt.models": json.dumps(models, sort_keys=True),
    }


SAMPLE_BYTES = 1 << 20


def input_fingerprint(path: str) -> dict:
    """What identifies an input file's content: {"size", "sha256"}. A local file is hashed whole (sha256 reads at
    about the speed of the build's own planning pass over it); a remote file (scheme://) is not read whole just to
    be identified: its sha256 covers its first and last MiB, and its modification time is kept ("sampled": true)."""
    if "://" not in path or path.startswith("file://"):
        local = Path(path[len("file://"):] if path.startswith("file://") else path)
        return {"size": local.stat().st_size, "sha256": file_sha256(local)}
    from apache_beam.io.filesystem import CompressionTypes  # remote files only: a local run need not load Beam
    from apache_beam.io.filesystems import FileSystems

    metadata = FileSystems.match([path])[0].metadata_list[0]
    digest = hashlib.sha256()
    with FileSystems.open(path, compression_type=CompressionTypes.UNCOMPRESSED) as handle:
        digest.update(handle.read(SAMPLE_BYTES))
        if metadata.size_in_bytes > 2 * SAMPLE_BYTES:
            handle.seek(metadata.size_in_bytes - SAMPLE_BYTES)
            digest.update(handle.read(SAMPLE_BYTES))
    return {"size": metadata.size_in_bytes, "sha256": digest.hexdigest(), "sampled": True,
            "modified": metadata.last_updated_in_seconds}


def input_changes(recorded: dict[str, dict], current: dict[str, dict]) -> list[str]:
    """How the input files of a run differ from the fingerprints it recorded (`path: how`), in path order: files
    no longer matched, new files, a different size, the same size with different content, a remote file
    modified since."""
    changes = []
    for path in sorted(set(recorded) | set(current)):
        old, new = recorded.get(path), current.get(path)
        if new is None:
            changes.append(f"{path}: no longer part of the input")
        elif old is None:
            changes.append(f"{path}: new in the input")
        elif old.get("size") != new.get("size"):
            changes.append(f"{path}: size {old.get('size')} -> {new.get('size')} bytes")
        elif old.get("sha256") != new.get("sha256"):
            changes.append(f"{path}: content changed (same size, {new.get('size')} bytes, different sha256)")
        elif old.get("modified") != new.get("modified"):
            changes.append(f"{path}: modified since (same size and sampled content)")
    return changes
