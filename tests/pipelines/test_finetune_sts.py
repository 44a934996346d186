"""`paranmt finetune-sts` as a user runs it, on a small slice of real SICK."""
import csv
import json

from paranmt.models.encoders import load_encoder
from paranmt.pipelines.cli import main


def test_finetune_sts_end_to_end(repo, shared_data, tmp_path, capsys):
    out = tmp_path / "sick"
    assert main(["finetune-sts", "--model", str(repo / "assets" / "encoder-sp"), "--task", "sick-r", "--data-dir",
                 str(shared_data), "--output", str(out), "--epochs", "2", "--limit", "150"]) == 0
    rows = list(csv.DictReader((out / "results.csv").open()))
    assert [(r["model"], r["dataset"]) for r in rows] == [
        ("unsupervised", "SICK/SICK_trial"), ("supervised", "SICK/SICK_trial"),
        ("unsupervised", "SICK/SICK_test_annotated"), ("supervised", "SICK/SICK_test_annotated")]
    assert all(-1 <= float(r["pearson"]) <= 1 for r in rows)
    report = json.loads((out / "report.json").read_text())
    assert report["datasets"]["test"]["pairs"] == 150 and report["config"]["task"] == "sick-r"
    assert load_encoder(out / "encoder").dim == 300
    assert json.loads((out / "head" / "head.json").read_text())["low"] == 1
    assert "SICK/SICK_test_annotated\tunsupervised" in capsys.readouterr().out


def test_finetune_sts_user_mistakes(repo, tmp_path, capsys):
    model = str(repo / "assets" / "encoder-sp")
    data = tmp_path / "data"
    (data / "sts").mkdir(parents=True)
    cases = [(["--data-dir", str(tmp_path / "none")], "no sts/ folder"),
             (["--data-dir", str(data)], "SICK/SICK_train not found"),
             (["--data-dir", str(data), "--epochs", "0"], "epochs must be >= 1")]
    for args, message in cases:
        assert main(["finetune-sts", "--model", model, "--task", "sick-r", "--output", str(tmp_path / "o"),
                     *args]) == 2
        err = capsys.readouterr().err
        assert message in err and len(err.splitlines()) == 1, err


def test_finetune_sts_sst2_end_to_end_says_it_tests_on_dev(repo, shared_data, tmp_path, capsys):
    out = tmp_path / "sst2"
    assert main(["finetune-sts", "--model", str(repo / "assets" / "encoder-sp"), "--task", "sst2", "--data-dir",
                 str(shared_data), "--output", str(out), "--epochs", "1", "--limit", "300", "--freeze-encoder",
                 "--projection", "64"]) == 0
    rows = list(csv.DictReader((out / "results.csv").open()))
    assert [(r["model"], r["dataset"]) for r in rows] == [
        ("majority", "sst2/train[held-out 0.1]"), ("supervised", "sst2/train[held-out 0.1]"),
        ("majority", "sst2/dev"), ("supervised", "sst2/dev")]
    assert all(0 <= float(r["accuracy"]) <= 1 for r in rows)
    report = json.loads((out / "report.json").read_text())
    assert report["metric"] == "accuracy" and report["datasets"]["test"] == {"name": "sst2/dev", "pairs": 300}
    head = json.loads((out / "head" / "head.json").read_text())
    assert head["kind"] == "sentence-classes" and head["projection"] == 64 and head["labels"] == ["negative",
                                                                                                   "positive"]
    printed = capsys.readouterr().out
    assert "sst2/dev\tmajority" in printed and "the test set is dev.tsv" in printed


def test_finetune_sts_classification_user_mistakes(repo, tmp_path, capsys):
    model = str(repo / "assets" / "encoder-sp")
    data = tmp_path / "data"
    (data / "transfer" / "sst2").mkdir(parents=True)
    (data / "transfer" / "sst2" / "dev.tsv").write_text("sentence\tlabel\ngood\t1\n")
    cases = [(["--task", "sst2", "--data-dir", str(tmp_path)], "has no transfer/sst2/ folder"),
             (["--task", "sst2", "--data-dir", str(data)], "train.tsv not found"),
             (["--task", "sick-e", "--data-dir", str(data)], "has no sts/SICK/ folder"),
             (["--task", "sst", "--data-dir", str(data)], "invalid choice: 'sst'")]
    for args, message in cases:
        assert main(["finetune-sts", "--model", model, "--output", str(tmp_path / "o"), *args]) == 2
        err = capsys.readouterr().err
        assert message in err and len(err.splitlines()) == 1, err
