"""Supervision of a local pipeline run: a worker that dies, a stall, a worker over its memory limit, Ctrl-C and
SIGTERM each stop the run with ONE line on stderr and a non-zero exit: never a hang, never a traceback.

Why: Beam 2.77's DirectRunner (multi_processing) starts each worker as `sh -c "python -m
apache_beam.runners.worker.sdk_worker_main"` and waits for it in a thread named `run_worker`, which raises
`RuntimeError('Worker subprocess exited with return code N')` when the worker exits abnormally; nothing else
looks, and the runner waits forever for the dead worker's bundles (measured: a worker killed with SIGKILL hung a
6-shard build with 3 shards written, until stopped by hand).

`Watchdog` is a context manager around `pipeline.run()`; its thread polls every `interval` seconds:
- a dead worker: Beam's report of the exit is caught (threading.excepthook; through the shell, code 128+N means
  signal N) and the worker is named from its last heartbeat and the memory it was last seen using;
- a stall: no stage batch finished anywhere (heartbeats, transforms/heartbeat.py) and no other progress
  (`activity()`, e.g. a shard file landing) for `stall_seconds`; before the first heartbeat or activity the run is
  starting (worker processes importing Beam and the stages, a Dask cluster coming up), which may take
  max(stall_seconds, STARTUP_SECONDS);
- memory: a worker's resident memory over `memory_limit_mb`, sampled here every poll and checked by the worker
  itself after every batch (its heartbeat then says "over_memory");
- Ctrl-C: SIGINT is blocked before the workers start, so they inherit the block (no KeyboardInterrupt traceback
  from every worker) and this thread takes it with sigtimedwait (`sigint_within`: a stop and continue of the
  process, Ctrl-Z or a scheduler's suspend, is not a signal); SIGTERM through a handler.
To stop, it silences the launcher's other console output (`silence()`: the build's progress, whose lines would
otherwise land below the stop line while it kills the workers), prints `paranmt <command>: stopped: <what>;
<status()>; <advice>`, kills every descendant process but multiprocessing's resource tracker
(`is_resource_tracker`), calls `on_stop()` (the build releases its output lock) and ends the process with
os._exit: 1 for a failure, 130 after SIGINT, 143 after SIGTERM. The data side needs nothing more: finished shards
are complete files, and the temporaries of unfinished ones are removed by the next `--resume`.

Another runner plugs in by calling `report_exit(pid, returncode)` from its own hook (and `worker_match` says which
descendant processes are its workers); the heartbeats, stall, memory and signal handling are the same.
`--runner dask --dask-workers N` (a LocalCluster started for the run, pipelines/runtime/dask_runner.py) is supervised the
same way, except for a dead worker: its nanny (in this process) starts a new one and Dask re-runs the dead worker's
task (docs/cluster.md, "Faults"), so a death is not reported; if Dask gives up, the run fails with one line. A
runner whose workers are other machines (Dataflow, a joined Dask cluster) is not supervised (`worker_matcher`).
"""
from __future__ import annotations

import logging
import os
import re
import shutil
import signal
import sys
import tempfile
import threading
import time
from contextlib import contextmanager
from typing import Callable

import psutil

from paranmt.pipelines.runtime.options import DASK_RUNNER, runs_remotely
from paranmt.pipelines.runtime.output_lock import process_start
from paranmt.pipelines.runtime.outputs import EXIT_FAILURE, EXIT_SIGINT, EXIT_SIGTERM, disk_full
from paranmt.schemas.errors import PipelineStopped
from paranmt.transforms.heartbeat import DIR_VARIABLE, MEMORY_VARIABLE, OVER_MEMORY_EXIT, read_heartbeats

