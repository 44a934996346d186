"""`paranmt filter` end to end from the CLI on fixture shards (see conftest.py): presets, quantiles over the whole
input, dedup, exact deterministic sampling, outputs and accounting, the output layout that loaders read as the kept
rows alone, and configuration errors before any work. Expected dedup winners come from a plain-Python reference of
the documented rule (docs/filtering.md), not from the vectorized code under test."""
import json
import shutil
import unicodedata
from collections import Counter
from pathlib import Path

import datasets
import duckdb
import polars as pl
import pandas as pd
import pyarrow.dataset as ds
import pyarrow.parquet as pq
import pytest
import regex
import yaml

from paranmt.models.filters.config import load_filter_config
from paranmt.models.filters.plan import KEPT
from paranmt.models.filters.text_keys import sample_hash
from paranmt.pipelines.cli import main
from paranmt.schemas import layout
from paranmt.schemas.records import PAIR_SCHEMA, SCHEMA_VERSION, table_to_pairs

LOCAL = ["--runner=DirectRunner", "--direct_running_mode=in_memory", "--direct_num_workers=1"]


def read_rows(directory: Path) -> list[dict]:
    return [row for path in sorted(directory.glob("*.parquet")) for row in table_to_pairs(pq.read_table(path))]


def dedup_text(row: dict, dedup_field: str, normalization: str) -> tuple | None:
    """The dedup key as text (docs/filtering.md): None when a needed side is null."""
    texts = (row["ref"], row["bt"]) if dedup_field == "pair" else (row[dedup_field],)
    if any(text is None for text in texts):
        return None
    if normalization == "normalized":
        texts = tuple(regex.sub(r"[^\p{L}\p{N}]+", " ", unicodedata.normalize("NFKC", t).lower()).strip()
                      for t in texts)
    return texts


def winners_in_memory(rows: list[dict], dedup_field: str, normalization: str) -> set[str]:
    """Per group of equal keys the highest para_score (null lowest), ties: the smallest id."""
    def rank(row):
        return -row["para_score"] if row["para_score"] is not None else float("inf"), row["id"]

    best: dict = {}
    for row in rows:
        key = dedup_text(row, dedup_field, normalization)
        if key is not None and (key not in best or rank(row) < rank(best[key])):
            best[key] = row
    return {row["id"] for row in best.values()} | {r["id"] for r in rows if dedup_text(r, dedup_field,
                                                                                       normalization) is None}


@pytest.fixture(scope="module")
def input_rows(corpus_shards):
    return read_rows(corpus_shards)


@pytest.fixture(scope="module")
def five_m(corpus_shards, tmp_path_factory):
    output = tmp_path_factory.mktemp("five_m")
    code = main(["filter", "--config", "paranmt-5m", "--input", str(corpus_shards), "--output", str(output),
                 "--dedup", "pair", "--tsv", "--write-dropped", *LOCAL])
    assert code == 0
    return output


