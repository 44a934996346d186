"""A build's output directory before any work: apart from the inputs, locked, --resume or --overwrite said when it
holds an earlier build, and a --resume checked to continue the same config over the same input files."""
from __future__ import annotations

import json
import os
import sys

import yaml

from paranmt.pipelines.runtime.outputs import check_apart, check_flags, claim, remove_temporaries
from paranmt.schemas import layout
from paranmt.schemas.build_config import BuildConfig
from paranmt.schemas.errors import ConfigError


def input_patterns(config: BuildConfig) -> list[str]:
    """The paths and globs the build reads (a Moses prefix glob with each suffix), for the output contract."""
    patterns = [part.strip() for part in config.input.split(",") if part.strip()]
    if config.format == "moses":
        return [f"{pattern}.{suffix}" for pattern in patterns for suffix in config.read.suffixes]
    return patterns


def prepare_output(config: BuildConfig, lock: OutputLock, overwrite: bool = False) -> set[str]:
    """Check the output directory before any work; returns the shards already complete (resume). An output that
    is a file, cannot be written, or overlaps the input (pipelines/runtime/outputs.py `check_apart`: e.g. an input glob
    that matches it) is a ConfigError. Takes `lock` first (one build per output directory: another build's lock is
    a ConfigError naming it; a stale one is taken over by --resume or --overwrite), so that nothing below touches
    the files of a build still running. Refuses to mix runs (`claim`): existing shards need --resume or
    --overwrite (which deletes the earlier build's files first), --resume needs a build to continue and the same
    config (the differing keys are named)."""
    from apache_beam.io.filesystems import FileSystems
    from paranmt.transforms.shards import completed_shards, join_path

    check_apart(config.output, input_patterns(config))
    if "://" not in config.output and os.path.exists(config.output) and not os.path.isdir(config.output):
        raise ConfigError(f"output {config.output} is a file, not a directory")
    check_flags(config.output, config.resume, overwrite)
    holds_shards = FileSystems.exists(config.output) and bool(completed_shards(config.output))
    try:
        note = lock.acquire(take_stale=config.resume or overwrite, holds_shards=holds_shards)
    except OSError as error:
        raise ConfigError(f"output {config.output} cannot be written: {error}") from None
    if note:
        print(f"paranmt build: {note}", file=sys.stderr)
    done = completed_shards(config.output)
    previous = next((p for p in (join_path(config.output, name) for name in
                                  (layout.CONFIG, layout.LEGACY_NAMES[layout.CONFIG])) if FileSystems.exists(p)), None)
    held = (f"{len(done)} shard(s) of an earlier build" if done else
            "a build that stopped before its first shard" if previous and config.resume else None)
    if claim(config.output, held, config.resume, overwrite) == "overwrite":
        remove_build(config.output)
        done, previous = set(), None
    if done and previous:
        with FileSystems.open(previous) as handle:
            old = yaml.safe_load(handle.read()) or {}
        differences = config.differences(old) if old.get("config_hash") != config.hash() else []
        if differences:
            hint = (f"; give --shard-rows {old.get('read', {}).get('shard_rows')} to resume with the shard size it "
                    f"was written with (without --shard-rows the size follows the stages)"
                    if any(d.startswith("read.shard_rows:") for d in differences) else "")
            raise ConfigError(f"--resume: the config differs from the one that wrote {config.output}: "
                              + "; ".join(differences) + hint)
    try:
        for directory in (config.output, join_path(config.output, layout.REJECTS)):
            if not FileSystems.exists(directory):
                FileSystems.mkdirs(directory)
        remove_temporaries(config.output, join_path(config.output, layout.REJECTS))
        probe = join_path(config.output, f".write-check-{os.getpid()}")
        with FileSystems.create(probe) as handle:
            handle.write(b"")
        FileSystems.delete([probe])
    except (OSError, IOError) as error:
        raise ConfigError(f"output {config.output} cannot be written: {error}") from None
    return done


def remove_build(output: str) -> None:
    """Delete what a build wrote into `output` (the shards, their rejects and the side files, in both layouts),
    except the lock this build holds."""
    from apache_beam.io.filesystems import FileSystems
    from paranmt.transforms.shards import join_path, shard_files

    names = [layout.REJECTS, layout.CONFIG, layout.METRICS, layout.MANIFEST, layout.WORKER_LOG,
             *(layout.LEGACY_NAMES[key] for key in (layout.REJECTS, layout.CONFIG, layout.METRICS, layout.MANIFEST))]
    FileSystems.delete(shard_files(output) + [p for p in (join_path(output, name) for name in names) if FileSystems.exists(p)])


def input_files(config: BuildConfig, inputs: list) -> list[str]:
    """Every file the planned work items read (both files of a Moses pair; the shard files for `shards`)."""
    if config.format == "shards":
        return sorted(inputs)
    return sorted({path for task in inputs for path in task.unit.paths})


def check_same_input(config: BuildConfig, fingerprints: dict[str, dict], done: set[str]) -> None:
    """ConfigError when a --resume that has shards to keep would read inputs that differ from the ones the run
    recorded at its start (manifest `input_files`), naming each changed file and how, unless
    `allow_changed_input`. Outputs of versions that recorded no fingerprints are resumed unchecked."""
    from apache_beam.io.filesystems import FileSystems
    from paranmt.schemas.metadata import input_changes
    from paranmt.transforms.shards import join_path

    if not done or config.allow_changed_input:
        return
    path = next((p for p in (join_path(config.output, name) for name in
                             (layout.MANIFEST, layout.LEGACY_NAMES[layout.MANIFEST])) if FileSystems.exists(p)), None)
    if path is None:
        return
    with FileSystems.open(path) as handle:
        recorded = json.loads(handle.read()).get("input_files")
    changes = input_changes(recorded, fingerprints) if recorded is not None else []
    if changes:
        raise ConfigError(f"--resume: the input changed since the run that wrote {config.output} started, so its "
                          f"{len(done)} finished shard(s) would mix with shards of the new input: "
                          f"{'; '.join(changes[:5])}{f' (and {len(changes) - 5} more)' if len(changes) > 5 else ''}"
                          f"; build into a new output, or add --allow-changed-input if the change is harmless")
