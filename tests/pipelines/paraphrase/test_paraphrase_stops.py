"""`paranmt paraphrase` under the output contract (pipelines/runtime/outputs.py): an output that is its input, an
earlier run's output without --resume / --overwrite, --resume with nothing to resume are one line, exit 2; Ctrl-C,
SIGTERM and a full disk while a text file is paraphrased end in one line naming --resume, and --resume finishes it to
the file an uninterrupted run writes; corpus mode removes the temporaries of a stopped run and counts every shard."""
import errno
import json
import os
import shlex
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from paranmt.pipelines import paraphrase
from paranmt.pipelines.cli import main
from paranmt.pipelines.runtime.output_lock import OutputLock
from paranmt.schemas.records import empty_row
from paranmt.transforms import shards
from paranmt.transforms.shards import ParquetShardWriter

PART = 4                 # sentences per part in these tests: several parts from a short file
SENTENCES = [f"{subject} {verb} in the park." for subject in ("A man", "The girl", "Two dogs", "A woman", "The kids")
             for verb in ("is running", "is playing", "sat down", "was singing")]       # 20 sentences, 5 parts


@pytest.fixture
def text(tmp_path) -> Path:
    path = tmp_path / "sentences.txt"
    path.write_text("\n".join(SENTENCES) + "\n")
    return path


def args(models, text, output, *extra):
    return ["paraphrase", "--model", str(models), "--input", str(text), "--output", str(output),
            "--templates", "top2", "--all", *map(str, extra)]


def last_line(err: str, command: str = "paraphrase") -> str:
    """The stop line: the last line on stderr, the only one of the command, no traceback."""
    assert "Traceback" not in err, err
    mine = [line for line in err.strip().splitlines() if line.startswith(f"paranmt {command}:")]
    assert len(mine) == 1 and err.strip().splitlines()[-1] == mine[0], err
    return mine[0]


@pytest.fixture(scope="module")
def uninterrupted(tiny_models, tmp_path_factory) -> bytes:
    directory = tmp_path_factory.mktemp("uninterrupted")
    text = directory / "sentences.txt"
    text.write_text("\n".join(SENTENCES) + "\n")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(paraphrase, "PART_SENTENCES", PART)
        assert main(args(tiny_models, text, directory / "out.jsonl")) == 0
    assert not (directory / "out.jsonl.parts").exists()
    return (directory / "out.jsonl").read_bytes()


def test_output_contract_of_a_text_file(tiny_models, text, tmp_path, capsys):
    same = tmp_path / "same.tsv"
    same.write_text("A man is playing a guitar.\n")
    assert main(args(tiny_models, same, same)) == 2
    assert f"--output {same} is the input {same}" in last_line(capsys.readouterr().err)
    assert same.read_text() == "A man is playing a guitar.\n"
    output = tmp_path / "out.parquet"
    assert main(args(tiny_models, text, output, "--resume")) == 2
    assert "holds nothing to resume" in last_line(capsys.readouterr().err)
    assert main(args(tiny_models, text, output)) == 0
    first = pq.read_table(output)
    for extra, message in [((), "already holds the paraphrases of a finished run; give --resume to continue it or "
                                "--overwrite to replace it"),
                           (("--resume",), "complete: nothing to resume (--overwrite makes it again)"),
                           (("--resume", "--overwrite"), "--resume and --overwrite exclude each other")]:
        assert main(args(tiny_models, text, output, *extra)) == 2
        assert message in last_line(capsys.readouterr().err)
    assert main(args(tiny_models, text, output, "--overwrite")) == 0
    assert pq.read_table(output).equals(first)


@pytest.mark.parametrize("how, code, what", [(signal.SIGINT, 130, "interrupted by SIGINT (Ctrl-C)"),
                                             (signal.SIGTERM, 143, "interrupted by SIGTERM")])