BEAM_EXIT_REPORT = re.compile(r"Worker subprocess exited with return code (-?\d+)")
BEAM_WORKER_MODULE = "apache_beam.runners.worker.sdk_worker_main"
DASK_WORKER_START = "spawn_main"     # a LocalCluster's worker started with multiprocessing's spawn runs it
# A LocalCluster's forkserver (`--dask-start-method forkserver`, pipelines/runtime/dask_runner.py): the workers it forks
# keep its command line; the server itself is a child of the launcher, not a worker
FORKSERVER = "multiprocessing.forkserver"
RESOURCE_TRACKER = "multiprocessing.resource_tracker"  # the helper process that unlinks the nannies' semaphores
# Threads of Beam's local runner whose exceptions only repeat that a worker went away (the grpc streams of the
# dead worker); the watchdog says it once, in its own line.
BEAM_CHANNEL_THREADS = ("run_worker", "beam_control_read", "read_grpc_client_inputs", "read_state",
                        "run_worker_")
STARTUP_SECONDS = 120   # the least time a run may take to start (module docstring, "a stall")
HEARTBEAT_PREFIX = "paranmt-heartbeats-"
HEARTBEAT_NAME = re.compile(rf"{HEARTBEAT_PREFIX}(\d+)-(\d+)-\w+")     # heartbeat_directory(): owner pid, its start


def gigabytes(n_bytes: int | None) -> str:
    return "unknown" if n_bytes is None else f"{n_bytes / (1 << 30):.2f} GB"


def sigint_within(timeout: float) -> bool:
    """Whether SIGINT (blocked in the calling thread) arrived within `timeout` seconds. Only a siginfo that says
    SIGINT counts: when the process is stopped and continued (SIGSTOP or Ctrl-Z's SIGTSTP, then SIGCONT: the wait
    ends with EINTR) for longer than the timeout, CPython 3.11's sigtimedwait returns an uninitialized siginfo, whose
    si_signo is garbage (measured: 1, read as SIGHUP, or a number that is no signal at all, which had killed this
    thread with a ValueError and left a build whose worker then died waiting forever)."""
    received = signal.sigtimedwait({signal.SIGINT}, timeout)
    return received is not None and received.si_signo == signal.SIGINT


def exit_cause(returncode: int) -> tuple[str, int | None]:
    """What a worker's exit status means: (description, signal number or None). Beam starts workers through
    `sh -c`, so a worker killed by signal N is reported as 128 + N (and the shell itself as -N)."""
    number = -returncode if returncode < 0 else returncode - 128 if returncode > 128 else None
    if number is None:
        return f"exited with code {returncode}", None
    try:
        name = signal.Signals(number).name
    except ValueError:
        name = f"signal {number}"
    return f"was killed by {name}", number


@contextmanager
def supervised(command: str, options: PipelineOptions, status: Callable[[], str] = lambda: "its output is incomplete",
               advice: str = "run the same command again", on_stop: Callable[[], None] = lambda: None):
    """The watchdog around the pipeline of a command other than build (filter, stats, export, lexicon,
    paraphrase), on a local runner or a Dask LocalCluster: a dead worker (not on Dask: Dask re-runs its task),
    Ctrl-C or SIGTERM end it with one line (`stopped: <what>; <status()>; ...; <advice>`); a worker's exception is
    PipelineStopped (one line). `on_stop()` runs after either (e.g. removes the temporaries of the writes cut
    short). The workers' messages go to a temporary log, named in that line and removed after a success (-v: the
    console). A remote runner (Dataflow, a joined Dask cluster) runs unsupervised."""
    match = worker_matcher(options)
    if match is None:
        yield None
        return
    log = None
    if not logging.getLogger().isEnabledFor(logging.DEBUG):
        handle, log = tempfile.mkstemp(prefix=f"paranmt-{command}-workers-", suffix=".log")
        os.close(handle)
    with Watchdog(command, status, advice, on_stop=on_stop, worker_match=match, worker_log=log) as watchdog:
        try:
            yield watchdog
        except Exception as error:  # noqa: BLE001 - whatever failed in a worker, the console gets one line
            on_stop()
            raise watchdog.failed(error) from error
    if log:
        os.remove(log)


