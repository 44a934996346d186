"""What a new user meets first: the whole pipeline by default, an output directory every tool loads as it is,
v1 shards still readable, clear words on wrong encodings and extra TSV columns, and the xsim threshold."""
import json
import random

import datasets
import duckdb
import pandas as pd
import polars as pl
import pyarrow as pa
import pyarrow.dataset as ds
import pyarrow.parquet as pq
import pytest

from paranmt.pipelines.cli import main
from paranmt.schemas.records import PAIR_SCHEMA, SOURCE_SCORES_TYPE, table_to_pairs, upgrade_table

# one process: what these tests check is what the commands write, the same with the default mode's worker processes
LOCAL = ["--runner=DirectRunner", "--direct_running_mode=in_memory", "--direct_num_workers=1"]


def build(*args):
    return main(["build", *map(str, args)])


def head_pairs(sample_dir, target, n, name="tatoeba-head"):
    target.mkdir(parents=True, exist_ok=True)
    for side in ("cs", "en"):
        lines = (sample_dir / f"tatoeba-every13th.{side}").read_text(encoding="utf-8").splitlines()[:n]
        (target / f"{name}.{side}").write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return target


@pytest.fixture(scope="module")
def full_build(tmp_path_factory, sample_dir):
    """A build with no --stages and no --config, as the README's first example runs it."""
    root = tmp_path_factory.mktemp("default-build")
    source = head_pairs(sample_dir, root / "in", 24)
    out = root / "out"
    assert build("--input", source / "*", "--format", "moses", "--output", out,
                 "--set", "translate.threads=1", *LOCAL) == 0
    return out


def test_default_build_runs_every_stage_and_says_so(full_build):
    frame = pd.read_parquet(full_build)
    assert len(frame) == 24
    for column in ("xsim", "bt", "bt_score", "trigram_overlap", "para_score", "simile", "bt_repetition",
                   "unigram_f1", "cs_lang", "ref_lang_conf", "bt_lang", "ref_parse", "bt_template"):
        assert frame[column].notna().all(), column
    config = json.loads(json.dumps(pd.read_json(full_build / "__paranmt__" / "manifest.json", typ="series")["stages"]))
    assert config == ["read", "clean", "xsim", "translate", "score", "parse"]


def test_build_output_loads_as_it_is_in_every_tool(full_build):
    """pandas, pyarrow.dataset, Polars, DuckDB and Hugging Face datasets read DIR as the pair rows alone: the
    rejects and side files are in `__paranmt__/`, and source_scores is a type datasets knows."""
    assert [p.name for p in full_build.iterdir() if not p.name.endswith(".parquet")] == ["__paranmt__"]
    assert sorted(p.name for p in (full_build / "__paranmt__").iterdir()) == [
        "config.yaml", "manifest.json", "metrics.json", "rejects", "workers.log"]
    assert len(pd.read_parquet(full_build)) == 24
    assert ds.dataset(full_build, format="parquet").schema.remove_metadata().equals(PAIR_SCHEMA)
    assert ds.dataset(full_build, format="parquet").count_rows() == 24
    assert pl.read_parquet(full_build / "*.parquet").height == 24
    assert duckdb.sql(f"select count(*) from '{full_build}/*.parquet'").fetchall()[0][0] == 24
    loaded = datasets.load_dataset("parquet", data_dir=str(full_build), split="train",
                                   cache_dir=str(full_build.parent / "hf-cache"))
    assert loaded.num_rows == 24 and loaded[0]["bt"] and "source_scores" in loaded.column_names


