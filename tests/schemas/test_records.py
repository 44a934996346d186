"""Schema v1: round trip through Parquet, metadata, and the reject schema."""
import json

import pyarrow.parquet as pq

from paranmt.schemas.metadata import model_identity, shard_metadata
from paranmt.schemas.records import (PAIR_SCHEMA, REJECT_SCHEMA, RAW_MAX_CHARS, empty_row, pairs_to_table,
                                     reject_row, rejects_to_table, table_to_pairs)


def test_pair_rows_round_trip_through_parquet(tmp_path):
    full = {**empty_row("cz:f:1", "news", "Dobrý den.", "Good morning.", {"filter_score": 0.5}),
            "bt": "Good day.", "bt_score": -0.25, "trigram_overlap": 0.0, "para_score": 0.75, "ref_len": 3,
            "bt_len": 3, "ref_parse": "(S(NP(JJ)(NN))(.))", "ref_template": "(S(NP)(.))",
            "bt_nbest": [{"text": "Good day.", "score": -0.25}, {"text": "Hello.", "score": -0.5}]}
    rows = [full, empty_row("cz:f:2", "news", "Ano.", "Yes.")]
    table = pairs_to_table(rows)
    assert table.schema.equals(PAIR_SCHEMA)
    pq.write_table(table, tmp_path / "s.parquet", compression="zstd")
    assert table_to_pairs(pq.read_table(tmp_path / "s.parquet")) == rows


def test_reject_rows_truncate_raw_and_say_so():
    row = reject_row("x:f:1", "read", "line_too_long", "long", "a" * (RAW_MAX_CHARS + 10))
    assert len(row["raw"]) == RAW_MAX_CHARS and "truncated" in row["detail"]
    assert rejects_to_table([row]).schema.equals(REJECT_SCHEMA)


def test_metadata_names_schema_models_and_config(tmp_path):
    (tmp_path / "model").mkdir()
    (tmp_path / "model" / "weights.bin").write_bytes(b"\x00\x01")
    identity = model_identity(str(tmp_path / "model"))
    assert len(identity["sha256"]) == 64
    (tmp_path / "model" / "weights.bin").write_bytes(b"\x00\x02")
    assert model_identity(str(tmp_path / "model"))["sha256"] != identity["sha256"]
    metadata = shard_metadata("abc123", {"score": identity})
    assert metadata["paranmt.schema_version"] == "2" and metadata["paranmt.config_hash"] == "abc123"
    assert json.loads(metadata["paranmt.models"])["score"]["path"].endswith("model")
