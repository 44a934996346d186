"""`paranmt eval-transfer` as a user runs it, on small stratified slices of the real tasks (2-fold CV)."""
import csv

from paranmt.pipelines.cli import main


def test_eval_transfer_end_to_end(repo, shared_data, tmp_path, capsys):
    out = tmp_path / "transfer"
    assert main(["eval-transfer", "--model", str(repo / "assets" / "encoder-sp"), "--data-dir", str(shared_data),
                 "--output", str(out), "--limit", "200", "--folds", "2", "--inner-folds", "2",
                 "--c-grid", "0.01", "1"]) == 0
    rows = list(csv.DictReader((out / "results.csv").open()))
    assert list(rows[0]) == ["model", "task", "metric", "value"]
    cells = {(r["model"], r["task"], r["metric"]): float(r["value"]) for r in rows}
    models = ["encoder-sp", "random encoder-sp", "bag-of-words"]
    expected = {(m, t, "accuracy") for m in models for t in ("mr", "cr", "subj", "sick-e", "mrpc")}
    assert set(cells) == expected | {(m, "mrpc", "f1") for m in models}
    assert all(0 <= v <= 1 for v in cells.values())
    assert cells[("encoder-sp", "sick-e", "accuracy")] > 0.4, "3 classes: chance is about 1/3"
    assert "| encoder-sp |" in (out / "summary.md").read_text()
    printed = capsys.readouterr().out.splitlines()
    assert len(printed) == len(rows) + 1 and printed[-1].startswith("wrote "), "one line per result, then where"


def test_eval_transfer_user_mistakes(repo, tmp_path, capsys):
    model = str(repo / "assets" / "encoder-sp")
    data = tmp_path / "data"
    data.mkdir()
    cases = [(["--data-dir", str(data), "--tasks", "sst"], "unknown task"),
             (["--data-dir", str(tmp_path / "missing")], "not a directory"),
             (["--data-dir", str(data), "--tasks", "mr"], "mr.tsv not found"),
             (["--data-dir", str(data), "--folds", "1"], "folds must be >= 2")]
    for args, message in cases:
        assert main(["eval-transfer", "--model", model, "--output", str(tmp_path / "o"), *args]) == 2
        err = capsys.readouterr().err
        assert message in err and len(err.splitlines()) == 1, err