def test_a_signal_keeps_the_finished_parts_and_resume_completes(tiny_models, text, tmp_path, uninterrupted,
                                                                monkeypatch, signal_when, how, code, what):
    output = tmp_path / "out.jsonl"
    parts = tmp_path / "out.jsonl.parts"
    returncode, err = signal_when(args(tiny_models, text, output), lambda: list(parts.glob("0*.parquet")), how,
                                  f"from paranmt.pipelines import paraphrase\nparaphrase.PART_SENTENCES = {PART}")
    line = last_line(err)
    assert returncode == code, err
    assert line.startswith(f"paranmt paraphrase: stopped: {what}; ")
    assert f"of 20 sentences done (kept in {parts})" in line
    done = int(line.split("stopped: ")[1].split("; ")[1].split(" of ")[0])
    assert 0 < done < 20 and not output.exists() and not list(parts.glob(".*tmp-*"))
    resume = shlex.split(line.split("resume with: ", 1)[1])
    assert resume[:2] == ["paranmt", "paraphrase"] and resume[-1] == "--resume"
    monkeypatch.setattr(paraphrase, "PART_SENTENCES", PART)
    assert main(resume[1:]) == 0
    assert output.read_bytes() == uninterrupted and not parts.exists()


def test_a_full_disk_is_one_line_and_resume_completes(tiny_models, text, tmp_path, uninterrupted, monkeypatch,
                                                      capsys):
    output = tmp_path / "out.jsonl"
    monkeypatch.setattr(paraphrase, "PART_SENTENCES", PART)
    close = ParquetShardWriter.close

    def full_at_the_third_part(self, counts=None):
        if self.path.endswith("000002.parquet"):
            self.writer.close()                     # the file's bytes are on the disk, then the disk is full
            raise OSError(errno.ENOSPC, "No space left on device")
        close(self, counts)

    monkeypatch.setattr(shards.ParquetShardWriter, "close", full_at_the_third_part)
    assert main(args(tiny_models, text, output)) == 1
    line = last_line(capsys.readouterr().err)
    assert line.startswith("paranmt paraphrase: stopped: the disk is full (OSError: [Errno 28] No space left on "
                           "device): free space on it, then; 8 of 20 sentences done")
    assert " --resume" in line and not output.exists()
    assert not [p for p in output.parent.rglob("*") if ".tmp-" in p.name]      # the cut part left nothing
    monkeypatch.setattr(shards.ParquetShardWriter, "close", close)
    assert main(args(tiny_models, text, output, "--resume")) == 0
    assert output.read_bytes() == uninterrupted


def test_resume_refuses_another_input(tiny_models, text, tmp_path, monkeypatch, capsys):
    output = tmp_path / "out.tsv"
    parts = paraphrase.parts_directory(str(output))
    monkeypatch.setattr(paraphrase, "PART_SENTENCES", PART)

    def interrupted(rows, path):
        raise KeyboardInterrupt

    monkeypatch.setattr(paraphrase, "write_paraphrases", interrupted)
    assert main(args(tiny_models, text, output)) == 130          # Ctrl-C after the last part, before the file
    assert len(list(parts.glob("0*.parquet"))) == 5 and not output.exists()
    assert main(args(tiny_models, text, output)) == 2
    assert "already holds an unfinished run (5 part(s) of 4 sentences done" in capsys.readouterr().err
    text.write_text("\n".join(SENTENCES[:-1]) + "\n")
    assert main(args(tiny_models, text, output, "--resume")) == 2
    assert "was started with another input_file" in last_line(capsys.readouterr().err)


def test_one_text_run_per_output_and_a_stale_lock_is_taken_over(tiny_models, tmp_path, capsys):
    """A second run on the output of a running one stops before any work naming it (issue 47: it deleted the
    first's parts under it, a traceback); the lock of a killed run is taken over."""
    text = tmp_path / "sentences.txt"
    text.write_text("\n".join(SENTENCES[:2]) + "\n")
    output = tmp_path / "out.jsonl"
    holder = OutputLock.beside(str(output), "test")
    holder.acquire(take_stale=False, holds_shards=False)             # held by this (living) process
    assert main(args(tiny_models, text, output)) == 2
    assert (f"output {output} is in use by another `paranmt paraphrase` run: pid {os.getpid()} on host "
            f"{socket.gethostname()}") in last_line(capsys.readouterr().err)
    assert not output.exists() and not paraphrase.parts_directory(str(output)).exists()
    holder.release()
    process = subprocess.Popen([sys.executable, "-c", "pass"])
    process.wait()
    lock_file = tmp_path / ".out.jsonl.lock.json"
    lock_file.write_text(json.dumps({"user": "someone", "host": socket.gethostname(), "pid": process.pid,
                                     "pid_started": None, "started": "2026-11-24 10:00:00 UTC",
                                     "command": "paranmt paraphrase --output out.jsonl"}))
    assert main(args(tiny_models, text, output)) == 0
    err = capsys.readouterr().err
    assert ("paranmt paraphrase: took over the lock of a `paranmt paraphrase` run that stopped without finishing: "
            f"pid {process.pid}") in err
    assert output.exists() and not lock_file.exists()