def test_paranmt_5m_preset_keeps_the_top_two_tenths_of_short_pairs(five_m, input_rows):
    report = json.loads((five_m / layout.FILTER_REPORT).read_text())
    values = [row["para_score"] for row in input_rows]
    low, high = report["quantile_bounds"]["para_score_quantile"]
    # exact nearest rank: the value of 0-based rank round(0.8 * (N - 1)) in ascending order
    assert low == sorted(values)[round(0.8 * (len(values) - 1))]
    assert high == max(values)

    survivors = [r for r in input_rows if low <= r["para_score"] <= high and 1 <= r["ref_len"] <= 30
                 and 1 <= r["bt_len"] <= 30 and fluent_english(r) and r["bt_repetition"] == 0
                 and dedup_text(r, "pair", "normalized")[0] != dedup_text(r, "pair", "normalized")[1]]
    expected = {r["id"] for r in survivors} & winners_in_memory(survivors, "pair", "normalized")
    kept = read_rows(five_m)
    assert {r["id"] for r in kept} == expected and len(kept) == len(expected)
    assert len(expected) < len(survivors)  # the fixture has real duplicate pairs

    dropped = [row for path in sorted((five_m / layout.DROPPED).glob("*.pq"))
               for row in pq.read_table(path).to_pylist()]
    assert len(kept) + len(dropped) == len(input_rows) == report["rows_in"]
    assert {r["drop_reason"] for r in dropped} == {"para_score_quantile", "tokens", "duplicate_pair", "bt_copy",
                                                   "bt_repetition_range", "ref_language", "bt_language"}
    # issue 24 item 9: no kept pair is a copy of its reference or a loop (the fixture has both among the top tenths)
    assert not [r for r in kept if r["bt_repetition"] > 0 or dedup_text(r, "pair", "normalized")[0]
                == dedup_text(r, "pair", "normalized")[1]]
    assert Counter(r["drop_reason"] for r in dropped)["bt_copy"] == 4
    details = {r["drop_reason"]: r["drop_detail"] for r in dropped}
    assert details["para_score_quantile"].startswith("score=0.") and "keeps para_score between" in \
        details["para_score_quantile"]
    assert details["tokens"].startswith("ref_len=") and "keeps 1 <= tokens <= 30" in details["tokens"]
    assert details["duplicate_pair"].startswith("duplicate of ") and details["duplicate_pair"].endswith(
        "(normalized pair)")
    steps = {s["filter"]: s for s in report["filters"]}
    assert steps["tokens"]["seen"] == steps["para_score_quantile"]["kept"]
    assert steps["duplicate_pair"]["kept"] == report["rows_kept"] == len(kept)

    tsv = (five_m / layout.PAIRS_TSV).read_text(encoding="utf-8").splitlines()
    assert tsv[0] == "ref\tbt" and len(tsv) == len(kept) + 1 and all(line.count("\t") == 1 for line in tsv)
    assert len(pd.read_csv(five_m / layout.PAIRS_TSV, sep="\t")) == len(kept)
    schema = pq.read_schema(next(five_m.glob("*.parquet")))
    assert schema.remove_metadata().equals(PAIR_SCHEMA)
    metadata = {k.decode(): v.decode() for k, v in schema.metadata.items()}
    assert metadata["paranmt.schema_version"] == SCHEMA_VERSION and metadata["paranmt.config_hash"] == "fixture"
    assert metadata["paranmt.filter_config_hash"] == report["config_hash"]
    config = yaml.safe_load((five_m / layout.CONFIG).read_text())
    assert config["hash"] == report["config_hash"] and config["dedup"] == ["pair"]
    assert not (five_m / layout.TSV_PARTS).exists()


def test_the_output_directory_loads_as_the_kept_rows_alone(five_m):
    kept = {row["id"] for row in read_rows(five_m)}
    assert (five_m / layout.DROPPED).is_dir() and (five_m / layout.CONFIG).is_file()
    assert set(pd.read_parquet(five_m)["id"]) == kept and len(pd.read_parquet(five_m)) == len(kept)
    rows = duckdb.sql(f"SELECT id FROM read_parquet('{five_m}/*.parquet')").fetchall()
    assert {row[0] for row in rows} == kept and len(rows) == len(kept)
    assert ds.dataset(five_m, format="parquet").count_rows() == len(kept)
    assert set(pl.read_parquet(five_m / "*.parquet")["id"]) == kept
    loaded = datasets.load_dataset("parquet", data_dir=str(five_m), split="train",
                                   cache_dir=str(five_m.parent / "hf-cache"))
    assert set(loaded["id"]) == kept and loaded.num_rows == len(kept)


def fluent_english(row: dict) -> bool:
    """The presets' schema v2 guards, row by row: no degenerate loop, ref and bt labelled English."""
    return row["bt_repetition"] <= 0.2 and row["ref_lang"] == "en" and row["bt_lang"] == "en"


@pytest.mark.parametrize("size", [300, 900])  # 900 of 995: the threshold hash is above 2^63
def test_sample_is_exact_deterministic_and_the_smallest_hashes(corpus_shards, input_rows, tmp_path, size):
    kept_ids = []
    for name, source in (("a", str(corpus_shards)), ("b", str(corpus_shards / "*.parquet"))):
        output = tmp_path / name
        assert main(["filter", "--config", "simile", "--input", source, "--output", str(output),
                     "--sample", str(size), "--seed", "s1", *LOCAL]) == 0
        kept_ids.append(sorted(r["id"] for r in read_rows(output)))
    assert kept_ids[0] == kept_ids[1] and len(kept_ids[0]) == size
    survivors = [r for r in input_rows if r["para_score"] >= 0.5 and r["trigram_overlap"] <= 0.2
                 and fluent_english(r)]
    expected = sorted(survivors, key=lambda r: sample_hash(r["id"], "s1"))[:size]
    assert kept_ids[0] == sorted(r["id"] for r in expected)
    report = json.loads((tmp_path / "a" / layout.FILTER_REPORT).read_text())
    assert [s["filter"] for s in report["filters"]] == ["para_score_range", "trigram_overlap_range",
                                                         "bt_repetition_range", "ref_language", "bt_language",
                                                         "not_sampled"]
    assert report["filters"][-1]["seen"] == len(survivors)


