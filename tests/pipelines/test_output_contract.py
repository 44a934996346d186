"""The output contract (pipelines/runtime/outputs.py) of `paranmt build` and the trainers (`train`, `train-bgt`,
`train-paraphraser`): an output that is, holds or lies inside an input (or that the build's input glob matches), an
earlier run's output without --resume / --overwrite, --resume with nothing to resume, both flags: one line, exit 2.
Ctrl-C and SIGTERM during `train` (its own process, as a user runs it) and a full disk at a checkpoint: one line
naming the --resume command, no traceback, no `checkpoint.tmp/` left, and --resume finishes. The same contract for
`encode`, `mine` and `paraphrase-data`, and Ctrl-C, SIGTERM or a full disk while they write: one line, no temporary
left, and the command the line names finishes to the files of an uninterrupted run."""
import errno
import os
import shlex
import shutil
import signal
from pathlib import Path

import numpy as np
import pytest
import torch

from paranmt.pipelines.cli import main

LOCAL = ["--runner=DirectRunner", "--direct_running_mode=in_memory"]
TINY = ["--encoder", "word", "--dim", "8", "--batch-size", "8", "--megabatch-size", "1", "--checkpoint-every", "1",
        "--log-every", "1", "--device", "cpu", "--threads", "1"]


def one_line(capsys, command: str) -> str:
    err = capsys.readouterr().err
    assert "Traceback" not in err, err
    lines = [line for line in err.strip().splitlines() if line.startswith(f"paranmt {command}:")]
    assert len(lines) == 1 and err.strip().splitlines()[-1] == lines[0], err
    return lines[0]


def disk_full(*args, **kwargs):
    """A write that finds the disk full."""
    raise OSError(errno.ENOSPC, "No space left on device")


def data_files(directory: Path) -> dict:
    return {p.relative_to(directory).as_posix(): p.read_bytes() for p in sorted(directory.rglob("*"))
            if p.suffix in (".parquet", ".pq")}


def test_build(tmp_path, sample_dir, capsys):
    def build(*args):
        return main(["build", *map(str, args), *LOCAL])

    work = tmp_path / "work"
    work.mkdir()
    lines = (sample_dir / "tatoeba-every13th.cs").read_text().splitlines()[:60]
    refs = (sample_dir / "tatoeba-every13th.en").read_text().splitlines()[:60]
    (work / "pairs.tsv").write_text("".join(f"{c}\t{r}\n" for c, r in zip(lines, refs)))
    tsv = ["--input", f"{work}/*", "--format", "tsv", "--stages", "read,clean"]
    assert build(*tsv, "--output", work / "out") == 2
    assert f"--output {work / 'out'} is matched by the input glob {work}/*" in one_line(capsys, "build")
    assert not (work / "out").exists()
    args = ["--input", work / "pairs.tsv", "--format", "tsv", "--stages", "read,clean"]
    out = tmp_path / "out"
    assert build(*args, "--output", out, "--resume") == 2
    assert f"--resume: {out} holds nothing to resume" in one_line(capsys, "build")
    assert build(*args, "--output", out, "--shard-rows", "10") == 0
    assert len(list(out.glob("*.parquet"))) == 6
    assert build(*args, "--output", out) == 2
    assert (f"--output {out} already holds 6 shard(s) of an earlier build; give --resume to continue it or "
            f"--overwrite to replace it") in one_line(capsys, "build")
    assert build(*args, "--output", out, "--resume", "--overwrite") == 2
    assert "exclude each other" in one_line(capsys, "build")
    assert build("--input", out, "--format", "shards", "--stages", "clean", "--output", out / "again") == 2
    assert f"is inside the input {out}" in one_line(capsys, "build")
    # --overwrite replaces the earlier build whole: no shard of its sharding is left beside the new ones
    assert build(*args, "--output", out, "--overwrite") == 0
    assert build(*args, "--output", tmp_path / "fresh") == 0
    assert data_files(out) == data_files(tmp_path / "fresh")


def test_trainers_refuse_to_overwrite_or_resume_by_surprise(pairs, tmp_path, capsys):
    model = tmp_path / "model"
    commands = {"train": ["train", "--train", str(pairs), *TINY[:2]],
                "train-bgt": ["train-bgt", "--train", str(pairs), "--format", "tsv"],
                "train-paraphraser": ["train-paraphraser", "--input", str(pairs), "--task", "plain"]}
    for command, argv in commands.items():
        assert main([*argv, "--output", str(pairs)]) == 2
        assert f"--output {pairs} is the input {pairs}" in one_line(capsys, command)
        assert main([*argv, "--output", str(tmp_path)]) == 2
        assert f"--output {tmp_path} holds the input {pairs}" in one_line(capsys, command)
        assert main([*argv, "--output", str(model), "--resume"]) == 2
        assert f"--resume: {model} holds nothing to resume" in one_line(capsys, command)
        assert not model.exists(), "a refusal leaves nothing behind (the lock's folder included)"
        (model / "checkpoint").mkdir(parents=True)               # a run that stopped, as loop.py leaves it
        assert main([*argv, "--output", str(model)]) == 2
        assert (f"--output {model} already holds the checkpoint of a run that stopped before its end; give --resume "
                f"to continue it or --overwrite to replace it") in one_line(capsys, command)
        assert main([*argv, "--output", str(model), "--resume", "--overwrite"]) == 2
        assert "exclude each other" in one_line(capsys, command)
        shutil.rmtree(model)


def test_train_overwrite_starts_again_and_resume_continues(pairs, tmp_path, capsys):
    model = tmp_path / "model"
    argv = ["train", "--train", str(pairs), "--output", str(model), *TINY, "--max-steps", "3"]
    assert main(argv) == 0
    assert main(argv) == 2
    assert "already holds a trained model and its checkpoint" in one_line(capsys, "train")
    (model / "initial").mkdir()                      # state of the earlier run that a new one must not pick up
    assert main([*argv, "--overwrite"]) == 0
    assert not (model / "initial").exists()
    steps = [line for line in (model / "metrics.jsonl").read_text().splitlines() if '"done"' not in line]
    assert len(steps) == 3                           # the earlier run's metrics are not appended to
    argv[argv.index("--max-steps") + 1] = "5"
    assert main([*argv, "--resume"]) == 0
    assert len((model / "metrics.jsonl").read_text().splitlines()) > len(steps) + 1


@pytest.mark.parametrize("how, code, what", [(signal.SIGINT, 130, "interrupted by SIGINT (Ctrl-C)"),
                                             (signal.SIGTERM, 143, "interrupted by SIGTERM")])
