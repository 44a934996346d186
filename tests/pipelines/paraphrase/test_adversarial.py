"""`paranmt adversarial --task sick-e` end to end on a small slice: tiny classifier, tiny paraphrasers; the table's
rows, the augmentation count, the cached paraphrases reused by a rerun."""
import csv
import json

from paranmt.pipelines.cli import main


def test_sick_e_end_to_end(tiny_models, shared_data, tmp_path, capsys):
    output = tmp_path / "adversarial"
    argv = ["adversarial", "--task", "sick-e", "--paraphraser", str(tiny_models), "--data", str(shared_data),
            "--output", str(output), "--train-rows", "300", "--test-rows", "60", "--attack-rows", "8",
            "--augment-rows", "6", "--templates-per-example", "2", "--n-best", "2", "--beam", "2",
            "--epochs", "1", "--dim", "8", "--hidden", "8", "--min-overlap", "0", "--min-similarity", "-1",
            "--keep-lowercase-start"]       # a loose post-filter: the tiny paraphrasers' outputs start lowercase
    assert main(argv) == 0
    with open(output / "results.csv", newline="") as handle:
        results = {row["method"]: row for row in csv.DictReader(handle)}
    assert list(results) == ["scpn", "plain"]
    for row in results.values():
        assert int(row["attacked"]) == 8
        assert 0 <= float(row["broken_before"]) <= 1 and 0 <= float(row["broken_after"]) <= 1
        assert 0 < float(row["test_acc_before"]) <= 1 and 0 < float(row["test_acc_after"]) <= 1
        assert 0 < int(row["augmented"]) <= 6 * 2          # at most 2 kept paraphrases per augmented example
    assert results["scpn"]["test_acc_before"] == results["plain"]["test_acc_before"]   # one victim before
    cached = sorted(p.name for p in (output / "paraphrases").iterdir())
    assert [name.split("-")[:2] for name in cached] == [["plain", "attack"], ["plain", "augment"],
                                                       ["scpn", "attack"], ["scpn", "augment"]]
    augment = [json.loads(line)["paraphrases"] for line in
               (output / "paraphrases" / next(n for n in cached if n.startswith("scpn-augment"))).read_text()
               .splitlines()]
    assert sum(map(len, augment)) == int(results["scpn"]["augmented"])
    table = capsys.readouterr().out
    assert "| method (sick-e) | attacked | test acc. before" in table
    assert main(argv) == 2                                  # an earlier run's results: --overwrite or elsewhere
    assert "already holds the results of an earlier run; give --resume" in capsys.readouterr().err
    for name in ("results.csv", "results.md", "samples.json"):
        (output / name).unlink()                            # a run stopped after its paraphrases were cached
    assert main([*argv, "--resume"]) == 0                   # reuses them
    assert sorted(p.name for p in (output / "paraphrases").iterdir()) == cached
    with open(output / "results.csv", newline="") as handle:
        assert {row["method"]: row for row in csv.DictReader(handle)} == results