@pytest.mark.parametrize("normalization", ["exact", "normalized"])
def test_reference_dedup_matches_an_in_memory_dedup(corpus_shards, input_rows, tmp_path, normalization):
    config = tmp_path / "dedup.yaml"
    config.write_text(f"filters: []\ndedup: [ref]\ndedup_normalization: {normalization}\n")
    output = tmp_path / "out"
    assert main(["filter", "--config", str(config), "--input", str(corpus_shards), "--output", str(output),
                 *LOCAL]) == 0
    kept = {r["id"] for r in read_rows(output)}
    assert kept == winners_in_memory(input_rows, "ref", normalization)
    assert len(kept) < len(input_rows)  # SICK repeats its sentence_A


def test_every_filter_type_agrees_with_the_plan_applied_in_memory(corpus_shards, input_rows, tmp_path):
    config = tmp_path / "all.yaml"
    config.write_text(yaml.safe_dump({
        "filters": [{"type": "english", "sides": ["ref", "bt"]},
                    {"type": "template", "require": "differ"},
                    {"type": "length_ratio", "max_ratio": 1.5},
                    {"type": "range", "column": "bt_score", "min": -1.2},
                    {"type": "quantile", "column": "trigram_overlap", "lower": 0.0, "upper": 0.9}],
        "dedup": ["bt"], "dedup_normalization": "exact"}))
    output = tmp_path / "out"
    assert main(["filter", "--config", str(config), "--input", str(corpus_shards), "--output", str(output),
                 "--write-dropped", *LOCAL]) == 0
    report = json.loads((output / layout.FILTER_REPORT).read_text())
    low, high = report["quantile_bounds"]["trigram_overlap_quantile"]
    overlaps = [r["trigram_overlap"] for r in input_rows]
    assert low == min(overlaps)
    assert high == sorted(overlaps)[round(0.9 * (len(overlaps) - 1))]
    plan = load_filter_config(str(config)).plan()
    plan.filters[-1] = plan.filters[-1].with_bounds(low, high)  # the bounds, checked above
    codes, _ = plan.row_verdicts(pq.read_table(sorted(corpus_shards.glob("*.parquet"))))
    survivors = [r for r, code in zip(input_rows, codes) if code == KEPT]
    expected = {r["id"] for r in survivors} & winners_in_memory(survivors, "bt", "exact")
    assert {r["id"] for r in read_rows(output)} == expected
    dropped = Counter(r["drop_reason"] for path in (output / layout.DROPPED).glob("*.pq")
                      for r in pq.read_table(path, columns=["drop_reason"]).to_pylist())
    assert dropped == {s["filter"]: s["dropped"] for s in report["filters"] if s["dropped"]}
    assert set(dropped) >= {"english", "template_differ", "length_ratio", "bt_score_range"}


def test_missing_scores_and_bad_inputs_fail_before_any_work(corpus_rows, write_fixture_shards, tmp_path, capsys):
    unscored = tmp_path / "unscored"
    write_fixture_shards([{**row, "trigram_overlap": None} for row in corpus_rows[:50]], unscored)
    output = tmp_path / "out"
    assert main(["filter", "--config", "simile", "--input", str(unscored), "--output", str(output), *LOCAL]) == 2
    error = capsys.readouterr().err
    assert "['trigram_overlap']" in error and "null in every row" in error
    assert not output.exists()
    assert main(["filter", "--config", "simile", "--input", str(tmp_path / "nothing"), "--output", str(output),
                 *LOCAL]) == 2
    assert "no shard files" in capsys.readouterr().err
    assert main(["filter", "--config", "lexicon", "--input", str(unscored), "--output", str(unscored), *LOCAL]) == 2
    assert "is the input" in capsys.readouterr().err
    a_file = tmp_path / "a-file"
    a_file.write_text("not a directory")
    assert main(["filter", "--config", "lexicon", "--input", str(unscored), "--output", str(a_file), *LOCAL]) == 2
    error = capsys.readouterr().err.strip()
    assert "is a file, not a directory" in error and len(error.splitlines()) == 1
    assert main(["filter", "--config", "lexicon", "--input", str(unscored), "--output", str(a_file / "out"),
                 *LOCAL]) == 2
    assert "cannot create the output directory" in capsys.readouterr().err


