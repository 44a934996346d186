"""Training inputs are read like build inputs (issue 47, item 4): a line that is not UTF-8, a blank line or a TSV line
without both columns is a reject counted under the build's reason, said on stderr and recorded in the run's
train_data.json, never a pair of U+FFFD characters; `--max-reject-rate` as in `paranmt build`; a file that is mostly
not UTF-8 stays refused in one line. Real bitext (../shared/data) with bytes of another encoding put in."""
import json

import pytest

from paranmt.models.pairs import read_pairs
from paranmt.pipelines.cli import main

LINES = 200


def in_latin1(line: str) -> bytes:
    """A SICK row with a non-ASCII word added to its first sentence, encoded in latin-1 (not UTF-8)."""
    fields = line.split("\t")
    fields[1] += " café"
    return "\t".join(fields).encode("latin-1")


@pytest.fixture
def moses(bitext, tmp_path):
    """200 real cs-en pairs as a Moses prefix whose Czech line 7 is in cp1250 and English line 12 in latin-1."""
    english = (bitext / "newssyscomb2009.eng").read_text(encoding="utf-8").splitlines()[:LINES]
    czech = (bitext / "newssyscomb2009.ces").read_text(encoding="utf-8").splitlines()[:LINES]
    assert any(c in czech[6] for c in "ěščřžýáíé") and "é" not in english[11]
    english[11] += " café"
    prefix = tmp_path / "news"
    prefix.with_suffix(".eng").write_bytes(b"".join(
        (line.encode("latin-1") if number == 12 else line.encode()) + b"\n" for number, line in enumerate(english, 1)))
    prefix.with_suffix(".ces").write_bytes(b"".join(
        (line.encode("cp1250") if number == 7 else line.encode()) + b"\n" for number, line in enumerate(czech, 1)))
    return prefix


@pytest.fixture
def pairs_tsv(bitext, tmp_path):
    """A TSV of the same 200 real pairs (English TAB Czech) with line 7 in cp1250, a blank line 50 and a line 90
    without its Czech column."""
    english = (bitext / "newssyscomb2009.eng").read_text(encoding="utf-8").splitlines()[:LINES]
    czech = (bitext / "newssyscomb2009.ces").read_text(encoding="utf-8").splitlines()[:LINES]
    lines = [f"{e}\t{c}".encode() for e, c in zip(english, czech)]
    lines[6] = f"{english[6]}\t{czech[6]}".encode("cp1250")
    lines[49] = b""
    lines[89] = english[89].encode()
    path = tmp_path / "pairs.tsv"
    path.write_bytes(b"\n".join(lines) + b"\n")
    return path


def test_lines_that_are_not_utf8_are_counted_rejects_not_replacement_characters(moses, pairs_tsv):
    pairs, counts = read_pairs([str(moses)])
    assert not any("\ufffd" in side for pair in pairs for side in pair)
    assert (counts.read, counts.kept, counts.rejects.by_reason) == (LINES, LINES - 2, {"read/invalid_utf8": 2})
    eng, ces = counts.rejects.advice()
    assert eng.startswith(f"1 of {LINES} lines are not UTF-8, the first at {moses}.eng line 12 (invalid UTF-8 at byte")
    assert ces.startswith(f"1 of {LINES} lines are not UTF-8, the first at {moses}.ces line 7 (invalid UTF-8 at byte")
    assert ces.endswith("they are rejects (read/invalid_utf8), the other lines were read")

    pairs, counts = read_pairs([str(pairs_tsv)])
    assert not any("\ufffd" in side for pair in pairs for side in pair)
    assert counts.rejects.by_reason == {"read/invalid_utf8": 1, "read/empty_line": 1, "read/wrong_column_count": 1}
    assert (counts.read, counts.kept) == (LINES, LINES - 3)


def test_train_says_and_records_its_rejects(moses, tmp_path, capsys):
    out = tmp_path / "model"
    assert main(["train", "--train", str(moses), "--encoder", "word", "--dim", "8", "--epochs", "0",
                 "--output", str(out)]) == 0
    err = [line for line in capsys.readouterr().err.strip().splitlines() if line.startswith("paranmt train:")]
    assert len(err) == 3
    assert err[0].startswith(f"paranmt train: 1 of {LINES} lines are not UTF-8, the first at {moses}.eng line 12 "
                             f"(invalid UTF-8 at byte ")
    assert err[1].startswith(f"paranmt train: 1 of {LINES} lines are not UTF-8, the first at {moses}.ces line 7 "
                             f"(invalid UTF-8 at byte ")
    assert err[2] == (f"paranmt train: 2 of {LINES} input records were rejected (read/invalid_utf8 2); counted in "
                      f"{out / 'train_data.json'}")
    record = json.loads((out / "train_data.json").read_text())
    assert (record["read"], record["kept"], record["rejected"]) == (LINES, LINES - 2, {"read/invalid_utf8": 2})
    assert len(record["not_utf8"]) == 2


