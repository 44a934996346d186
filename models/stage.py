"""The one small interface every pair stage implements (pure Python, no Beam inside).

A stage receives a batch of pair rows (dicts with the columns of `paranmt.schemas.records.PAIR_SCHEMA`) and
returns, for each input row and in the same order, exactly one output: the row with the stage's columns filled,
or a reject row (`paranmt.schemas.records.reject_row`). The Beam adapter `paranmt.transforms.stage.ApplyStage`
wraps any PairStage once: batching, one `setup()` per worker, counters, split-and-retry of failing batches, and a
tagged output for rejects. Adding a stage never touches the adapter.
"""
from __future__ import annotations


class PairStage:
    """Base class of the build pipeline's stages (clean, translate, score, parse).

    Subclasses set `name` and implement `process_batch`; they load models in `setup()` (called once per worker
    process, before the first batch) so that constructing a stage stays cheap and picklable.
    `requires` names the columns that must be filled for the stage to run (checked on shards read back).
    """

    name: str = ""
    requires: tuple[str, ...] = ("cs", "ref")

    def setup(self) -> None:
        """Load models and other per-worker state. Default: nothing to load."""

    def process_batch(self, rows: list[dict]) -> list[dict]:
        """One output per input row, same order: the updated row or a reject row."""
        raise NotImplementedError

    def identity(self) -> dict:
        """Identities (path + sha256) of the models this stage uses, for Parquet metadata. Default: none."""
        return {}