def test_a_signal_during_train_is_one_line_and_resume_continues(pairs, tmp_path, signal_when, how, code, what):
    model = tmp_path / "model"
    argv = ["train", "--train", str(pairs), "--output", str(model), *TINY, "--epochs", "100000"]
    seen = []

    def checkpointing_for_a_while():         # ~0.2 s after the first checkpoint: the signal may land inside one
        seen.append((model / "checkpoint" / "trainer_state.pt").exists())
        return sum(seen) > 20

    returncode, err = signal_when(argv, checkpointing_for_a_while, how)
    assert returncode == code and "Traceback" not in err, err
    line = err.strip().splitlines()[-1]
    assert line.startswith(f"paranmt train: stopped: {what}; the last checkpoint is kept in {model}/checkpoint")
    assert not (model / "checkpoint.tmp").exists()
    resume = shlex.split(line.split("resume with: ", 1)[1])
    assert resume[:2] == ["paranmt", "train"] and resume[-1] == "--resume"
    assert main([*resume[1:-1], "--epochs", "1", "--resume"]) == 0          # continues, and ends at once
    assert (model / "weights.npz").is_file()


def test_a_full_disk_at_a_checkpoint_is_one_line(pairs, tmp_path, monkeypatch, capsys):
    model = tmp_path / "model"
    argv = ["train", "--train", str(pairs), "--output", str(model), *TINY, "--max-steps", "6"]
    save = torch.save

    def full_at_the_third_checkpoint(data, path, *args, **kwargs):
        if Path(path).parent.name == "checkpoint.tmp" and len(
                [1 for line in (model / "metrics.jsonl").read_text().splitlines()]) >= 3:
            Path(path).write_bytes(b"\0" * 100)     # written up to the last free byte
            raise OSError(errno.ENOSPC, "No space left on device")
        return save(data, path, *args, **kwargs)

    monkeypatch.setattr(torch, "save", full_at_the_third_checkpoint)
    assert main(argv) == 1
    line = one_line(capsys, "train")
    assert line.startswith("paranmt train: stopped: the disk is full (OSError: [Errno 28] No space left on device): "
                           f"free space on it, then; the last checkpoint is kept in {model}/checkpoint; resume with: ")
    assert not (model / "checkpoint.tmp").exists() and (model / "checkpoint" / "trainer_state.pt").is_file()
    monkeypatch.setattr(torch, "save", save)
    assert main([*argv, "--resume"]) == 0


def test_settings_a_training_cannot_use_are_one_line_and_a_diverging_one_stops_before_saving(pairs, tmp_path,
                                                                                            capsys):
    """Issue 47: `--set lr=inf` trained to an encoder of NaNs (exit 0) and `--set dim=1e12` was an allocation
    traceback. Both are refused before any work; a learning rate that is finite but diverges stops at the first
    update whose weights are not numbers, one line, exit 1, no model saved."""
    model = tmp_path / "model"
    argv = ["train", "--train", str(pairs), "--output", str(model), *TINY, "--max-steps", "6"]
    for setting, message in (("lr=inf", "lr must be a finite number, not inf"),
                             ("margin=.nan", "margin must be a number, not nan"),
                             ("dim=1e12", "dim must be between 1 and 65536, not 1000000000000")):
        assert main([*argv, "--set", setting]) == 2
        assert one_line(capsys, "train") == f"paranmt train: configuration error: {message}"
        assert not model.exists()
    assert main([*argv, "--set", "vocab_size=10000000", "--dim", "65536"]) == 2
    assert "configuration error: encoder word with dim 65536, vocab_size 10000000 make a model of about " \
           "655,360,000,000 parameters" in one_line(capsys, "train")
    assert main([*argv, "--lr", "1e38"]) == 1
    assert one_line(capsys, "train") == (
        "paranmt train: stopped: the training diverged: the loss is nan and the weights are no longer finite numbers "
        "after update 2 (lr 1e+38 is likely too high): lower it, then; the last checkpoint is kept in "
        f"{model}/checkpoint; resume with: paranmt {shlex.join(argv)} --lr 1e38 --resume")
    assert not (model / "weights.npz").exists()
    weights = np.load(model / "checkpoint" / "weights.npz")
    assert all(np.isfinite(weights[name]).all() for name in weights.files)


