"""The filter interface (OpusFilter style), on whole Arrow tables: `score(table)` computes one value per row,
`accept(score)` decides for every row at once.

Scores are kept separate from decisions so that a threshold can be changed and re-applied cheaply, and so that a
dropped row can be reported with the score that dropped it. Filters are pure (pyarrow compute and numpy, no
per-row Python), picklable, and never import Beam; `paranmt.models.filters.plan.FilterPlan` applies an ordered
list of them and `paranmt.transforms.filter` runs that plan over shard files, one record batch at a time.
"""
from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc


class PairFilter:
    """One row-level decision about pair rows (Arrow tables with the columns of `PAIR_SCHEMA`).

    Subclasses set `name` (the reason code written for dropped rows, unique within a plan) and `requires` (the
    columns `score` reads; a missing column is a configuration error before any work), and implement `score`
    (table -> one Arrow value per row: an array, or a struct array when a row has several values) and `accept`
    (score -> numpy bool array). A null in a required column must give a score that `accept` rejects (never an
    exception).
    """

    name: str = ""
    requires: tuple[str, ...] = ()

    def score(self, table: pa.Table) -> pa.Array:
        raise NotImplementedError

    def accept(self, score: pa.Array) -> np.ndarray:
        raise NotImplementedError

    def describe(self) -> str:
        """One line for reports: what the filter keeps."""
        return self.name

    def check(self, table: pa.Table) -> tuple[np.ndarray, pa.Array]:
        """(accepted, score) for every row of `table`."""
        score = self.score(table)
        return self.accept(score), score


def column(table: pa.Table, name: str) -> pa.Array:
    values = table.column(name)
    return values.combine_chunks() if isinstance(values, pa.ChunkedArray) else values


def struct_of(table: pa.Table, names) -> pa.StructArray:
    """A score of several columns per row: the columns `names` of `table` as one struct array."""
    return pa.StructArray.from_arrays([column(table, name) for name in names], list(names))


def every_field(score: pa.StructArray, accept) -> np.ndarray:
    """True where `accept(field)` holds for every field of a struct score."""
    keep = np.ones(len(score), dtype=bool)
    for index in range(score.type.num_fields):
        keep &= accept(score.field(index))
    return keep


def true_where(mask: pa.Array) -> np.ndarray:
    """A boolean Arrow array as numpy, null -> False."""
    return mask.fill_null(False).to_numpy(zero_copy_only=False)


def describe_scores(score: pa.Array) -> pa.Array:
    """Each row's score as text for the dropped rows' `drop_detail`: `score=0.31`, or `ref_len=31, bt_len=5` for a
    struct score; a null value reads `null`."""
    if pa.types.is_struct(score.type):
        parts = []
        for index, field in enumerate(score.type):
            if parts:
                parts.append(pa.scalar(", "))
            parts += [pa.scalar(f"{field.name}="), pc.cast(score.field(index), pa.string()).fill_null("null")]
        return pc.binary_join_element_wise(*parts, "")
    return pc.binary_join_element_wise("score=", pc.cast(score, pa.string()).fill_null("null"), "")
