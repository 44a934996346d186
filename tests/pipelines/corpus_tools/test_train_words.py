"""The closed loop corpus -> `paranmt lexicon` -> `paranmt train-words` -> `paranmt eval-words` (and `encode`),
run from the CLI on the real STS/SICK pair shards of the corpus-tool fixture."""
import csv
import json

import numpy as np

from paranmt.pipelines.cli import main

LOCAL = ["--runner=DirectRunner", "--direct_running_mode=in_memory"]


def test_corpus_to_lexicon_to_word_vectors_to_word_similarity(corpus_shards, shared_data, tmp_path, capsys):
    lexicon = tmp_path / "lexicon"
    assert main(["lexicon", "--input", str(corpus_shards / "s*.parquet"), "--output", str(lexicon),
                 "--min-count", "3", *LOCAL]) == 0
    words = tmp_path / "words"
    assert main(["train-words", "--input", str(lexicon), "--output", str(words), "--dim", "16", "--epochs", "2",
                 "--batch-size", "50"]) == 0
    report = json.loads((words / "train_report.json").read_text())
    assert report["format"] == "lexicon" and report["pairs"] > 100 and report["steps"] > 2
    assert json.loads((words / "config.json").read_text())["kind"] == "word"
    header = (words / "vectors.txt").read_text().splitlines()[0].split()
    assert header == [str(report["vocabulary"]), "16"]

    out = tmp_path / "eval"
    capsys.readouterr()
    assert main(["eval-words", "--model", str(words), "--data-dir", str(shared_data), "--output", str(out)]) == 0
    rows = list(csv.DictReader((out / "results.csv").open()))
    assert list(rows[0]) == ["dataset", "n", "spearman", "covered", "spearman_all"]
    assert {r["dataset"]: int(r["n"]) for r in rows} == {
        "men-tr-3k": 3000, "simlex-999": 999, "simverb-3500": 3500, "ws-353-all": 353, "ws-353-rel": 252,
        "ws-353-sim": 203}
    covered = {r["dataset"]: int(r["covered"]) for r in rows}
    assert 0 < covered["simlex-999"] < 999 and 0 < covered["men-tr-3k"] < 3000, "a small lexicon covers a few pairs"
    assert all(r["spearman"] == "" for r in rows if int(r["covered"]) < 3), "no rho from fewer than 3 pairs"
    assert len(capsys.readouterr().out.splitlines()) == 6

    sentences = tmp_path / "words.txt"
    sentences.write_text("man\nwoman\n")
    assert main(["encode", "--model", str(words), "--input", str(sentences), "--output", str(tmp_path / "v.npy")]) == 0
    assert np.load(tmp_path / "v.npy").shape == (2, 16)


def test_train_words_and_eval_words_user_mistakes(repo, tmp_path, capsys):
    lexicon = tmp_path / "lexicon"
    lexicon.mkdir()
    cases = [(["train-words", "--input", str(lexicon), "--output", str(tmp_path / "o")], "no lexicon-*.tsv"),
             (["train-words", "--input", str(tmp_path / "ppdb.txt"), "--output", str(tmp_path / "o")], "not found"),
             (["train-words", "--input", str(lexicon), "--output", str(tmp_path / "o"), "--batch-size", "1"],
              "batch_size"),
             (["eval-words", "--model", str(repo / "assets" / "encoder-sp"), "--data-dir", str(tmp_path),
               "--output", str(tmp_path / "o")], "no word-sim/ folder")]
    for args, message in cases:
        assert main(args) == 2
        err = capsys.readouterr().err
        assert message in err and len(err.splitlines()) == 1, err
