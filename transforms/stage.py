"""Beam adapter for any `PairStage`: batching, one setup per worker, counters, split-and-retry, tagged rejects.

Elements are `(shard, row)` tuples: the shard name travels with every row so that the writer can group rows and
rejects by shard without the stages knowing about it.
"""
from __future__ import annotations

import time

import apache_beam as beam
from apache_beam.metrics import Metrics

from paranmt.models.stage import PairStage
from paranmt.schemas.records import is_reject, reject_row

REJECTS = "rejects"


class StageContractError(RuntimeError):
    """A stage returned a different number of outputs than inputs (a bug in the stage, never a data problem)."""


def raw_of(row: dict) -> str:
    """The raw text kept in a reject row for a pair that was already read: `cs TAB ref`."""
    return f"{row.get('cs', '')}\t{row.get('ref', '')}"


def run_with_retry(stage: PairStage, rows: list[dict], on_split=None) -> list[dict]:
    """`stage.process_batch(rows)`; when it raises, split the batch in halves and retry each half, down to single
    rows; a single row that still fails becomes a reject (`reason=error`, detail = the exception)."""
    try:
        outputs = stage.process_batch(rows)
    except Exception as error:  # noqa: BLE001 - any model failure is split and retried, then rejected
        if len(rows) == 1:
            return [reject_row(rows[0]["id"], stage.name, "error", f"{type(error).__name__}: {error}",
                               raw_of(rows[0]))]
        if on_split:
            on_split()
        middle = len(rows) // 2
        return run_with_retry(stage, rows[:middle], on_split) + run_with_retry(stage, rows[middle:], on_split)
    if len(outputs) != len(rows):
        raise StageContractError(f"stage {stage.name!r} returned {len(outputs)} outputs for {len(rows)} rows")
    return outputs


class _ApplyStageFn(beam.DoFn):
    def __init__(self, stage: PairStage):
        self.stage = stage
        self.rows_in = Metrics.counter(stage.name, "rows_in")
        self.rows_out = Metrics.counter(stage.name, "rows_out")
        self.splits = Metrics.counter(stage.name, "batch_splits")
        self.batches = Metrics.counter(stage.name, "batches")
        self.load_ms = Metrics.distribution(stage.name, "setup_ms")
        self.batch_ms = Metrics.distribution(stage.name, "batch_ms")

    def setup(self):
        start = time.perf_counter()
        self.stage.setup()
        self.load_ms.update(int(1000 * (time.perf_counter() - start)))

    def process(self, batch):
        shards = [shard for shard, _ in batch]
        rows = [row for _, row in batch]
        start = time.perf_counter()
        outputs = run_with_retry(self.stage, rows, on_split=lambda: self.splits.inc())
        self.batch_ms.update(int(1000 * (time.perf_counter() - start)))
        self.batches.inc()
        self.rows_in.inc(len(rows))
        for shard, output in zip(shards, outputs):
            if is_reject(output):
                Metrics.counter(self.stage.name, f"reject_{output['reason']}").inc()
                yield beam.pvalue.TaggedOutput(REJECTS, (shard, output))
            else:
                self.rows_out.inc()
                yield shard, output


class ApplyStage(beam.PTransform):
    """(shard, row) -> (rows, rejects): run a PairStage over batches of `min_batch..max_batch` rows (Beam's
    BatchElements picks the size in between from measured batch times; default min_batch = max_batch / 8)."""

    def __init__(self, stage: PairStage, max_batch: int = 256, min_batch: int | None = None):
        super().__init__(label=stage.name.capitalize() or None)
        self.stage, self.max_batch = stage, max_batch
        self.min_batch = min_batch if min_batch is not None else max(1, max_batch // 8)

    def expand(self, pcoll):
        outputs = (pcoll
                   | "Batch" >> beam.BatchElements(min_batch_size=self.min_batch, max_batch_size=self.max_batch)
                   | "Apply" >> beam.ParDo(_ApplyStageFn(self.stage)).with_outputs(REJECTS, main="rows"))
        return outputs.rows, outputs[REJECTS]