def failure_cause(error: BaseException) -> str:
    """A failed pipeline's error in one line. A worker's exception reaches the launcher as a RuntimeError whose
    message holds the worker's traceback (the DirectRunner): its last `SomeError: message` line is what happened
    (Beam's `[while running 'Step']` suffix dropped); or as the exception itself (Dask): `SomeError: message`; a
    runner's own stop (PipelineStopped with a `cause`, e.g. Dask giving up on a task) is its cause. A full disk
    says so first."""
    if isinstance(error, PipelineStopped) and getattr(error, "cause", None):
        return error.cause
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    errors = [line for line in lines if re.match(r"^[A-Za-z_][\w.]*(Error|Exception|Interrupt|Exit)\b:?", line)]
    cause = errors[-1] if errors else f"{type(error).__name__}: {lines[-1]}" if lines else type(error).__name__
    cause = re.sub(r" \[while running '[^']*'\]$", "", cause)
    if disk_full(error):
        return f"the disk is full ({cause}): free space on it, then"
    return cause


def command_line(process: psutil.Process) -> list[str]:
    """The process's command line; empty when it is gone or not ours to read."""
    try:
        return process.cmdline()
    except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess):
        return []


def is_beam_worker(process: psutil.Process) -> bool:
    """A Beam SDK worker's Python process (not the `sh -c` that started it)."""
    return BEAM_WORKER_MODULE in command_line(process)


def is_dask_worker(process: psutil.Process) -> bool:
    """A worker process of a Dask LocalCluster: spawned (its command line runs multiprocessing's spawn_main), or
    forked by the cluster's forkserver (the server's command line, and the server its parent: the server itself,
    the launcher's child, is not a worker)."""
    line = " ".join(command_line(process))
    if FORKSERVER not in line:
        return DASK_WORKER_START in line
    try:
        parent = process.parent()
    except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess):
        return False
    return parent is not None and FORKSERVER in " ".join(command_line(parent))


def is_resource_tracker(process: psutil.Process) -> bool:
    """multiprocessing's resource tracker (started by this process for a LocalCluster's workers). A stop
    leaves it alive: it ignores SIGINT and SIGTERM and exits by itself once this process has ended, unlinking the
    named semaphores of the nannies' queues (/dev/shm) that os._exit leaves; killed, it leaked them, and the nanny
    thread dropping a dead worker's queue before os._exit found it gone and printed `UserWarning: resource_tracker:
    process died unexpectedly` below the one line. Told by the pid this process's tracker recorded (a tracker just
    started may still show an empty command line while it execs: matched by its command line alone, CI's loaded
    machine killed it once), or by its command line."""
    from multiprocessing import resource_tracker

    return (process.pid == getattr(resource_tracker._resource_tracker, "_pid", None)
            or any(RESOURCE_TRACKER in part for part in command_line(process)))


def worker_matcher(options: PipelineOptions) -> Callable[[psutil.Process], bool] | None:
    """Which descendant processes are the run's workers, for the watchdog: Beam's SDK workers on a local runner,
    the LocalCluster's workers on Dask; None when the workers are other machines (not supervised)."""
    from apache_beam.options.pipeline_options import StandardOptions

    if runs_remotely(options):
        return None
    return is_dask_worker if options.view_as(StandardOptions).runner == DASK_RUNNER else is_beam_worker


def heartbeat_directory() -> str:
    """A new directory for the heartbeats of this process's run, in the temporary directory:
    `paranmt-heartbeats-<pid>-<process start, ms>-<random>`, so that a later run can tell when its owner is gone.
    Removed when the run ends or stops; a launcher killed with SIGKILL cannot, so the stale directories of dead
    owners (this user's; the pid not running, or running another process) are removed here first. A directory
    without that name (an older paranmt's) is left alone: its owner cannot be told."""
    root = tempfile.gettempdir()
    for name in os.listdir(root):
        match = HEARTBEAT_NAME.fullmatch(name)
        path = os.path.join(root, name)
        try:
            if match is None or not os.path.isdir(path) or os.stat(path).st_uid != os.getuid():
                continue
        except OSError:                 # removed meanwhile by another run
            continue
        started = process_start(int(match.group(1)))
        if started is None or abs(started - int(match.group(2)) / 1000) >= 1.0:
            shutil.rmtree(path, ignore_errors=True)
    started = process_start(os.getpid())
    return tempfile.mkdtemp(prefix=f"{HEARTBEAT_PREFIX}{os.getpid()}-{round(started * 1000)}-")


