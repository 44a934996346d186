"""Fault injection into the one stage loop and adapter: failing batches are split and retried, a poisoned sentence
becomes a reject with the error, an out-of-memory batch is split until it fits, batches are consecutive rows of a
shard, and nothing is lost or duplicated. The faults come from test-only PairStage subclasses (no production
flag). Every registered stage is built through the same adapter."""
import apache_beam as beam
import pytest
from apache_beam.metrics.metric import MetricsFilter
from apache_beam.runners.portability.fn_api_runner import FnApiRunner

from paranmt.models.stage import PairStage, StageContractError, run_stage
from paranmt.schemas.build_config import BuildConfig
from paranmt.schemas.records import empty_row, is_reject
from paranmt.schemas.stages import STAGES
from paranmt.transforms.io.readers import ShardWork
from paranmt.transforms.stage import RunStage, build_stage

POISON = "☠ this sentence crashes the model"


class Uppercase(PairStage):
    """A stage with real work to check (uppercases `ref` into `bt`), plus injected faults."""
    name = "translate"

    def __init__(self, poison=None, max_rows=None, flaky_batches=0):
        self.poison, self.max_rows, self.flaky = poison, max_rows, flaky_batches
        self.calls, self.batches = 0, []

    def process_batch(self, rows):
        self.calls += 1
        self.batches.append([r["id"] for r in rows])
        if self.flaky and self.calls <= self.flaky:
            raise RuntimeError("transient CUDA error: device-side assert")
        if self.max_rows and len(rows) > self.max_rows:
            raise MemoryError(f"CUDA out of memory for a batch of {len(rows)}")
        if self.poison and any(r["cs"] == self.poison for r in rows):
            raise ValueError("decoder produced NaN")
        return [{**r, "bt": r["ref"].upper()} for r in rows]


def sample_rows(sample_dir, n=64):
    cs = (sample_dir / "tatoeba-every13th.cs").read_text(encoding="utf-8").splitlines()[:n]
    en = (sample_dir / "tatoeba-every13th.en").read_text(encoding="utf-8").splitlines()[:n]
    return [empty_row(f"t:f:{i + 1}", "t", c, e) for i, (c, e) in enumerate(zip(cs, en))]


def test_poisoned_sentence_is_rejected_alone(sample_dir):
    rows = sample_rows(sample_dir)
    rows[37] = {**rows[37], "cs": POISON}
    out, counts = run_stage(Uppercase(poison=POISON), rows, batch_rows=64)
    assert [r["id"] for r in out] == [r["id"] for r in rows]
    rejects = [r for r in out if is_reject(r)]
    assert len(rejects) == 1 and rejects[0]["id"] == "t:f:38" and rejects[0]["stage"] == "translate"
    assert rejects[0]["reason"] == "error" and "ValueError: decoder produced NaN" in rejects[0]["detail"]
    assert rejects[0]["raw"].startswith(POISON)
    assert all(r["bt"] == r["ref"].upper() for r in out if not is_reject(r))
    assert counts["batch_splits"] == 6        # 64 -> 32 -> 16 -> 8 -> 4 -> 2 -> 1 along the poisoned path


def test_out_of_memory_batches_are_split_until_they_fit(sample_dir):
    rows = sample_rows(sample_dir)
    out, _ = run_stage(Uppercase(max_rows=8), rows, batch_rows=64)
    assert not any(is_reject(r) for r in out) and [r["bt"] for r in out] == [r["ref"].upper() for r in rows]


def test_a_transient_failure_is_retried_and_succeeds(sample_dir):
    rows = sample_rows(sample_dir, 16)
    out, _ = run_stage(Uppercase(flaky_batches=1), rows, batch_rows=16)
    assert not any(is_reject(r) for r in out) and len(out) == 16


def test_a_stage_returning_the_wrong_number_of_rows_is_a_bug_not_a_reject(sample_dir):
    class Lossy(PairStage):
        name = "lossy"

        def process_batch(self, rows):
            return rows[1:]

    with pytest.raises(StageContractError, match="stage 'lossy': 0 results for 1 inputs"):
        run_stage(Lossy(), sample_rows(sample_dir, 16), batch_rows=16)


def test_batches_are_consecutive_rows_of_the_shard(sample_dir):
    """Which rows meet in a batch is a function of the shard alone (the basis of byte-identical shards)."""
    rows = sample_rows(sample_dir, 50)
    stage = Uppercase()
    run_stage(stage, rows, batch_rows=16)
    assert stage.batches == [[r["id"] for r in rows[i:i + 16]] for i in range(0, 50, 16)]


def test_run_stage_on_beam_moves_rejects_to_the_shard_and_counts(sample_dir):
    rows = sample_rows(sample_dir, 40)
    rows[5] = {**rows[5], "cs": POISON}
    read_reject = {"id": "t:f:0", "stage": "read", "reason": "empty_line", "detail": "", "raw": ""}
    pipeline = beam.Pipeline(runner=FnApiRunner())
    out = (pipeline | beam.Create([ShardWork("shard-a", rows, [read_reject], 41)])
           | RunStage(Uppercase(poison=POISON, max_rows=16), batch_rows=32)
           | beam.Map(lambda w: (w.name, [r["id"] for r in w.rows], [(r["id"], r["reason"]) for r in w.rejects],
                                 w.read)))
    from apache_beam.testing.util import assert_that, equal_to
    assert_that(out, equal_to([("shard-a", [r["id"] for i, r in enumerate(rows) if i != 5],
                                [("t:f:0", "empty_line"), ("t:f:6", "error")], 41)]))
    result = pipeline.run()
    result.wait_until_finish()
    counters = {m.key.metric.name: m.committed
                for m in result.metrics().query(MetricsFilter().with_namespace("translate"))["counters"]}
    assert counters["rows_in"] == 40 and counters["rows_out"] == 39 and counters["reject_error"] == 1
    assert counters["batches"] == 2 and counters["batch_splits"] >= 2


def test_every_registered_stage_runs_through_the_one_adapter(repo):
    """The stage table is the only registry: each stage with a factory becomes a RunStage around its PairStage,
    with its batch size from its own config section."""
    config = BuildConfig(stages=[s.name for s in STAGES])
    config.translate.model = str(repo / "tests" / "fixtures" / "nmt-tiny")
    for spec in STAGES[1:]:
        transform = build_stage(spec.name, config)
        assert isinstance(transform, RunStage) and isinstance(transform.stage, PairStage)
        assert transform.stage.name == spec.name
        assert transform.batch_rows == getattr(config.section(spec.name), spec.batch_field)
