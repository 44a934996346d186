"""`--runner dask` on a LocalCluster of 2 worker processes, run from the CLI as a user runs it: every stage gives
the DirectRunner's shards byte for byte with the same accounting and Beam counters; filter and stats run on it; a
worker killed mid-build loses and doubles nothing; the flags fail in one line."""
import json
import os
import signal
import threading
import time

import psutil
import pyarrow.parquet as pq
import pytest
from apache_beam.options.pipeline_options import StandardOptions

from paranmt.pipelines.cli import main
from paranmt.pipelines.runtime.dask_runner import close, start_client
from paranmt.pipelines.runtime.options import DASK_RUNNER, pipeline_options, runs_remotely
from paranmt.pipelines.runtime.watchdog import is_dask_worker, is_resource_tracker


def cli(*args):
    return main([str(a) for a in args])


def files(root):
    """Every shard and rejects file (`*.parquet`, `__paranmt__/rejects/*.pq`) under `root`: path -> bytes."""
    return {p.relative_to(root): p.read_bytes() for p in sorted([*root.rglob("*.parquet"), *root.rglob("*.pq")])}


def metrics(out):
    return json.loads((out / "__paranmt__" / "metrics.json").read_text())


TWO_WORKERS = ["--runner", "dask", "--dask-workers", "2"]
# the reference: the DirectRunner in one process (its shards are those of its worker processes, byte for byte:
# tests/pipelines/test_build.py), which loads the stages' models once rather than once per worker
DIRECT = ["--runner=DirectRunner", "--direct_running_mode=in_memory"]


@pytest.fixture(scope="module")
def small_folder(tmp_path_factory, sample_dir):
    """The first 40 pairs of each demo file (held-out style: news and Tatoeba): 80 pairs, in moses files."""
    root = tmp_path_factory.mktemp("dask-in")
    for name in ("newstest2017-first1000", "tatoeba-every13th"):
        for suffix in ("cs", "en"):
            lines = (sample_dir / f"{name}.{suffix}").read_text(encoding="utf-8").splitlines()[:40]
            (root / f"{name}.{suffix}").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def small_input(small_folder):
    """Every stage of the demo config on `small_folder`, 4 shards of 20; translate with beam 2, not the config's 12
    (the same beam search over a sixth of the hypotheses: both runners translate alike whatever the beam)."""
    return ["--config", "configs/demo.yaml", "--input", small_folder / "*", "--shard-rows", "20",
            "--set", "translate.beam=2"]


@pytest.fixture(scope="module")
def both_runners(tmp_path_factory, small_input):
    """Every stage of the demo config on the same input: the DirectRunner's output and the Dask runner's."""
    root = tmp_path_factory.mktemp("dask-build")
    assert cli("build", *small_input, "--output", root / "direct", *DIRECT) == 0
    assert cli("build", *small_input, "--output", root / "dask", *TWO_WORKERS) == 0
    return root / "direct", root / "dask"


def test_every_stage_on_dask_gives_the_direct_runners_shards_byte_for_byte(both_runners):
    direct, dask = both_runners
    assert len(files(direct)) == 8 and files(dask) == files(direct)    # 4 shards + their rejects files
    ran, reference = metrics(dask), metrics(direct)
    assert ran["read"] == 80 == ran["written"] + ran["rejected"]
    assert {k: ran[k] for k in ("read", "written", "rejected", "rejects_by_reason")} == \
        {k: reference[k] for k in ("read", "written", "rejected", "rejects_by_reason")}
    # the Beam counters of every stage, collected from the Dask workers, are the DirectRunner's (times aside)
    counts = [{k: v for k, v in m["beam_counters"].items() if not k.endswith("_ms")} for m in (ran, reference)]
    assert counts[0] == counts[1] and counts[0]["parse/rows_in"] == 80 and len(counts[0]) > 20
    manifest = json.loads((dask / "__paranmt__" / "manifest.json").read_text())
    assert [s["name"] for s in manifest["shards"]] == sorted(p.stem for p in dask.glob("*.parquet"))


def test_filter_and_stats_on_dask_give_the_direct_runners_outputs(both_runners, tmp_path):
    """filter uses side inputs and global combines, stats a global combine: both as on the DirectRunner."""
    direct, _ = both_runners
    for name, runner in (("direct", DIRECT), ("dask", TWO_WORKERS)):
        assert cli("filter", "--config", "paranmt-5m", "--input", direct, "--output", tmp_path / f"f-{name}",
                   *runner) == 0
        assert cli("stats", "--input", direct, "--output", tmp_path / f"s-{name}", *runner) == 0
    kept = {name: {p.name: pq.read_table(p) for p in (tmp_path / f"f-{name}").glob("*.parquet")}
            for name in ("direct", "dask")}
    assert kept["direct"] and kept["dask"].keys() == kept["direct"].keys()
    for name, table in kept["direct"].items():      # the same rows; the metadata differs in the output path alone
        assert kept["dask"][name].equals(table)
        direct_config, dask_config = (json.loads(kept[side][name].schema.metadata[b"paranmt.filter_config"])
                                      for side in ("direct", "dask"))
        assert {**dask_config, "output": None} == {**direct_config, "output": None}
    stats = [json.loads((tmp_path / f"s-{name}" / "stats.json").read_text()) for name in ("direct", "dask")]
    assert stats[0] == stats[1]


