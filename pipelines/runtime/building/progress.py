"""The launcher-side progress of a local build (a thread; `Progress`)."""
from __future__ import annotations

import os
import sys
import threading
import time


class Progress:
    """Launcher-side progress of a local build. A thread polls the output directory for finished shards and the
    workers' heartbeats (`heartbeats()`: pid -> last heartbeat, transforms/heartbeat.py) for rows finished inside
    shards: pairs count as stages finish batches (a shard's row counts 1/len(stages) per stage it has been
    through), so a one-shard input moves too. On a terminal a tqdm bar (pairs done / estimated total, pairs/s,
    ETA, shards, each worker's stage); otherwise one line per finished shard on stderr, and a line saying what each
    worker does after `quiet_line_seconds` without one; nothing printed under CI or pytest (`CI`,
    `PYTEST_CURRENT_TEST` set). `activity()` is the watchdog's other activity; `silence()` its first step when it
    stops the run, so that its one line is the last thing on stderr."""

    def __init__(self, output: str, done: set[str], total: int | None, shard_rows: int = 0,
                 stages: list[str] | None = None, heartbeats=lambda: {}, interval: float = 1.0,
                 quiet_line_seconds: float = 60.0):
        self.output, self.seen, self.total, self.interval = output, set(done), total, interval
        self.shard_rows, self.stages, self.heartbeats = shard_rows, list(stages or []), heartbeats
        self.quiet = bool(os.environ.get("CI") or os.environ.get("PYTEST_CURRENT_TEST"))
        self.quiet_line_seconds = quiet_line_seconds
        self.stop_event = threading.Event()
        self.console = threading.RLock()    # held while writing to stderr (`silence`)
        self.silenced = False
        self.thread = threading.Thread(target=self.run, name="paranmt-progress", daemon=True)
        self.bar = None
        self.start = self.printed = time.time()
        self.changed = 0.0
        self.pairs = 0

    def __enter__(self):
        if not self.quiet and sys.stderr.isatty():
            from tqdm import tqdm
            self.bar = tqdm(total=self.estimated_total(), unit="pair", desc="paranmt build", dynamic_ncols=True)
        self.start = self.printed = time.time()
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop_event.set()
        self.thread.join()
        self.poll()
        with self.console:
            if self.bar is not None and not self.silenced:
                self.bar.close()

    def silence(self) -> None:
        """Print nothing more (no line, no bar refresh): the watchdog calls this before its stop line, so that a
        shard finishing while the stop prints and kills the workers (seconds on a loaded machine) adds no line below.
        Waits for a line being printed to end. Reentrant: a SIGTERM handler may run it in the middle of a line."""
        with self.console:
            self.silenced = True

    def run(self):
        while not self.stop_event.wait(self.interval):
            self.poll()

    def activity(self) -> float:
        """The time the last shard landed (0 before the first); now once every shard has: the run is finishing,
        and closing its workers (a Dask cluster's take seconds) is not a stall."""
        if self.total is not None and len(self.seen) >= self.total:
            return time.time()
        return self.changed

    def estimated_total(self) -> int | None:
        """Pairs of this run: those of the shards finished so far plus `shard_rows` for each shard to come."""
        if self.total is None or not self.shard_rows:
            return None
        return self.pairs + max(self.total - len(self.seen), 0) * self.shard_rows

    def in_flight(self, beats: dict[int, dict]) -> float:
        """Pairs of unfinished shards, counted as their rows go through the stages."""
        pairs = 0.0
        for beat in beats.values():
            if beat.get("state") == "running" and beat.get("shard") not in self.seen and beat["stage"] in self.stages:
                done = self.stages.index(beat["stage"]) * beat["shard_rows"] + beat["stage_rows"]
                pairs += done / len(self.stages)
        return pairs

    @staticmethod
    def doing(beats: dict[int, dict]) -> str:
        return ", ".join(f"{pid}: {beat['stage']}" + (" (loading)" if beat.get("state") == "loading" else
                                                      f" {beat['stage_rows']}/{beat['shard_rows']}")
                         for pid, beat in sorted(beats.items()))

    def poll(self):
        from paranmt.transforms.shards import completed_shards, join_path, read_shard_counts

        finished = sorted(completed_shards(self.output) - self.seen)
        for name in finished:
            self.seen.add(name)
            self.pairs += read_shard_counts(join_path(self.output, f"{name}.parquet")).get("read", 0)
            self.changed = time.time()
        if self.quiet:
            return
        beats = self.heartbeats()
        current = self.pairs + self.in_flight(beats)
        rate = current / max(time.time() - self.start, 1e-9)
        shards = f"{len(self.seen)}/{self.total}" if self.total else f"{len(self.seen)}"
        with self.console:
            if self.silenced:
                return
            if self.bar is not None:
                self.bar.total = self.estimated_total()
                self.bar.n = int(current)
                self.bar.set_postfix_str("; ".join(filter(None, [f"shards {shards}", self.doing(beats)])),
                                         refresh=False)
                self.bar.refresh()
                return
            total = self.estimated_total()
            eta = f", ETA {time.strftime('%H:%M:%S', time.gmtime((total - current) / rate))}" if total and rate else ""
            for number, name in enumerate(finished, start=len(self.seen) - len(finished) + 1):
                counts = read_shard_counts(join_path(self.output, f"{name}.parquet"))
                print(f"paranmt build: shard {name} done ({number}{f'/{self.total}' if self.total else ''}): "
                      f"{counts.get('written', 0)} written, "
                      f"{counts.get('rejected', 0)} rejected; {int(current)}{f'/{total}' if total else ''} pairs, "
                      f"{rate:.0f} pairs/s{eta}", file=sys.stderr, flush=True)
                self.printed = time.time()
            if time.time() - self.printed > self.quiet_line_seconds and beats:
                print(f"paranmt build: working ({shards} shards, {int(current)}{f'/{total}' if total else ''} pairs"
                      f"{eta}): {self.doing(beats)}", file=sys.stderr, flush=True)
                self.printed = time.time()
