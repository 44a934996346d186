"""The shard size of `paranmt build` follows its stages (schemas/stages.py `shard_rows_for`): 2,000-row shards when
a model stage runs, the resolved size is the one an explicit --shard-rows gives (same hash, same bytes, so either
resumes the other), and an output written with another size names the flag that resumes it."""
import json

import pyarrow.parquet as pq
import yaml

from paranmt.pipelines.cli import main


def build(*args):
    return main(["build", *map(str, args)])


def test_a_model_stage_makes_2000_row_shards_that_an_explicit_size_resumes(tmp_path, bitext):
    prefix = tmp_path / "news"
    for suffix, source in (("cs", "ces"), ("en", "eng")):
        lines = (bitext / f"newstest2015.{source}").read_text(encoding="utf-8").splitlines(keepends=True)[:2500]
        prefix.with_suffix(f".{suffix}").write_text("".join(lines), encoding="utf-8")
    out = tmp_path / "out"
    args = ["--input", prefix, "--format", "moses", "--output", out, "--stages", "read,clean,xsim",
            "--direct_running_mode", "in_memory"]
    assert build(*args) == 0
    shards = sorted(out.glob("*.parquet"))
    assert [(p.name, pq.read_metadata(p).num_rows) for p in shards] == [("news.00000.parquet", 2000),
                                                                         ("news.00001.parquet", 500)]
    assert yaml.safe_load((out / "__paranmt__" / "config.yaml").read_text())["read"]["shard_rows"] == 2000
    counters = json.loads((out / "__paranmt__" / "metrics.json").read_text())["beam_counters"]
    assert counters["xsim/cpu_ms"] > 0 and "clean/cpu_ms" in counters     # CPU per stage, for capacity planning
    before = {p.name: p.read_bytes() for p in shards}
    shards[0].unlink()
    assert build(*args, "--shard-rows", "2000", "--resume") == 0
    assert {p.name: p.read_bytes() for p in sorted(out.glob("*.parquet"))} == before


def test_resume_with_another_shard_size_names_the_flag_that_resumes(tmp_path, sample_dir, capsys):
    args = ["--input", sample_dir / "tatoeba*", "--format", "moses", "--output", tmp_path / "out",
            "--stages", "read,clean", "--direct_running_mode", "in_memory"]
    assert build(*args, "--shard-rows", "300") == 0
    capsys.readouterr()
    assert build(*args, "--resume") == 2
    error = capsys.readouterr().err
    assert "read.shard_rows: 300 -> 20000" in error and "give --shard-rows 300 to resume" in error
    assert build(*args, "--resume", "--shard-rows", "300") == 0
