"""Faults around a whole build: a real kill mid-run then --resume, a full disk, corrupt input shards, hostile
names and configs. Each must end in success after a retry/resume, or one clear error, never a silent loss."""
import errno
import json
import os
import signal
import subprocess
import sys
import time

import pyarrow.parquet as pq
import pytest
import warm
from apache_beam.io.filesystems import FileSystems

from paranmt.pipelines.cli import main
from paranmt.schemas.build_config import load_build_config
from paranmt.schemas.errors import ConfigError

LOCAL = ["--runner=DirectRunner", "--direct_running_mode=in_memory"]


def build(*args):
    return main(["build", *map(str, args)])


def shard_bytes(directory):
    """The bytes of every Parquet file of an output directory: data shards (`.parquet`) and reject files (`.pq`)."""
    return {p.relative_to(directory).as_posix(): p.read_bytes() for p in sorted(directory.rglob("*"))
            if p.suffix in (".parquet", ".pq")}


def test_killed_run_resumes_to_exactly_the_uninterrupted_result(tmp_path, sample_dir):
    """SIGKILL the whole process group as soon as the first shard lands, resume, compare with a clean run."""
    args = ["--input", str(sample_dir / "*"), "--format", "moses", "--shard-rows", "20", "--stages", "read,clean"]
    assert build(*args, "--output", tmp_path / "clean", *LOCAL) == 0    # the same shards as the default mode's
    expected = shard_bytes(tmp_path / "clean")
    assert len(expected) == 2 * 100      # 2 files x 1,000 pairs / 20 per shard, data + rejects files

    out = tmp_path / "killed"
    command = [sys.executable, "-m", "paranmt.pipelines.cli", "build", *args, "--output", str(out)]
    process = warm.popen(command, start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 120
    while not list(out.glob("*.parquet")) and process.poll() is None and time.time() < deadline:
        time.sleep(0.005)
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()
    interrupted = len(list(out.glob("*.parquet")))
    assert 0 < interrupted < 100, f"kill landed outside the write phase ({interrupted} shards)"
    manifest = json.loads((out / "__paranmt__" / "manifest.json").read_text())
    assert manifest["shards"] == [] and len(manifest["input_files"]) == 4   # written at the start, for --resume
    assert (out / "__paranmt__" / "lock.json").exists()                    # stale: its holder is gone

    assert build(*args, "--output", out, "--resume") == 0
    assert shard_bytes(out) == expected
    assert not [p for p in out.rglob(".*tmp-*")]


def test_full_disk_fails_clearly_leaves_no_partial_file_and_resume_completes(tmp_path, sample_dir, monkeypatch,
                                                                            capsys):
    args = ["--input", sample_dir / "*", "--format", "moses", "--output", tmp_path / "out", "--shard-rows", "500",
            "--stages", "read,clean"]
    real_create = FileSystems.create
    created = []

    def create_until_full(path, *a, **k):
        created.append(path)
        if len(created) == 5:
            raise OSError(errno.ENOSPC, "No space left on device", path)
        return real_create(path, *a, **k)

    monkeypatch.setattr(FileSystems, "create", staticmethod(create_until_full))
    assert build(*args, *LOCAL) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "stopped: the disk is full (OSError: [Errno 28] No space left on device" in err[0]
    monkeypatch.setattr(FileSystems, "create", staticmethod(real_create))
    written = list((tmp_path / "out").glob("*.parquet"))
    assert len(written) < 4
    for path in written:
        pq.read_table(path)                       # every file that exists is complete
    assert not list((tmp_path / "out").rglob(".*tmp-*"))
    assert build(*args, "--resume", *LOCAL) == 0
    assert "read 2000 = written 2000 + rejected 0" in capsys.readouterr().out


def test_truncated_input_shard_is_one_clear_error_before_any_work(tmp_path, sample_dir, capsys):
    assert build("--input", sample_dir / "*", "--format", "moses", "--output", tmp_path / "a",
                 "--stages", "read", *LOCAL) == 0
    victim = sorted((tmp_path / "a").glob("*.parquet"))[0]
    victim.write_bytes(victim.read_bytes()[: victim.stat().st_size // 2])
    assert build("--input", tmp_path / "a", "--format", "shards", "--output", tmp_path / "b",
                 "--stages", "clean") == 2
    assert "cannot be read" in capsys.readouterr().err and victim.name in str(victim)
    assert not (tmp_path / "b").exists()


def test_model_file_that_does_not_match_its_manifest_is_refused(tmp_path, sample_dir, capsys):
    model = tmp_path / "encoder"
    model.mkdir()
    (model / "weights.bin").write_bytes(b"real weights")
    import hashlib
    import json
    digest = hashlib.sha256(b"real weights").hexdigest()
    (model / "MANIFEST.json").write_text(json.dumps({"files": {"weights.bin": digest}}))
    (model / "weights.bin").write_bytes(b"real weights, then a disk error")
    code = build("--input", sample_dir / "*", "--format", "moses", "--output", tmp_path / "o",
                 "--stages", "read,clean,score", "--set", f"score.encoder={model}")
    assert code == 2
    assert "does not match the sha256" in capsys.readouterr().err


def test_hostile_file_names_cannot_escape_the_output_directory(tmp_path):
    from paranmt.transforms.io.read_plan import plan_inputs
    names = ["../../etc/passwd.tsv", "a/../../b.tsv", "..", "x\\..\\y.tsv", "/abs/olute.tsv"]
    for unit in plan_inputs([str(tmp_path / n) for n in names] + ["gs://bucket/../evil.tsv"], "tsv"):
        assert "/" not in unit.stem and "\\" not in unit.stem and unit.stem not in ("", ".", "..")
        assert os.path.dirname(os.path.normpath(os.path.join("/out", unit.stem + ".00000.parquet"))) == "/out"


def test_yaml_configs_load_safely(tmp_path):
    evil = tmp_path / "evil.yaml"
    evil.write_text("input: !!python/object/apply:os.system ['touch pwned']\n")
    with pytest.raises(ConfigError, match="cannot read config"):
        load_build_config(str(evil))
    assert not (tmp_path / "pwned").exists()
