"""`paranmt train-bgt` as a user runs it: Moses bitext in, a paranmt encoder out that `eval`, `encode` and
`eval-xling` open; mistakes are one line and exit 2."""
import csv
import json

from paranmt.pipelines.cli import main


def test_train_bgt_then_eval_and_encode(bitext, repo, shared_data, tmp_path, capsys):
    out = tmp_path / "bgt"
    code = main(["train-bgt", "--train", str(bitext / "multi30k_test_2016_flickr"), "--output", str(out),
                 "--sp-model", str(repo / "assets/nmt-cs-en/spm.model"), "--dim", "16", "--latent", "8",
                 "--encoder-layers", "1", "--max-tokens", "600", "--max-steps", "2", "--device", "cpu"])
    assert code == 0 and "its semantic encoder is" in capsys.readouterr().out
    assert main(["eval", "--model", str(out), "--sts-dir", str(shared_data / "sts"), "--select",
                 "STS2017/track5.en-en", "--output", str(tmp_path / "eval")]) == 0
    rows = list(csv.DictReader((tmp_path / "eval" / "results.csv").open()))
    assert [r["dataset"] for r in rows] == ["STS2017/track5.en-en"] and int(rows[0]["n"]) == 250


def test_train_bgt_user_mistakes_are_one_line(tmp_path, capsys):
    assert main(["train-bgt", "--train", str(tmp_path / "missing"), "--output", str(tmp_path / "o")]) == 2
    assert main(["train-bgt", "--train", str(tmp_path / "missing"), "--output", str(tmp_path / "o"),
                 "--dim", "10"]) == 2
    errors = capsys.readouterr().err.strip().splitlines()
    assert len(errors) == 2 and "not found" in errors[0] and "multiple of heads" in errors[1]


def test_train_bgt_settings_from_config_file_flags_and_set(bitext, repo, tmp_path, capsys):
    """BGTConfig defaults <- `--config FILE.yaml` <- flags <- `--set KEY=VALUE` (as bgt_config.json keeps it); a
    bad value from any of them is one line, exit 2."""
    config = tmp_path / "bgt.yaml"
    config.write_text(f"sp_model: {repo / 'assets/nmt-cs-en/spm.model'}\ndim: 16\nlatent: 8\nencoder_layers: 1\n"
                      "max_tokens: 600\nmax_steps: 5\ndevice: cpu\n")
    out = tmp_path / "bgt"
    assert main(["train-bgt", "--train", str(bitext / "multi30k_test_2016_flickr"), "--output", str(out),
                 "--config", str(config), "--max-steps", "3", "--set", "max_steps=1", "--set", "ffn=32"]) == 0
    written = json.loads((out / "bgt_config.json").read_text())
    assert (written["dim"], written["latent"], written["max_steps"], written["ffn"]) == (16, 8, 1, 32)
    capsys.readouterr()
    assert main(["train-bgt", "--train", "x", "--output", str(tmp_path / "o"), "--config", str(config),
                 "--set", "dim=10"]) == 2
    error = capsys.readouterr().err.strip()
    assert len(error.splitlines()) == 1 and "multiple of heads" in error


TINY_BGT = ["--dim", "16", "--latent", "8", "--encoder-layers", "1", "--max-tokens", "600", "--device", "cpu",
            "--set", "sp_vocab_size=500"]


def test_a_full_disk_at_the_sentencepiece_model_is_one_line_and_the_rerun_trains(bitext, tmp_path, monkeypatch,
                                                                                   capsys):
    """The disk fills when train-bgt writes the sentencepiece model it trained (issue 47: a traceback, then one on
    every rerun, on the truncated sp.model). Simulated as a full tmpfs behaves: the bytes of sp.model stop at the
    last free byte; a write by Python raises ENOSPC, sentencepiece's own writer says nothing."""
    import errno
    from pathlib import Path

    import sentencepiece as spm

    out = tmp_path / "bgt"
    argv = ["train-bgt", "--train", str(bitext / "multi30k_test_2016_flickr"), "--output", str(out), *TINY_BGT,
            "--max-steps", "1"]
    train, write_bytes = spm.SentencePieceTrainer.train, Path.write_bytes

    def sentencepiece_on_a_full_disk(*args, **kwargs):
        train(*args, **kwargs)
        if kwargs.get("model_prefix"):
            model = Path(f"{kwargs['model_prefix']}.model")
            write_bytes(model, model.read_bytes()[:4096])

    def python_on_a_full_disk(path, data):
        if "sp.model" in path.name:
            write_bytes(path, data[:4096])
            raise OSError(errno.ENOSPC, "No space left on device")
        return write_bytes(path, data)

    monkeypatch.setattr(spm.SentencePieceTrainer, "train", sentencepiece_on_a_full_disk)
    monkeypatch.setattr(Path, "write_bytes", python_on_a_full_disk)
    assert main(argv) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1] == ("paranmt train-bgt: stopped: the disk is full (OSError: [Errno 28] No space left on device): "
                       "free space on it, then; no checkpoint was written yet; run the same command again to start "
                       "over") and "Traceback" not in "\n".join(err)
    assert not [path.name for path in out.iterdir() if "sp." in path.name], "no sp.model, whole or in part"
    monkeypatch.undo()
    assert main(argv) == 0 and (out / "sp.model").is_file()


def test_a_truncated_sp_model_is_trained_again_or_named_when_a_checkpoint_needs_it(bitext, tmp_path, caplog,
                                                                                     capsys):
    """An sp.model that an older train-bgt left truncated (it wrote the file in place): before the first checkpoint
    it is the stopped run's own unfinished file and is trained again; a checkpoint trained with it makes it one line
    naming it, exit 2."""
    out = tmp_path / "bgt"
    argv = ["train-bgt", "--train", str(bitext / "multi30k_test_2016_flickr"), "--output", str(out), *TINY_BGT]
    out.mkdir()
    (out / "sp.model").write_bytes(b"\n\x0b\n\x05<unk>\x15\x00\x00\x00\x00\x18")     # a model cut short
    assert main([*argv, "--max-steps", "1"]) == 0
    assert "sp.model is not a readable sentencepiece model" in caplog.text and "training it again" in caplog.text
    model = (out / "sp.model").read_bytes()
    assert len(model) > 1000
    (out / "sp.model").write_bytes(model[:len(model) // 2])
    capsys.readouterr()
    assert main([*argv, "--max-steps", "2", "--resume"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"paranmt train-bgt: configuration error: {out / 'sp.model'} is not "
                                               "a readable sentencepiece model (")
    assert err[0].endswith(f"; the checkpoint in {out} was trained with it: start again with --overwrite")


def test_resume_refuses_another_max_words(bitext, tmp_path, one_line):
    """--max-words (a flag of train-bgt's, outside its config) chooses the pairs it trains on: a --resume with
    another one is refused like changed training files (issue 47), one line, exit 2."""
    out = tmp_path / "bgt"
    argv = ["train-bgt", "--train", str(bitext / "multi30k_test_2016_flickr"), "--output", str(out), *TINY_BGT,
            "--max-steps", "1"]
    assert main(argv) == 0
    assert main([*argv, "--max-steps", "2", "--max-words", "50", "--resume"]) == 2
    assert one_line("train-bgt") == (
        f"paranmt train-bgt: configuration error: --resume: the training data changed since the run in {out} started "
        "(max_words: 100 -> 50): its checkpoint stands part-way through the old data; train into another --output, "
        "or --overwrite to start again")
    assert main([*argv, "--max-steps", "2", "--resume"]) == 0
