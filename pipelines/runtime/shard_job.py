"""One shard job: what every command that runs a Beam pipeline over the shards of a build or a filtered corpus
shares (filter, export, stats, lexicon, paraphrase on shards; the build plans raw input and has its own).

    job = ShardJob("stats", input_path, output, columns=["id", "ref"], argv=argv, overwrite=overwrite,
                   earlier=lambda out: [...], what="a stats report")
    with job:                                       # inputs checked, output claimed and locked, temporaries gone
        with job.pipeline(options) as pipeline:     # a Beam pipeline under the watchdog
            pipeline | beam.Create(job.todo) | ...
    totals = sum_counts(per_shard)

1. Inputs: the shard files of `input_path` (transforms/shards.py `list_shards`, the shard-I/O home: what a shard
   file is, schemas/layout.py `is_shard`; every footer read, so a corrupt shard is one line), their names unique
   when outputs are named after them, the columns the job reads present.
2. Output checks (pipelines/runtime/outputs.py): apart from the inputs (`check_apart`); a directory, not a file,
   unless the job writes one file; what an earlier run left (`earlier(output)`) refused without a flag (`claim`):
   --overwrite deletes it first; a job that resumes by finished shards (`resumable`) takes --resume and then does
   only the shards whose output file (`<output>/<shard>.parquet`) is not there yet (`todo`).
3. The output lock (pipelines/runtime/output_lock.py, the build's): one job per output; a second one started on
   the same output stops before any work naming the first (exit 2); a stale lock (a killed job) is taken over.
   A directory job locks `DIR/__paranmt__/lock.json` (the side folder is removed again when the lock was all it
   held), a one-file job `.<name>.lock.json` beside its file.
4. The run (`pipeline`): a Beam pipeline under the watchdog (`supervised`): a stop is one line with how far the
   job got and how to go on (`resume with: ... --resume` for a resumable job, else `rerun with: ... --overwrite`),
   after the temporaries of the writes cut short (`.<name>.tmp-<uuid>` in `work_dirs`) are removed and the lock
   released.
5. Counts: `sum_counts` adds up per-shard counts.
"""
from __future__ import annotations

import os
import sys
from collections import Counter
from contextlib import contextmanager
from typing import Callable, Iterable

from apache_beam.io.filesystems import FileSystems

from paranmt.pipelines.runtime.output_lock import OutputLock
from paranmt.pipelines.runtime.outputs import (check_apart, check_flags, claim, remove_temporaries,
                                               rerun_command, resume_command)
from paranmt.schemas import layout
from paranmt.schemas.errors import ConfigError
from paranmt.transforms.shards import (check_columns, completed_shards, join_path, list_shards, matching,
                                       shard_name, shard_path, unique_shard_names)


def found(output: str, *patterns: str) -> list[str]:
    """The paths in `output` that match `patterns` (globs relative to it: an earlier run's files, for `earlier`)."""
    return [path for pattern in patterns for path in matching(join_path(output, pattern))]


def sum_counts(per_shard: Iterable[dict]) -> Counter:
    """The sum of per-shard counts (their numeric values; the `shard` name is left out)."""
    totals: Counter = Counter()
    for counts in per_shard:
        totals.update({key: value for key, value in counts.items() if key != "shard"})
    return totals