def test_max_reject_rate_stops_a_trainer_before_training_exit_1(moses, pairs_tsv, repo, tmp_path, capsys):
    assert main(["train", "--train", str(pairs_tsv), "--encoder", "word", "--dim", "8", "--epochs", "0",
                 "--output", str(tmp_path / "a"), "--max-reject-rate", "0.01"]) == 1
    assert capsys.readouterr().err.strip().splitlines()[-1] == \
        "paranmt train: reject rate 1.5% > --max-reject-rate 1.0%"
    assert not (tmp_path / "a" / "config.json").exists()
    assert main(["train", "--train", str(pairs_tsv), "--encoder", "word", "--dim", "8", "--epochs", "0",
                 "--output", str(tmp_path / "b"), "--max-reject-rate", "0.02"]) == 0
    assert (tmp_path / "b" / "config.json").is_file()
    capsys.readouterr()
    assert main(["train-bgt", "--train", str(moses), "--output", str(tmp_path / "bgt"), "--sp-model",
                 str(repo / "assets/nmt-cs-en/spm.model"), "--dim", "16", "--latent", "8", "--encoder-layers", "1",
                 "--max-tokens", "600", "--max-steps", "1", "--device", "cpu", "--max-reject-rate", "0"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-2:] == [f"paranmt train-bgt: 2 of {LINES} input records were rejected (read/invalid_utf8 2); counted "
                        f"in {tmp_path / 'bgt' / 'train_data.json'}",
                        "paranmt train-bgt: reject rate 1.0% > --max-reject-rate 0.0%"]
    assert main(["train", "--train", str(moses), "--output", str(tmp_path / "c"), "--max-reject-rate", "5"]) == 2
    assert capsys.readouterr().err.strip() == \
        "paranmt train: configuration error: --max-reject-rate must be between 0 and 1"


def test_a_file_mostly_not_utf8_is_still_refused_in_one_line(moses, tmp_path, capsys):
    utf16 = tmp_path / "utf16.eng"
    utf16.write_bytes(moses.with_suffix(".eng").read_bytes().decode("latin-1").encode("utf-16"))
    utf16.with_suffix(".ces").write_bytes(moses.with_suffix(".ces").read_bytes())
    assert main(["train", "--train", str(tmp_path / "utf16"), "--encoder", "word", "--epochs", "0",
                 "--output", str(tmp_path / "m")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"training input {utf16} is not UTF-8 text" in err[0]


def test_probe_says_records_and_limits_its_rejects(moses, pairs_tsv, shared_data, tmp_path, capsys):
    out = tmp_path / "probe"
    argv = ["probe", "--input", str(moses), str(pairs_tsv), "--output", str(out), "--sts-dir", str(shared_data / "sts"),
            "--pairs", "50", "--models", "word", "--datasets", "STS2017/track5.en-en", "--set", "train.dim=8",
            "--set", "train.max_steps=1", "--set", "train.batch_size=20"]
    assert main([*argv, "--max-reject-rate", "0.01"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-2:] == [f"paranmt probe: 5 of {2 * LINES} input records were rejected (read/empty_line 1, "
                        f"read/invalid_utf8 3, read/wrong_column_count 1); counted in {out / 'train_data.json'}",
                        "paranmt probe: reject rate 1.2% > --max-reject-rate 1.0%"]
    assert [line.split(" lines are not UTF-8")[0] for line in err[:3]] == ["paranmt probe: 1 of 200"] * 3
    assert not (out / "results.csv").exists()
    corpora = json.loads((out / "train_data.json").read_text())["corpora"]
    assert {name: record["rejected"] for name, record in corpora.items()} == {
        "news": {"read/invalid_utf8": 2},
        "pairs": {"read/invalid_utf8": 1, "read/empty_line": 1, "read/wrong_column_count": 1}}
    assert main(argv) == 0 and len((out / "results.csv").read_text().splitlines()) == 3


def test_train_paraphraser_says_records_and_limits_its_rejects(pairs_tsv, bitext, tmp_path, capsys):
    sentences = tmp_path / "sentences.txt"
    czech = (bitext / "newssyscomb2009.ces").read_text(encoding="utf-8").splitlines()[:20]
    sentences.write_bytes(b"".join((line.encode("cp1250") if number == 3 else line.encode()) + b"\n"
                                   for number, line in enumerate(czech, 1)))
    out = tmp_path / "plain"
    argv = ["train-paraphraser", "--input", str(pairs_tsv), "--sentences", str(sentences), "--output", str(out),
            "--task", "plain", "--vocab-size", "500", "--embed-dim", "8", "--hidden", "16", "--max-steps", "1",
            "--batch-size", "8", "--device", "cpu"]
    assert main([*argv, "--max-reject-rate", "0.01"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err[0].startswith(f"paranmt train-paraphraser: 1 of {LINES} lines are not UTF-8, the first at {pairs_tsv} "
                             "line 7 (invalid UTF-8 at byte ")
    assert err[-2:] == [f"paranmt train-paraphraser: 4 of {LINES + 20} input records were rejected (read/empty_line 1, "
                        f"read/invalid_utf8 2, read/wrong_column_count 1); counted in {out / 'train_data.json'}",
                        "paranmt train-paraphraser: reject rate 2.3% > --max-reject-rate 1.0%"]   # and 1 too_long
    record = json.loads((out / "train_data.json").read_text())
    assert record["rejected"] == {"read/invalid_utf8": 2, "read/empty_line": 1, "read/wrong_column_count": 1}
    assert record["data"]["pairs"] == {"read": LINES - 3, "instances": LINES - 4, "skipped": {"too_long": 1}}
    assert record["data"]["sentences"]["read"] == 19
    assert not (out / "checkpoint").exists()
    assert main(argv) == 0 and (out / "paraphraser.json").is_file()


def test_finetune_sts_says_records_and_limits_its_rejects(repo, shared_data, tmp_path, capsys):
    """SICK with a latin-1 line in its training file: the pair is a reject, not a pair of U+FFFD sentences."""
    sick = tmp_path / "data" / "sts" / "SICK"
    sick.mkdir(parents=True)
    for name in ("SICK_train.txt", "SICK_trial.txt", "SICK_test_annotated.txt"):
        lines = (shared_data / "sts" / "SICK" / name).read_text(encoding="utf-8").splitlines()[:101]
        raw = [line.encode() for line in lines]
        if name == "SICK_train.txt":
            raw[5] = in_latin1(lines[5])
        (sick / name).write_bytes(b"\n".join(raw) + b"\n")
    out = tmp_path / "tuned"
    argv = ["finetune-sts", "--model", str(repo / "assets" / "encoder-sp"), "--task", "sick-r", "--data-dir",
            str(tmp_path / "data"), "--output", str(out), "--epochs", "1"]
    assert main([*argv, "--max-reject-rate", "0.001"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err[0].startswith(f"paranmt finetune-sts: 1 of 101 lines are not UTF-8, the first at {sick / 'SICK_train.txt'}"
                             " line 6 (invalid UTF-8 at byte ")
    assert err[1:] == [f"paranmt finetune-sts: 1 of 300 input records were rejected (read/invalid_utf8 1); counted in "
                       f"{out / 'report.json'}", "paranmt finetune-sts: reject rate 0.3% > --max-reject-rate 0.1%"]
    assert main(argv) == 0
    report = json.loads((out / "report.json").read_text())
    assert report["rejected"] == {"read/invalid_utf8": 1} and report["datasets"]["train"]["pairs"] == 99


def test_an_sts_line_that_is_not_utf8_is_left_out_and_named_not_scored_as_replacement_characters(shared_data, tmp_path):
    from paranmt.models.encoding import LineRejects
    from paranmt.models.evaluation.sts import discover_datasets

    source = shared_data / "sts" / "STS2017"
    copy = tmp_path / "sts" / "STS2017"
    for folder in ("STS2017.eval.v1.1", "STS2017.gs"):
        (copy / folder).mkdir(parents=True)
    lines = (source / "STS2017.eval.v1.1" / "STS.input.track5.en-en.txt").read_text(encoding="utf-8").splitlines()
    raw = [line.encode() for line in lines]
    raw[2] = (lines[2] + " naïve").encode("latin-1")
    (copy / "STS2017.eval.v1.1" / "STS.input.track5.en-en.txt").write_bytes(b"\n".join(raw) + b"\n")
    gold = source / "STS2017.gs" / "STS.gs.track5.en-en.txt"
    (copy / "STS2017.gs" / gold.name).write_bytes(gold.read_bytes())
    rejects = LineRejects()
    [dataset], skipped = discover_datasets(tmp_path / "sts", ["track5.en-en"], rejects)
    assert len(dataset.gold) == len(lines) - 1 and not any("\ufffd" in s for s in dataset.s1 + dataset.s2)
    assert rejects.by_reason == {"read/invalid_utf8": 1}
    assert skipped[0].startswith(f"1 of {len(lines)} lines are not UTF-8, the first at "
                                 f"{copy / 'STS2017.eval.v1.1' / 'STS.input.track5.en-en.txt'} line 3 (")


def test_paraphrase_data_says_records_and_limits_its_rejects(tiny_data_folder, tmp_path, capsys):
    """The tiny ../shared/data copy with a SICK pair in latin-1 and an MRPC row cut short."""
    import shutil

    data = tmp_path / "data"
    shutil.copytree(tiny_data_folder, data)
    sick, mrpc = data / "sts" / "SICK" / "SICK_train.txt", data / "transfer" / "mrpc-msr-para-train.tsv"
    lines = sick.read_text(encoding="utf-8").splitlines()
    sick.write_bytes(b"\n".join([line.encode() for line in lines[:-1]] + [
        in_latin1(lines[-1])]) + b"\n")
    rows = mrpc.read_text(encoding="utf-8").splitlines()
    mrpc.write_text("\n".join(rows[:-1] + ["\t".join(rows[-1].split("\t")[:4])]) + "\n", encoding="utf-8")
    out = tmp_path / "out"
    assert main(["paraphrase-data", "--data", str(data), "--output", str(out), "--max-reject-rate", "0.01"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err[0].startswith(f"paranmt paraphrase-data: 1 of {len(lines)} lines are not UTF-8, the first at {sick} "
                             f"line {len(lines)} (invalid UTF-8 at byte ")
    assert err[1].startswith("paranmt paraphrase-data: 2 of ") and err[1].endswith(
        f" input records were rejected (read/invalid_utf8 1, read/wrong_column_count 1); counted in "
        f"{out / 'paraphrase_data.json'}")
    assert err[2].startswith("paranmt paraphrase-data: reject rate ") and len(err) == 3
    assert main(["paraphrase-data", "--data", str(data), "--output", str(out)]) == 0
    summary = json.loads((out / "paraphrase_data.json").read_text())
    assert summary["rejected"] == {"read/invalid_utf8": 1, "read/wrong_column_count": 1}
    assert summary["counts"]["pairs_train"] + summary["counts"]["pairs_held_out"] == 7     # of 9: 1 SICK, 1 MRPC lost


def test_a_word_vector_line_that_is_not_utf8_is_left_out_with_a_warning(tmp_path, caplog):
    from paranmt.models.encoders.word_vectors import read_word_vectors

    vectors = tmp_path / "vectors.txt"
    vectors.write_bytes("3 2\ncar 1 2\n".encode() + "café 3 4\n".encode("latin-1") + "naïve 5 6\n".encode())
    found, dim = read_word_vectors(vectors, {"car", "caf\ufffd", "naïve"})
    assert dim == 2 and sorted(found) == ["car", "naïve"]
    assert f"word-vector file: 1 of 4 lines are not UTF-8, the first at {vectors} line 3 (" in caplog.text


def test_train_nmt_data_step_counts_lines_that_are_not_utf8_instead_of_training_on_them(moses, pairs_tsv, bitext,
                                                                                         tmp_path):
    from paranmt.models.nmt.recipe import RecipeConfig, RecipeData, prepare_data

    valid = "multi30k_test_2016_flickr"
    config = RecipeConfig(data=RecipeData(inputs=[str(moses.with_suffix(".ces")), str(bitext / f"{valid}.ces")],
                                          suffixes=["ces", "eng"], valid=valid, valid_lines=20))
    stats = prepare_data(config, tmp_path / "moses")
    assert stats["rejected"] == {"read/invalid_utf8": 2} and stats["train"] == LINES - 2
    assert stats["not_utf8"][0].startswith(f"1 of {LINES} lines are not UTF-8, the first at {moses}.ces line 7 (")
    (tmp_path / "valid.tsv").write_text("Hello .\tAhoj .\n" * 30, encoding="utf-8")
    config = RecipeConfig(data=RecipeData(format="tsv", inputs=[str(pairs_tsv), str(tmp_path / "valid.tsv")],
                                          valid="valid", valid_lines=20))
    stats = prepare_data(config, tmp_path / "tsv")
    assert stats["rejected"] == {"read/invalid_utf8": 1, "read/empty_line": 1, "read/wrong_column_count": 1}
    for folder in ("moses", "tsv"):
        assert not any("\ufffd" in file.read_text() for file in (tmp_path / folder).iterdir())
