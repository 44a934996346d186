"""Fault injection into the stage adapter: failing batches are split and retried, a poisoned sentence becomes a
reject with the error, an out-of-memory batch is split until it fits, and nothing is lost or duplicated.
The faults come from test-only PairStage subclasses (no production flag)."""
import apache_beam as beam
import pytest
from apache_beam.testing.util import assert_that, equal_to

from paranmt.models.stage import PairStage
from paranmt.schemas.records import empty_row, is_reject
from paranmt.transforms.stage import ApplyStage, StageContractError, run_with_retry

POISON = "☠ this sentence crashes the model"


class Uppercase(PairStage):
    """A stage with real work to check (uppercases `ref` into `bt`), plus injected faults."""
    name = "translate"

    def __init__(self, poison=None, max_rows=None, flaky_batches=0):
        self.poison, self.max_rows, self.flaky = poison, max_rows, flaky_batches
        self.calls = 0

    def process_batch(self, rows):
        self.calls += 1
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
    splits = []
    out = run_with_retry(Uppercase(poison=POISON), rows, on_split=lambda: splits.append(1))
    assert [r["id"] for r in out] == [r["id"] for r in rows]
    rejects = [r for r in out if is_reject(r)]
    assert len(rejects) == 1 and rejects[0]["id"] == "t:f:38" and rejects[0]["stage"] == "translate"
    assert rejects[0]["reason"] == "error" and "ValueError: decoder produced NaN" in rejects[0]["detail"]
    assert rejects[0]["raw"].startswith(POISON)
    assert all(r["bt"] == r["ref"].upper() for r in out if not is_reject(r))
    assert len(splits) == 6        # 64 -> 32 -> 16 -> 8 -> 4 -> 2 -> 1 along the poisoned path


def test_out_of_memory_batches_are_split_until_they_fit(sample_dir):
    rows = sample_rows(sample_dir)
    out = run_with_retry(Uppercase(max_rows=8), rows)
    assert not any(is_reject(r) for r in out) and [r["bt"] for r in out] == [r["ref"].upper() for r in rows]


def test_a_transient_failure_is_retried_and_succeeds(sample_dir):
    rows = sample_rows(sample_dir, 16)
    out = run_with_retry(Uppercase(flaky_batches=1), rows)
    assert not any(is_reject(r) for r in out) and len(out) == 16


def test_a_stage_returning_the_wrong_number_of_rows_is_a_bug_not_a_reject(sample_dir):
    class Lossy(PairStage):
        name = "lossy"

        def process_batch(self, rows):
            return rows[1:]

    with pytest.raises(StageContractError, match="returned 15 outputs for 16 rows"):
        run_with_retry(Lossy(), sample_rows(sample_dir, 16))


def test_apply_stage_on_beam_tags_rejects_and_keeps_shards(sample_dir):
    rows = sample_rows(sample_dir, 40)
    rows[5] = {**rows[5], "cs": POISON}
    with beam.Pipeline("DirectRunner") as pipeline:
        good, rejects = (pipeline | beam.Create([("shard-a", r) for r in rows])
                         | ApplyStage(Uppercase(poison=POISON, max_rows=16), max_batch=32))
        assert_that(good | "Ids" >> beam.Map(lambda kv: (kv[0], kv[1]["id"])),
                    equal_to([("shard-a", r["id"]) for i, r in enumerate(rows) if i != 5]), label="Good")
        assert_that(rejects | "RejectIds" >> beam.Map(lambda kv: (kv[0], kv[1]["id"], kv[1]["reason"])),
                    equal_to([("shard-a", "t:f:6", "error")]), label="Rejects")
