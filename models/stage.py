"""The one small interface every pair stage implements, and the one loop that runs it (pure Python, no Beam).

A stage receives a batch of pair rows (dicts with the columns of `paranmt.schemas.records.PAIR_SCHEMA`) and
returns, for each input row and in the same order, exactly one output: the row with the stage's columns filled,
or a reject row (`paranmt.schemas.records.reject_row`).

`run_stage(stage, rows, batch_rows)` is how every stage runs in `paranmt build` (through the one Beam adapter
`paranmt.transforms.stage.RunStage`): the rows of one shard are cut into consecutive batches of `batch_rows` rows,
in order, so which rows meet in a batch is a function of the shard alone (same input and config -> same batches ->
byte-identical shards, whatever the runner or the number of workers). A batch that raises is split in halves and
retried (`split_retry`, the project's only split-and-retry), down to single rows; a row that still fails becomes a
reject (`reason=error`). Adding a stage never touches the loop or the adapter.
"""
from __future__ import annotations

import threading
from collections import Counter
from typing import Callable, TypeVar

from paranmt.schemas.records import reject_row

T = TypeVar("T")
R = TypeVar("R")

_MODELS: dict = {}
_MODELS_LOCK = threading.Lock()


class StageContractError(RuntimeError):
    """A stage returned a different number of outputs than inputs (a bug in the stage, never a data problem)."""


def process_model(key, load: Callable[[], T]) -> T:
    """One model per `key` per process, loaded by `load()` on first use and shared by every stage instance (and
    every Beam DoFn thread) of the process. The project's only per-process model cache."""
    with _MODELS_LOCK:
        if key not in _MODELS:
            _MODELS[key] = load()
        return _MODELS[key]


def raw_of(row: dict) -> str:
    """The raw text kept in a reject row for a pair that was already read: `cs TAB ref`."""
    return f"{row.get('cs', '')}\t{row.get('ref', '')}"


def split_retry(items: list[T], run: Callable[[list[T]], list[R]], fail: Callable[[T, Exception], R],
                on_split: Callable[[], None] | None = None, errors: tuple = (Exception,)) -> list[R]:
    """`run(items)`, one result per item; when it raises one of `errors` (or returns a wrong number of results),
    split the items in halves and retry each half, down to single items; a single item that still fails gets
    `fail(item, error)`. The project's only split-and-retry (stages, model calls, parser calls)."""
    try:
        results = run(items)
        if len(results) != len(items):
            raise StageContractError(f"{len(results)} results for {len(items)} inputs")
        return results
    except (StageContractError, *errors) as error:  # split and retried, then handed to `fail`
        if len(items) == 1:
            return [fail(items[0], error)]
        if on_split:
            on_split()
        middle = len(items) // 2
        return (split_retry(items[:middle], run, fail, on_split, errors)
                + split_retry(items[middle:], run, fail, on_split, errors))


class PairStage:
    """Base class of the build pipeline's stages (clean, translate, score, parse, ...).

    Subclasses set `name` and implement `process_batch`; they load models in `setup()` (called once per worker
    process, before the first batch) so that constructing a stage stays cheap and picklable. A stage may report
    what a batch did in `last_counts` (name -> count; the adapter turns them into counters `<name>/<key>`).
    `requires` names the columns that must be filled for the stage to run (checked on shards read back).
    """

    name: str = ""
    requires: tuple[str, ...] = ("cs", "ref")
    last_counts: Counter

    def setup(self) -> None:
        """Load models and other per-worker state. Default: nothing to load."""

    def process_batch(self, rows: list[dict]) -> list[dict]:
        """One output per input row, same order: the updated row or a reject row."""
        raise NotImplementedError


def run_stage(stage: PairStage, rows: list[dict], batch_rows: int,
              on_batch: Callable[[int, int], None] | None = None) -> tuple[list[dict], Counter]:
    """The stage over `rows` in consecutive batches of `batch_rows` rows (see the module docstring); returns one
    output per row (row or reject, same order) and the counts: `batches`, `batch_splits`, and the stage's own
    `last_counts` summed over batches. `on_batch(rows done, rows in the batch)` is called after each batch (the
    adapter's heartbeat)."""
    counts: Counter = Counter()

    def run(batch: list[dict]) -> list[dict]:
        stage.last_counts = Counter()
        outputs = stage.process_batch(batch)
        counts.update(stage.last_counts)
        return outputs

    def fail(row: dict, error: Exception) -> dict:
        if isinstance(error, StageContractError):
            raise StageContractError(f"stage {stage.name!r}: {error}") from None
        return reject_row(row["id"], stage.name, "error", f"{type(error).__name__}: {error}", raw_of(row))

    def split() -> None:
        counts["batch_splits"] += 1

    outputs: list[dict] = []
    for start in range(0, len(rows), batch_rows):
        batch = rows[start:start + batch_rows]
        outputs += split_retry(batch, run, fail, split)
        counts["batches"] += 1
        if on_batch:
            on_batch(len(outputs), len(batch))
    return outputs, counts
