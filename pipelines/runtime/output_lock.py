"""One build per output directory: `DIR/__paranmt__/lock.json` names the build that holds DIR (and one shard job
per output: pipelines/runtime/shard_job.py locks its output the same way, a one-file output with a lock file beside
it, and the messages say `paranmt stats` run where they say build here).

The lock records who holds it: user, host, pid, the process's own start time (so a pid reused by another process is
not taken for the holder), the time the build started, and its command line. A second build on the same DIR finds the
lock and stops before any work with one line naming the holder (exit 2). A lock whose holder is gone (same host, the
pid is not running, or runs another process) is stale: it is named, and taken over by `--resume` or `--overwrite` (or
by a fresh build when DIR holds no shard yet). A lock held from another host cannot be checked from here; the message
says so and where the lock file is, for a user who knows that build is dead.

Local directories are locked atomically (O_CREAT | O_EXCL); on other filesystems (gs://) the lock is written if
absent and read back, which leaves a window of about a second in which two builds starting together both pass
(object stores have no exclusive create through Beam's FileSystems).
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

import psutil
from apache_beam.io.filesystems import FileSystems

from paranmt.schemas import layout
from paranmt.schemas.errors import ConfigError


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
    `acquire()` and `release()`; `what` holds it, in the messages ("build", or "`paranmt stats` run")."""

    def __init__(self, output: str, path: str | None = None, what: str = "build"):
        self.output = output
        self.path = path or FileSystems.join(output, layout.LOCK)
        self.what = what
        self.held = False

    @classmethod
    def beside(cls, output: str, what: str) -> "OutputLock":
        """The lock of the one-file output `output`: `.<name>.lock.json` in the directory that holds it."""
        directory, name = output.rsplit("/", 1) if "/" in output else (".", output)
        return cls(output, FileSystems.join(directory or "/", f".{name}.lock.json"), what)

    def _local_path(self) -> str | None:
        if "://" not in self.path:
            return self.path
        return self.path[len("file://"):] if self.path.startswith("file://") else None

    def holder(self) -> dict | None:
        """The recorded holder, or None when there is no lock (an unreadable lock counts as a holder we cannot
        name)."""
        if not FileSystems.exists(self.path):
            return None
        try:
            with FileSystems.open(self.path) as handle:
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
                                  f"{where}; wait for it to finish, or choose another --output")
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
        if FileSystems.exists(self.path):
            return False
        with FileSystems.create(self.path) as handle:
            handle.write(data)
        return (self.holder() or {}).get("pid_started") == record["pid_started"] and \
            (self.holder() or {}).get("host") == record["host"]

    def _remove_stale(self) -> None:
        """Move the stale lock aside first, so that of two builds taking it over at once only one removes it."""
        aside = f"{self.path}.stale-{uuid.uuid4().hex}"
        try:
            FileSystems.rename([self.path], [aside])
            FileSystems.delete([aside])
        except Exception:  # noqa: BLE001 - another build moved it first; the next create decides
            pass

    def release(self) -> None:
        if self.held:
            self.held = False
            try:
                FileSystems.delete([self.path])
            except Exception:  # noqa: BLE001 - already gone (a user removed it): nothing to release
                pass
