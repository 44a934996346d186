"""`paranmt build` end to end on the DirectRunner, exactly as a user runs it: accounting, rejects, resume,
determinism and fail-fast configuration errors. The first build and the determinism test run in the default mode
(worker processes); tests of what the launcher does (resume, stages over shards, the reject rate) run the same
pipeline in one process (LOCAL)."""
import gzip
import json
import os
import shutil

import apache_beam as beam
import duckdb
import pandas as pd
import pyarrow.parquet as pq
import pytest

from paranmt.pipelines.cli import main
from paranmt.pipelines.runtime.building.report import summarize
from paranmt.pipelines.runtime.options import pipeline_options
from paranmt.schemas.records import PAIR_SCHEMA, REJECT_SCHEMA


LOCAL = ["--direct_running_mode", "in_memory"]


def build(*args):
    return main(["build", *map(str, args)])


def parquet_files(directory):
    """Every Parquet file of an output directory: data shards (`.parquet`) and reject files (`.pq`)."""
    return sorted(p for p in directory.rglob("*") if p.suffix in (".parquet", ".pq"))


def test_demo_sample_builds_shards_every_reader_opens(tmp_path, sample_dir, capsys):
    out = tmp_path / "shards"
    assert build("--input", sample_dir / "*", "--format", "moses", "--output", out, "--stages", "read,clean") == 0
    printed = capsys.readouterr().out
    assert "read 2000 = written 2000 + rejected 0" in printed
    shards = sorted(out.glob("*.parquet"))
    assert [p.name for p in shards] == ["newstest2017-first1000.00000.parquet", "tatoeba-every13th.00000.parquet"]
    table = pq.read_table(shards[0])
    assert table.schema.remove_metadata().equals(PAIR_SCHEMA) and table.num_rows == 1000
    assert table.schema.metadata[b"paranmt.schema_version"] == b"2"
    assert table.column("id").to_pylist()[:3] == [f"newstest2017-first1000:newstest2017-first1000.cs:{i}"
                                                  for i in (1, 2, 3)]
    assert pd.read_parquet(shards[1]).shape[0] == 1000
    assert duckdb.sql(f"select count(*) from read_parquet('{out}/*.parquet')").fetchall()[0][0] == 2000
    rejects = pq.read_table(out / "__paranmt__" / "rejects" / f"{shards[0].stem}.pq")
    assert rejects.schema.remove_metadata().equals(REJECT_SCHEMA)
    metrics = json.loads((out / "__paranmt__" / "metrics.json").read_text())
    assert metrics["read"] == 2000 and metrics["written"] == 2000 and metrics["beam_counters"]["clean/rows_in"] == 2000
    manifest = json.loads((out / "__paranmt__" / "manifest.json").read_text())
    assert [s["name"] for s in manifest["shards"]] == [p.stem for p in shards]
    assert (out / "__paranmt__" / "config.yaml").exists() and not list(out.rglob(".*tmp-*"))