def test_a_precision_the_device_cannot_train_in_is_one_line(pairs, tmp_path, capsys, monkeypatch):
    """`--fp16 on` on the CPU, `--fp16 bf16` on a GPU without bfloat16 (availability injected, as
    tests/models/test_device.py does): one line, exit 2, before the first update (models/loop.py `select`)."""
    import paranmt.models.device as device

    argv = ["train", "--train", str(pairs), "--output", str(tmp_path / "model"), *TINY, "--max-steps", "1"]
    assert main([*argv, "--fp16", "on"]) == 2
    assert one_line(capsys, "train") == "paranmt train: configuration error: fp16 training needs a CUDA device"
    monkeypatch.setattr(device, "cuda_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "is_bf16_supported", lambda *args, **kwargs: False)
    assert main([*argv, "--device", "cuda", "--fp16", "bf16", "--overwrite"]) == 2
    assert one_line(capsys, "train") == ("paranmt train: configuration error: fp16 bf16: this GPU does not support "
                                         "bfloat16 (torch.cuda.is_bf16_supported()): use fp16 on (fp16 with loss "
                                         "scaling) or off")
    assert not (tmp_path / "model" / "checkpoint").exists()


def snapshot(directory: Path) -> dict:
    return {p.relative_to(directory).as_posix(): p.read_bytes() for p in sorted(directory.rglob("*")) if p.is_file()}


def test_resume_goes_on_only_with_the_same_model_and_data_and_leaves_a_finished_run_as_it_is(pairs, tmp_path,
                                                                                              capsys):
    """Issue 47: `--resume` with a changed --encoder / --dim kept the checkpoint's model but rewrote
    train_config.json with settings it does not have; `--resume` of a finished run trained one more update and
    overwrote the model. Now a change of what makes the checkpoint (architecture, vocabulary, the training files) is
    one line naming it, exit 2, and a finished run is left byte for byte as it is unless a limit is raised."""
    model = tmp_path / "model"
    argv = ["train", "--train", str(pairs), "--output", str(model), *TINY, "--max-steps", "4"]
    assert main(argv) == 0
    finished = snapshot(model)
    assert main([*argv, "--resume"]) == 2
    assert one_line(capsys, "train") == (
        f"paranmt train: configuration error: --resume: {model} holds a finished training (update 4, epoch 0; it "
        f"reached max_steps 4): nothing to resume; raise --max-steps to train further, or --overwrite to start again")
    for change, named in ((["--dim", "16"], "dim: 8 -> 16"), (["--encoder", "lstm"], "encoder: 'word' -> 'lstm'"),
                          (["--set", "vocab_size=50"], "vocab_size: 200000 -> 50")):
        assert main([*argv, "--max-steps", "6", *change, "--resume"]) == 2
        assert one_line(capsys, "train") == (
            f"paranmt train: configuration error: --resume: the checkpoint in {model} was made with other settings of "
            f"its model or data ({named}), which cannot change on a resume; leave them out (--resume goes on with the "
            f"checkpoint's) or give its values, or --overwrite to start again")
    data = pairs.read_bytes()
    pairs.write_bytes(data.replace(b"a", b"e", 1))
    assert main([*argv, "--max-steps", "6", "--resume"]) == 2
    assert one_line(capsys, "train") == (
        f"paranmt train: configuration error: --resume: the training data changed since the run in {model} started "
        f"({pairs}: content changed (same size, {len(data)} bytes, different sha256)): its checkpoint stands part-way "
        f"through the old data; train into another --output, or --overwrite to start again")
    assert snapshot(model) == finished, "no refusal writes anything (train_config.json included)"
    pairs.write_bytes(data)
    assert main([*argv, "--max-steps", "6", "--resume"]) == 0          # a raised limit goes on
    steps = [line for line in (model / "metrics.jsonl").read_text().splitlines()]
    assert [json_step(line) for line in steps] == [1, 2, 3, 4, 4, 5, 6, 6]


def json_step(line: str) -> int:
    import json

    return json.loads(line)["step"]


# -- finetune-sts and train-words: cannot resume, so --overwrite alone --------------------------------------------
WORDS = [("quick", "fast"), ("big", "large"), ("small", "little"), ("begin", "start"), ("end", "finish"),
         ("happy", "glad"), ("sad", "unhappy"), ("car", "automobile")]


@pytest.fixture
def ppdb(tmp_path) -> Path:
    path = tmp_path / "ppdb.txt"
    path.write_text("".join(f"[JJ] ||| {a} ||| {b} ||| 0.5\n" for a, b in WORDS))
    return path


def words_argv(ppdb: Path, output: Path, *extra: str) -> list[str]:
    return ["train-words", "--input", str(ppdb), "--format", "ppdb", "--output", str(output), "--dim", "8",
            "--batch-size", "4", "--epochs", "1", *extra]


def finetune_argv(repo: Path, shared_data: Path, output: Path, *extra: str) -> list[str]:
    return ["finetune-sts", "--model", str(repo / "assets" / "encoder-sp"), "--task", "sick-r", "--data-dir",
            str(shared_data), "--output", str(output), "--limit", "40", "--epochs", "1", *extra]


def test_train_words_refuses_its_input_and_earlier_vectors_without_overwrite(ppdb, tmp_path, capsys):
    out = tmp_path / "words"
    assert main(words_argv(ppdb, ppdb)) == 2
    assert f"--output {ppdb} is the input {ppdb}" in one_line(capsys, "train-words")
    assert main(words_argv(ppdb, out)) == 0
    assert main(words_argv(ppdb, out)) == 2
    assert (f"--output {out} already holds a word encoder of an earlier run (7 file(s)); give --overwrite to replace "
            f"it, or choose another --output") in one_line(capsys, "train-words")
    (out / "vocab.txt").write_text("stale\n")
    (out / "notes.md").write_text("mine\n")                      # not a file train-words writes: left alone
    assert main([*words_argv(ppdb, out), "--overwrite"]) == 0
    assert "stale" not in (out / "vocab.txt").read_text() and (out / "notes.md").is_file()


def test_finetune_sts_refuses_its_inputs_and_earlier_results_without_overwrite(repo, shared_data, tmp_path, capsys):
    out = tmp_path / "sick"
    assert main(finetune_argv(repo, shared_data, shared_data / "out")) == 2
    assert f"--output {shared_data / 'out'} is inside the input {shared_data}" in one_line(capsys, "finetune-sts")
    assert not (shared_data / "out").exists()
    (out / "head").mkdir(parents=True)
    (out / "head" / "head.json").write_text("{}")              # what an earlier run left
    assert main(finetune_argv(repo, shared_data, out)) == 2
    assert (f"--output {out} already holds a fine-tuning run's files (1 file(s)); give --overwrite to replace it, "
            f"or choose another --output") in one_line(capsys, "finetune-sts")
    assert main(finetune_argv(repo, shared_data, out, "--overwrite")) == 0
    assert (out / "results.csv").is_file() and (out / "head" / "head.npz").is_file()


@pytest.mark.parametrize("command, how, code, what", [
    ("train-words", signal.SIGTERM, 143, "interrupted by SIGTERM"),
    ("finetune-sts", signal.SIGINT, 130, "interrupted by SIGINT (Ctrl-C)")])
def test_a_signal_while_training_words_or_finetuning_is_one_line_and_removes_what_it_wrote(
        command, how, code, what, ppdb, repo, shared_data, tmp_path, signal_when):
    out = tmp_path / "out"
    argv = (words_argv(ppdb, out) if command == "train-words" else finetune_argv(repo, shared_data, out))
    argv[argv.index("--epochs") + 1] = "100000"
    returncode, err = signal_when(argv, lambda: (out / "metrics.jsonl").is_file(), how)
    assert returncode == code and "Traceback" not in err, err
    assert err.strip().splitlines()[-1] == (f"paranmt {command}: stopped: {what}; the partial output is removed; run "
                                            f"the same command again")
    assert list(out.iterdir()) == []
    if command == "train-words":                 # nothing is left that a rerun would need --overwrite for
        argv[argv.index("--epochs") + 1] = "1"
        assert main(argv) == 0 and (out / "vectors.txt").is_file()


@pytest.mark.parametrize("command", ["train-words", "finetune-sts"])
def test_a_full_disk_while_saving_words_or_a_finetuned_encoder_is_one_line(command, ppdb, repo, shared_data,
                                                                          tmp_path, monkeypatch, capsys):
    import numpy as np

    out = tmp_path / "out"

    def full(path, *args, **kwargs):
        Path(path).write_bytes(b"\0" * 10)
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(np, "savez", full)
    argv = words_argv(ppdb, out) if command == "train-words" else finetune_argv(repo, shared_data, out)
    assert main(argv) == 1
    assert one_line(capsys, command) == (
        f"paranmt {command}: stopped: the disk is full (OSError: [Errno 28] No space left on device): free space on "
        f"it, then; the partial output is removed; run the same command again")
    assert list(out.iterdir()) == []


# -- encode, mine, paraphrase-data ------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def sentences(bitext, tmp_path_factory) -> tuple[Path, Path]:
    """40 Czech sentences and their 40 English translations (newstest2017), one a line."""
    root = tmp_path_factory.mktemp("sentences")
    for suffix in ("ces", "eng"):
        lines = (bitext / f"newstest2017.{suffix}").read_text(encoding="utf-8").splitlines()[:40]
        (root / f"s.{suffix}").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return root / "s.ces", root / "s.eng"


@pytest.fixture(scope="module")
def parse_cache(tiny_data_folder, tmp_path_factory) -> Path:
    """The parse cache of a finished `paraphrase-data` run on the tiny data folder (so later runs parse nothing)."""
    output = tmp_path_factory.mktemp("paraphrase-data") / "data"
    assert main(["paraphrase-data", "--data", str(tiny_data_folder), "--output", str(output)]) == 0
    return output / "parses.tsv"


def data_command(name: str, sentences, tiny_data_folder, parse_cache, output: Path) -> list[str]:
    """`name`'s command line writing into `output` (paraphrase-data with the full parse cache: nothing to parse)."""
    if name == "paraphrase-data":
        return ["paraphrase-data", "--data", str(tiny_data_folder), "--parse-cache", str(parse_cache), "--output",
                str(output)]
    if name == "mine":
        return ["mine", "--source", str(sentences[0]), "--target", str(sentences[1]), "--output", str(output)]
    return ["encode", "--model", "assets/encoder-sp", "--input", str(sentences[1]), "--output", str(output)]


def written(directory: Path) -> dict:
    """The files under `directory` (relative name -> bytes)."""
    return {p.relative_to(directory).as_posix(): p.read_bytes() for p in sorted(directory.rglob("*")) if p.is_file()}


def test_encode_and_mine_refuse_outputs_over_inputs_and_earlier_results(sentences, tmp_path, capsys):
    source, target = sentences
    assert main(["encode", "--model", "assets/encoder-sp", "--input", str(target), "--output", str(target)]) == 2
    assert f"--output {target} is the input {target}" in one_line(capsys, "encode")
    assert main(["encode", "--model", "assets/encoder-sp", "--input", str(target), "--output",
                 "assets/encoder-sp/v.npy"]) == 2
    assert "--output assets/encoder-sp/v.npy is inside the input " in one_line(capsys, "encode")
    assert not Path("assets/encoder-sp/v.npy").exists()
    mine = ["mine", "--source", str(source), "--target", str(target), "--output"]
    assert main([*mine, str(source.parent)]) == 2
    assert f"--output {source.parent} holds the input {source}" in one_line(capsys, "mine")
    for name, output, earlier in [("encode", tmp_path / "v.npy", tmp_path / "v.npy"),
                                  ("mine", tmp_path / "mined", tmp_path / "mined" / "mined.tsv")]:
        argv = data_command(name, sentences, None, None, output)
        earlier.parent.mkdir(exist_ok=True)
        earlier.write_text("an earlier result\n")
        assert main(argv) == 2
        line = one_line(capsys, name)
        assert f"--output {output} already holds " in line and "give --overwrite to replace it" in line
        assert "--resume" not in line and earlier.read_bytes() == b"an earlier result\n"
        assert main([*argv, "--overwrite"]) == 0
        assert earlier.read_bytes() != b"an earlier result\n"


def test_paraphrase_data_resumes_and_overwrites_only_when_told(tiny_data_folder, parse_cache, tmp_path, capsys):
    argv = ["paraphrase-data", "--data", str(tiny_data_folder), "--output", str(tmp_path / "data")]
    (tmp_path / "data").mkdir()
    shutil.copy(parse_cache, tmp_path / "data" / "parses.tsv")          # as a run stopped after parsing leaves it
    assert main(["paraphrase-data", "--data", str(tiny_data_folder), "--output", str(tmp_path / "fresh"),
                 "--resume"]) == 2
    assert f"--resume: {tmp_path / 'fresh'} holds nothing to resume" in one_line(capsys, "paraphrase-data")
    assert main([*argv[:-1], str(tiny_data_folder / "out")]) == 2
    assert f"is inside the input {tiny_data_folder}" in one_line(capsys, "paraphrase-data")
    assert main(argv) == 2          # the parse cache of a run that stopped
    assert (f"already holds an unfinished run (parses.tsv; no paraphrase_data.json); give --resume to continue it "
            f"or --overwrite") in one_line(capsys, "paraphrase-data")
    assert main([*argv, "--resume"]) == 0
    finished = written(tmp_path / "data")
    assert finished["parses.tsv"] == parse_cache.read_bytes()            # nothing parsed again
    assert main(argv) == 2
    assert "already holds the paraphrase data of a finished run" in one_line(capsys, "paraphrase-data")
    assert main([*argv, "--resume"]) == 2
    assert "complete: nothing to resume" in one_line(capsys, "paraphrase-data")
    (tmp_path / "data" / "sentences.train.txt").write_text("changed\n")
    assert main([*argv, "--overwrite"]) == 0
    assert written(tmp_path / "data") == finished


class FullOrStopped:
    """FileSystems.create, as atomic_file calls it, whose handles stop the command after their first write: the
    disk fills up (ENOSPC, at that write and every later one) or a signal arrives (os.kill of this process)."""

    def __init__(self, create, how):
        self.create, self.how, self.stopped = create, how, False

    def __call__(self, path, *args, **kwargs):
        handle = self.create(path, *args, **kwargs)
        write, outer = handle.write, self

        def stopping_write(data):
            if outer.how == "full" and outer.stopped:
                raise OSError(errno.ENOSPC, "No space left on device")
            count = write(data)
            if not outer.stopped:
                outer.stopped = True
                if outer.how == "full":
                    raise OSError(errno.ENOSPC, "No space left on device")
                os.kill(os.getpid(), outer.how)
            return count

        handle.write = stopping_write
        return handle


@pytest.mark.parametrize("how, code, what", [(signal.SIGINT, 130, "interrupted by SIGINT (Ctrl-C)"),
                                             (signal.SIGTERM, 143, "interrupted by SIGTERM"),
                                             ("full", 1, "the disk is full (OSError: [Errno 28] No space left on "
                                                         "device): free space on it, then")])
@pytest.mark.parametrize("name", ["encode", "mine", "paraphrase-data"])
def test_a_stop_while_writing_is_one_line_leaves_no_temporary_and_the_advice_finishes(
        name, how, code, what, sentences, tiny_data_folder, parse_cache, tmp_path, monkeypatch, capsys):
    from paranmt.transforms import shards

    reference, output = tmp_path / "reference", tmp_path / "out"
    suffix = ".npy" if name == "encode" else ""
    assert main(data_command(name, sentences, tiny_data_folder, parse_cache, Path(f"{reference}{suffix}"))) == 0
    argv = data_command(name, sentences, tiny_data_folder, parse_cache, Path(f"{output}{suffix}"))
    capsys.readouterr()
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)    # as a terminal's Ctrl-C (a shell starts
    try:                                                                     # background jobs with SIGINT ignored)
        with monkeypatch.context() as patch:
            patch.setattr(shards.FileSystems, "create", FullOrStopped(shards.FileSystems.create, how))
            assert main(argv) == code
    finally:
        signal.signal(signal.SIGINT, previous)
    line = one_line(capsys, name)
    assert line.startswith(f"paranmt {name}: stopped: {what}; ")
    assert not [p for p in tmp_path.rglob("*") if ".tmp-" in p.name or p.name.startswith(".mine-work-")]
    advice = line.rsplit("; ", 1)[1]
    if name == "paraphrase-data":           # the parse cache is kept: the run resumes from it
        assert advice.startswith("resume with: paranmt paraphrase-data ") and advice.endswith(" --resume")
        argv = shlex.split(advice.split(": ", 1)[1])[1:]
    elif name == "mine":
        assert advice.startswith("rerun with: paranmt mine ") and advice.endswith(" --overwrite")
        argv = shlex.split(advice.split(": ", 1)[1])[1:]
    else:
        assert advice == "run the same command again" and not Path(f"{output}{suffix}").exists()
    assert main(argv) == 0
    if name == "encode":
        assert Path(f"{output}{suffix}").read_bytes() == Path(f"{reference}{suffix}").read_bytes()
    else:
        expected, got = written(reference), written(output)
        if name == "mine":          # the summary holds CPU seconds
            expected.pop("mine.json"), got.pop("mine.json")
        assert got == expected


