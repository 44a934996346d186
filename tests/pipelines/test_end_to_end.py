"""The whole product on real data with the shipped models, run from the CLI as a user runs it: build with every
stage, then stats, the filter presets, the three exports and the lexicon over the resulting shards. The build and
stats run in their default mode (worker processes), the filters in theirs (one process); the exports and the
lexicon run in one process too (IN_PROCESS: the same outputs, without starting two more workers for each)."""
import json

import duckdb
import pyarrow.parquet as pq
import pytest

from paranmt.pipelines.cli import main


IN_PROCESS = ["--direct_running_mode", "in_memory"]


def cli(*args):
    return main([str(a) for a in args])


@pytest.fixture(scope="module")
def demo_shards(tmp_path_factory, sample_dir):
    """The first 60 pairs of each demo file through read, clean, translate, score, parse."""
    root = tmp_path_factory.mktemp("e2e")
    (root / "in").mkdir()
    for name in ("newstest2017-first1000", "tatoeba-every13th"):
        for suffix in ("cs", "en"):
            lines = (sample_dir / f"{name}.{suffix}").read_text(encoding="utf-8").splitlines()[:60]
            (root / "in" / f"{name}.{suffix}").write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = root / "shards"
    assert cli("build", "--config", "configs/demo.yaml", "--input", root / "in" / "*", "--output", out) == 0
    return out


def test_every_column_is_filled_by_the_shipped_models(demo_shards):
    table = duckdb.sql(f"select * from read_parquet('{demo_shards}/*.parquet')").df()
    assert len(table) == 120
    for column in ("xsim", "bt", "bt_score", "trigram_overlap", "para_score", "simile", "bt_repetition", "unigram_f1",
                   "cs_lang", "ref_lang", "bt_lang", "bt_len", "ref_parse", "bt_parse", "ref_template", "bt_template"):
        assert table[column].notna().mean() > 0.95, column
    assert (table["bt_score"] <= 0).all() and table["para_score"].between(-1, 1).all()
    assert table["trigram_overlap"].between(0, 1).all()
    # exact copies score as paraphrases; the scores agree on what a good back-translation is
    same = table[table["bt"].str.lower() == table["ref"].str.lower()]
    assert (same["trigram_overlap"] == 1).all() and (same["para_score"] > 0.99).all()
    assert table["para_score"].corr(table["trigram_overlap"]) > 0.3
    metadata = pq.read_schema(next(demo_shards.glob("*.parquet"))).metadata
    models = json.loads(metadata[b"paranmt.models"])
    assert set(models) == {"xsim", "translate", "score", "parse"} and all(len(m["sha256"]) == 64 for m in models.values())


def test_stats_filter_export_and_lexicon_run_on_the_shards(demo_shards, tmp_path):
    assert cli("stats", "--input", demo_shards, "--output", tmp_path / "stats") == 0
    assert (tmp_path / "stats" / "stats.md").read_text().count("|") > 20
    kept = {}
    for preset in ("paranmt-5m", "simile", "lexicon"):
        assert cli("filter", "--config", preset, "--input", demo_shards, "--output", tmp_path / preset) == 0
        kept[preset] = duckdb.sql(f"select count(*) from read_parquet('{tmp_path / preset}/*.parquet')"
                                  ).fetchall()[0][0]
    assert 0 < kept["paranmt-5m"] < 120 and kept["simile"] < 120 and kept["lexicon"] < 120
    assert cli("export", "--format", "paranmt-txt", "--input", demo_shards, "--output", tmp_path / "p.txt",
               *IN_PROCESS) == 0
    lines = (tmp_path / "p.txt").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 120 and all(len(line.split("\t")) == 3 for line in lines)
    assert cli("export", "--format", "scpn", "--input", demo_shards, "--output", tmp_path / "scpn.tsv",
               *IN_PROCESS) == 0
    assert cli("export", "--format", "hf", "--input", tmp_path / "paranmt-5m", "--output", tmp_path / "hf",
               *IN_PROCESS) == 0
    assert sum(pq.read_table(p).num_rows for p in (tmp_path / "hf").rglob("*.parquet")) == kept["paranmt-5m"]
    assert cli("lexicon", "--input", tmp_path / "lexicon", "--output", tmp_path / "lex", *IN_PROCESS) == 0
    assert any((tmp_path / "lex").iterdir())
