"""One build per output directory: `DIR/__paranmt__/lock.json` names the build that holds DIR (and one shard job
per output: pipelines/runtime/shard_job.py locks its output the same way, a one-file output with a lock file beside
it, and the messages say `paranmt stats` run where they say build here).

The lock records who holds it: user, host, pid, the process's own start time (so a pid reused by another process is
not taken for the holder), the time the build started, and its command line. A second build on the same DIR finds the
lock and stops before any work with one line naming the holder (exit 2). A lock whose holder is gone (same host, the
pid is not running, or runs another process) is stale: it is named, and taken over by `--resume` or `--overwrite` (or
by a fresh build when DIR holds no shard yet). A lock held from another host cannot be checked from here; the message
says so and where the lock file is, for a user who knows that build is dead.

Local directories are locked atomically (O_CREAT | O_EXCL), with `os` alone (no Beam import for the commands that
write only locally); on other filesystems (gs://) the lock is written through Beam's FileSystems if absent and read
back, which leaves a window of about a second in which two builds starting together both pass (object stores have no
exclusive create through Beam's FileSystems).

`output_locked` holds the lock of a directory for the commands that are neither a build nor a shard job: the
trainers (`train`, `train-paraphraser`, `train-bgt`, `finetune-sts`, `train-words`, `probe`, `train-nmt`'s work
directory, `train-parser`), `paraphrase-data`, `adversarial`, `mine`, `report`, `export-encoder` and the evaluations
(pipelines/runtime/outputs.py `results_output`, pipelines/runtime/command.py `RunFolder`); `file_locked` that of
paraphrase's text output.
"""
from __future__ import annotations

import datetime
import getpass
import json
import os
import shlex
import socket
import sys
import uuid

from contextlib import contextmanager

import psutil

from paranmt.schemas import layout
from paranmt.schemas.errors import ConfigError


def _filesystems():
    """Beam's FileSystems, for a lock on a remote filesystem (imported only then: it takes seconds)."""
    from apache_beam.io.filesystems import FileSystems

    return FileSystems


def process_start(pid: int) -> float | None:
    """The start time of process `pid` (seconds since the epoch), None if there is no such process."""
    try:
        return psutil.Process(pid).create_time()
    except (psutil.NoSuchProcess, psutil.AccessDenied):
        return None


def describe_holder(holder: dict) -> str:
    """`pid 123 on host h (user u, started 2026-11-24 23:05:00 UTC: paranmt build ...)`."""
    return (f"pid {holder.get('pid')} on host {holder.get('host')} (user {holder.get('user')}, started "
            f"{holder.get('started')}: {holder.get('command')})")