# -- export-encoder: a new, empty or earlier export directory ----------------------------------------------------
SLOW_EXPORT = ("import time, paranmt.models.encoders.sentence_transformers as exporter\n"
               "def slow(encoder, output):\n"
               "    output.mkdir(parents=True, exist_ok=True)\n"
               "    (output / 'modules.json').write_text('[]')\n"
               "    [time.sleep(0.1) for _ in range(1200)]\n"
               "exporter.export_sentence_transformer = slow\n")


def test_export_encoder_refuses_its_model_and_an_earlier_export_without_overwrite(repo, tmp_path, capsys):
    model, out = repo / "assets" / "encoder-sp", tmp_path / "st"
    assert main(["export-encoder", "--model", str(model), "--output", str(model / "st")]) == 2
    assert f"--output {model / 'st'} is inside the input {model}" in one_line(capsys, "export-encoder")
    assert not (model / "st").exists()
    assert main(["export-encoder", "--model", str(model), "--output", str(out)]) == 0
    capsys.readouterr()
    assert main(["export-encoder", "--model", str(model), "--output", str(out)]) == 2
    assert f"--output {out} already holds an earlier export (" in one_line(capsys, "export-encoder")
    (out / "stale.txt").write_text("from the earlier export")
    assert main(["export-encoder", "--model", str(model), "--output", str(out), "--overwrite"]) == 0
    assert not (out / "stale.txt").exists() and (out / "modules.json").is_file()


