"""A worker that dies, stalls, outgrows its memory limit, a Ctrl-C or a full disk: the build stops with ONE line (what
stopped, how many shards are complete, the exact --resume command), exits non-zero, never hangs; the printed
--resume command then completes it with the shards of an undisturbed build, byte for byte (issue 27 items 1-4,
issue 24 items 3, 5, 6). The same on `--runner dask` with a LocalCluster of 2 workers, except for a dead worker,
which Dask replaces (its task re-run): the build finishes with every pair written or rejected once (issue 34).
Each build runs as a user runs it, in its own process (the watchdog ends its process)."""
import json
import shlex
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest
import warm

from paranmt.pipelines.cli import main
from paranmt.pipelines.runtime.building.progress import Progress
from paranmt.pipelines.runtime import watchdog
from paranmt.pipelines.runtime.watchdog import exit_cause, failure_cause, is_beam_worker, is_dask_worker
from paranmt.transforms.heartbeat import read_heartbeats

FAULTY_BUILD = Path(__file__).with_name("faulty_build.py")
MULTI = ["--runner=DirectRunner", "--direct_running_mode=multi_processing", "--direct_num_workers=2"]
IN_MEMORY = ["--runner=DirectRunner", "--direct_running_mode=in_memory"]
DASK = ["--runner", "dask", "--dask-workers", "2"]
MARKED = "tatoeba-every13th:tatoeba-every13th.cs:555"


def build_args(sample_dir, out):
    return ["build", "--input", str(sample_dir / "*"), "--format", "moses", "--output", str(out),
            "--stages", "read,clean", "--shard-rows", "50"]


def shard_bytes(directory: Path) -> dict:
    """The bytes of every data shard (`.parquet`) and reject file (`.pq`) of an output directory."""
    return {p.relative_to(directory).as_posix(): p.read_bytes() for p in sorted(directory.rglob("*"))
            if p.suffix in (".parquet", ".pq")}


@pytest.fixture(scope="module")
def undisturbed_build(tmp_path_factory, sample_dir) -> Path:
    """The output directory of the build every fault test disturbs, made undisturbed in one process; tests only
    read it."""
    out = tmp_path_factory.mktemp("undisturbed") / "out"
    assert main([*build_args(sample_dir, out), *IN_MEMORY]) == 0
    return out


@pytest.fixture(scope="module")
def undisturbed(undisturbed_build):
    return shard_bytes(undisturbed_build)


def start(command: list[str]) -> subprocess.Popen:
    return warm.popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)


def first_shard(process: subprocess.Popen, out: Path, timeout: float = 180) -> None:
    deadline = time.time() + timeout
    while not list(out.glob("*.parquet")) and process.poll() is None and time.time() < deadline:
        time.sleep(0.02)
    assert process.poll() is None and list(out.glob("*.parquet")), "the build ended before the fault"


def stopped(process: subprocess.Popen, since: float, limit: float = 60) -> tuple[int, str, float]:
    """Exit code, stderr and seconds from `since` to the exit; kills the build if it hangs past `limit`."""
    try:
        _, err = process.communicate(timeout=limit)
    except subprocess.TimeoutExpired:
        for child in psutil.Process(process.pid).children(recursive=True):
            child.kill()
        process.kill()
        pytest.fail(f"the build hangs: still running {limit} s after the fault")
    return process.returncode, err, time.time() - since


def resume_as_printed(line: str, out: Path, expected: dict, change: tuple[str, str] | None = None,
                      in_process: bool = True) -> None:
    """Run the --resume command the stop line gives (with `change`: one argument replaced, as the line advises);
    it completes the build byte-identically. `in_process` False: in a child process, for a command whose watchdog
    may stop it (a stall limit of seconds on a busy machine ends its process with os._exit, which must not be
    pytest's)."""
    command = shlex.split(line.split("resume with: ", 1)[1])
    assert command[0] == "paranmt" and command[-1] == "--resume"
    if change:
        command[command.index(change[0])] = change[1]
    if in_process:
        assert main(command[1:]) == 0
    else:
        done = warm.run([sys.executable, "-m", "paranmt.pipelines.cli", *command[1:]], capture_output=True, text=True,
                        timeout=600)
        assert done.returncode == 0, done.stderr[-2000:]
    assert shard_bytes(out) == expected
    assert not list(out.rglob(".*tmp-*")) and not (out / "__paranmt__" / "lock.json").exists()


