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