def test_a_signal_during_export_encoder_is_one_line_and_removes_the_partial_export(repo, tmp_path, signal_when):
    out = tmp_path / "st"
    argv = ["export-encoder", "--model", str(repo / "assets" / "encoder-sp"), "--output", str(out)]
    returncode, err = signal_when(argv, lambda: (out / "modules.json").is_file(), signal.SIGINT, SLOW_EXPORT)
    assert returncode == 130 and err.strip().splitlines()[-1] == (
        "paranmt export-encoder: stopped: interrupted by SIGINT (Ctrl-C); the partial output is removed; run the "
        "same command again"), err
    assert list(out.iterdir()) == []


def test_a_full_disk_during_export_encoder_is_one_line(repo, tmp_path, monkeypatch, capsys):
    import paranmt.models.encoders.sentence_transformers as exporter

    out = tmp_path / "st"

    def full(encoder, output):
        output.mkdir(parents=True, exist_ok=True)
        (output / "modules.json").write_text("[")
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(exporter, "export_sentence_transformer", full)
    assert main(["export-encoder", "--model", str(repo / "assets" / "encoder-sp"), "--output", str(out)]) == 1
    assert one_line(capsys, "export-encoder").startswith("paranmt export-encoder: stopped: the disk is full")
    assert list(out.iterdir()) == []


# -- convert-nmt and eval-nmt ------------------------------------------------------------------------------------
@pytest.fixture
def nmt_run(repo, tmp_path) -> list[str]:
    """convert-nmt's arguments for the export of a training run (the tiny fixture model as its last checkpoint)."""
    tiny = repo / "tests" / "fixtures" / "nmt-tiny"
    (tmp_path / "run").mkdir()
    shutil.copy(tiny / "fairseq" / "model.pt", tmp_path / "run" / "checkpoint_last.pt")
    return ["convert-nmt", "--checkpoints", str(tmp_path / "run"), "--data-bin", str(tiny / "fairseq"), "--spm",
            str(tiny / "spm.model")]


def test_convert_nmt_refuses_its_inputs_and_an_earlier_model_without_overwrite(nmt_run, tmp_path, capsys):
    out = tmp_path / "model"
    assert main([*nmt_run, "--output", str(tmp_path / "run" / "model")]) == 2
    assert f"is inside the input {tmp_path / 'run'}" in one_line(capsys, "convert-nmt")
    assert main([*nmt_run, "--output", str(out)]) == 0
    capsys.readouterr()
    assert main([*nmt_run, "--output", str(out)]) == 2
    assert (f"--output {out} already holds a converted model (5 file(s)); give --overwrite to replace it, or choose "
            f"another --output") in one_line(capsys, "convert-nmt")
    (out / "notes.md").write_text("mine\n")
    (out / "ct2" / "stale.bin").write_text("from the earlier conversion")
    assert main([*nmt_run, "--output", str(out), "--overwrite"]) == 0
    assert (out / "notes.md").is_file() and not (out / "ct2" / "stale.bin").exists()
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.md").write_text("mine\n")     # CTranslate2's converter would delete it
    bare = ["convert-nmt", "--fairseq-checkpoint", str(out / "fairseq" / "model.pt"), "--output",
            str(tmp_path / "other"), "--overwrite"]
    assert main(bare) == 2
    assert "is not empty and holds no converted model" in one_line(capsys, "convert-nmt")
    assert (tmp_path / "other" / "notes.md").is_file()


def test_a_signal_or_a_full_disk_during_convert_nmt_is_one_line_and_removes_what_it_wrote(
        nmt_run, tmp_path, signal_when, monkeypatch, capsys):
    out = tmp_path / "model"
    slow = ("import time, paranmt.models.nmt.export as export\n"
            "def slow(model, data, output, *args):\n"
            "    __import__('os').makedirs(output)\n"
            "    open(output + '/model.bin', 'w').write('half')\n"
            "    [time.sleep(0.1) for _ in range(1200)]\n"
            "export.convert_fairseq_to_ctranslate2 = slow\n")
    returncode, err = signal_when([*nmt_run, "--output", str(out)], lambda: (out / "ct2" / "model.bin").is_file(),
                                  signal.SIGTERM, slow)
    assert returncode == 143 and err.strip().splitlines()[-1] == (
        "paranmt convert-nmt: stopped: interrupted by SIGTERM; the partial output is removed; run the same command "
        "again"), err
    assert list(out.iterdir()) == []
    import paranmt.models.nmt.export as export

    monkeypatch.setattr(export, "write_manifest", disk_full)
    assert main([*nmt_run, "--output", str(out)]) == 1
    assert one_line(capsys, "convert-nmt").startswith("paranmt convert-nmt: stopped: the disk is full")
    assert list(out.iterdir()) == []


def eval_nmt_argv(repo, bitext, hypotheses) -> list[str]:
    return ["eval-nmt", "--model", str(repo / "tests" / "fixtures" / "nmt-tiny"), "--source",
            str(bitext / "newstest2017.ces"), "--reference", str(bitext / "newstest2017.eng"), "--limit", "3",
            "--beam", "1", "--threads", "1", "--simile-encoder", "", "--hypotheses", str(hypotheses)]