def one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


def faulty_build_stops(fault: str, sample_dir: Path, out: Path, *extra: str) -> str:
    """Run faulty_build.py with `fault` on the marked row: it exits 1 with one line on stderr, returned."""
    process = start([sys.executable, str(FAULTY_BUILD), f"{fault}={MARKED}", *build_args(sample_dir, out), *extra])
    code, err, _ = stopped(process, time.time(), limit=240)
    line = one_line(err)
    assert code == 1, line
    return line


def test_a_worker_killed_by_sigkill_stops_the_build_in_one_line(tmp_path, sample_dir, undisturbed):
    out = tmp_path / "out"
    process = start([sys.executable, "-m", "paranmt.pipelines.cli", *build_args(sample_dir, out), *MULTI])
    first_shard(process, out)
    workers = [p for p in psutil.Process(process.pid).children(recursive=True) if is_beam_worker(p)]
    assert len(workers) == 2
    killed = time.time()
    workers[0].kill()
    code, err, seconds = stopped(process, killed)
    line = one_line(err)
    assert code == 1 and seconds < 30
    assert line.startswith(f"paranmt build: stopped: worker process {workers[0].pid}")
    assert "was killed by SIGKILL, likely out of memory" in line and " GB)" in line
    assert " of 40 shards complete" in line
    resume_as_printed(line, out, undisturbed)


def test_a_stage_that_crashes_its_process_stops_the_build_in_one_line(tmp_path, sample_dir, undisturbed):
    out = tmp_path / "out"
    line = faulty_build_stops("abort-at", sample_dir, out, *MULTI)
    assert "(stage fault, shard tatoeba-every13th.00011" in line and "was killed by SIGABRT" in line
    assert "shards complete" in line and "workers.log" in line
    resume_as_printed(line, out, undisturbed)


