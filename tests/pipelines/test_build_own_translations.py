"""`paranmt build` with the user's own translations (bring your own translations, docs/translate.md), on real rows
of ../shared/data/wmt-bt: rows with a bt skip translation, the others are translated, and the manifest says where
each bt came from."""
import gzip
import json

import pandas as pd
import pytest

from paranmt.models.text.tokenize import length_column
from paranmt.pipelines.cli import main

NAMED = "id=id,cs=source,ref=ref,bt=bt"


def build(*args):
    """`paranmt build ARGS` in one process (`--direct_running_mode in_memory`): what is tested here is what the
    stages write, the same with the worker processes of the default mode."""
    return main(["build", *map(str, args), "--direct_running_mode", "in_memory"])


@pytest.fixture(scope="module")
def wmt_tsv(shared_data, tmp_path_factory):
    """A gzip TSV like the wmt-bt files: the header and 24 records of WMT22 cs-en, every third one's bt emptied."""
    with gzip.open(shared_data / "wmt-bt" / "wmt22.cs-en.tsv.gz", "rt", encoding="utf-8") as handle:
        lines = [next(handle).rstrip("\n") for _ in range(25)]
    records = [line.split("\t") for line in lines[1:]]
    for i, fields in enumerate(records):
        if i % 3 == 2:
            fields[4] = ""
    path = tmp_path_factory.mktemp("wmt") / "wmt22.cs-en.tsv.gz"
    with gzip.open(path, "wt", encoding="utf-8") as handle:
        handle.write("\n".join([lines[0]] + ["\t".join(f) for f in records]) + "\n")
    return path


def test_rows_with_a_bt_skip_translation_and_the_manifest_counts_both(tmp_path, wmt_tsv, repo, capsys):
    out = tmp_path / "out"
    assert build("--input", wmt_tsv, "--format", "tsv", "--columns", NAMED, "--output", out,
                 "--stages", "read,clean,translate", "--set", f"translate.model={repo / 'tests/fixtures/nmt-tiny'}",
                 "--set", "translate.beam=2", "--set", "translate.threads=1") == 0
    printed = capsys.readouterr().out
    assert "read 24 = written 24 + rejected 0" in printed and "bt of the written rows: 16 from the input, " \
                                                               "8 from translate" in printed
    rows = pd.read_parquet(out).set_index("id")
    source = pd.read_csv(wmt_tsv, sep="\t", keep_default_na=False, quoting=3).set_index("id")
    given = source["bt"] != ""
    assert (rows.loc[given[given].index, "bt"] == source.loc[given, "bt"]).all()
    assert (rows.loc[given[given].index, "bt_source"] == "input").all()
    assert rows.loc[given[given].index, "bt_score"].isna().all()
    translated = rows.loc[given[~given].index]
    assert (translated["bt_source"] == "translate").all() and (translated["bt_score"] < 0).all()
    assert all(rows["bt_len"] == [length_column(bt) for bt in rows["bt"]])
    manifest = json.loads((out / "__paranmt__" / "manifest.json").read_text())
    assert manifest["bt_sources"] == {"input": 16, "translate": 8}
    metrics = json.loads((out / "__paranmt__" / "metrics.json").read_text())
    assert metrics["beam_counters"]["translate/given"] == 16 and metrics["beam_counters"]["translate/sentences"] == 8


def test_numbered_columns_with_header_flag(tmp_path, wmt_tsv):
    out = tmp_path / "out"
    assert build("--input", wmt_tsv, "--format", "tsv", "--columns", "cs=2,ref=3,bt=4,src_lang=1", "--header",
                 "--output", out, "--stages", "read") == 0
    rows = pd.read_parquet(out)
    assert len(rows) == 24 and rows["id"].iloc[0] == "wmt22:wmt22.cs-en.tsv.gz:2"
    assert (rows["src_lang"] == "cs").all() and rows["bt"].notna().sum() == 16


def test_a_missing_header_column_is_one_line_exit_2(tmp_path, wmt_tsv, capsys):
    assert build("--input", wmt_tsv, "--format", "tsv", "--columns", "cs=source,ref=reference", "--output",
                 tmp_path / "out", "--stages", "read") == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "the header line has no column 'reference' (read.columns.ref)" in err[0]
    assert not (tmp_path / "out").exists()


@pytest.fixture(scope="module")
def german_jsonl(shared_data, tmp_path_factory):
    """10 WMT21 de-en records (with their system outputs as bt) as JSON lines, under the file's own names."""
    with gzip.open(shared_data / "wmt-bt" / "wmt21.de-en.tsv.gz", "rt", encoding="utf-8") as handle:
        head, *records = [next(handle).rstrip("\n").split("\t") for _ in range(11)]
    path = tmp_path_factory.mktemp("de") / "wmt21.de-en.jsonl"
    path.write_text("".join(json.dumps(dict(zip(head, r)), ensure_ascii=False) + "\n" for r in records),
                    encoding="utf-8")
    return path