@pytest.mark.parametrize("extra", [(), ("--overwrite",), ("--resume",)])
def test_a_parts_folder_that_is_not_paraphrases_own_is_refused_and_kept(tiny_models, text, tmp_path, extra,
                                                                        capsys):
    """OUT.parts as a symbolic link (issue 47: a traceback; written through, with --overwrite), and as a folder of
    the user's (issue 47: deleted without a word): one line, exit 2, nothing touched."""
    output = tmp_path / "out.jsonl"
    parts = paraphrase.parts_directory(str(output))
    elsewhere = tmp_path / "mine"
    elsewhere.mkdir()
    (elsewhere / "notes.txt").write_text("keep me\n")
    parts.symlink_to(elsewhere, target_is_directory=True)
    assert main(args(tiny_models, text, output, *extra)) == 2
    assert f"{parts} is a symbolic link; paraphrase keeps its parts in a folder of its own there" in \
        last_line(capsys.readouterr().err)
    parts.unlink()
    parts.mkdir()
    (parts / "notes.txt").write_text("keep me too\n")
    assert main(args(tiny_models, text, output, *extra)) == 2
    assert (f"{parts} exists and is not the parts folder of a `paranmt paraphrase` run (no run.json)" in
            last_line(capsys.readouterr().err))
    assert (elsewhere / "notes.txt").read_text() == "keep me\n" and (parts / "notes.txt").read_text() == \
        "keep me too\n" and not output.exists() and not (tmp_path / ".out.jsonl.lock.json").exists()


@pytest.fixture
def two_shards(sick_pairs, tmp_path) -> Path:
    directory = tmp_path / "shards"
    directory.mkdir()
    for index, pairs in enumerate((sick_pairs[:10], sick_pairs[10:20])):
        with ParquetShardWriter(str(directory / f"sick-{index:05d}.parquet")) as writer:
            writer.write_rows([{**empty_row(p["id"], "sick", "-", p["ref"]), **p} for p in pairs])
    return directory


def test_corpus_mode_resume_removes_temporaries_and_counts_every_shard(tiny_models, two_shards, tmp_path, capsys):
    output = tmp_path / "para"
    def command(out):
        return ["paraphrase", "--model", str(tiny_models), "--input", str(two_shards), "--output", str(out),
                "--templates", "top1", "--all", "--direct_running_mode=in_memory"]

    argv = command(output)
    assert main(command(two_shards / "para")) == 2
    assert f"--output {two_shards / 'para'} is inside the input {two_shards}" in capsys.readouterr().err
    assert main(argv + ["--resume"]) == 2
    assert "holds nothing to resume" in capsys.readouterr().err
    assert main(argv) == 0
    summary = output / "__paranmt__" / "paraphrase_summary.json"
    whole = json.loads(summary.read_text())["totals"]
    assert whole["sources"] == 20
    # as a stop leaves it: one shard done, the other cut short (a zero-byte temporary)
    (output / "sick-00001.parquet").unlink()
    (output / ".sick-00001.parquet.tmp-0123").write_bytes(b"")
    assert main(argv) == 2
    assert "already holds 1 paraphrase shard(s) of an earlier run; give --resume" in capsys.readouterr().err
    assert main(argv + ["--resume"]) == 0
    resumed = json.loads(summary.read_text())
    assert resumed["skipped_done_shards"] == 1 and resumed["totals"] == whole          # every source counted
    assert not [p for p in output.rglob("*") if ".tmp-" in p.name]
    assert "paraphrased 20 sentences x 1 template(s)" in capsys.readouterr().out
    assert main(argv + ["--overwrite"]) == 0
    assert json.loads(summary.read_text())["skipped_done_shards"] == 0
