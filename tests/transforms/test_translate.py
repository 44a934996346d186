"""The translate stage through the stage table and the one adapter (RunStage) on real sentences: rows get
bt/bt_score/bt_len, duplicates are translated once, too-long sources become rejects, counters are reported, and
configuration errors fail before any work."""
import dataclasses
import json
from pathlib import Path

import pytest

from paranmt.schemas.build_config import BuildConfig, TranslateConfig
from paranmt.schemas.errors import ConfigError
from paranmt.schemas.records import empty_row
from paranmt.transforms.stage import build_stage

REPO = Path(__file__).resolve().parents[2]
TINY = REPO / "tests" / "fixtures" / "nmt-tiny"


@pytest.fixture(scope="module")
def shards(bitext):
    cs = (bitext / "newstest2016.ces").read_text(encoding="utf-8").splitlines()[:20]
    en = (bitext / "newstest2016.eng").read_text(encoding="utf-8").splitlines()[:20]
    rows = [empty_row(f"nt16:{i}", "newstest2016", c, e) for i, (c, e) in enumerate(zip(cs, en))]
    rows += [dict(row, id=row["id"] + ":again") for row in rows[:10]]
    return {"shard-a": rows[1::2], "shard-b": rows[::2]}


def tiny_config(**changes) -> TranslateConfig:
    return dataclasses.replace(TranslateConfig(model=str(TINY), beam=4, nbest=2, device="cpu", threads=1,
                                               batch_tokens=300, group_size=64), **changes)


def run(shards, config, stage_on_beam):
    """(shard, row) of every output row and reject, and the translate counters."""
    outputs, counters = stage_on_beam("translate", BuildConfig(translate=config), shards)
    rows = [(w.name, r) for w in outputs.values() for r in w.rows]
    rejects = [(w.name, r) for w in outputs.values() for r in w.rejects]
    return rows, rejects, counters


def test_rows_are_translated_and_accounted(shards, stage_on_beam):
    rows, rejects, counters = run(shards, tiny_config(), stage_on_beam)
    elements = [(shard, row) for shard, group in shards.items() for row in group]
    assert not rejects and len(rows) == len(elements) == 30
    by_id = {row["id"]: (shard, row) for shard, row in rows}
    for shard, row in elements:
        out_shard, out = by_id[row["id"]]
        assert out_shard == shard and out["cs"] == row["cs"] and out["ref"] == row["ref"]
        assert out["bt"] and out["bt_score"] < 0 and out["bt_len"] >= 1 and len(out["bt_nbest"]) == 2
        if row["id"].endswith(":again"):
            assert out["bt"] == by_id[row["id"][: -len(":again")]][1]["bt"]
    assert counters["sentences"] == 30 and counters["batches"] == 2
    assert counters["unique_sentences"] <= 30 and counters["model_batches"] >= 1 and counters["source_tokens"] > 0


def test_too_long_sources_become_translate_rejects(shards, stage_on_beam):
    rows, rejects, counters = run(shards, tiny_config(max_source_tokens=60, nbest=0), stage_on_beam)
    assert len(rows) + len(rejects) == 30 and rejects and rows
    for _, reject in rejects:
        assert reject["stage"] == "translate" and reject["reason"] == "source_too_long"
        assert reject["raw"].split("\t")[0] in {row["cs"] for group in shards.values() for row in group}
    assert all(row["bt_nbest"] is None for _, row in rows)
    assert counters["reject_source_too_long"] == len(rejects)


@pytest.mark.parametrize("changes, message", [
    ({"model": "/nonexistent/nmt"}, "translate.model: NMT model directory"),
    ({"backend": "marian"}, "translate.backend"),
    ({"nbest": 13}, "translate.nbest"),
    ({"batch_tokens": 0}, "translate.batch_tokens"),
    ({"device": "tpu"}, "translate.device"),
])
def test_configuration_errors_fail_at_construction(changes, message):
    config = BuildConfig(input="x", output="y", stages=["read", "clean", "translate"],
                         translate=tiny_config(**changes))
    with pytest.raises(ConfigError, match=message):
        build_stage("translate", config)


def test_a_model_dir_without_the_backend_files_is_a_config_error(tmp_path):
    (tmp_path / "spm.model").write_bytes((TINY / "spm.model").read_bytes())
    with pytest.raises(ConfigError, match="convert-nmt"):
        build_stage("translate", BuildConfig(translate=tiny_config(model=str(tmp_path))))


def test_build_with_the_shipped_default_model_fills_bt(tmp_path, sample_dir):
    """`paranmt build --stages read,clean,translate` exactly as a user runs it, with the default model
    (assets/nmt-cs-en, ctranslate2 backend): every row gets a back-translation and a score."""
    import pandas as pd
    import pyarrow.parquet as pq

    from paranmt.pipelines.cli import main

    source = tmp_path / "in"
    source.mkdir()
    for side in ("cs", "en"):
        lines = (sample_dir / f"tatoeba-every13th.{side}").read_text(encoding="utf-8").splitlines()[:40]
        (source / f"tatoeba-40.{side}").write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    out = tmp_path / "out"
    assert main(["build", "--input", str(source / "*"), "--format", "moses", "--output", str(out),
                 "--stages", "read,clean,translate", "--set", "translate.threads=1",
                 "--direct_num_workers=1", "--direct_running_mode=in_memory", "--runner=DirectRunner"]) == 0
    [shard] = sorted(out.glob("*.parquet"))
    rows = pd.read_parquet(shard)
    assert len(rows) == 40 and rows["bt"].str.len().min() > 0
    assert (rows["bt_score"] < 0).all() and (rows["bt_len"] > 0).all() and rows["bt_nbest"].isna().all()
    models = json.loads(pq.read_schema(shard).metadata[b"paranmt.models"])
    assert models["translate"]["path"].endswith("assets/nmt-cs-en") and models["translate"]["sha256"]