def test_a_german_source_builds_with_xsim_left_out(tmp_path, german_jsonl, capsys):
    out = tmp_path / "out"
    assert build("--input", german_jsonl, "--format", "jsonl", "--columns", "cs=source", "--set", "source_lang=de",
                 "--output", out, "--stages", "read,clean,score") == 0
    assert "read 10 = written 10 + rejected 0" in capsys.readouterr().out
    rows = pd.read_parquet(out)
    assert (rows["src_lang"] == "de").all() and (rows["bt_source"] == "input").all()
    assert rows["para_score"].notna().all() and rows["xsim"].isna().all()
    assert rows["cs_lang"].tolist().count("de") >= 8


def test_xsim_for_a_language_its_encoder_lacks_is_refused_in_one_line(tmp_path, german_jsonl, capsys):
    assert build("--input", german_jsonl, "--format", "jsonl", "--columns", "cs=source", "--set", "source_lang=de",
                 "--output", tmp_path / "out", "--stages", "read,clean,xsim,score") == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["paranmt build: configuration error: xsim.encoder: assets/encoder-xling encodes cs, en (its "
                   "MANIFEST.json), not source_lang de: leave xsim out (e.g. --stages read,clean,translate,score,"
                   "parse) or give an encoder for de (--set xsim.encoder=DIR)"]
    assert not (tmp_path / "out").exists()


def test_per_row_source_languages_with_xsim_score_only_the_covered_rows(tmp_path, wmt_tsv, german_jsonl, capsys):
    mixed = tmp_path / "mixed.tsv"
    czech = gzip.open(wmt_tsv, "rt", encoding="utf-8").read().splitlines()[:7]
    german = [json.loads(line) for line in german_jsonl.read_text(encoding="utf-8").splitlines()[:5]]
    mixed.write_text("\n".join(czech + ["\t".join(r.values()) for r in german]) + "\n", encoding="utf-8")
    out = tmp_path / "out"
    assert build("--input", mixed, "--format", "tsv", "--columns", NAMED + ",src_lang=src_lang", "--output", out,
                 "--stages", "read,clean,xsim") == 0
    assert "5 row(s) have a src_lang the xsim encoder does not cover: their xsim is null" in capsys.readouterr().out
    rows = pd.read_parquet(out)
    assert rows.groupby("src_lang")["xsim"].count().to_dict() == {"cs": 6, "de": 0}


@pytest.fixture(scope="module")
def declared_cs_de_en(repo, tmp_path_factory):
    """An encoder directory whose MANIFEST.json declares cs, de and en: the shipped cs-en weights with German added
    to the list (what is tested is what the build does with the languages an encoder declares)."""
    from paranmt.models.files import file_sha256

    folder = tmp_path_factory.mktemp("declared") / "encoder"
    folder.mkdir()
    files = []
    for name in ("config.json", "weights.npz", "sp.model"):
        (folder / name).write_bytes((repo / "assets" / "encoder-xling" / name).read_bytes())
        files.append({"path": name, "sha256": file_sha256(folder / name)})
    (folder / "MANIFEST.json").write_text(json.dumps({"languages": ["cs", "de", "en"], "files": files}))
    return folder


def test_an_encoder_declaring_several_languages_scores_each_of_their_rows(tmp_path, wmt_tsv, german_jsonl,
                                                                          declared_cs_de_en, shared_data, capsys):
    """A wmt-bt-style build (per-row src_lang) with xsim: rows in a declared language (cs, de) get an xsim, the
    Japanese rows a null one, counted per language in the build's line; no row is dropped."""
    with gzip.open(shared_data / "wmt-bt" / "wmt22.ja-en.tsv.gz", "rt", encoding="utf-8") as handle:
        japanese = [next(handle).rstrip("\n") for _ in range(5)][1:]
    czech = gzip.open(wmt_tsv, "rt", encoding="utf-8").read().splitlines()[:7]
    german = [json.loads(line) for line in german_jsonl.read_text(encoding="utf-8").splitlines()[:5]]
    mixed = tmp_path / "mixed.tsv"
    mixed.write_text("\n".join(czech + ["\t".join(r.values()) for r in german] + japanese) + "\n", encoding="utf-8")
    out = tmp_path / "out"
    assert build("--input", mixed, "--format", "tsv", "--columns", NAMED + ",src_lang=src_lang", "--output", out,
                 "--stages", "read,clean,xsim", "--set", f"xsim.encoder={declared_cs_de_en}",
                 "--set", "clean.max_length_ratio=0") == 0
    printed = capsys.readouterr().out
    assert "read 15 = written 15 + rejected 0" in printed
    assert "4 row(s) have a src_lang the xsim encoder does not cover: their xsim is null (ja 4)" in printed
    rows = pd.read_parquet(out)
    assert rows.groupby("src_lang")["xsim"].count().to_dict() == {"cs": 6, "de": 5, "ja": 0}
    metrics = json.loads((out / "__paranmt__" / "metrics.json").read_text())
    assert metrics["beam_counters"]["xsim/unsupported_language/ja"] == 4