class OutputLock:
    """The lock of one output directory (or of the file `path`, when given), held by this process between
    `acquire()` and `release()`; `what` holds it, in the messages ("build", or "`paranmt stats` run"), and `flag`
    names the output there."""

    def __init__(self, output: str, path: str | None = None, what: str = "build", flag: str = "--output"):
        self.output, self.flag = output, flag
        self.path = path or (_filesystems().join(output, layout.LOCK) if "://" in output
                             else os.path.join(output, layout.LOCK))
        self.what = what
        self.held = False

    @classmethod
    def beside(cls, output: str, what: str) -> "OutputLock":
        """The lock of the one-file output `output`: `.<name>.lock.json` in the directory that holds it."""
        directory, name = output.rsplit("/", 1) if "/" in output else (".", output)
        join = _filesystems().join if "://" in output else os.path.join
        return cls(output, join(directory or "/", f".{name}.lock.json"), what)

    def _local_path(self) -> str | None:
        if "://" not in self.path:
            return self.path
        return self.path[len("file://"):] if self.path.startswith("file://") else None

    def holder(self) -> dict | None:
        """The recorded holder, or None when there is no lock (an unreadable lock counts as a holder we cannot
        name)."""
        local = self._local_path()
        if not (os.path.exists(local) if local is not None else _filesystems().exists(self.path)):
            return None
        try:
            with (open(local, "rb") if local is not None else _filesystems().open(self.path)) as handle:
                return json.loads(handle.read().decode("utf-8"))
        except (OSError, ValueError):
            return {"pid": None, "host": None, "user": None, "started": None, "command": "(unreadable lock)"}

    @staticmethod
    def is_alive(holder: dict) -> bool | None:
        """True/False when the holder runs on this host; None when it cannot be known (another host)."""
        if holder.get("host") != socket.gethostname():
            return None
        pid, started = holder.get("pid"), holder.get("pid_started")
        actual = process_start(pid) if isinstance(pid, int) else None
        return actual is not None and (started is None or abs(actual - started) < 1.0)

    def acquire(self, take_stale: bool, holds_shards: bool) -> str | None:
        """Take the lock; returns a note naming a stale lock that was taken over (None otherwise). ConfigError when
        another build holds it, or when a stale lock's output holds shards and `take_stale` (--resume) is off."""
        record = {"user": getpass.getuser(), "host": socket.gethostname(), "pid": os.getpid(),
                  "pid_started": process_start(os.getpid()),
                  "started": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC"),
                  "command": shlex.join(["paranmt", *sys.argv[1:]])}
        note = None
        for _ in range(3):      # a stale lock removed by us, then re-created by a build starting at the same time
            if self._create(record):
                self.held = True
                return note
            holder = self.holder()
            if holder is None:
                continue
            alive = self.is_alive(holder)
            if alive is not False:
                where = "" if alive else (f" (on another host, so it cannot be checked from here; if that {self.what} "
                                          f"is no longer running, delete {self.path})")
                raise ConfigError(f"output {self.output} is in use by another {self.what}: {describe_holder(holder)}"
                                  f"{where}; wait for it to finish, or choose another {self.flag}")
            if holds_shards and not take_stale:
                raise ConfigError(f"output {self.output} holds shards of a {self.what} that stopped without finishing "
                                  f"({describe_holder(holder)}, no longer running); use --resume to finish it or "
                                  f"--overwrite to replace it, or choose a new output directory")
            self._remove_stale()
            note = f"took over the lock of a {self.what} that stopped without finishing: {describe_holder(holder)}"
        raise ConfigError(f"output {self.output}: could not take the lock {self.path} (other builds keep taking it)")

    def _create(self, record: dict) -> bool:
        data = json.dumps(record, indent=2).encode()
        local = self._local_path()
        if local is not None:
            os.makedirs(os.path.dirname(local), exist_ok=True)
            try:
                descriptor = os.open(local, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
            except FileExistsError:
                return False
            with os.fdopen(descriptor, "wb") as handle:
                handle.write(data)
            return True
        if _filesystems().exists(self.path):
            return False
        with _filesystems().create(self.path) as handle:
            handle.write(data)
        return (self.holder() or {}).get("pid_started") == record["pid_started"] and \
            (self.holder() or {}).get("host") == record["host"]

    def _remove_stale(self) -> None:
        """Move the stale lock aside first, so that of two builds taking it over at once only one removes it."""
        aside = f"{self.path}.stale-{uuid.uuid4().hex}"
        local = self._local_path()
        try:
            if local is not None:
                os.rename(local, aside)
                os.remove(aside)
            else:
                _filesystems().rename([self.path], [aside])
                _filesystems().delete([aside])
        except Exception:  # noqa: BLE001 - another build moved it first; the next create decides
            pass

    def release(self) -> None:
        if self.held:
            self.held = False
            local = self._local_path()
            try:
                if local is not None:
                    os.remove(local)
                else:
                    _filesystems().delete([self.path])
            except Exception:  # noqa: BLE001 - already gone (a user removed it): nothing to release
                pass


@contextmanager
def output_locked(output: str, command: str, flag: str = "--output"):
    """Hold the lock of the local directory `output` (`DIR/__paranmt__/lock.json`) for the block, for `paranmt
    command`: a second run on it stops before any work, one line naming the first (exit 2: `output DIR is in use by
    another paranmt train run: pid ...`); the lock of a run that is gone is taken over, with a line naming it
    (what that run left is the output contract's to judge). The side folder is removed again when the lock was all
    it held, and so is `output` when this run made it and was refused (a ConfigError: nothing of the run is left
    behind a refusal). An output (`flag`) that is a file, or that cannot be made, is one line."""
    if os.path.lexists(output) and not os.path.isdir(output):
        raise ConfigError(f"{flag} {output} exists and is not a directory")
    made = not os.path.lexists(output)
    lock = OutputLock(output, what=f"`paranmt {command}` run", flag=flag)
    try:
        note = lock.acquire(take_stale=True, holds_shards=False)
    except OSError as error:
        _remove_empty(output, made)
        raise ConfigError(f"{flag} {output}: cannot write the directory: {error.strerror or error}") from None
    if note:
        print(f"paranmt {command}: {note}", file=sys.stderr)
    refused = False
    try:
        yield lock
    except ConfigError:
        refused = True
        raise
    finally:
        lock.release()
        _remove_empty(output, made and refused)


@contextmanager
def file_locked(output: str, command: str):
    """Hold the lock of the one-file output `output` (`OutputLock.beside`) for the block, for `paranmt command`
    (paraphrase's text output): a second run on it stops before any work, one line naming the first; the lock of a
    run that is gone is taken over, with a line naming it (what that run left is the output contract's to judge)."""
    lock = OutputLock.beside(output, f"`paranmt {command}` run")
    note = lock.acquire(take_stale=True, holds_shards=False)
    try:
        if note:
            print(f"paranmt {command}: {note}", file=sys.stderr)
        yield lock
    finally:
        lock.release()


def _remove_empty(output: str, made: bool) -> None:
    """Remove `output`'s side folder if empty, and `output` if this run made it and it is empty."""
    for directory in (os.path.join(output, layout.SIDE_DIR), *([output] if made else [])):
        if os.path.isdir(directory) and not os.path.islink(directory) and not os.listdir(directory):
            os.rmdir(directory)
