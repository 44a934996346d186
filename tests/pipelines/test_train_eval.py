"""`paranmt train`, `paranmt eval` and `paranmt encode` run as a user runs them, on real data."""
import csv
import json

import numpy as np

from paranmt.pipelines.cli import main


def test_train_eval_encode_end_to_end(bitext, shared_data, tmp_path, capsys):
    model = tmp_path / "model"
    code = main(["train", "--train", str(bitext / "newssyscomb2009"), str(bitext / "multi30k_test_2016_flickr"),
                 "--encoder", "word,trigram", "--mode", "bilingual", "--output", str(model), "--epochs", "1",
                 "--dim", "16", "--megabatch-size", "3", "--anneal-every", "2", "--log-every", "5"])
    assert code == 0
    config = json.loads((model / "config.json").read_text())
    assert config["kind"] == "word,trigram" and config["dim"] == 32
    assert json.loads((model / "train_data.json").read_text())["kept"] == 1502
    assert json.loads((model / "metrics.jsonl").read_text().splitlines()[-1])["step"] == 16

    out = tmp_path / "eval"
    assert main(["eval", "--model", str(model), "--sts-dir", str(shared_data / "sts"), "--output", str(out),
                 "--select", "STS2017/track5.en-en", "sts-dev"]) == 0
    rows = list(csv.DictReader((out / "results.csv").open()))
    assert [r["dataset"] for r in rows] == ["STS2017/track5.en-en", "stsbenchmark/sts-dev"]
    assert [r["n"] for r in rows] == ["250", "1500"] and all(-1 <= float(r["pearson"]) <= 1 for r in rows)
    assert "| STS2017/track5.en-en | 250 |" in (out / "summary.md").read_text()

    sentences = tmp_path / "sentences.txt"
    sentences.write_text("A man is playing a guitar.\nA man plays the guitar.\n")
    assert main(["encode", "--model", str(model), "--input", str(sentences), "--output", str(tmp_path / "v.npy")]) == 0
    assert np.load(tmp_path / "v.npy").shape == (2, 32)
    capsys.readouterr()
    assert main(["encode", "--model", str(model), "--input", str(sentences)]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 2


def test_cli_configuration_errors(tmp_path, capsys):
    assert main(["train", "--train", str(tmp_path / "missing"), "--encoder", "sp", "--output", str(tmp_path)]) == 2
    assert "not found" in capsys.readouterr().err
    (tmp_path / "bad.yaml").write_text("megabatch: 3\n")
    assert main(["train", "--train", "x", "--config", str(tmp_path / "bad.yaml"), "--output", str(tmp_path)]) == 2
    assert "unknown training config key" in capsys.readouterr().err
    (tmp_path / "sts").mkdir()
    (tmp_path / "sts" / "sts-dev.csv").write_text("".join(f"g\tf\t2012\t{i}\t{i}.0\ta {i}\tb {i}\n" for i in range(3)))
    (tmp_path / "model").mkdir()
    assert main(["eval", "--model", str(tmp_path / "model"), "--sts-dir", str(tmp_path / "sts"), "--output",
                 str(tmp_path / "e")]) == 2
    assert "no config.json" in capsys.readouterr().err


def test_word_vectors_of_another_dim_are_one_line_and_exit_2(bitext, tmp_path, capsys):
    (tmp_path / "vectors.txt").write_text("the 1 2 3\nof 4 5 6\n")
    code = main(["train", "--train", str(bitext / "newssyscomb2009"), "--encoder", "dan", "--dim", "8",
                 "--init-embeddings", str(tmp_path / "vectors.txt"), "--output", str(tmp_path / "m"), "--epochs", "1"])
    assert code == 2 and "3-d vectors" in capsys.readouterr().err


def test_init_embeddings_from_an_encoder_that_does_not_fit_is_one_line_and_exit_2(bitext, tmp_path, capsys):
    train = ["train", "--train", str(bitext / "newssyscomb2009"), "--epochs", "0", "--vocab-size", "200"]
    assert main([*train, "--encoder", "word", "--dim", "8", "--output", str(tmp_path / "source")]) == 0
    (tmp_path / "plain").mkdir()
    capsys.readouterr()
    for flags, message in [(["--encoder", "word", "--dim", "6"], "has 8-d word embeddings"),
                           (["--encoder", "trigram", "--dim", "8"], "no embeddings over the encoder's units"),
                           (["--encoder", "word", "--dim", "8", "--init-embeddings", str(tmp_path / "plain")],
                            "not an encoder directory")]:
        source = [] if "--init-embeddings" in flags else ["--init-embeddings", str(tmp_path / "source")]
        assert main([*train, *flags, *source, "--output", str(tmp_path / "m"), "--overwrite"]) == 2
        error = capsys.readouterr().err.strip()
        assert len(error.splitlines()) == 1 and message in error


def test_train_settings_from_config_file_flags_and_set(bitext, tmp_path):
    """TrainConfig defaults <- `--config FILE.yaml` <- flags <- `--set KEY=VALUE` (as train_config.json keeps it)."""
    config = tmp_path / "train.yaml"
    config.write_text("encoder: word\ndim: 8\nvocab_size: 50\nepochs: 3\nseed: 5\n")
    out = tmp_path / "model"
    assert main(["train", "--train", str(bitext / "newssyscomb2009"), "--output", str(out), "--config", str(config),
                 "--dim", "6", "--epochs", "2", "--set", "epochs=0", "--set", "seed=7", "--device", "cpu"]) == 0
    written = json.loads((out / "train_config.json").read_text())
    assert (written["encoder"], written["vocab_size"], written["dim"], written["epochs"], written["seed"]) == (
        "word", 50, 6, 0, 7)


def test_train_set_refuses_an_unknown_key_in_one_line(tmp_path, capsys):
    assert main(["train", "--train", "x", "--output", str(tmp_path / "o"), "--set", "epoch=2"]) == 2
    error = capsys.readouterr().err.strip()
    assert len(error.splitlines()) == 1 and "unknown training config key 'epoch' (did you mean 'epochs'" in error


def test_eval_hard_reports_the_negation_split_and_table_49(shared_data, tmp_path, capsys):
    """`eval --hard` with the shipped encoder adds Hard+/Hard- and Table 49's splits; a wrong negation rule is one
    line, exit 2."""
    from pathlib import Path

    encoder = Path(__file__).resolve().parents[2] / "assets" / "encoder-sp"
    out = tmp_path / "eval"
    assert main(["eval", "--model", str(encoder), "--sts-dir", str(shared_data / "sts"), "--output", str(out),
                 "--select", "STS2017/track5.en-en", "--hard"]) == 0
    rows = {r["dataset"]: r for r in csv.DictReader((out / "results.csv").open())}
    assert {"hard/Hard+", "hard/Hard-", "hard/all", "hard/negation", "hard/swer-top10-gold4-5",
            "hard/easy-swer-bottom20-gold3-5"} <= set(rows)
    assert 100 < int(rows["hard/negation"]["n"]) < int(rows["hard/all"]["n"])
    assert float(rows["hard/negation"]["pearson"]) > 0.3           # a trained encoder, real pairs
    assert "hard/negation\t" in capsys.readouterr().out
    assert main(["eval", "--model", str(encoder), "--sts-dir", str(shared_data / "sts"), "--output",
                 str(tmp_path / "e2"), "--hard", "--set", "hard_negation=regex"]) == 2
    assert capsys.readouterr().err.strip().count("\n") == 0
