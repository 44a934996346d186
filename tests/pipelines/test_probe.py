"""`paranmt probe` as a user runs it, on 200 real paraphrase pairs and a few training steps: results.csv, folds by a
column, the plot, --resume, and one-line refusals (exit 2)."""
import csv

import pyarrow.parquet as pq
import pytest

from paranmt.models.scoring.overlap import trigram_overlap
from paranmt.models.training import probe
from paranmt.pipelines.cli import main
from paranmt.schemas.records import empty_row, pairs_to_table

TINY = ["--set", "train.dim=8", "--set", "train.max_steps=2", "--set", "train.batch_size=20"]


@pytest.fixture(scope="module")
def corpora(paraphrase_pairs, tmp_path_factory):
    """The 200 pairs as a Parquet corpus with their trigram_overlap, and as a TSV of pairs."""
    folder = tmp_path_factory.mktemp("corpora")
    rows = list(csv.DictReader(paraphrase_pairs.open(), delimiter="\t"))
    pq.write_table(pairs_to_table([dict(empty_row(f"p:{i}", "p", "", r["ref"]), bt=r["bt"],
                                        trigram_overlap=trigram_overlap(r["ref"], r["bt"]))
                                   for i, r in enumerate(rows)]), folder / "scored.parquet")
    (folder / "pairs.tsv").write_text("".join(f"{r['ref']}\t{r['bt']}\n" for r in rows[:150]))
    return folder


def results(output):
    with (output / "results.csv").open() as handle:
        return list(csv.DictReader(handle))


def test_probe_of_two_corpora_writes_results_plot_and_logs(corpora, shared_data, tmp_path, caplog):
    out = tmp_path / "probe"
    code = main(["probe", "--input", str(corpora / "scored.parquet"), str(corpora / "pairs.tsv"), "--output", str(out),
                 "--sts-dir", str(shared_data / "sts"), "--pairs", "100", "--models", "word", "trigram",
                 "--datasets", "STS2017/track5.en-en", "sts-dev", *TINY])
    assert code == 0
    assert (out / "results.csv").read_text().splitlines()[0] == "corpus,fold,model,pairs,dataset,pearson"
    rows = results(out)
    assert [(r["corpus"], r["fold"], r["model"], r["pairs"], r["dataset"]) for r in rows] == [
        (corpus, "all", model, "100", dataset) for corpus in ("scored", "pairs") for model in ("word", "trigram")
        for dataset in ("STS2017/track5.en-en", "stsbenchmark/sts-dev")]
    assert all(-1 <= float(r["pearson"]) <= 1 for r in rows)
    assert (out / "probe.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert sorted(p.name for p in (out / "runs").iterdir()) == ["pairs.all.trigram", "pairs.all.word",
                                                               "scored.all.trigram", "scored.all.word"]
    assert sorted(p.name for p in (out / "runs" / "pairs.all.word").iterdir()) == [
        "metrics.jsonl", "metrics.png", "train_config.json"], "the encoder dropped, its curves kept"
    assert (out / "runs" / "pairs.all.word" / "metrics.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    progress = [r.getMessage() for r in caplog.records if r.getMessage().startswith("probe run ")]
    assert len(progress) == 4 and progress[0].startswith("probe run 1/4: scored fold all word, 100 pairs: "
                                                         "STS2017/track5.en-en ")


def test_folds_by_a_column_and_resume_skips_the_runs_done(corpora, shared_data, tmp_path, monkeypatch):
    fits = []

    class CountingTrainer(probe.Trainer):
        def fit(self, pairs, resume=False):
            fits.append((self.config.encoder, len(pairs)))
            return super().fit(pairs, resume)

    monkeypatch.setattr(probe, "Trainer", CountingTrainer)
    out = tmp_path / "folds"
    args = ["probe", "--input", str(corpora / "scored.parquet"), "--output", str(out), "--sts-dir",
            str(shared_data / "sts"), "--by", "trigram_overlap", "--folds", "4", "--pairs", "30", *TINY]
    assert main([*args, "--models", "word"]) == 0
    assert [(r["fold"], r["model"], r["pairs"]) for r in results(out)] == [(str(i), "word", "30") for i in range(4)]
    assert fits == [("word", 30)] * 4
    first = (out / "results.csv").read_text()

    assert main([*args, "--models", "word", "trigram", "--resume"]) == 0        # word is done: only trigram runs
    assert fits[4:] == [("trigram", 30)] * 4
    assert (out / "results.csv").read_text().startswith(first)
    assert [(r["fold"], r["model"]) for r in results(out)][4:] == [(str(i), "trigram") for i in range(4)]
    assert main([*args, "--models", "word", "trigram", "--resume"]) == 0
    assert len(fits) == 8 and (out / "probe.png").is_file()


def test_folds_hold_the_pairs_of_their_part_of_the_ranking(corpora, shared_data, tmp_path, monkeypatch):
    seen = []

    class RecordingTrainer(probe.Trainer):
        def fit(self, pairs, resume=False):
            seen.append([trigram_overlap(*pair) for pair in pairs])
            return super().fit(pairs, resume)

    monkeypatch.setattr(probe, "Trainer", RecordingTrainer)
    assert main(["probe", "--input", str(corpora / "scored.parquet"), "--output", str(tmp_path / "o"), "--sts-dir",
                 str(shared_data / "sts"), "--by", "trigram_overlap", "--folds", "2", "--models", "word", *TINY]) == 0
    low, high = seen
    assert len(low) == len(high) == 100 and max(low) <= min(high)


@pytest.mark.parametrize("extra, message", [
    (["--input", "missing.tsv"], "not found"),
    (["--by", "trigram_overlap"], "file of pairs: it has no column trigram_overlap"),
    (["--folds", "3"], "folds needs by"),
    (["--models", "wrod"], "unknown encoder 'wrod'"),
    (["--set", "train.epoch=2"], "unknown probe config key 'train.epoch'"),
    (["--sts-dir", "no-sts-here"], "not found"),
])
def test_a_users_mistake_is_one_line_and_exit_2(corpora, shared_data, tmp_path, capsys, monkeypatch, extra, message):
    monkeypatch.chdir(tmp_path)
    code = main(["probe", "--input", str(corpora / "pairs.tsv"), "--output", "out", "--sts-dir",
                 str(shared_data / "sts"), *extra])
    error = capsys.readouterr().err
    assert code == 2 and message in error and error.startswith("paranmt probe: ") and len(error.splitlines()) == 1
    assert not (tmp_path / "out").exists()                          # refused before any work


def test_an_existing_results_csv_needs_resume_and_the_same_settings(corpora, shared_data, tmp_path, capsys):
    args = ["probe", "--input", str(corpora / "pairs.tsv"), "--output", str(tmp_path), "--sts-dir",
            str(shared_data / "sts"), "--models", "word", *TINY]
    assert main(args) == 0
    capsys.readouterr()
    assert main(args) == 2 and (f"--output {tmp_path} already holds an earlier probe (1 run(s) in results.csv); give "
                                "--resume to continue it or --overwrite to replace it") in capsys.readouterr().err
    assert main([*args, "--resume", "--pairs", "50"]) == 2
    assert "the config differs from the one that wrote" in capsys.readouterr().err
    assert main([*args, "--set", "train.dim=9", "--resume"]) == 2 and "train.dim: 8 -> 9" in capsys.readouterr().err
