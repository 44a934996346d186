"""Worker side of the watchdog (paranmt.pipelines.runtime.watchdog): each worker process reports, after every stage batch,
what it is doing, in one small JSON file per process that the launcher reads.

The launcher of a local run names a directory in the environment (`PARANMT_HEARTBEAT_DIR`, inherited by the
DirectRunner's worker processes; the in_memory runner's workers are threads of the launcher itself) and the
optional per-worker memory limit (`PARANMT_WORKER_MEMORY_MB`). Without it (Dataflow, a test calling a stage
directly) nothing is written and nothing is checked. The one stage adapter (transforms/stage.py) calls
`report_setup` before a stage loads its models and `report_batch` after each batch, so every stage reports the
same way.

`<dir>/<pid>.json`: {"pid", "stage", "shard", "state" ("loading" | "running" | "over_memory"), "shard_rows" (rows
of the shard), "stage_rows" (rows of the shard this stage has finished), "done" ({stage: rows finished by the
process, cumulative}), "rss" (bytes, resident memory after the batch), "time" (epoch seconds)}.
Memory guard: when `rss` is over the limit after a batch, the file says "over_memory" and the worker waits for
the launcher to stop the build (it prints which setting to lower); if no launcher does within OVER_MEMORY_WAIT
seconds, the worker exits (code OVER_MEMORY_EXIT), so that it can never hang either.
"""
from __future__ import annotations

import json
import os
import threading
import time
from collections import Counter

import psutil

DIR_VARIABLE = "PARANMT_HEARTBEAT_DIR"
MEMORY_VARIABLE = "PARANMT_WORKER_MEMORY_MB"
OVER_MEMORY_WAIT = 120
OVER_MEMORY_EXIT = 75


class Heartbeat:
    """The heartbeat file of this process (one per process and directory, shared by its threads)."""

    _instances: dict = {}
    _lock = threading.Lock()

    def __init__(self, directory: str, memory_limit_mb: int):
        self.path = os.path.join(directory, f"{os.getpid()}.json")
        self.memory_limit = memory_limit_mb << 20
        self.process = psutil.Process()
        self.done: Counter = Counter()
        self.write_lock = threading.Lock()

    @classmethod
    def current(cls) -> "Heartbeat | None":
        """This process's heartbeat when a launcher watches it (DIR_VARIABLE set), else None."""
        directory = os.environ.get(DIR_VARIABLE)
        if not directory or not os.path.isdir(directory):
            return None
        key = (directory, os.getpid())
        with cls._lock:
            if key not in cls._instances:
                cls._instances[key] = cls(directory, int(os.environ.get(MEMORY_VARIABLE) or 0))
            return cls._instances[key]

    def write(self, **state) -> None:
        record = {"pid": os.getpid(), "done": dict(self.done), "rss": self.process.memory_info().rss,
                  "time": time.time(), **state}
        if state.get("state") == "running" and self.memory_limit and record["rss"] > self.memory_limit:
            record["state"] = "over_memory"
        with self.write_lock:
            temporary = f"{self.path}.tmp"
            with open(temporary, "w") as handle:
                json.dump(record, handle)
            os.replace(temporary, self.path)
        if record["state"] == "over_memory":
            time.sleep(OVER_MEMORY_WAIT)      # the launcher stops the build (and this process) well before
            os._exit(OVER_MEMORY_EXIT)


def report_setup(stage: str) -> None:
    """Before `stage` loads its models in this process (loading counts as activity for the stall check)."""
    beat = Heartbeat.current()
    if beat is not None:
        beat.write(stage=stage, shard=None, state="loading", shard_rows=0, stage_rows=0)


def report_batch(stage: str, shard: str, shard_rows: int, stage_rows: int, batch_rows: int) -> None:
    """After a batch of `batch_rows` rows of `stage` on `shard` (`stage_rows` of its `shard_rows` rows done)."""
    beat = Heartbeat.current()
    if beat is not None:
        beat.done[stage] += batch_rows
        beat.write(stage=stage, shard=shard, state="running", shard_rows=shard_rows, stage_rows=stage_rows)


def read_heartbeats(directory: str) -> dict[int, dict]:
    """pid -> the last heartbeat of every process that wrote one in `directory`; none once the directory is gone (a
    stopping run removes it while its watchdog thread may still be polling)."""
    beats = {}
    try:
        names = os.listdir(directory)
    except FileNotFoundError:
        return beats
    for name in names:
        if name.endswith(".json"):
            try:
                with open(os.path.join(directory, name)) as handle:
                    beat = json.load(handle)
            except (OSError, ValueError):     # replaced while read: the next poll reads it
                continue
            beats[beat["pid"]] = beat
    return beats