def test_eval_nmt_hypotheses_apart_from_inputs_and_not_over_a_file_without_overwrite(repo, bitext, tmp_path,
                                                                                        monkeypatch, capsys):
    source, hypotheses = bitext / "newstest2017.ces", tmp_path / "hyp.txt"
    assert main(eval_nmt_argv(repo, bitext, source)) == 2
    assert f"--hypotheses {source} is the input {source}" in one_line(capsys, "eval-nmt")
    hypotheses.write_text("mine\n")
    assert main(eval_nmt_argv(repo, bitext, hypotheses)) == 2
    assert (f"--hypotheses {hypotheses} already holds a file (an earlier run's translations?); give --overwrite to "
            f"replace it, or choose another --hypotheses") in one_line(capsys, "eval-nmt")
    write_bytes = Path.write_bytes        # what models/files.write_bytes_atomically writes its temporary with

    def full(self, data, *args, **kwargs):
        if self.name.startswith(".hyp.txt.tmp-"):
            write_bytes(self, data[:5], *args, **kwargs)
            raise OSError(errno.ENOSPC, "No space left on device")
        return write_bytes(self, data, *args, **kwargs)

    monkeypatch.setattr(Path, "write_bytes", full)
    assert main([*eval_nmt_argv(repo, bitext, hypotheses), "--overwrite"]) == 1
    assert one_line(capsys, "eval-nmt").endswith("; nothing was written; run the same command again")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["hyp.txt"] and hypotheses.read_text() == "mine\n"
    monkeypatch.setattr(Path, "write_bytes", write_bytes)
    assert main([*eval_nmt_argv(repo, bitext, hypotheses), "--overwrite"]) == 0
    assert len(hypotheses.read_text().splitlines()) == 3


def test_ctrl_c_during_eval_nmt_is_one_line(repo, bitext, tmp_path, signal_when):
    started = tmp_path / "started"
    slow = ("import time, paranmt.models.nmt.evaluate as evaluate\n"
            "def slow(*args, **kwargs):\n"
            f"    open({str(started)!r}, 'w').close()\n"
            "    [time.sleep(0.1) for _ in range(1200)]\n"
            "evaluate.evaluate_translator = slow\n")
    returncode, err = signal_when(eval_nmt_argv(repo, bitext, tmp_path / "hyp.txt"), started.is_file, signal.SIGINT,
                                  slow)
    assert returncode == 130 and err.strip().splitlines()[-1] == (
        "paranmt eval-nmt: stopped: interrupted by SIGINT (Ctrl-C); nothing was written; run the same command "
        "again"), err
    assert not (tmp_path / "hyp.txt").exists()


# -- probe -------------------------------------------------------------------------------------------------------
def probe_argv(pairs: Path, shared_data: Path, output: Path, *extra: str) -> list[str]:
    return ["probe", "--input", str(pairs), "--output", str(output), "--sts-dir", str(shared_data / "sts"),
            "--models", "word", "--set", "train.dim=8", "--set", "train.max_steps=2", "--set", "train.batch_size=20",
            *extra]


def test_probe_refuses_its_inputs_and_an_earlier_probe_without_resume_or_overwrite(pairs, shared_data, tmp_path,
                                                                                  capsys):
    out = tmp_path / "probe"
    assert main(probe_argv(pairs, shared_data, tmp_path)) == 2
    assert f"--output {tmp_path} holds the input {pairs}" in one_line(capsys, "probe")
    assert main(probe_argv(pairs, shared_data, out, "--resume")) == 2
    assert f"--resume: {out} holds nothing to resume" in one_line(capsys, "probe")
    assert main(probe_argv(pairs, shared_data, out)) == 0
    assert main(probe_argv(pairs, shared_data, out, "--resume", "--overwrite")) == 2
    assert "exclude each other" in one_line(capsys, "probe")
    (out / "runs" / "pairs.all.trigram").mkdir()             # a run of the earlier probe that this one does not make
    assert main(probe_argv(pairs, shared_data, out, "--overwrite")) == 0
    assert sorted(p.name for p in (out / "runs").iterdir()) == ["pairs.all.word"]


SLOW_TRIGRAM = ("import time, paranmt.models.training.probe as probe\n"
                "fit = probe.Trainer.fit\n"
                "def slow(self, pairs, resume=False):\n"
                "    if self.config.encoder == 'trigram':\n"
                "        self.output.mkdir(parents=True, exist_ok=True)\n"
                "        (self.output / 'started').write_text('')\n"
                "        [time.sleep(0.1) for _ in range(1200)]\n"
                "    return fit(self, pairs, resume)\n"
                "probe.Trainer.fit = slow\n")


def test_a_signal_during_probe_keeps_the_finished_runs_and_resume_does_the_rest(pairs, shared_data, tmp_path,
                                                                               signal_when):
    out = tmp_path / "probe"
    argv = probe_argv(pairs, shared_data, out)
    argv[argv.index("--models") + 1:argv.index("--models") + 2] = ["word", "trigram"]
    cut = out / "runs" / "pairs.all.trigram"
    returncode, err = signal_when(argv, (cut / "started").is_file, signal.SIGINT, SLOW_TRIGRAM)
    assert returncode == 130 and "Traceback" not in err, err
    line = err.strip().splitlines()[-1]
    assert line.startswith(f"paranmt probe: stopped: interrupted by SIGINT (Ctrl-C); 1 run(s) are kept in "
                           f"{out / 'results.csv'}; resume with: paranmt probe "), line
    assert not cut.exists()                                       # the run cut short is removed
    resume = shlex.split(line.split("resume with: ", 1)[1])
    assert resume[-1] == "--resume" and main(resume[1:]) == 0
    assert sorted({row.split(",")[2] for row in (out / "results.csv").read_text().splitlines()[1:]}) == [
        "trigram", "word"]


def test_a_full_disk_during_probe_is_one_line(pairs, shared_data, tmp_path, monkeypatch, capsys):
    monkeypatch.setattr("paranmt.models.evaluation.tables.write_results_csv", disk_full)
    out = tmp_path / "probe"
    assert main(probe_argv(pairs, shared_data, out)) == 1
    assert one_line(capsys, "probe") == ("paranmt probe: stopped: the disk is full (OSError: [Errno 28] No space left "
                                         "on device): free space on it, then; 0 run(s) are kept in "
                                         f"{out / 'results.csv'}; run the same command again")
    assert list((out / "runs").iterdir()) == []