def test_a_build_whose_console_is_gone_still_stops(tmp_path, sample_dir):
    """The reader of stderr went away (a closed pipe): the stop cannot print, and still ends the build."""
    out = tmp_path / "out"
    process = warm.popen([sys.executable, str(FAULTY_BUILD), f"abort-at={MARKED}", *build_args(sample_dir, out), *MULTI],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    process.stderr.close()
    try:
        assert process.wait(timeout=240) == 1
    except subprocess.TimeoutExpired:
        for child in psutil.Process(process.pid).children(recursive=True):
            child.kill()
        process.kill()
        pytest.fail("the build hangs when its console is gone")
    assert "paranmt build: stopped: worker process" in (out / "__paranmt__" / "workers.log").read_text()


@pytest.mark.parametrize("runner", [IN_MEMORY, DASK], ids=["direct", "dask"])
def test_a_stalled_stage_stops_the_build_in_one_line(tmp_path, sample_dir, undisturbed, runner):
    """(A Dask LocalCluster's workers report nothing until they have imported Beam and the stages, longer than 4 s
    on a busy machine: start-up is not a stall.)"""
    out = tmp_path / "out"
    line = faulty_build_stops("sleep-at", sample_dir, out, "--set", "workers.stall_seconds=4", *runner)
    assert "stopped: stalled: no batch finished anywhere for " in line and "(workers.stall_seconds=4)" in line
    assert "stage fault, shard tatoeba-every13th.00011" in line
    resume_as_printed(line, out, undisturbed, in_process=False)     # it keeps workers.stall_seconds=4


def test_a_worker_over_its_memory_limit_stops_the_build_naming_what_to_lower(tmp_path, sample_dir, undisturbed):
    out = tmp_path / "out"
    process = start([sys.executable, "-m", "paranmt.pipelines.cli", *build_args(sample_dir, out),
                     "--worker-memory-mb", "60", *IN_MEMORY])
    code, err, _ = stopped(process, time.time(), limit=240)
    line = one_line(err)
    assert code == 1
    assert "over workers.memory_limit_mb=60: lower clean.batch_rows, --shard-rows" in line
    resume_as_printed(line, out, undisturbed, change=("60", "8000"))


@pytest.mark.parametrize("runner", [MULTI, DASK], ids=["direct", "dask"])
def test_ctrl_c_is_one_line_and_resumes(tmp_path, sample_dir, undisturbed, runner):
    """Ctrl-C reaches every process of the terminal's foreground group: launcher and workers."""
    out = tmp_path / "out"
    process = start([sys.executable, "-m", "paranmt.pipelines.cli", *build_args(sample_dir, out), *runner])
    first_shard(process, out)
    children = psutil.Process(process.pid).children(recursive=True)
    interrupted = time.time()
    process.send_signal(signal.SIGINT)
    for child in children:          # as a terminal does, to the whole group; one may be gone already (the
        try:                        # launcher's own shutdown stops its workers)
            child.send_signal(signal.SIGINT)
        except psutil.NoSuchProcess:
            pass
    code, err, seconds = stopped(process, interrupted)
    line = one_line(err)
    assert code == 130 and seconds < 30, line
    assert line.startswith("paranmt build: stopped: interrupted by SIGINT (Ctrl-C); ")
    resume_as_printed(line, out, undisturbed)


STOP_WITH_A_SEMAPHORE = """
import multiprocessing, sys, time
from paranmt.pipelines.runtime.watchdog import Watchdog

dropped = []
with Watchdog("build", lambda: "1 of 40 shards complete", "resume with: ...",
              on_stop=lambda: (time.sleep(0.5), dropped.clear()), worker_log=sys.argv[1]) as watchdog:
    context = multiprocessing.get_context("spawn")
    kept, dropped[:] = context.Lock(), [context.Lock()]
    print(kept._semlock.name, flush=True)
    watchdog.stop("interrupted by SIGINT (Ctrl-C)", 130)
"""


def test_a_stop_spares_the_resource_tracker_that_unlinks_the_semaphores(tmp_path):
    """A Dask nanny's queues hold spawn's named semaphores: one dropped a moment after the stop's kills (`on_stop`
    here, the nanny's thread seeing its worker die in a real run) adds no `resource_tracker: process died unexpectedly`
    warning to the one line, and one still held at os._exit is unlinked by the tracker, not leaked in /dev/shm."""
    process = start([sys.executable, "-c", STOP_WITH_A_SEMAPHORE, str(tmp_path / "workers.log")])
    out, err = process.communicate(timeout=60)      # the tracker holds stderr until it has unlinked and exited
    assert process.returncode == 130
    assert one_line(err).startswith("paranmt build: stopped: interrupted by SIGINT (Ctrl-C); ")
    assert not Path("/dev/shm", "sem." + out.strip().lstrip("/")).exists()



def test_the_tracker_is_told_by_its_pid_while_its_command_line_is_still_empty(monkeypatch):
    """Right after it is spawned the tracker may still be exec'ing, its command line empty: the pid this process
    recorded tells it all the same, and no other process is taken for it."""
    from multiprocessing import resource_tracker

    resource_tracker.ensure_running()
    tracker = psutil.Process(resource_tracker._resource_tracker._pid)
    assert watchdog.is_resource_tracker(tracker)
    monkeypatch.setattr(watchdog, "command_line", lambda process: [])
    assert watchdog.is_resource_tracker(tracker)
    assert not watchdog.is_resource_tracker(psutil.Process())

STOP_WHILE_PROGRESS_PRINTS = """
import sys, time
from paranmt.pipelines.runtime.building.progress import Progress
from paranmt.pipelines.runtime.watchdog import Watchdog

beats = {4242: {"pid": 4242, "state": "running", "stage": "clean", "shard": "big.00000", "shard_rows": 50,
                "stage_rows": 25, "time": time.time()}}
progress = Progress(sys.argv[1], set(), total=40, shard_rows=50, stages=["clean"], heartbeats=lambda: beats,
                    quiet_line_seconds=0)
progress.quiet = False          # (pytest's environment, inherited, would keep it quiet)
with Watchdog("build", lambda: "1 of 40 shards complete", "resume with: ...", on_stop=progress.poll,
              worker_log=sys.argv[2], silence=progress.silence) as watchdog:
    progress.poll()
    print("before", file=sys.stderr, flush=True)
    watchdog.stop("interrupted by SIGINT (Ctrl-C)", 130)
"""


def test_the_stop_line_is_the_last_line_even_while_the_progress_prints(tmp_path):
    """The progress thread may print a line while a stop kills the workers (seconds on a loaded machine): here it
    polls from `on_stop`, after the stop line; silenced by the stop, it prints nothing below it."""
    (tmp_path / "out").mkdir()
    process = start([sys.executable, "-c", STOP_WHILE_PROGRESS_PRINTS, str(tmp_path / "out"),
                     str(tmp_path / "workers.log")])
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    lines = err.strip().splitlines()      # (above: whatever importing Beam warns)
    assert lines.index("before") == len(lines) - 2, err
    assert lines[-3].startswith("paranmt build: working (0/40 shards, 25/2000 pairs"), err    # it does print
    assert lines[-1].startswith("paranmt build: stopped: interrupted by SIGINT (Ctrl-C); 1 of 40 shards complete")


@pytest.mark.parametrize("runner", [IN_MEMORY, DASK], ids=["direct", "dask"])
def test_a_full_disk_is_one_line_and_resumes(tmp_path, sample_dir, undisturbed, runner):
    """The disk fills up where a worker writes a shard (with in_memory: the launcher itself)."""
    out = tmp_path / "out"
    line = faulty_build_stops("disk-full-at", sample_dir, out, *runner)
    assert "stopped: the disk is full (OSError: [Errno 28] No space left on device" in line
    assert "tatoeba-every13th.00011" in line and " of 40 shards complete" in line
    if runner == IN_MEMORY:     # one process: the failed write removed its temporary (Dask's other worker was
        assert not list(out.rglob(".*tmp-*")) # stopped mid-shard: --resume removes what it left)
    resume_as_printed(line, out, undisturbed)


def test_a_dask_worker_killed_mid_build_is_replaced_and_nothing_is_lost_or_doubled(tmp_path, sample_dir,
                                                                                    undisturbed):
    """On Dask a dead worker is Dask's to handle: its nanny starts a new one and its task runs again; the build
    ends normally with the undisturbed build's shards, every pair written or rejected once."""
    out = tmp_path / "out"
    process = start([sys.executable, "-m", "paranmt.pipelines.cli", *build_args(sample_dir, out), *DASK])
    first_shard(process, out)
    workers = [p for p in psutil.Process(process.pid).children(recursive=True) if is_dask_worker(p)]
    assert len(workers) == 2
    workers[0].kill()
    code, err, _ = stopped(process, time.time(), limit=240)
    assert code == 0 and "Traceback" not in err, err
    assert len(list(out.glob("*.parquet"))) == 40 and shard_bytes(out) == undisturbed
    metrics = json.loads((out / "__paranmt__" / "metrics.json").read_text())
    assert metrics["read"] == 2000 == metrics["written"] + metrics["rejected"]
    assert not list(out.rglob(".*tmp-*")) and not (out / "__paranmt__" / "lock.json").exists()


def test_a_dask_worker_over_its_memory_limit_stops_the_build_in_one_line(tmp_path, sample_dir, undisturbed):
    out = tmp_path / "out"
    line = faulty_build_stops("grow-at", sample_dir, out, "--worker-memory-mb", "450", *DASK)
    assert "(stage fault, shard tatoeba-every13th.00011" in line
    assert "over workers.memory_limit_mb=450: lower the stage's batch size, --shard-rows" in line
    resume_as_printed(line, out, undisturbed, change=("450", "8000"))


def test_worker_warnings_stay_off_the_console_unless_verbose(tmp_path, sample_dir):
    """(The workers warn as they start, whatever the input: the first 100 Tatoeba pairs, 2 shards.)"""
    (tmp_path / "in").mkdir()
    for suffix in ("cs", "en"):
        lines = (sample_dir / f"tatoeba-every13th.{suffix}").read_text(encoding="utf-8").splitlines(keepends=True)
        (tmp_path / "in" / f"tatoeba-every13th.{suffix}").write_text("".join(lines[:100]), encoding="utf-8")
    quiet = warm.run([sys.executable, "-m", "paranmt.pipelines.cli", *build_args(tmp_path / "in", tmp_path / "a"),
                      *MULTI], capture_output=True, text=True)
    assert quiet.returncode == 0 and quiet.stderr == ""
    log = (tmp_path / "a" / "__paranmt__" / "workers.log").read_text()
    assert "Discarding unparseable args" in log
    verbose = warm.run([sys.executable, "-m", "paranmt.pipelines.cli", "-v",
                        *build_args(tmp_path / "in", tmp_path / "b"), *MULTI], capture_output=True, text=True)
    assert verbose.returncode == 0 and "Discarding unparseable args" in verbose.stderr


def test_progress_counts_rows_as_stages_finish_batches(tmp_path, capsys):
    """No shard finished yet: a worker half-way through the second of two stages counts 3/4 of its shard."""
    beats = {4242: {"pid": 4242, "state": "running", "stage": "translate", "shard": "big.00000",
                    "shard_rows": 1000, "stage_rows": 500, "time": time.time()}}
    progress = Progress(str(tmp_path), set(), total=2, shard_rows=1000, stages=["clean", "translate"],
                        heartbeats=lambda: beats, quiet_line_seconds=0)
    progress.quiet = False
    progress.start -= 10
    progress.poll()
    line = one_line(capsys.readouterr().err)
    assert line.startswith("paranmt build: working (0/2 shards, 750/2000 pairs, ETA 00:00:1")
    assert line.endswith("4242: translate 500/1000")


def test_exit_status_and_failure_descriptions():
    assert exit_cause(137) == ("was killed by SIGKILL", signal.SIGKILL)     # through `sh -c`: 128 + N
    assert exit_cause(-6) == ("was killed by SIGABRT", signal.SIGABRT)
    assert exit_cause(3) == ("exited with code 3", None)
    remote = ("Traceback (most recent call last):\n  File \"x.py\", line 1, in f\n"
              "OSError: [Errno 28] No space left on device: 'o/.a.tmp' [while running 'Write/WriteShard']")
    assert failure_cause(RuntimeError(remote)).startswith("the disk is full (OSError: [Errno 28]")
    assert failure_cause(RuntimeError("ValueError: bad row [while running 'Clean/Apply']")) == "ValueError: bad row"


def test_a_dead_worker_stops_the_other_beam_commands_too(tmp_path, undisturbed_build):
    process = start([sys.executable, "-m", "paranmt.pipelines.cli", "stats", "--input", str(undisturbed_build),
                     "--output", str(tmp_path / "stats"), *MULTI])
    deadline, workers = time.time() + 180, []
    while not workers and process.poll() is None and time.time() < deadline:
        workers = [p for p in psutil.Process(process.pid).children(recursive=True) if is_beam_worker(p)]
        time.sleep(0.02)
    killed = time.time()
    workers[0].kill()
    code, err, seconds = stopped(process, killed)
    line = one_line(err)
    assert code == 1 and seconds < 30
    assert line.startswith("paranmt stats: stopped: ") and "worker process" in line and "killed by SIGKILL" in line
    assert "; its output is incomplete; worker messages in /" in line
    assert "; rerun with: paranmt stats --input " in line and line.endswith(" --overwrite")   # stats cannot resume


RUN_A_WATCHDOG = """
import sys, time
from paranmt.pipelines.runtime.watchdog import Watchdog

with Watchdog("build", lambda: "0 of 1 shards complete", "resume with: ...") as watchdog:
    print(watchdog.directory, flush=True)
    [time.sleep(0.1) for _ in range(1200)]
"""


WAITER = """
import signal
from paranmt.pipelines.runtime.watchdog import sigint_within
signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
print("ready", flush=True)
while not sigint_within(0.2):
    pass
print("sigint", flush=True)
"""


def test_a_stop_and_continue_of_the_build_is_not_read_as_a_signal():
    """Ctrl-Z / a scheduler's suspend (SIGSTOP), then SIGCONT, for longer than the watchdog's wait: CPython's
    sigtimedwait returns a siginfo of garbage, which the watchdog read as a signal (a false stop, or a ValueError
    that ended its thread and with it the supervision); `sigint_within` reads only SIGINT, and a real one still."""
    child = subprocess.Popen([sys.executable, "-c", WAITER], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline() == "ready\n"
        for _ in range(3):                              # each stop outlasts the wait
            time.sleep(0.3)
            child.send_signal(signal.SIGSTOP)
            time.sleep(0.8)
            child.send_signal(signal.SIGCONT)
        time.sleep(0.5)
        still_waiting = child.poll() is None            # no stop/continue was taken for a SIGINT
        child.send_signal(signal.SIGINT)
        output = child.communicate(timeout=30)[0]
    finally:
        child.kill()
    assert still_waiting and output == "sigint\n"       # ... and the real SIGINT is


def test_a_removed_heartbeat_directory_reads_as_no_heartbeats(tmp_path):
    """A stopping run removes its heartbeat directory while its watchdog thread may still be polling it: the poll
    reads no heartbeats instead of raising (a thread's traceback below the one stop line)."""
    beat = {"pid": 7, "stage": "clean", "batches": 3}
    (tmp_path / "beats").mkdir()
    (tmp_path / "beats" / "7.json").write_text(json.dumps(beat))
    assert read_heartbeats(str(tmp_path / "beats")) == {7: beat}
    shutil.rmtree(tmp_path / "beats")
    assert read_heartbeats(str(tmp_path / "beats")) == {}


def test_the_heartbeats_of_a_sigkilled_build_are_removed_by_the_next_run_not_those_of_a_running_one(tmp_path,
                                                                                                    monkeypatch):
    """A launcher killed with SIGKILL cannot remove its `paranmt-heartbeats-*` directory; the next run removes it
    (its owner is dead), and leaves the directory of a run that is still going."""
    import tempfile

    from paranmt.pipelines.runtime.watchdog import Watchdog

    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr(tempfile, "tempdir", None)
    killed, running = (subprocess.Popen([sys.executable, "-c", RUN_A_WATCHDOG], stdout=subprocess.PIPE, text=True)
                       for _ in range(2))
    try:
        stale, alive = Path(killed.stdout.readline().strip()), Path(running.stdout.readline().strip())
        assert stale.parent == tmp_path and stale.name.startswith("paranmt-heartbeats-") and alive.is_dir()
        killed.kill()
        killed.wait()
        assert stale.is_dir()                           # what SIGKILL leaves
        with Watchdog("build", lambda: "", "") as watchdog:
            assert Path(watchdog.directory).is_dir()
            assert not stale.exists() and alive.is_dir()
        assert not Path(watchdog.directory).exists()
    finally:
        running.kill()
        running.wait()