def test_side_paths_of_both_layouts_are_never_read_as_input(corpus_shards, input_rows, tmp_path):
    """A build directory holds rejects and earlier filter outputs beside the shards; neither a directory input nor a
    glob reaching into the side folders reads them."""
    build = tmp_path / "build"
    shutil.copytree(corpus_shards, build)
    some_shard = sorted(corpus_shards.glob("*.parquet"))[0]
    for side in (layout.REJECTS, layout.DROPPED, "rejects", "dropped", "_tmp"):
        (build / side).mkdir(parents=True, exist_ok=True)
        shutil.copy(some_shard, build / side / "extra-00000.parquet")
    shutil.copy(some_shard, build / "_extra.parquet")
    for source in (str(build), f"{build}/**", f"{build}/*/*.parquet", f"{build}/*.parquet"):
        output = tmp_path / f"out{abs(hash(source))}"
        if source.endswith("/*/*.parquet"):
            assert main(["filter", "--config", "lexicon", "--input", source, "--output", str(output), *LOCAL]) == 2
            continue
        assert main(["filter", "--config", "lexicon", "--input", source, "--output", str(output), *LOCAL]) == 0
        report = json.loads((output / layout.FILTER_REPORT).read_text())
        assert report["rows_in"] == len(input_rows), source


@pytest.mark.parametrize("spec, message", [
    ("{type: range, column: para_score, min: 7}", "min 7 is outside the values para_score can take, [-1, 1]"),
    ("{type: range, column: trigram_overlap, max: 2}", "max 2 is outside the values trigram_overlap can take"),
    ("{type: range, column: bt_score, min: 1}", "min 1 is outside the values bt_score can take, [-inf, 0]"),
])
def test_a_threshold_outside_the_column_range_is_one_line_and_exit_2(corpus_shards, tmp_path, capsys, spec,
                                                                       message):
    config = tmp_path / "bad.yaml"
    config.write_text(f"filters:\n  - {spec}\n")
    output = tmp_path / "out"
    assert main(["filter", "--config", str(config), "--input", str(corpus_shards), "--output", str(output),
                 *LOCAL]) == 2
    error = capsys.readouterr().err.strip()
    assert message in error and len(error.splitlines()) == 1
    assert not output.exists()


def test_help_names_the_presets(capsys):
    with pytest.raises(SystemExit):
        main(["filter", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "lexicon, paranmt-5m, simile" in text
    assert "Any Beam option passes through and wins over the local default" in text


def test_a_user_defined_filter_runs_from_its_module_path(corpus_shards, input_rows, tmp_path, monkeypatch):
    """Issue 24: `type: package.module:Class` (OpusFilter's convention) runs the docs/filtering.md example filter,
    written to a module of its own, with no change to paranmt."""
    docs = (Path(__file__).resolve().parents[3] / "docs" / "filtering.md").read_text(encoding="utf-8")
    code = docs.split("# mylab/filters.py", 1)[1].split("\n", 1)[1].split("```", 1)[0]
    config = docs.split("# mylab/filters.py", 1)[1].split("```yaml", 1)[1].split("```", 1)[0]
    (tmp_path / "mylab").mkdir()
    (tmp_path / "mylab" / "__init__.py").write_text("")
    (tmp_path / "mylab" / "filters.py").write_text(code)
    (tmp_path / "questions.yaml").write_text(config)
    monkeypatch.syspath_prepend(str(tmp_path))
    output = tmp_path / "out"
    assert main(["filter", "--config", str(tmp_path / "questions.yaml"), "--input", str(corpus_shards),
                 "--output", str(output), *LOCAL]) == 0
    kept = read_rows(output)
    questions = [r for r in input_rows if r["ref"].strip().endswith("?")]
    assert questions and len(kept) == len(input_rows) - len(questions)
    assert not [r for r in kept if r["ref"].strip().endswith("?")]
    report = json.loads((output / layout.FILTER_REPORT).read_text())
    assert report["filters"][0]["filter"] == "question" and report["filters"][0]["dropped"] == len(questions)


def test_config_typos_are_one_line_naming_the_key_or_the_presets(corpus_shards, tmp_path, capsys):
    """Issue 24 item 8: a preset name typo lists the presets and the near match (not "No such file"); a filter key
    typo names the key and the filter's valid keys (not a TypeError text); both exit 2 with one line."""
    output = str(tmp_path / "out")
    assert main(["filter", "--config", "paranmt5m", "--input", str(corpus_shards), "--output", output, *LOCAL]) == 2
    error = capsys.readouterr().err.strip()
    assert error.splitlines() == [error] and "(did you mean 'paranmt-5m'?); presets: lexicon, paranmt-5m, simile" in error
    config = tmp_path / "typo.yaml"
    config.write_text("filters:\n  - {type: range, column: para_score, mn: 0.5}\n")
    assert main(["filter", "--config", str(config), "--input", str(corpus_shards), "--output", output, *LOCAL]) == 2
    error = capsys.readouterr().err.strip()
    assert error.splitlines() == [error] and "unknown key 'mn' (did you mean 'min'?)" in error
    assert "valid keys of a 'range' filter: type, column, min, max, name" in error and "__init__" not in error
    assert not (tmp_path / "out").exists()