# -- train-nmt ---------------------------------------------------------------------------------------------------
def test_train_nmt_refuses_its_inputs_and_an_earlier_run_without_resume_or_overwrite(nmt_recipe, tmp_path, capsys):
    work = tmp_path / "work"
    assert main([*nmt_recipe, "--work-dir", str(tmp_path / "data" / "work")]) == 2
    assert f"--work-dir {tmp_path / 'data' / 'work'} is inside the input {tmp_path / 'data'}" in one_line(
        capsys, "train-nmt")
    assert main([*nmt_recipe, "--resume"]) == 2
    assert f"--resume: {work} holds nothing to resume" in one_line(capsys, "train-nmt")
    assert main(nmt_recipe) == 0 and (work / ".data.done").is_file()
    assert main(nmt_recipe) == 2
    assert (f"--work-dir {work} already holds an earlier recipe run (steps done: data); give --resume to continue it "
            f"or --overwrite to replace it") in one_line(capsys, "train-nmt")
    assert main([*nmt_recipe, "--resume"]) == 0
    (work / "train-mrt-bleu.log").write_text("an earlier MRT stage\n")
    (work / "notes.md").write_text("mine\n")                  # not the recipe's: left alone
    assert main([*nmt_recipe, "--overwrite"]) == 0
    assert not (work / "train-mrt-bleu.log").exists() and (work / "notes.md").is_file()
    nmt_recipe[-1] = "preprocess"                           # fairseq-preprocess without the spm step's files
    assert main([*nmt_recipe, "--resume"]) == 1
    assert one_line(capsys, "train-nmt").endswith(
        f"fairseq_cli.preprocess failed with exit code 1; see {work / 'train.log'}")


def test_a_signal_or_a_full_disk_during_train_nmt_is_one_line_naming_resume(nmt_recipe, tmp_path, signal_when,
                                                                             monkeypatch, capsys):
    work = tmp_path / "work"
    slow = ("import time, paranmt.models.nmt.recipe as recipe\n"
            "def slow(config, out_dir):\n"
            "    out_dir.mkdir(parents=True)\n"
            "    (out_dir / 'train.cs').write_text('half')\n"
            "    [time.sleep(0.1) for _ in range(1200)]\n"
            "recipe.prepare_data = slow\n")
    returncode, err = signal_when(nmt_recipe, (work / "raw" / "train.cs").is_file, signal.SIGTERM, slow)
    assert returncode == 143 and "Traceback" not in err, err
    line = err.strip().splitlines()[-1]
    assert line.startswith("paranmt train-nmt: stopped: interrupted by SIGTERM; steps done: none; resume with: "), line
    resume = shlex.split(line.split("resume with: ", 1)[1])
    assert main(resume[1:]) == 0 and (work / ".data.done").is_file()
    from paranmt.models.nmt import recipe

    monkeypatch.setattr(recipe, "prepare_data", disk_full)
    assert main([*nmt_recipe, "--overwrite"]) == 1
    assert one_line(capsys, "train-nmt") == (
        "paranmt train-nmt: stopped: the disk is full (OSError: [Errno 28] No space left on device): free space on "
        "it, then; steps done: none; run the same command again")


# -- train-parser ------------------------------------------------------------------------------------------------
@pytest.fixture
def parser_recipe(shared_data, tmp_path) -> list[str]:
    """train-parser's arguments for a recipe over three real PTB files (train, dev, test: wsj_0001, 0150, 0160),
    work directory tmp/work, output tmp/parser."""
    import yaml

    treebank = tmp_path / "ptb"
    treebank.mkdir()
    for number in ("0001", "0150", "0160"):
        shutil.copy(shared_data / "treebank" / "ptb-sample" / f"wsj_{number}.mrg", treebank)
    config = tmp_path / "parser.yaml"
    config.write_text(yaml.safe_dump({"treebank": str(treebank), "bitext": str(tmp_path / "bitext"),
                                      "dev_files": [150, 150], "test_files": [160, 160]}))
    return ["train-parser", "--config", str(config), "--work-dir", str(tmp_path / "work"), "--output",
            str(tmp_path / "parser")]


def test_train_parser_refuses_its_inputs_an_earlier_run_and_a_packaged_parser(parser_recipe, tmp_path, capsys):
    work, prepare = tmp_path / "work", [*parser_recipe, "--steps", "prepare"]
    assert main([*prepare, "--work-dir", str(tmp_path / "ptb" / "work")]) == 2
    assert f"--work-dir {tmp_path / 'ptb' / 'work'} is inside the input {tmp_path / 'ptb'}" in one_line(
        capsys, "train-parser")
    assert main([*prepare, "--resume"]) == 2
    assert f"--resume: {work} holds nothing to resume" in one_line(capsys, "train-parser")
    assert main(prepare) == 0 and (work / "data" / "summary.json").is_file()
    assert main(prepare) == 2
    assert (f"--work-dir {work} already holds an earlier recipe run (steps done: prepare); give --resume to continue "
            f"it or --overwrite to replace it") in one_line(capsys, "train-parser")
    assert main([*prepare, "--resume"]) == 2
    assert "complete: nothing to resume" in one_line(capsys, "train-parser")
    (work / "tagger.log").write_text("an earlier tagger\n")
    assert main([*prepare, "--overwrite"]) == 0 and not (work / "tagger.log").exists()
    (tmp_path / "parser").mkdir()
    (tmp_path / "parser" / "MANIFEST.json").write_text("{}")      # a packaged parser (the shipped one, by default)
    shutil.rmtree(work)
    assert main(parser_recipe) == 2
    assert (f"--output {tmp_path / 'parser'} already holds a packaged parser; give --overwrite to replace it, or "
            f"choose another --output") in one_line(capsys, "train-parser")


def test_train_parser_takes_only_its_own_package_for_done(parser_recipe, tmp_path, capsys):
    """Issue 47: any packaged parser in --output (the shipped one) counted as the run's own package step: --resume
    would replace it, or call a run complete that never packaged. Only the package this run's work directory
    records (the output and its MANIFEST's sha256) is done; another one is refused on --resume, one line, exit 2."""
    import json

    from paranmt.models.parsing.train import done_steps
    from paranmt.schemas.metadata import file_sha256

    work, output = tmp_path / "work", tmp_path / "parser"
    assert main([*parser_recipe, "--steps", "prepare"]) == 0
    output.mkdir()
    (output / "MANIFEST.json").write_text('{"recipe": "the shipped parser"}\n')
    assert done_steps(work, output) == ["prepare"]
    assert main([*parser_recipe, "--resume"]) == 2
    assert one_line(capsys, "train-parser") == (
        f"paranmt train-parser: configuration error: --output {output} holds a packaged parser that the run in {work} "
        f"did not write (the shipped one, or another run's): --resume would replace it; choose another --output, or "
        f"give --overwrite without --resume to run the recipe again into it")
    assert (output / "MANIFEST.json").read_text() == '{"recipe": "the shipped parser"}\n'
    (work / "package.json").write_text(json.dumps({"output": str(output.resolve()),
                                                   "manifest_sha256": file_sha256(output / "MANIFEST.json")}))
    assert done_steps(work, output) == ["prepare", "package"]          # what this run packaged there
    assert done_steps(work, tmp_path / "elsewhere") == ["prepare"]


