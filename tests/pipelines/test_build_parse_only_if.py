"""`parse.only_if` end to end: a build parses only the rows that satisfy it (the others: null parses,
`parse_skipped = only_if`), `paranmt stats` counts them, and `build --format shards --stages parse` parses them
later, keeping the parses already made; the outputs load in pandas, DuckDB and Polars."""
import json

import duckdb
import pandas as pd
import polars as pl
import pyarrow.parquet as pq

from paranmt.pipelines.cli import main
from paranmt.schemas.records import PAIR_SCHEMA

LOCAL = ["--runner=DirectRunner", "--direct_running_mode=in_memory", "--direct_num_workers=1"]
PARSE_COLUMNS = ["ref_parse", "ref_template", "bt_parse", "bt_template"]


def test_parse_only_if_then_parse_the_rest_later(tmp_path, sample_dir):
    cs = (sample_dir / "tatoeba-every13th.cs").read_text(encoding="utf-8").splitlines()[:16]
    en = (sample_dir / "tatoeba-every13th.en").read_text(encoding="utf-8").splitlines()[:16]
    bitext = tmp_path / "tatoeba.tsv"
    bitext.write_text("".join(f"{c}\t{e}\n" for c, e in zip(cs, en)), encoding="utf-8")
    first, second = tmp_path / "first", tmp_path / "second"
    assert main(["build", "--input", str(bitext), "--format", "tsv", "--output", str(first), "--stages",
                 "read,clean,parse", "--set", "parse.only_if=ref_len <= 6", *LOCAL]) == 0
    (shard,) = first.glob("*.parquet")
    rows = pd.read_parquet(shard)
    short = rows["ref_len"] <= 6
    assert 0 < short.sum() < len(rows) == 16
    assert rows.loc[short, "ref_template"].notna().all() and rows.loc[short, "parse_skipped"].isna().all()
    assert (rows.loc[~short, "parse_skipped"] == "only_if").all()
    assert rows.loc[~short, PARSE_COLUMNS].isna().all().all()
    counters = json.loads((first / "__paranmt__" / "metrics.json").read_text())["beam_counters"]
    assert counters["parse/rows_skipped_only_if"] == (~short).sum()
    assert pq.read_schema(shard).remove_metadata().equals(PAIR_SCHEMA)
    assert duckdb.sql(f"select count(*) from '{shard}' where parse_skipped = 'only_if'").fetchall()[0][0] \
        == (~short).sum()
    assert pl.read_parquet(shard).filter(pl.col("parse_skipped").is_null()).height == short.sum()

    assert main(["stats", "--input", str(first), "--output", str(tmp_path / "stats"), *LOCAL]) == 0
    parses = json.loads((tmp_path / "stats" / "stats.json").read_text())["corpora"]["tatoeba"]["parses"]
    assert parses == {"rows": 16, "ref_parsed": int(short.sum()), "skipped_only_if": int((~short).sum()),
                      "not_parsed_other": 0}
    report = (tmp_path / "stats" / "stats.md").read_text()
    assert f"| tatoeba | 16 | {short.sum()} | {(~short).sum()} | 0 |" in report

    assert main(["build", "--input", str(first), "--format", "shards", "--output", str(second), "--stages",
                 "parse", *LOCAL]) == 0
    later = pd.read_parquet(second / shard.name)
    assert later["ref_template"].notna().all() and later["parse_skipped"].isna().all()
    pd.testing.assert_frame_equal(later.loc[short, PARSE_COLUMNS], rows.loc[short, PARSE_COLUMNS])
    pd.testing.assert_frame_equal(later.drop(columns=PARSE_COLUMNS + ["parse_skipped"]),
                                  rows.drop(columns=PARSE_COLUMNS + ["parse_skipped"]))
    counters = json.loads((second / "__paranmt__" / "metrics.json").read_text())["beam_counters"]
    assert counters["parse/sides_kept"] == short.sum()                 # no bt: one side per row
    assert counters["parse/sentences"] == (~short).sum()               # only the skipped refs reach the parser