class ShardJob:
    """The scaffolding of one shard job (module docstring). `earlier(output)`: the files an earlier run left in the
    output (what `--overwrite` deletes), described as `what` when refused; `inputs`: files read besides the shards
    (refused as outputs too); `work_dirs`: where the job's atomic writes leave temporaries (default: the output);
    `output_file`: the job writes one file, not a directory; `side_dir`: the job keeps a side folder of its own,
    DIR/__paranmt__ (filter, paraphrase), whose presence says that a run started."""

    def __init__(self, command: str, input_path: str, output: str, *, columns: list[str], what: str,
                 earlier: Callable[[str], list[str]], argv: list[str] | None = None, resume: bool = False,
                 overwrite: bool = False, resumable: bool = False, named_after_shards: bool = False,
                 output_file: bool = False, side_dir: bool = False, inputs: Iterable[str | None] = (),
                 check: str | None = None):
        self.command, self.input, self.output = command, input_path, output.rstrip("/")
        self.side_dir = side_dir
        self.argv, self.resume, self.overwrite, self.resumable = argv, resume, overwrite, resumable
        self.earlier, self.what, self.output_file = earlier, what, output_file
        self.files = list_shards(input_path)
        if named_after_shards:
            unique_shard_names(self.files)
        check_columns(self.files, columns, check or command)
        check_apart(self.output, [input_path, *self.files, *inputs])
        check_flags(self.output, resume, overwrite)
        if "://" not in self.output and os.path.exists(self.output) and os.path.isdir(self.output) == output_file:
            writes = "one file" if output_file else "a directory"
            raise ConfigError(f"--output {self.output} is a {'directory' if output_file else 'file'}, not "
                              f"{'a file' if output_file else 'a directory'}; {command} writes {writes} there")
        self.work_dirs = [self.output]
        self.todo = list(self.files)
        what = f"`paranmt {command}` run"
        self.lock = OutputLock.beside(self.output, what) if output_file else OutputLock(self.output, None, what)

    def __enter__(self) -> "ShardJob":
        """Take the lock, claim the output (deleting an earlier run's files with --overwrite, finding the shards to
        do with --resume), create the output directory, remove the temporaries of a run cut short."""
        started = not self.output_file and FileSystems.exists(join_path(self.output, layout.SIDE_DIR))
        try:
            note = self.lock.acquire(take_stale=True, holds_shards=False)     # `claim` below decides about
            if note:                                                            # what the stale job left
                print(f"paranmt {self.command}: {note}", file=sys.stderr)
            self.claim(started)
            for directory in [] if self.output_file else [self.output, join_path(self.output, layout.SIDE_DIR)]:
                if not FileSystems.exists(directory):
                    FileSystems.mkdirs(directory)
            self.remove_temporaries()
        except OSError as error:  # Beam's BeamIOError is one; the cause is in its message
            self.release()
            what = "write the output file" if self.output_file else "create the output directory"
            raise ConfigError(f"cannot {what} {self.output}: {error}") from None
        except BaseException:
            self.release()
            raise
        return self

    def __exit__(self, *exc) -> bool:
        self.release()
        return False

    def claim(self, started: bool) -> None:
        earlier = self.earlier(self.output)
        if self.resumable:
            done = completed_shards(self.output) if FileSystems.exists(self.output) else set()
            held = (f"{len(done)} {self.what} shard(s) of an earlier run" if done else
                    "a run that stopped before its first shard" if started and self.resume else None)
            mode = claim(self.output, held, self.resume, self.overwrite)
            if mode == "resume":
                self.todo = [path for path in self.files if shard_name(path) not in done]
        else:
            mode = claim(self.output, f"{self.what} ({len(earlier)} file(s))" if earlier else None, False,
                         self.overwrite, resumable=False)
        if mode == "overwrite" and earlier:
            FileSystems.delete(earlier)

    def shard_output(self, path: str) -> str:
        """The output file of input shard `path` in a job that writes one per shard: `<output>/<shard>.parquet`."""
        return shard_path(self.output, shard_name(path))

    def status(self) -> str:
        """How far the job got, for the line a stop ends with."""
        if not self.resumable:
            return "its output is incomplete"
        return (f"{sum(FileSystems.exists(self.shard_output(path)) for path in self.files)} of {len(self.files)} "
                f"shards complete")

    def advice(self) -> str:
        return (resume_command if self.resumable else rerun_command)(self.argv, self.command)

    def remove_temporaries(self) -> None:
        remove_temporaries(*(path for path in self.work_dirs if FileSystems.exists(path)))

    def stopped(self) -> None:
        """After a stop: the temporaries of the writes cut short removed, the lock released."""
        self.remove_temporaries()
        self.release()

    def release(self) -> None:
        """Release the lock; the side folder of a job that has none of its own (`side_dir` False: stats, lexicon,
        export) is removed again when the lock was all it held."""
        self.lock.release()
        side = join_path(self.output, layout.SIDE_DIR)
        if not (self.output_file or self.side_dir) and "://" not in side and os.path.isdir(side) \
                and not os.listdir(side):
            os.rmdir(side)

    @contextmanager
    def pipeline(self, options):
        """A Beam pipeline (run when the block ends) under the watchdog (pipelines/runtime/watchdog.py
        `supervised`); the temporaries of the writes are removed after it, as after a stop."""
        import apache_beam as beam

        from paranmt.pipelines.runtime.watchdog import supervised

        with supervised(self.command, options, self.status, self.advice(), on_stop=self.stopped), \
                beam.Pipeline(options=options) as pipeline:
            yield pipeline
        self.remove_temporaries()