def test_v1_shards_are_read_as_v2(tmp_path, sample_dir):
    """A shard written by schema v1 (map source_scores, no signal columns) upgrades on read: filter, stats, export
    and `build --format shards` take it."""
    rows = [dict(r, source_scores={"adq_score": 0.5 + i / 100}) for i, r in enumerate(table_to_pairs(
        pq.read_table(build_small(tmp_path, sample_dir))))]
    v1_schema = pa.schema([f for f in PAIR_SCHEMA if f.name not in V2_ONLY]).set(
        PAIR_SCHEMA.names.index("source_scores") - len(V2_ONLY),
        pa.field("source_scores", pa.map_(pa.string(), pa.float32())))
    v1 = pa.Table.from_pylist([{k: (list(v.items()) if k == "source_scores" else v) for k, v in r.items()
                                if k in v1_schema.names} for r in rows], schema=v1_schema)
    old = tmp_path / "v1"
    old.mkdir()
    pq.write_table(v1, old / "part-00000.parquet")
    upgraded = upgrade_table(pq.read_table(old / "part-00000.parquet"))
    assert upgraded.schema.equals(PAIR_SCHEMA)
    assert upgraded.column("source_scores").type == SOURCE_SCORES_TYPE
    assert table_to_pairs(upgraded)[3]["source_scores"] == pytest.approx({"adq_score": 0.53})
    assert main(["filter", "--input", str(old), "--output", str(tmp_path / "f"), "--set", "sample=1000"]) == 0
    assert main(["stats", "--input", str(old), "--output", str(tmp_path / "s"), *LOCAL]) == 0
    assert main(["export", "--format", "hf", "--input", str(old), "--output", str(tmp_path / "hf"), *LOCAL]) == 0
    assert build("--input", old, "--format", "shards", "--output", tmp_path / "b", "--stages", "clean", *LOCAL) == 0
    rebuilt = pq.read_table(tmp_path / "b" / "part-00000.parquet")
    assert rebuilt.schema.remove_metadata().equals(PAIR_SCHEMA) and rebuilt.num_rows == len(rows)


V2_ONLY = ("xsim", "simile", "bt_repetition", "unigram_f1", "kendall_tau", "cs_lang", "cs_lang_conf", "ref_lang",
           "ref_lang_conf", "bt_lang", "bt_lang_conf")


def build_small(tmp_path, sample_dir):
    out = tmp_path / "small"
    assert build("--input", head_pairs(sample_dir, tmp_path / "in", 30) / "*", "--format", "moses", "--output",
                 out, "--stages", "read,clean", *LOCAL) == 0
    return out / "tatoeba-head.00000.parquet"


def test_input_in_a_legacy_encoding_gets_one_hint(tmp_path, bitext, capsys):
    cs = (bitext / "newstest2015.ces").read_text(encoding="utf-8").splitlines()[:50]
    en = (bitext / "newstest2015.eng").read_text(encoding="utf-8").splitlines()[:50]
    (tmp_path / "cp1250.tsv").write_bytes("".join(f"{c}\t{e}\n" for c, e in zip(cs, en))
                                          .encode("cp1250", "replace"))
    assert build("--input", tmp_path / "cp1250.tsv", "--format", "tsv", "--output", tmp_path / "o",
                 "--stages", "read", *LOCAL) == 0
    err = capsys.readouterr().err
    assert "not UTF-8" in err and "looks like cp1250" in err and "iconv -f cp1250 -t UTF-8" in err
    rejects = pd.read_parquet(tmp_path / "o" / "__paranmt__" / "rejects")
    assert (rejects["reason"] == "invalid_utf8").sum() >= 40