def test_corrupted_inputs_end_as_rejects_and_the_accounting_balances(tmp_path, bitext, capsys):
    cs = (bitext / "newstest2015.ces").read_text(encoding="utf-8").splitlines()[:1500]
    en = (bitext / "newstest2015.eng").read_text(encoding="utf-8").splitlines()[:1500]
    good = "".join(f"{c}\t{e}\n" for c, e in zip(cs[:500], en[:500])).encode()
    broken = (good + b"only one column\n\n\xc3\x28 bad utf8\tx\n" + b"A\x01B\tcontrol\n" + b"\tempty source\n")
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "broken.tsv").write_bytes(broken)
    data = gzip.compress("".join(f"{c}\t{e}\n" for c, e in zip(cs[500:], en[500:])).encode())
    (tmp_path / "in" / "cut.tsv.gz").write_bytes(data[: len(data) * 2 // 3])
    out = tmp_path / "out"
    multi_process = ["--runner=DirectRunner", "--direct_running_mode=multi_processing", "--direct_num_workers=2"]
    assert build("--input", tmp_path / "in" / "*", "--format", "tsv", "--output", out, "--stages", "read,clean",
                 *multi_process) == 0
    metrics = json.loads((out / "__paranmt__" / "metrics.json").read_text())
    assert metrics["read"] == metrics["written"] + metrics["rejected"]
    reasons = metrics["rejects_by_reason"]
    assert reasons["read/wrong_column_count"] == 1 and reasons["read/empty_line"] == 1
    assert reasons["read/invalid_utf8"] == 1 and reasons["read/corrupt_file"] == 1
    assert reasons["clean/control_characters"] == 1 and reasons["clean/empty_side"] == 1
    rejects = pd.read_parquet(out / "__paranmt__" / "rejects")
    assert set(rejects.columns) == {"id", "stage", "reason", "detail", "raw"} and rejects["detail"].str.len().min() > 0
    assert len(rejects) == metrics["rejected"]
    rows = duckdb.sql(f"select id from read_parquet('{out}/*.parquet')").df()
    assert len(rows) == metrics["written"] and rows["id"].is_unique
    assert "MISMATCH" not in capsys.readouterr().out


def test_resume_rewrites_only_missing_shards_and_matches_a_full_run(tmp_path, sample_dir):
    out = tmp_path / "out"
    args = ["--input", sample_dir / "*", "--format", "moses", "--output", out, "--shard-rows", "400",
            "--stages", "read,clean", *LOCAL]
    assert build(*args) == 0
    shards = sorted(out.glob("*.parquet"))
    assert len(shards) == 6
    before = {p.name: p.read_bytes() for p in shards}
    untouched = {p.name: p.stat().st_mtime_ns for p in shards}
    victim = shards[2]
    victim.unlink()
    assert build(*args) == 2                      # existing shards without --resume: refused
    assert build(*args, "--resume") == 0
    after = {p.name: p.read_bytes() for p in sorted(out.glob("*.parquet"))}
    assert after == before
    for p in sorted(out.glob("*.parquet")):
        if p.name != victim.name:
            assert p.stat().st_mtime_ns == untouched[p.name]
    manifest = json.loads((out / "__paranmt__" / "manifest.json").read_text())
    assert len(manifest["resumed_shards"]) == 5
    assert json.loads((out / "__paranmt__" / "metrics.json").read_text())["read"] == 2000


def test_same_input_and_config_give_byte_identical_shards(tmp_path, sample_dir):
    for name in ("a", "b"):
        assert build("--input", sample_dir / "tatoeba*", "--format", "moses", "--output", tmp_path / name,
                     "--stages", "read,clean") == 0
    for path in parquet_files(tmp_path / "a"):
        assert path.read_bytes() == (tmp_path / "b" / path.relative_to(tmp_path / "a")).read_bytes()


@pytest.mark.parametrize("extra,message", [
    (["--stages", "read,clean,translate", "--set", "translate.model=/no/such/model"], "does not exist"),
    (["--stages", "read,bogus"], "unknown stage"),
    (["--stages", "clean,read"], "pipeline order"),
    (["--format", "tsv", "--columns", "cs=0"], "read.columns"),
])
def test_configuration_errors_fail_before_any_work(tmp_path, sample_dir, capsys, extra, message):
    args = ["--input", sample_dir / "*", "--format", "moses", "--output", tmp_path / "out", *extra]
    assert build(*args) == 2
    assert message in capsys.readouterr().err
    assert not list((tmp_path / "out").glob("*.parquet"))


def test_input_that_matches_nothing_is_a_clear_error(tmp_path, capsys):
    assert build("--input", tmp_path / "nothing*.tsv", "--format", "tsv", "--output", tmp_path / "o") == 2
    assert "matches no files" in capsys.readouterr().err


def test_rows_lost_between_read_and_write_fail_the_run(tmp_path, sample_dir):
    """The writer checks each shard's read count against what reaches it: a row lost anywhere fails the run."""
    from paranmt.transforms.io.bitext import read_file
    from paranmt.transforms.io.read_plan import ReadOptions, plan_inputs
    from paranmt.transforms.io.readers import ShardWork
    from paranmt.transforms.io.writer import WriteShards

    options = ReadOptions(format="moses", suffixes=("cs", "en"))
    [unit] = plan_inputs([str(sample_dir / "tatoeba-every13th.cs")], "moses", ("cs", "en"))
    records = list(read_file(unit, options))
    rows = [r for _, r in records if "_count" not in r and not r["id"].endswith(":7")]
    [(shard, count)] = [(s, r["_count"]) for s, r in records if "_count" in r]
    os.makedirs(tmp_path / "out" / "__paranmt__" / "rejects")
    pipeline = beam.Pipeline(options=pipeline_options(["--runner=DirectRunner"]))
    (pipeline | beam.Create([ShardWork(shard, rows, [], count["read"], count["separators"])])
     | WriteShards(str(tmp_path / "out"), {}))
    with pytest.raises(Exception, match="read 1000 != written 999"):
        pipeline.run().wait_until_finish()
    assert summarize(str(tmp_path / "out"))[0] == []


def test_stages_over_existing_shards_keep_names_and_counts(tmp_path, sample_dir):
    first = tmp_path / "first"
    assert build("--input", sample_dir / "*", "--format", "moses", "--output", first, "--stages", "read",
                 *LOCAL) == 0
    second = tmp_path / "second"
    assert build("--input", first, "--format", "shards", "--output", second, "--stages", "clean", *LOCAL) == 0
    assert sorted(p.name for p in second.glob("*.parquet")) == sorted(p.name for p in first.glob("*.parquet"))
    metrics = json.loads((second / "__paranmt__" / "metrics.json").read_text())
    assert metrics["read"] == 2000 == metrics["written"] + metrics["rejected"]
    shutil.rmtree(first)


def test_translate_on_shards_are_byte_identical_across_runners_and_worker_counts(tmp_path, sample_dir, repo):
    """Batches are a function of their shard alone: the in-process runner and the 2-process runner write the same
    bytes, with the translate stage on (dedup groups, length buckets and kernels see the same rows)."""
    common = ["--input", sample_dir / "tatoeba*", "--format", "moses", "--shard-rows", "300",
              "--stages", "read,clean,translate", "--set", f"translate.model={repo / 'tests/fixtures/nmt-tiny'}",
              "--set", "translate.beam=2", "--set", "translate.group_size=128", "--set", "translate.threads=1"]
    runners = {"in_memory": ["--runner=DirectRunner", "--direct_running_mode=in_memory"],
               "two_processes": ["--runner=DirectRunner", "--direct_running_mode=multi_processing",
                                 "--direct_num_workers=2"]}
    for name, runner in runners.items():
        assert build(*common, "--output", tmp_path / name, *runner) == 0
    first = {p.relative_to(tmp_path / "in_memory"): p.read_bytes() for p in parquet_files(tmp_path / "in_memory")}
    second = {p.relative_to(tmp_path / "two_processes"): p.read_bytes()
              for p in parquet_files(tmp_path / "two_processes")}
    assert len(first) == 8 and first == second           # 4 shards (1000 pairs / 300) + their rejects files
    assert pd.read_parquet(tmp_path / "in_memory" / "tatoeba-every13th.00003.parquet")["bt"].str.len().min() > 0


def test_output_location_is_checked_before_any_work(tmp_path, sample_dir, capsys):
    (tmp_path / "a-file").write_text("not a directory")
    assert build("--input", sample_dir / "*", "--format", "moses", "--output", tmp_path / "a-file") == 2
    assert "is a file" in capsys.readouterr().err
    if os.geteuid() != 0:          # root writes anywhere: the permission check is only testable as a user
        locked = tmp_path / "locked"
        locked.mkdir(mode=0o500)
        assert build("--input", sample_dir / "*", "--format", "moses", "--output", locked / "out") == 2
        assert "cannot be written" in capsys.readouterr().err


def test_resume_with_a_different_config_names_the_keys(tmp_path, sample_dir, capsys):
    args = ["--input", sample_dir / "tatoeba*", "--format", "moses", "--output", tmp_path / "out",
            "--stages", "read,clean", *LOCAL]
    assert build(*args) == 0
    capsys.readouterr()
    assert build(*args, "--resume", "--set", "clean.max_tokens=50") == 2
    assert "clean.max_tokens: 200 -> 50" in capsys.readouterr().err


def test_every_record_rejected_warns_and_max_reject_rate_fails(tmp_path, capsys):
    (tmp_path / "in.tsv").write_text("one column only\n" * 20)
    args = ["--input", tmp_path / "in.tsv", "--format", "tsv", "--stages", "read", *LOCAL]
    assert build(*args, "--output", tmp_path / "a") == 0
    assert "every one of the 20 input records was rejected" in capsys.readouterr().err
    assert build(*args, "--output", tmp_path / "b", "--max-reject-rate", "0.5") == 1
    assert "reject rate 100.0% > --max-reject-rate 50.0%" in capsys.readouterr().err


@pytest.mark.parametrize("given,expected", [
    ([], {"runner": "DirectRunner", "direct_running_mode": "multi_processing"}),
    (["--direct_running_mode=in_memory"], {"runner": "DirectRunner", "direct_running_mode": "in_memory"}),
    (["--direct_running_mode", "in_memory", "--direct_num_workers=1"],
     {"direct_running_mode": "in_memory", "direct_num_workers": 1}),
    (["--direct_num_workers=3"], {"direct_running_mode": "multi_processing", "direct_num_workers": 3}),
    (["--runner=DirectRunner"], {"direct_running_mode": "in_memory"}),     # an explicit runner: Beam's defaults
])
def test_explicit_beam_options_win_over_the_local_defaults(given, expected):
    options = pipeline_options(given).get_all_options()
    assert {key: options[key] for key in expected} == expected
