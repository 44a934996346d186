"""The parse stage's Beam adapter: config validation and a real run with the shipped parser and its counters."""
import apache_beam as beam
import pytest
from apache_beam.metrics.metric import MetricsFilter
from apache_beam.runners.portability.fn_api_runner import FnApiRunner
from apache_beam.testing.util import assert_that, equal_to

from paranmt.schemas.config import BuildConfig, ConfigError
from paranmt.schemas.records import empty_row
from paranmt.transforms.parse import stage_transform


def test_config_errors_before_any_work(tmp_path):
    config = BuildConfig()
    config.parse.model_dir = str(tmp_path / "no-such-parser")
    with pytest.raises(ConfigError, match="parse.model_dir.*does not exist"):
        stage_transform(config)
    config.parse.model_dir = str(tmp_path)
    with pytest.raises(ConfigError, match="parse.model_dir.*neither parser.json"):
        stage_transform(config)
    for key, value, message in [("max_tokens", 0, "max_tokens"), ("batch_size", 0, "batch_size"),
                                ("device", "tpu", "device")]:
        config = BuildConfig()
        setattr(config.parse, key, value)
        with pytest.raises(ConfigError, match=message):
            stage_transform(config)


def test_default_config_uses_the_shipped_parser():
    assert stage_transform(BuildConfig()) is not None


def test_parse_stage_on_beam(bitext):
    lines = (bitext / "newstest2012.eng").read_text(encoding="utf-8").splitlines()[:4]
    config = BuildConfig()
    config.parse.max_tokens, config.parse.batch_size = 40, 3
    pairs = [(lines[0], lines[1]), (lines[1], None), (lines[2], lines[0]), (lines[3], "word " * 41)]
    rows = [("shard-0", dict(empty_row(f"t:f:{i}", "t", "cs", ref), bt=bt)) for i, (ref, bt) in enumerate(pairs)]
    pipeline = beam.Pipeline(runner=FnApiRunner())
    parsed, rejects = pipeline | beam.Create(rows) | stage_transform(config)
    summary = parsed | beam.Map(lambda e: (e[1]["id"], e[1]["ref_template"] is not None,
                                           e[1]["bt_template"] is not None,
                                           e[1]["ref_parse"] is not None and e[1]["ref_parse"].startswith("(")))
    assert_that(summary, equal_to([("t:f:0", True, True, True), ("t:f:1", True, False, True),
                                   ("t:f:2", True, True, True), ("t:f:3", True, False, True)]))
    assert_that(rejects, equal_to([]), label="NoRejects")
    result = pipeline.run()
    result.wait_until_finish()
    counters = {c.key.metric.name: c.committed
                for c in result.metrics().query(MetricsFilter().with_namespace("parse"))["counters"]}
    assert counters["rows_in"] == counters["rows_out"] == 4
    assert counters["null_too_long"] == 1                 # the 41-word bt
    assert counters["sentences"] == 7
    assert counters["parsed"] + counters.get("dedup_hits", 0) == 6