def test_a_signal_or_a_full_disk_during_train_parser_is_one_line_naming_resume(parser_recipe, tmp_path, signal_when,
                                                                                monkeypatch, capsys):
    work, argv = tmp_path / "work", [*parser_recipe, "--steps", "prepare,vectors"]
    slow = ("import time, paranmt.models.parsing.train as train\n"
            "def slow(config, work):\n"
            "    (work / 'vectors.txt').write_text('half')\n"
            "    [time.sleep(0.1) for _ in range(1200)]\n"
            "train.build_vectors = slow\n")
    returncode, err = signal_when(argv, (work / "vectors.txt").is_file, signal.SIGINT, slow)
    assert returncode == 130 and "Traceback" not in err, err
    line = err.strip().splitlines()[-1]
    assert line.startswith("paranmt train-parser: stopped: interrupted by SIGINT (Ctrl-C); steps done: prepare; "
                           "resume with: paranmt train-parser "), line
    assert shlex.split(line.split("resume with: ", 1)[1])[-1] == "--resume"
    from paranmt.models.parsing import train

    monkeypatch.setattr(train, "build_vectors", disk_full)
    assert main([*argv, "--resume"]) == 1
    assert one_line(capsys, "train-parser") == (
        "paranmt train-parser: stopped: the disk is full (OSError: [Errno 28] No space left on device): free space on "
        f"it, then; steps done: prepare; resume with: paranmt train-parser {' '.join(argv[1:])} --resume")


# -- one writer per output: the trainers and the evaluations take the build's lock -------------------------------
def test_a_second_train_on_an_output_in_use_is_one_line_naming_the_running_one(pairs, tmp_path, signal_when,
                                                                                 capsys):
    """Issue 47: two `train` runs on one --output both exited 0, the first model lost and metrics.jsonl
    interleaved; and a running training's checkpoint was called "stopped", with advice (--resume) that starts a
    second writer. While the first trains, a second run (plain, --resume or --overwrite) is refused before any work:
    one line naming the running one, exit 2, nothing touched. Once the first is killed (SIGKILL), its stale lock is
    taken over by --resume, which finishes its run."""
    import json
    import socket

    model = tmp_path / "model"
    argv = ["train", "--train", str(pairs), "--output", str(model), *TINY, "--epochs", "100000"]
    lock, refused = model / "__paranmt__" / "lock.json", {}

    def second_runs_while_the_first_trains():
        if not (model / "checkpoint" / "trainer_state.pt").exists():
            return False
        for extra in ([], ["--resume"], ["--overwrite"]):
            refused[" ".join(extra)] = (main([*argv, "--epochs", "2", *extra]), one_line(capsys, "train"))
        refused["holder"] = json.loads(lock.read_text())
        return True

    returncode, err = signal_when(argv, second_runs_while_the_first_trains, signal.SIGKILL)
    assert returncode == -signal.SIGKILL
    holder = refused.pop("holder")
    assert holder["command"] == shlex.join(["paranmt", *argv]) and holder["host"] == socket.gethostname()
    for code, line in refused.values():
        assert code == 2 and line == (
            f"paranmt train: configuration error: output {model} is in use by another `paranmt train` run: pid "
            f"{holder['pid']} on host {holder['host']} (user {holder['user']}, started {holder['started']}: "
            f"{holder['command']}); wait for it to finish, or choose another --output")
    steps = [json.loads(line)["step"] for line in (model / "metrics.jsonl").read_text().splitlines()]
    assert steps == list(range(1, len(steps) + 1)), "one writer: the first run's lines alone"
    assert main([*argv[:-1], "1", "--resume"]) == 0          # the killed run's lock is taken over
    err = capsys.readouterr().err
    assert (f"paranmt train: took over the lock of a `paranmt train` run that stopped without finishing: pid "
            f"{holder['pid']} on host") in err
    assert (model / "weights.npz").is_file() and not (model / "__paranmt__").exists()


def live_lock(output: Path) -> None:
    """A lock of `output` held by a running process (this test's)."""
    import json
    import socket

    (output / "__paranmt__").mkdir(parents=True)
    (output / "__paranmt__" / "lock.json").write_text(json.dumps({
        "user": "someone", "host": socket.gethostname(), "pid": os.getpid(), "pid_started": None,
        "started": "2026-11-29 04:00:00 UTC", "command": "paranmt X --output Y"}))


@pytest.mark.parametrize("command", ["train", "train-bgt", "train-paraphraser", "train-words", "finetune-sts",
                                     "probe", "paraphrase-data", "train-nmt", "train-parser", "eval", "eval-words",
                                     "mine", "report", "export-encoder", "adversarial"])
def test_every_trainer_and_evaluation_is_one_writer_per_output(command, pairs, ppdb, repo, shared_data,
                                                               tiny_data_folder, nmt_recipe, parser_recipe, tmp_path,
                                                               capsys):
    """Issue 47: trainers took no lock (builds did), and two `eval` runs on one output raced. Every one of them
    holds the build's lock (pipelines/runtime/output_lock.py) for its run: an output in use is one line naming
    the run that holds it, exit 2, before any work; the output is left as it was."""
    out = tmp_path / "out"
    argv = {"train": ["train", "--train", str(pairs), *TINY, "--output", str(out)],
            "train-bgt": ["train-bgt", "--train", str(pairs), "--format", "tsv", "--output", str(out)],
            "train-paraphraser": ["train-paraphraser", "--input", str(pairs), "--task", "plain", "--output", str(out)],
            "train-words": words_argv(ppdb, out),
            "finetune-sts": finetune_argv(repo, shared_data, out),
            "probe": probe_argv(pairs, shared_data, out),
            "paraphrase-data": ["paraphrase-data", "--data", str(tiny_data_folder), "--output", str(out)],
            "train-nmt": [*nmt_recipe, "--work-dir", str(out)],
            "train-parser": [*parser_recipe[:parser_recipe.index("--work-dir")], "--work-dir", str(out), "--output",
                             str(tmp_path / "parser")],
            "eval": ["eval", "--model", str(repo / "assets" / "encoder-sp"), "--sts-dir", str(shared_data / "sts"),
                     "--output", str(out)],
            "eval-words": ["eval-words", "--model", str(repo / "assets" / "encoder-sp"), "--data-dir",
                           str(shared_data), "--output", str(out)],
            "mine": ["mine", "--source", str(pairs), "--target", str(pairs), "--output", str(out)],
            "report": ["report", "--input", str(pairs), "--output", str(out)],
            "export-encoder": ["export-encoder", "--model", str(repo / "assets" / "encoder-sp"), "--output", str(out)],
            "adversarial": ["adversarial", "--task", "sick-e", "--data", str(shared_data), "--output",
                            str(out)]}[command]
    live_lock(out)
    before = sorted(out.rglob("*"))
    flag = "--work-dir" if command in ("train-nmt", "train-parser") else "--output"
    assert main(argv) == 2
    assert one_line(capsys, command) == (
        f"paranmt {command}: configuration error: output {out} is in use by another `paranmt {command}` run: pid "
        f"{os.getpid()} on host {__import__('socket').gethostname()} (user someone, started 2026-11-29 04:00:00 UTC: "
        f"paranmt X --output Y); wait for it to finish, or choose another {flag}")
    assert sorted(out.rglob("*")) == before
