"""Run one build stage (built from the stage table, through the one adapter RunStage) on Beam over ShardWork."""
import dataclasses
import json
import tempfile
from pathlib import Path

import apache_beam as beam
import pytest
from apache_beam.metrics.metric import MetricsFilter
from apache_beam.runners.portability.fn_api_runner import FnApiRunner

from paranmt.transforms.io.readers import ShardWork
from paranmt.transforms.stage import build_stage


def run_stage_on_beam(name, config, shards: dict[str, list[dict]]):
    """{shard: rows} -> ({shard: ShardWork after the stage}, counters of the stage's namespace)."""
    works = [ShardWork(shard, rows, [], len(rows)) for shard, rows in shards.items()]
    with tempfile.TemporaryDirectory() as directory:
        pipeline = beam.Pipeline(runner=FnApiRunner())
        (pipeline | beam.Create(works, reshuffle=False) | build_stage(name, config)
         | beam.Map(lambda w: json.dumps(dataclasses.asdict(w)))
         | beam.io.WriteToText(str(Path(directory) / "out"), shard_name_template=""))
        result = pipeline.run()
        result.wait_until_finish()
        lines = (Path(directory) / "out").read_text().splitlines()
    outputs = {w.name: w for w in (ShardWork(**json.loads(line)) for line in lines)}
    counters = {m.key.metric.name: m.committed
                for m in result.metrics().query(MetricsFilter().with_namespace(name))["counters"]}
    return outputs, counters


@pytest.fixture
def stage_on_beam():
    return run_stage_on_beam