class Watchdog:
    """See the module docstring. `status()` says how far the run got (e.g. `3 of 6 shards complete`), `advice`
    what to do next (e.g. the exact --resume command); `activity()` returns the time of the last progress the
    heartbeats do not show (0 if none); `silence()`, called first by a stop, ends the launcher's other output on
    stderr (the build's progress), so that the one line is the last there; `stage_settings` maps a stage to the
    setting that bounds its batch memory (named when a worker goes over `memory_limit_mb`)."""

    def __init__(self, command: str, status: Callable[[], str], advice: str, stall_seconds: int = 0,
                 memory_limit_mb: int = 0, activity: Callable[[], float] = lambda: 0.0,
                 on_stop: Callable[[], None] = lambda: None, stage_settings: dict[str, str] | None = None,
                 worker_match: Callable[[psutil.Process], bool] = is_beam_worker, worker_log: str | None = None,
                 interval: float = 0.5, silence: Callable[[], None] = lambda: None):
        self.command, self.status, self.advice = command, status, advice
        self.stall_seconds, self.memory_limit = stall_seconds, memory_limit_mb << 20
        self.activity, self.on_stop, self.worker_match, self.silence = activity, on_stop, worker_match, silence
        self.stage_settings, self.interval, self.worker_log = stage_settings or {}, interval, worker_log
        self.workers: dict[int, dict] = {}          # pid -> {"rss": last resident bytes seen}
        self.exits: list[tuple[int | None, int]] = []
        self.stopping = threading.Lock()
        self.finished = threading.Event()
        self.directory = None

    # ---- set-up and tear-down around pipeline.run()
    def __enter__(self):
        self.directory = heartbeat_directory()
        self.saved_environment = {name: os.environ.get(name) for name in (DIR_VARIABLE, MEMORY_VARIABLE)}
        os.environ[DIR_VARIABLE] = self.directory
        os.environ[MEMORY_VARIABLE] = str(self.memory_limit >> 20)
        self.saved_excepthook = threading.excepthook
        threading.excepthook = self.thread_exception
        self.in_main_thread = threading.current_thread() is threading.main_thread()
        if self.in_main_thread:
            self.saved_mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
            self.saved_handlers = {number: signal.signal(number, self.signal_received)
                                   for number in (signal.SIGINT, signal.SIGTERM)}
        if self.worker_log:
            self.console = ConsoleOnly(self.worker_log).__enter__()
        self.start = time.time()
        self.thread = threading.Thread(target=self.run, name="paranmt-watchdog", daemon=True)
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.finished.set()
        self.thread.join()
        with self.stopping:         # a stop already under way ends the process; otherwise restore everything
            if self.in_main_thread:
                for number, handler in self.saved_handlers.items():
                    signal.signal(number, handler)
                signal.pthread_sigmask(signal.SIG_SETMASK, self.saved_mask)
            threading.excepthook = self.saved_excepthook
            for name, value in self.saved_environment.items():
                if value is None:
                    os.environ.pop(name, None)
                else:
                    os.environ[name] = value
            shutil.rmtree(self.directory, ignore_errors=True)
            if self.worker_log:
                self.console.__exit__()

    # ---- detection
    def thread_exception(self, args) -> None:
        match = BEAM_EXIT_REPORT.search(str(args.exc_value)) if args.exc_value is not None else None
        if match:
            self.report_exit(None, int(match.group(1)))
        elif not (args.thread is not None and args.thread.name.startswith(BEAM_CHANNEL_THREADS)):
            self.saved_excepthook(args)

    def report_exit(self, pid: int | None, returncode: int) -> None:
        """A worker process ended with `returncode` (pid None: not known, the one that vanished is named)."""
        if returncode != 0:
            self.exits.append((pid, returncode))

    def signal_received(self, number, frame=None) -> None:
        self.stop(f"interrupted by {signal.Signals(number).name}" +
                  (" (Ctrl-C)" if number == signal.SIGINT else ""),
                  EXIT_SIGINT if number == signal.SIGINT else EXIT_SIGTERM)

    def heartbeats(self) -> dict[int, dict]:
        """pid -> the last heartbeat of every worker process (transforms/heartbeat.py)."""
        return read_heartbeats(self.directory) if self.directory else {}

    def run(self) -> None:
        while not self.finished.is_set():
            if self.in_main_thread:
                if sigint_within(self.interval):
                    self.signal_received(signal.SIGINT)
            else:
                self.finished.wait(self.interval)
            if not self.finished.is_set():
                self.poll()

    def poll(self) -> None:
        alive = self.sample_workers()
        beats = self.heartbeats()
        if self.exits:
            time.sleep(self.interval)           # the worker's process is gone a moment after Beam reports it
            alive = self.sample_workers()
            pid, returncode = self.exits[0]
            number = exit_cause(returncode)[1]
            if number in (signal.SIGINT, signal.SIGTERM):  # the signal sent to the whole group reached a worker first
                self.signal_received(number)
            self.stop(self.death_message(pid, returncode, alive, beats), EXIT_FAILURE)
        for pid, beat in beats.items():
            if beat.get("state") == "over_memory":
                self.stop(self.memory_message(pid, beat["rss"], beat), EXIT_FAILURE)
        if self.memory_limit:
            for pid in alive:
                if self.workers[pid]["rss"] > self.memory_limit:
                    self.stop(self.memory_message(pid, self.workers[pid]["rss"], beats.get(pid)), EXIT_FAILURE)
        progress = [self.activity()] + [beat["time"] for beat in beats.values()]
        last = max([self.start] + progress)
        allowed = self.stall_seconds if any(progress) else max(self.stall_seconds, STARTUP_SECONDS)
        if self.stall_seconds and time.time() - last > allowed:
            self.stop(self.stall_message(time.time() - last, beats), EXIT_FAILURE)

    def sample_workers(self) -> set[int]:
        """Record the resident memory of every live worker process; returns their pids."""
        alive = set()
        for process in psutil.Process().children(recursive=True):
            if process.pid in self.workers or self.worker_match(process):
                try:
                    if process.status() == psutil.STATUS_ZOMBIE:
                        continue
                    rss = process.memory_info().rss
                except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess):
                    continue
                self.workers.setdefault(process.pid, {})["rss"] = rss
                alive.add(process.pid)
        return alive

    # ---- the one line
    @staticmethod
    def where(beat: dict | None) -> str:
        if not beat:
            return ""
        if beat.get("state") == "loading":
            return f" (loading the {beat['stage']} stage's model)"
        return (f" (stage {beat['stage']}, shard {beat['shard']}, {beat['stage_rows']}/{beat['shard_rows']} rows "
                f"done)")

    def death_message(self, pid: int | None, returncode: int, alive: set[int], beats: dict[int, dict]) -> str:
        gone = [p for p in self.workers if p not in alive]
        pid = pid if pid is not None else (gone[0] if len(gone) == 1 else None)
        beat = beats.get(pid)
        if returncode == OVER_MEMORY_EXIT and beat and beat.get("state") == "over_memory":
            return self.memory_message(pid, beat["rss"], beat)
        how, number = exit_cause(returncode)
        who = f"worker process {pid}" if pid is not None else "a worker process"
        last = self.workers.get(pid, {}).get("rss") or (beat or {}).get("rss")
        if number == signal.SIGKILL:
            how += f", likely out of memory (the kernel's OOM killer sends SIGKILL; it last used {gigabytes(last)})"
        return f"{who}{self.where(beat)} {how}"

    def memory_message(self, pid: int, rss: int, beat: dict | None) -> str:
        stage = (beat or {}).get("stage")
        setting = self.stage_settings.get(stage, "the stage's batch size")
        return (f"worker process {pid}{self.where(beat)} uses {gigabytes(rss)}, over workers.memory_limit_mb="
                f"{self.memory_limit >> 20}: lower {setting}, --shard-rows, or run fewer model stages per build "
                f"(--stages), or raise the limit")

    def stall_message(self, idle: float, beats: dict[int, dict]) -> str:
        doing = "; ".join(f"worker process {pid}{self.where(beat)}" for pid, beat in sorted(beats.items())
                          if pid in self.workers or pid == os.getpid())
        return (f"stalled: no batch finished anywhere for {idle:.0f} s (workers.stall_seconds={self.stall_seconds})"
                + (f"; last seen: {doing}" if doing else ""))

    def line(self, what: str) -> str:
        """`stopped: <what>; <status()>; worker messages in <log>; <advice>`."""
        try:
            status = self.status()
        except Exception as error:  # noqa: BLE001 - the line must be printed whatever the output's state
            status = f"progress unknown ({error})"
        log = f"; worker messages in {self.worker_log}" if self.worker_log else ""
        return f"stopped: {what}; {status}{log}; {self.advice}"

    def failed(self, error: BaseException) -> PipelineStopped:
        """The pipeline raised `error` (a worker's exception, a full disk): the one line, as an exception."""
        logging.getLogger(__name__).debug("the pipeline failed", exc_info=error)
        return PipelineStopped(self.line(failure_cause(error)))

    def stop(self, what: str, code: int) -> None:
        """Silence the progress, print the one line, kill every descendant process but the resource tracker,
        `on_stop()`, and end the process with `code`."""
        if not self.stopping.acquire(blocking=False):
            return                                  # another thread is already stopping the run
        try:
            self.silence()      # first: a shard landing while this prints and kills must not add a line below
            line = f"paranmt {self.command}: {self.line(what)}"
            if self.worker_log:
                os.write(2, f"{line}\n".encode())          # fd 2 is the worker log: the line is kept there too
            prefix = "\n" if sys.stderr.isatty() else ""         # below a progress bar
            print(f"{prefix}{line}", file=sys.stderr, flush=True)
        except (OSError, ValueError):   # the console is gone (a closed pipe): stop all the same, the exit code says
            pass
        try:
            for process in psutil.Process().children(recursive=True):
                if is_resource_tracker(process):
                    continue
                try:
                    process.kill()
                except psutil.NoSuchProcess:
                    pass
            self.on_stop()
        finally:
            shutil.rmtree(self.directory, ignore_errors=True)
            os._exit(code)


class ConsoleOnly:
    """While entered, what goes to file descriptor 2 (the workers' warnings and tracebacks, which they inherit; the
    runner's own grpc messages; a shell's `Killed`) is appended to `log` instead of the console, while Python's
    `sys.stderr` (the progress, the one-line stop, paranmt's messages) still reaches the console. `-v` runs without
    it, so that everything shows."""

    def __init__(self, log: str):
        self.log = log

    def __enter__(self):
        sys.stderr.flush()
        self.saved = os.dup(2)
        with open(self.log, "ab") as handle:
            os.dup2(handle.fileno(), 2)
        self.replaced = sys.stderr is sys.__stderr__
        if self.replaced:
            sys.stderr = os.fdopen(os.dup(self.saved), "w", buffering=1, encoding=sys.__stderr__.encoding,
                                   errors="backslashreplace")
        return self

    def __exit__(self, *exc):
        sys.stderr.flush()
        os.dup2(self.saved, 2)
        os.close(self.saved)
        if self.replaced:
            sys.stderr.close()
            sys.stderr = sys.__stderr__