def test_tsv_lines_with_extra_columns_are_counted_or_rejected(tmp_path, capsys):
    lines = [f"věta {i}\tsentence {i}" + ("\tstray" if i % 4 == 0 else "") for i in range(40)]
    (tmp_path / "in.tsv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    args = ["--input", tmp_path / "in.tsv", "--format", "tsv", "--stages", "read", *LOCAL]
    assert build(*args, "--output", tmp_path / "a") == 0
    out = capsys.readouterr().out
    assert "read 40 = written 40 + rejected 0" in out and "10 TSV line(s) had more columns" in out
    assert build(*args, "--output", tmp_path / "b", "--strict-columns") == 0
    out = capsys.readouterr().out
    assert "read 40 = written 30 + rejected 10" in out and "rejected read/extra_columns: 10" in out


def test_min_xsim_rejects_planted_misaligned_pairs(tmp_path, bitext):
    """Shuffle the English side of 10% of 400 real newstest pairs: xsim.min_xsim (the threshold docs/mining.md
    recommends) rejects most of them as `low_xsim`, with the value kept in the reject row, and few good pairs."""
    cs = (bitext / "newstest2016.ces").read_text(encoding="utf-8").splitlines()[:400]
    en = (bitext / "newstest2016.eng").read_text(encoding="utf-8").splitlines()[:400]
    rng = random.Random(7)
    planted = sorted(rng.sample(range(400), 40))
    moved = planted[1:] + planted[:1]
    shuffled = list(en)
    for i, j in zip(planted, moved):
        shuffled[i] = en[j]
    (tmp_path / "in.tsv").write_text("".join(f"{c}\t{e}\n" for c, e in zip(cs, shuffled)), encoding="utf-8")
    assert build("--input", tmp_path / "in.tsv", "--format", "tsv", "--output", tmp_path / "o",
                 "--stages", "read,clean,xsim", "--set", f"xsim.min_xsim={MIN_XSIM}", *LOCAL) == 0
    rejects = pd.read_parquet(tmp_path / "o" / "__paranmt__" / "rejects")
    low = rejects[rejects["reason"] == "low_xsim"]
    line = lambda ids: {int(i.rsplit(":", 1)[1]) - 1 for i in ids}  # noqa: E731
    caught, other = line(low["id"]), line(rejects[rejects["reason"] != "low_xsim"]["id"])
    reaching = set(planted) - other            # planted pairs that clean let through to the xsim stage
    recall = len(caught & reaching) / len(reaching)
    precision = len(caught & reaching) / max(len(caught), 1)
    print(f"min_xsim={MIN_XSIM}: recall {recall:.3f}, precision {precision:.3f}")
    assert recall >= 0.85 and precision >= 0.75, (recall, precision)
    assert low["detail"].str.contains("xsim=").all()
    kept = pd.read_parquet(tmp_path / "o")
    assert kept["xsim"].notna().all() and (kept["xsim"] >= MIN_XSIM).all()


MIN_XSIM = 0.2


def test_a_missing_shipped_model_names_the_key_and_the_way_out(tmp_path, sample_dir, capsys):
    """A pip-installed copy has no assets/: the default stages' error says which key to set or which stages."""
    assert build("--input", sample_dir / "tatoeba*", "--format", "moses", "--output", tmp_path / "o",
                 "--set", "xsim.encoder=assets/not-shipped") == 2
    err = capsys.readouterr().err
    assert "stage 'xsim': model assets/not-shipped does not exist" in err
    assert "--set xsim.encoder=DIR" in err and "--stages read,clean" in err


def newstest_tsv(bitext, path, n, edit=None):
    """The first `n` newstest2015 pairs as TSV bytes; `edit(index, line_bytes)` may replace a line."""
    cs = (bitext / "newstest2015.ces").read_text(encoding="utf-8").splitlines()[:n]
    en = (bitext / "newstest2015.eng").read_text(encoding="utf-8").splitlines()[:n]
    lines = [f"{c}\t{e}".encode() for c, e in zip(cs, en)]
    path.write_bytes(b"".join((edit(i, line) if edit else line) + b"\n" for i, line in enumerate(lines)))
    return path


def test_one_bad_line_in_a_utf8_file_is_named_not_blamed_on_an_encoding(tmp_path, bitext, capsys):
    """Issue 24 item 2: a UTF-8 file with one bad line of 308 (UTF-16-looking bytes in line 57) gets no `iconv`
    advice (it would garble the 307 good lines): one line names the bad line; the reject's detail says where."""
    source = newstest_tsv(bitext, tmp_path / "in.tsv", 308,
                          lambda i, line: "Ahoj\tHello".encode("utf-16") if i == 56 else line)
    assert build("--input", source, "--format", "tsv", "--output", tmp_path / "o", "--stages", "read", *LOCAL) == 0
    out, err = capsys.readouterr()
    assert "read 308 = written 307 + rejected 1" in out
    hints = [line for line in err.splitlines() if "UTF-8" in line]
    assert hints == [hints[0]] and "1 of 308 lines are not UTF-8, the first at in.tsv line 57" in hints[0]
    assert "iconv" not in err and "looks like" not in err
    rejects = pd.read_parquet(tmp_path / "o" / "__paranmt__" / "rejects")
    assert rejects["detail"].tolist()[0].startswith("in.tsv line 57: invalid UTF-8 at byte ")


def test_reject_files_stay_out_of_recursive_parquet_globs(tmp_path, bitext):
    """Issue 24 item 7: DuckDB and Polars globs `DIR/**/*.parquet` read the 300 pair rows of a build with 8 rejects
    (not 308 rows of two schemas), and the rejects still read with one call in pandas, DuckDB and Polars."""
    source = newstest_tsv(bitext, tmp_path / "in.tsv", 308, lambda i, line: b"no tab here" if i % 38 == 5 else line)
    out = tmp_path / "o"
    assert build("--input", source, "--format", "tsv", "--output", out, "--stages", "read", *LOCAL) == 0
    glob = f"{out}/**/*.parquet"
    assert duckdb.sql(f"select count(*) from '{glob}'").fetchall()[0][0] == 300
    assert duckdb.sql(f"select count(distinct cs) from '{glob}'").fetchall()[0][0] == 300
    frame = pl.read_parquet(glob)
    assert frame.shape[0] == 300 and frame["ref"].null_count() == 0
    side = out / "__paranmt__" / "rejects"
    assert [p.name for p in side.iterdir()] == ["in.tsv.00000.pq"]
    assert len(pd.read_parquet(side)) == 8
    assert duckdb.sql(f"select count(*) from read_parquet('{side}/*.pq')").fetchall()[0][0] == 8
    assert pl.read_parquet(f"{side}/*.pq")["reason"].to_list() == ["wrong_column_count"] * 8


def test_reject_files_of_earlier_layouts_are_still_read(tmp_path, bitext, capsys):
    """Outputs of earlier versions named reject files `*.parquet` (in `__paranmt__/rejects/`, or `rejects/` beside
    the shards): they are listed with the current ones, and filter/stats/export still read such a directory."""
    from paranmt.transforms.shards import reject_files

    source = newstest_tsv(bitext, tmp_path / "in.tsv", 308,
                          lambda i, line: line[:20] + b"\xe8" + line[20:] if i in (3, 7) else line)
    out = tmp_path / "o"
    assert build("--input", source, "--format", "tsv", "--output", out, "--stages", "read,clean", *LOCAL) == 0
    current = out / "__paranmt__" / "rejects" / "in.tsv.00000.pq"
    current.rename(current.with_suffix(".parquet"))                 # as layout 2 wrote it
    assert [p.rsplit("/", 1)[1] for p in reject_files(str(out))] == ["in.tsv.00000.parquet"]
    assert len(pd.read_parquet(out / "__paranmt__" / "rejects")) == 2
    legacy = out / "rejects"                                        # layout 1
    (out / "__paranmt__" / "rejects").rename(legacy)
    assert [p.rsplit("/", 1)[1] for p in reject_files(str(out))] == ["in.tsv.00000.parquet"]
    assert main(["stats", "--input", str(out), "--output", str(tmp_path / "stats"), *LOCAL]) == 0
    assert main(["export", "--input", str(out), "--format", "hf", "--output", str(tmp_path / "hf"), *LOCAL]) == 0
    assert len(pd.read_parquet(tmp_path / "hf" / "data")) == 306
