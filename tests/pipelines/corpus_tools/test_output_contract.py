"""The output contract (pipelines/runtime/outputs.py) of `filter`, `export`, `stats` and `lexicon`: an output that is,
holds or lies inside the input is refused; an earlier run's output is refused without --overwrite (they cannot
resume: the line names --overwrite alone), and --overwrite deletes what the earlier run wrote, so that no file of it
(a shard of another sharding) is left beside the new ones. Each refusal is one line, exit 2, before any work. The
output lock of the shard job (pipelines/runtime/shard_job.py): a second run on an output in use is refused naming
the first; a stale lock is taken over."""
import json
import os
import socket
import subprocess
import sys

import pytest

from paranmt.pipelines.cli import main
from paranmt.pipelines.runtime.output_lock import OutputLock

LOCAL = ["--runner=DirectRunner", "--direct_running_mode=in_memory"]
SMALL = "sowreap-*.parquet"     # 12 of the fixture's pairs: what a run that is let through does is not tested here
COMMANDS = {"filter": ["filter", "--config", "lexicon"], "export": ["export", "--format", "hf"],
            "stats": ["stats"], "lexicon": ["lexicon"]}
# what an earlier run of each leaves in its output (one file is enough to be refused)
EARLIER = {"filter": "shard-00000.parquet", "export": "README.md", "stats": "stats.json",
           "lexicon": "lexicon-00000-of-00001.tsv"}


def one_line(capsys, command: str) -> str:
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and err.startswith(f"paranmt {command}: configuration error: "), err
    return err


@pytest.mark.parametrize("command", COMMANDS)
def test_outputs_apart_from_the_input_and_no_earlier_run_replaced_by_surprise(command, corpus_shards, tmp_path,
                                                                            capsys):
    argv = [*COMMANDS[command], "--input", str(corpus_shards), *LOCAL, "--output"]
    assert main([*argv, str(corpus_shards)]) == 2
    assert f"--output {corpus_shards} is the input {corpus_shards}" in one_line(capsys, command)
    assert main([*argv, str(corpus_shards / "out")]) == 2
    assert f"is inside the input {corpus_shards}" in one_line(capsys, command)
    output = tmp_path / "out"
    output.mkdir()
    (output / EARLIER[command]).write_text("x")
    assert main([*argv, str(output)]) == 2
    line = one_line(capsys, command)
    assert f"--output {output} already holds " in line and "give --overwrite to replace it" in line
    assert "--resume" not in line


def test_overwrite_leaves_nothing_of_the_earlier_run(corpus_shards, tmp_path):
    dataset = tmp_path / "dataset"
    argv = ["export", "--format", "hf", "--input", str(corpus_shards / SMALL), "--output", str(dataset), *LOCAL]
    assert main(argv) == 0
    written = sorted(p.name for p in (dataset / "data").iterdir())
    (dataset / "data" / "an-earlier-shard.parquet").write_bytes((dataset / "data" / written[0]).read_bytes())
    assert main(argv) == 2
    assert main([*argv, "--overwrite"]) == 0
    assert sorted(p.name for p in (dataset / "data").iterdir()) == written
    lexicon = tmp_path / "lexicon"
    lexicon.mkdir()
    (lexicon / "lexicon-00003-of-00007.tsv").write_text("u\tv\n")             # a shard of another sharding
    assert main(["lexicon", "--input", str(corpus_shards / SMALL), "--output", str(lexicon), "--overwrite",
                 *LOCAL]) == 0
    assert not (lexicon / "lexicon-00003-of-00007.tsv").exists() and list(lexicon.glob("lexicon-*.tsv"))


@pytest.mark.parametrize("command, output", [("filter", "out"), ("export", "out.txt"), ("stats", "out"),
                                             ("lexicon", "out")])
def test_one_run_per_output_and_a_stale_lock_is_taken_over(command, output, corpus_shards, tmp_path, capsys):
    argv = {**COMMANDS, "export": ["export", "--format", "paranmt-txt"]}[command]
    output = tmp_path / output
    lock_file = tmp_path / ".out.txt.lock.json" if command == "export" else output / "__paranmt__" / "lock.json"
    holder = OutputLock(str(output), str(lock_file), "test")
    holder.acquire(take_stale=False, holds_shards=False)             # held by this (living) process
    run = [*argv, "--input", str(corpus_shards / SMALL), "--output", str(output), *LOCAL]
    assert main(run) == 2
    line = one_line(capsys, command)
    assert f"is in use by another `paranmt {command}` run: pid {os.getpid()} on host {socket.gethostname()}" in line
    holder.release()
    process = subprocess.Popen([sys.executable, "-c", "pass"])
    process.wait()
    lock_file.parent.mkdir(parents=True, exist_ok=True)
    lock_file.write_text(json.dumps({"user": "someone", "host": socket.gethostname(), "pid": process.pid,
                                     "pid_started": None, "started": "2026-11-24 10:00:00 UTC",
                                     "command": f"paranmt {command} --output X"}))
    assert main(run) == 0                                            # the stale lock of a killed run
    err = capsys.readouterr().err
    assert f"took over the lock of a `paranmt {command}` run that stopped without finishing: pid {process.pid}" in err
    assert not lock_file.exists()
    if command in ("stats", "lexicon"):                              # no side folder of their own is left
        assert not (output / "__paranmt__").exists()
