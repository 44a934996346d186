"""`paranmt eval-paraphraser` and `paranmt adversarial` under the output contract (pipelines/runtime/outputs.py): an
--output that is an input or holds an earlier run's results is refused in one line (exit 2) unless --overwrite
(adversarial: or --resume, which reuses the paraphrases a stopped run cached); a full disk while the results are
written and a signal while adversarial paraphrases end in one line, leaving no results file and no temporary;
a damaged cache of paraphrases is one line naming it."""
import errno
import pathlib
import shlex
import signal
from pathlib import Path

from paranmt.pipelines.cli import main


def files_in(directory: Path) -> list[str]:
    return sorted(p.relative_to(directory).as_posix() for p in directory.rglob("*")) if directory.exists() else []


def test_eval_paraphraser_refuses_its_input_and_earlier_results(tiny_models, held_out_shards, tmp_path, capsys,
                                                                 one_line):
    argv = ["eval-paraphraser", "--model", str(tiny_models), "--input", str(held_out_shards), "--max-pairs", "4",
            "--beam", "2", "--templates", "top2", "--device", "cpu", "--output"]
    assert main([*argv, str(held_out_shards)]) == 2
    assert f"--output {held_out_shards} is the input {held_out_shards}" in one_line("eval-paraphraser")
    output = tmp_path / "eval"
    assert main([*argv, str(output)]) == 0
    written = files_in(output)
    assert written == ["outputs.jsonl", "requests.jsonl", "results.csv", "results.md"]
    capsys.readouterr()
    assert main([*argv, str(output)]) == 2
    assert (f"--output {output} already holds the results of an earlier run (4 file(s)); give --overwrite to "
            f"replace it") in one_line("eval-paraphraser")
    assert main([*argv, str(output), "--overwrite"]) == 0 and files_in(output) == written


def test_a_full_disk_while_eval_paraphraser_writes_is_one_line(tiny_models, held_out_shards, tmp_path, monkeypatch,
                                                               one_line):
    output = tmp_path / "eval"
    write_bytes = pathlib.Path.write_bytes     # what models/files.write_bytes_atomically writes with

    def full(self, text, *args, **kwargs):              # results.csv and results.md are written by then
        if self.name.startswith(".outputs.jsonl.tmp-"):
            write_bytes(self, text[: len(text) // 2], *args, **kwargs)
            raise OSError(errno.ENOSPC, "No space left on device")
        return write_bytes(self, text, *args, **kwargs)

    monkeypatch.setattr(pathlib.Path, "write_bytes", full)
    assert main(["eval-paraphraser", "--model", str(tiny_models), "--input", str(held_out_shards), "--output",
                 str(output), "--max-pairs", "4", "--beam", "2", "--templates", "top2", "--device", "cpu"]) == 1
    assert one_line("eval-paraphraser") == (
        "paranmt eval-paraphraser: stopped: the disk is full (OSError: [Errno 28] No space left on device): free "
        "space on it, then; the partial output is removed; run the same command again")
    assert files_in(output) == []


def adversarial(models, data, output, *extra) -> list[str]:
    return ["adversarial", "--task", "sick-e", "--paraphraser", str(models), "--data", str(data), "--output",
            str(output), "--train-rows", "60", "--test-rows", "20", "--attack-rows", "4", "--augment-rows", "3",
            "--templates-per-example", "2", "--n-best", "2", "--beam", "2", "--epochs", "1", "--dim", "8",
            "--hidden", "8", "--device", "cpu", *map(str, extra)]


def test_a_signal_during_adversarial_keeps_the_paraphrases_and_resume_finishes(tiny_models, shared_data, tmp_path,
                                                                               signal_when, one_line):
    output = tmp_path / "adversarial"
    assert main(adversarial(tiny_models, shared_data, output, "--resume")) == 2
    assert f"--resume: {output} holds nothing to resume" in one_line("adversarial")
    cache = output / "paraphrases"
    returncode, err = signal_when(adversarial(tiny_models, shared_data, output),
                                  lambda: cache.is_dir() and any(cache.glob("*.jsonl")), signal.SIGINT)
    assert returncode == 130 and "Traceback" not in err, err
    line = err.strip().splitlines()[-1]
    kept = sorted(cache.glob("*.jsonl"))
    assert line.startswith(f"paranmt adversarial: stopped: interrupted by SIGINT (Ctrl-C); no results were written; "
                           f"{len(kept)} file(s) of paraphrases are kept in {cache}; resume with: paranmt adversarial")
    assert [p for p in files_in(output) if not p.startswith("paraphrases/")] == ["paraphrases"]
    assert not list(cache.glob(".*")), "no temporary is left"
    assert main(adversarial(tiny_models, shared_data, output)) == 2
    assert "already holds the cached paraphrases of a run that stopped before its end" in one_line("adversarial")
    first = kept[0].read_bytes()
    assert main(shlex.split(line.split("resume with: paranmt ", 1)[1])) == 0
    assert kept[0].read_bytes() == first and (output / "results.csv").is_file()
    assert main(adversarial(tiny_models, shared_data, output, "--resume")) == 2
    assert "complete: nothing to resume" in one_line("adversarial")
    kept[0].write_text('{"paraphrases": ["a cut-off line"\n')            # a damaged cache file
    for name in ("results.csv", "results.md", "samples.json"):
        (output / name).unlink()
    assert main(adversarial(tiny_models, shared_data, output, "--resume")) == 2
    assert f"{kept[0]} is not a readable file of cached paraphrases" in one_line("adversarial")
