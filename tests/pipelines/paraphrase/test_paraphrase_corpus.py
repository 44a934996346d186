"""The Beam stage: a shard directory paraphrased by `paranmt paraphrase --input SHARDS`, one output shard per input
shard, the pair ids kept, counts summed, finished shards skipped (and counted) by --resume; the accelerator hint
reaches the step."""
import json

import apache_beam as beam
import pyarrow.parquet as pq

from paranmt.models.generation.config import ParaphraseConfig
from paranmt.pipelines.cli import main
from paranmt.transforms.io.model_cache import local_model_path
from paranmt.transforms.paraphrase import ParaphraseShards


def test_shards_paraphrased_on_beam(tiny_models, held_out_shards, sick_pairs, tmp_path, capsys):
    output = tmp_path / "paraphrased"
    argv = ["paraphrase", "--model", str(tiny_models), "--input", str(held_out_shards), "--output", str(output),
            "--templates", "top2", "--all", "--direct_running_mode=in_memory"]
    assert main(argv) == 0
    rows = pq.read_table(output / "sick-00000.parquet").to_pylist()
    ids = [p["id"] for p in sick_pairs]
    assert sorted({r["source_id"] for r in rows}) == sorted(ids)
    by_id = {p["id"]: p["ref"] for p in sick_pairs}
    assert all(r["source"] == by_id[r["source_id"]] for r in rows)
    summary = json.loads((output / "__paranmt__" / "paraphrase_summary.json").read_text())
    totals = summary["totals"]
    assert totals["sources"] == len(sick_pairs) and totals["candidates"] == len(rows) == 2 * len(sick_pairs)
    assert totals["kept"] == sum(r["kept"] for r in rows)
    assert f"paraphrased {len(sick_pairs)} sentences x 2 template(s)" in capsys.readouterr().out
    # a rerun is refused without --resume or --overwrite; --resume skips the finished shard and still counts it
    before = (output / "sick-00000.parquet").stat().st_mtime_ns
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "already holds 1 paraphrase shard(s)" in err and "--resume" in err and "--overwrite" in err
    assert main(argv + ["--resume"]) == 0
    assert (output / "sick-00000.parquet").stat().st_mtime_ns == before
    resumed = json.loads((output / "__paranmt__" / "paraphrase_summary.json").read_text())
    assert resumed["skipped_done_shards"] == 1 and resumed["totals"] == totals
    assert f"paraphrased {len(sick_pairs)} sentences x 2 template(s)" in capsys.readouterr().out


def test_accelerator_hint_and_isolation_on_the_generation_step(tiny_models, tmp_path):
    run = ParaphraseConfig(model=str(tiny_models), templates="top1").resolve(local_model_path)
    hint = "type:nvidia-tesla-t4;count:1;install-nvidia-driver"
    pipeline = beam.Pipeline()
    _ = (pipeline | beam.Create(["a.parquet"])
         | "Paraphrase" >> ParaphraseShards(run, str(tmp_path), accelerator=hint, isolate=True))
    steps = {t.full_label: t for t in pipeline._current_transform().parts[-1].parts}
    assert set(steps) == {"Paraphrase/Spread", "Paraphrase/Generate", "Paraphrase/Release"}
    hints = steps["Paraphrase/Generate"].transform.get_resource_hints()
    assert hints["beam:resources:accelerator:v1"] == hint.encode()