def test_a_worker_killed_mid_build_loses_and_doubles_nothing(both_runners, small_input, tmp_path, capsys):
    """SIGKILL one of the LocalCluster's worker processes while shards are still being made: Dask re-runs its task
    on the other worker (the nanny restarts the killed one); the shards are the uninterrupted run's."""
    direct, _ = both_runners
    out, killed = tmp_path / "killed", []

    def kill_a_worker():
        deadline = time.time() + 600
        while time.time() < deadline and not killed:
            workers = [p for p in psutil.Process().children(recursive=True)
                       if is_dask_worker(p) and p.cpu_times().user > 0.5]
            done = len(list(out.glob("*.parquet"))) if out.exists() else 0
            if workers and done >= 1:    # the first shard is written, the others are being made
                os.kill(workers[0].pid, signal.SIGKILL)
                killed.append((workers[0].pid, done))
            time.sleep(0.05)

    killer = threading.Thread(target=kill_a_worker, daemon=True)
    killer.start()
    code = cli("build", *small_input, "--output", out, *TWO_WORKERS)
    killer.join()
    assert killed and killed[0][1] < 4, "no worker was killed while shards were left to make"
    if code != 0:        # Dask gave up: one line, and --resume finishes the run
        assert "--resume" in capsys.readouterr().err
        assert cli("build", *small_input, "--output", out, "--resume", *TWO_WORKERS) == 0
    assert files(out) == files(direct)
    assert metrics(out)["read"] == 80 == metrics(out)["written"] + metrics(out)["rejected"]
    assert not list(out.rglob(".*tmp-*"))


def test_resume_on_dask_makes_only_the_missing_shards(small_input, tmp_path):
    """(The build to resume is the DirectRunner's: --resume takes any runner's shards, and the Dask run under test
    is the resume.) The run leaves the caller's environment as it found it: Dask's nannies set OMP_NUM_THREADS=1,
    PYTHONHASHSEED... in their parent's os.environ (dask_runner.restore_environ)."""
    out = tmp_path / "resumed"
    assert cli("build", *small_input, "--output", out, "--stages", "read,clean", *DIRECT) == 0
    (out / "tatoeba-every13th.00001.parquet").unlink()
    environ = dict(os.environ)
    assert cli("build", *small_input, "--output", out, "--stages", "read,clean", "--resume", *TWO_WORKERS) == 0
    assert dict(os.environ) == environ
    assert metrics(out)["beam_counters"]["clean/rows_in"] == 20     # one shard made again
    assert metrics(out)["read"] == 80


@pytest.mark.parametrize("given, runner, remote", [
    (["--runner", "dask"], DASK_RUNNER, False),
    (["--dask-workers", "3"], DASK_RUNNER, False),
    (["--runner=dask", "--dask-address", "tcp://h:8786"], DASK_RUNNER, True),
    (["--dask_client_address=tcp://h:8786"], DASK_RUNNER, True),
    (["--runner=DataflowRunner"], "DataflowRunner", True),
    ([], "DirectRunner", False),
])
def test_dask_flags_pick_the_runner_and_where_its_workers_are(given, runner, remote):
    options = pipeline_options(given)
    assert options.view_as(StandardOptions).runner == runner and runs_remotely(options) == remote


@pytest.mark.parametrize("flags, message", [
    (["--runner", "DirectRunner", "--dask-workers", "2"], "--dask-workers need(s) --runner dask, not DirectRunner"),
    (["--dask-workers", "2", "--dask-address", "tcp://h:8786"], "give one of them"),
    (["--runner", "dask", "--dask-workers", "0"], "--dask-workers expects a number of worker processes >= 1"),
    (["--dask-workers", "2", "--dask-start-method", "fork"],
     "--dask-start-method expects one of forkserver, spawn, got 'fork'"),
    (["--dask-address", "tcp://h:8786", "--dask-start-method", "spawn"],
     "--dask-start-method is how a LocalCluster (--dask-workers) starts its workers"),
    (["--runner", "dask", "--dask-address", "tcp://127.0.0.1:9", "--dask_connection_timeout=2"],
     "cannot reach the Dask scheduler at tcp://127.0.0.1:9"),
    (["--runner", "dask", "--dask-address", "tls://127.0.0.1:9"],
     "--dask-address tls://127.0.0.1:9: Dask's config has no TLS CA file and client certificate"),
])
def test_bad_dask_flags_are_one_line_and_exit_2(sample_dir, tmp_path, capsys, flags, message):
    assert cli("build", "--input", sample_dir / "tatoeba*", "--format", "moses", "--stages", "read",
               "--output", tmp_path / "out", *flags) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err


def running(process: psutil.Process) -> bool:
    """Still running: not ended (a zombie has ended: its parent has yet to reap it; a killed forkserver's workers
    are reaped by whichever process adopts them)."""
    try:
        return process.is_running() and process.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


