"""One build per output directory, and --resume only onto the input the run started with (issue 27, items 5-6)."""
import json
import os
import socket
import subprocess
import sys
import time

import pytest
import warm

from paranmt.pipelines.cli import main
from paranmt.pipelines.runtime.output_lock import OutputLock
from paranmt.schemas.errors import ConfigError

IN_MEMORY = ["--runner=DirectRunner", "--direct_running_mode=in_memory"]


def build(*args):
    return main(["build", *map(str, args)])


def dead_pid() -> int:
    process = subprocess.Popen([sys.executable, "-c", "pass"])
    process.wait()
    return process.pid


def write_lock(out, pid, host=None):
    (out / "__paranmt__").mkdir(parents=True, exist_ok=True)
    (out / "__paranmt__" / "lock.json").write_text(json.dumps({
        "user": "someone", "host": host or socket.gethostname(), "pid": pid, "pid_started": None,
        "started": "2026-11-24 10:00:00 UTC", "command": "paranmt build --output X"}))


def test_a_second_build_on_an_output_in_use_is_one_line_and_exit_2(tmp_path, sample_dir, capsys):
    """Two builds on one --output: the first runs to the end, the second is refused before any work."""
    out = tmp_path / "out"
    args = ["build", "--input", str(sample_dir / "*"), "--format", "moses", "--output", str(out),
            "--stages", "read,clean", "--shard-rows", "20"]
    first = warm.popen([sys.executable, "-m", "paranmt.pipelines.cli", *args, *IN_MEMORY], stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 120
    while not (out / "__paranmt__" / "lock.json").exists() and time.time() < deadline:
        time.sleep(0.05)
    holder = json.loads((out / "__paranmt__" / "lock.json").read_text())
    assert holder["pid"] == first.pid and holder["host"] == socket.gethostname()
    assert build(*args[1:], "--set", "clean.max_tokens=50") == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1, err
    assert f"is in use by another build: pid {first.pid} on host {socket.gethostname()}" in err
    assert first.wait(timeout=300) == 0, first.stderr.read()
    assert not (out / "__paranmt__" / "lock.json").exists()     # released at the end
    assert len(list(out.glob("*.parquet"))) == 100              # the first build's shards, untouched


def test_a_stale_lock_is_named_and_taken_over_by_resume(tmp_path, sample_dir, capsys):
    out = tmp_path / "out"
    args = ["--input", sample_dir / "*", "--format", "moses", "--output", out, "--stages", "read,clean",
            "--shard-rows", "500", *IN_MEMORY]
    assert build(*args) == 0
    os.remove(sorted(out.glob("*.parquet"))[0])
    pid = dead_pid()
    write_lock(out, pid)
    capsys.readouterr()
    assert build(*args) == 2                                    # without --resume: named, not taken
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1
    assert f"holds shards of a build that stopped without finishing (pid {pid} on host" in err
    assert "use --resume" in err
    assert build(*args, "--resume") == 0
    captured = capsys.readouterr()
    assert f"took over the lock of a build that stopped without finishing: pid {pid}" in captured.err
    assert "read 2000 = written 2000 + rejected 0" in captured.out
    assert not (out / "__paranmt__" / "lock.json").exists()


def test_a_lock_from_another_host_is_not_taken_and_says_where_it_is(tmp_path):
    write_lock(tmp_path, 1, host="elsewhere.example")
    with pytest.raises(ConfigError, match=r"on another host, so it cannot be checked from here; if that build is no "
                                          r"longer running, delete .*lock\.json"):
        OutputLock(str(tmp_path)).acquire(take_stale=True, holds_shards=True)


def test_a_pid_reused_by_another_process_is_a_stale_lock(tmp_path):
    write_lock(tmp_path, os.getpid())       # our pid, but recorded with another process start time
    record = json.loads((tmp_path / "__paranmt__" / "lock.json").read_text())
    record["pid_started"] = 1.0
    (tmp_path / "__paranmt__" / "lock.json").write_text(json.dumps(record))
    lock = OutputLock(str(tmp_path))
    assert "took over the lock" in lock.acquire(take_stale=True, holds_shards=True)
    lock.release()
    assert not (tmp_path / "__paranmt__" / "lock.json").exists()


def test_resume_onto_a_changed_input_is_refused_in_one_line(tmp_path, bitext, capsys):
    """A 4-shard build loses a shard; 50 lines of the Czech file change; --resume refuses, naming the file."""
    data = tmp_path / "data"
    data.mkdir()
    for suffix, name in (("cs", "newstest2015.ces"), ("en", "newstest2015.eng")):
        lines = (bitext / name).read_text(encoding="utf-8").splitlines(keepends=True)[:400]
        (data / f"nt.{suffix}").write_text("".join(lines), encoding="utf-8")
    out = tmp_path / "out"
    args = ["--input", data / "nt", "--format", "moses", "--output", out, "--stages", "read,clean",
            "--shard-rows", "100", *IN_MEMORY]
    assert build(*args) == 0
    manifest = json.loads((out / "__paranmt__" / "manifest.json").read_text())
    assert manifest["input_files"][str(data / "nt.cs")]["size"] == (data / "nt.cs").stat().st_size
    os.remove(out / "nt.00002.parquet")
    lines = (data / "nt.cs").read_text(encoding="utf-8").splitlines(keepends=True)
    (data / "nt.cs").write_text("".join(lines[:200] + [f"Změněná věta {i}.\n" for i in range(50)] + lines[250:]),
                                encoding="utf-8")
    capsys.readouterr()
    assert build(*args, "--resume") == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1, err
    assert f"the input changed since the run that wrote {out} started" in err
    assert f"{data / 'nt.cs'}: size " in err and str(data / "nt.en") not in err
    assert "--allow-changed-input" in err
    assert not (out / "nt.00002.parquet").exists()

    same_size = (data / "nt.cs").read_bytes()
    assert build(*args, "--resume", "--allow-changed-input") == 0
    os.remove(out / "nt.00003.parquet")
    (data / "nt.cs").write_bytes(same_size.replace("Změněná".encode(), "Zmenena!!!".encode(), 1))
    assert build(*args, "--resume") == 2
    assert "content changed (same size" in capsys.readouterr().err
