"""The parse stage through the stage table and the one adapter: config validation and a real run with the shipped
parser and its counters."""
import pytest

from paranmt.schemas.build_config import BuildConfig
from paranmt.schemas.errors import ConfigError
from paranmt.schemas.records import empty_row
from paranmt.transforms.stage import build_stage


def test_config_errors_before_any_work(tmp_path):
    config = BuildConfig()
    config.parse.model_dir = str(tmp_path / "no-such-parser")
    with pytest.raises(ConfigError, match="parse.model_dir.*does not exist"):
        build_stage("parse", config)
    config.parse.model_dir = str(tmp_path)
    with pytest.raises(ConfigError, match="parse.model_dir.*neither parser.json"):
        build_stage("parse", config)
    for key, value, message in [("max_tokens", 0, "max_tokens"), ("batch_size", 0, "batch_size"),
                                ("device", "tpu", "device")]:
        config = BuildConfig()
        setattr(config.parse, key, value)
        with pytest.raises(ConfigError, match=message):
            build_stage("parse", config)


def test_default_config_uses_the_shipped_parser():
    assert build_stage("parse", BuildConfig()) is not None


def test_parse_stage_on_beam(bitext, stage_on_beam):
    lines = (bitext / "newstest2012.eng").read_text(encoding="utf-8").splitlines()[:4]
    config = BuildConfig()
    config.parse.max_tokens, config.parse.batch_size = 40, 3
    pairs = [(lines[0], lines[1]), (lines[1], None), (lines[2], lines[0]), (lines[3], "word " * 41)]
    rows = [dict(empty_row(f"t:f:{i}", "t", "cs", ref), bt=bt) for i, (ref, bt) in enumerate(pairs)]
    outputs, counters = stage_on_beam("parse", config, {"shard-0": rows})
    work = outputs["shard-0"]
    summary = [(r["id"], r["ref_template"] is not None, r["bt_template"] is not None,
                r["ref_parse"] is not None and r["ref_parse"].startswith("(")) for r in work.rows]
    assert summary == [("t:f:0", True, True, True), ("t:f:1", True, False, True),
                       ("t:f:2", True, True, True), ("t:f:3", True, False, True)]
    assert work.rejects == []
    assert counters["rows_in"] == counters["rows_out"] == 4
    assert counters["null_too_long"] == 1                 # the 41-word bt
    assert counters["sentences"] == 7
    assert counters["parsed"] + counters.get("dedup_hits", 0) == 6