@pytest.mark.parametrize("method, workers", [("forkserver", 2), ("spawn", 1)])
def test_a_local_clusters_workers_start_as_asked_and_nothing_outlives_it(method, workers):
    """forkserver (the default): the workers are forked by one server process, this process's child, which the
    watchdog does not take for a worker; killed, the nannies take their workers for dead and start new ones from a
    new server, and the tasks run. spawn: each worker is this process's child. Either way nothing is left after the
    cluster, and the start method is Dask's default again."""
    import dask

    def descendants():
        return psutil.Process().children(recursive=True)

    before = {p.pid for p in descendants()}       # what earlier tests left (their DirectRunner's processes...)
    client, cluster = start_client(pipeline_options(["--dask-workers", str(workers)] +
                                                    (["--dask-start-method", method] if method == "spawn" else [])))
    try:
        started = [p for p in descendants() if p.pid not in before and is_dask_worker(p)]
        (parent,) = {psutil.Process(p.ppid()) for p in started}
        assert len(started) == workers
        if method == "spawn":
            assert parent.pid == os.getpid()
        else:
            assert parent.ppid() == os.getpid() and not is_dask_worker(parent)
            parent.kill()
        assert len(client.gather(client.map(lambda _: os.getpid(), range(4), pure=False))) == 4
        seen = started + [p for p in descendants() if p.pid not in before and not is_resource_tracker(p)]
    finally:
        close(client, cluster)
    assert not [p for p in seen + [parent] if p.pid != os.getpid() and running(p)]
    assert dask.config.get("distributed.worker.multiprocessing-method") == "spawn"


def test_on_a_joined_cluster_translate_runs_on_the_gpu_worker_only(tmp_path, small_folder, repo):
    """A cluster like cluster-config's: one worker with the resource CPU, one with GPU. With translate.accelerator
    set, every translate task runs on the GPU worker and every other step on the CPU worker; the shards are the
    DirectRunner's (which ignores the hint)."""
    import logging

    from distributed import Client, LocalCluster, Nanny, get_task_stream

    common = ["--input", small_folder / "*", "--format", "moses", "--shard-rows", "20",
              "--stages", "read,clean,translate", "--set", f"translate.model={repo / 'tests/fixtures/nmt-tiny'}",
              "--set", "translate.beam=2", "--set", "translate.threads=1",
              "--set", "translate.accelerator=type:nvidia-tesla-t4;count:1"]
    assert cli("build", *common, "--output", tmp_path / "direct", *DIRECT) == 0
    cluster = LocalCluster(n_workers=0, dashboard_address=None, silence_logs=logging.WARNING)
    cluster.worker_spec = {kind: {"cls": Nanny, "options": {"nthreads": 1, "resources": {kind.upper(): 1}}}
                           for kind in ("cpu", "gpu")}
    cluster.scale(2)
    with cluster, Client(cluster) as client:
        client.wait_for_workers(2)
        names = {address: info["name"] for address, info in client.scheduler_info()["workers"].items()}
        with get_task_stream(client) as stream:
            assert cli("build", *common, "--output", tmp_path / "dask", "--dask-address",
                       cluster.scheduler_address) == 0
    ran = {}
    for task in stream.data:
        step = task["key"][0] if isinstance(task["key"], tuple) else task["key"]
        ran.setdefault(step.split("-")[0], set()).add(names[task["worker"]])
    assert ran["Translate_Apply"] == {"gpu"}, ran
    assert all(ran[step] == {"cpu"} for step in ("ReadBitext_Read", "Clean_Apply", "Write_WriteShard"))
    assert files(tmp_path / "dask") == files(tmp_path / "direct") and len(files(tmp_path / "direct")) == 8


def test_a_cluster_that_goes_away_mid_build_stops_in_one_line_and_resume_finishes(small_input, tmp_path, capsys):
    """The scheduler of a joined cluster closes while shards are being made: one line on stderr (no traceback),
    exit 1; the same build with --resume on a new cluster writes what is missing, with the accounting balanced."""
    import logging

    from distributed import LocalCluster

    out = tmp_path / "lost"
    args = [*small_input, "--output", out, "--stages", "read,clean", "--shard-rows", "2"]
    cluster = LocalCluster(n_workers=1, threads_per_worker=1, dashboard_address=None, silence_logs=logging.WARNING)

    def close_after_the_first_shard():
        while not list(out.glob("*.parquet")):
            time.sleep(0.02)
        cluster.close()

    closer = threading.Thread(target=close_after_the_first_shard, daemon=True)
    closer.start()
    assert cli("build", *args, "--dask-address", cluster.scheduler_address) == 1
    closer.join()
    err = capsys.readouterr().err
    assert "stopped: lost the Dask cluster" in err and "--resume" in err and "Traceback" not in err
    assert 0 < len(list(out.glob("*.parquet"))) < 40
    assert cli("build", *args, "--resume", *TWO_WORKERS) == 0
    assert len(list(out.glob("*.parquet"))) == 40 and metrics(out)["read"] == 80
