"""The filter interface (OpusFilter style): `score(row)` computes a value from a pair row, `accept(score)` decides.

Scores are kept separate from decisions so that a threshold can be changed and re-applied cheaply, and so that a
dropped row can be reported with the score that dropped it. Filters are pure Python, picklable, and never import
Beam; `paranmt.models.filters.plan.FilterPlan` applies an ordered list of them and
`paranmt.transforms.filter` runs that plan over shard files.
"""
from __future__ import annotations

from typing import Any


class PairFilter:
    """One row-level decision about a pair row (a dict with the columns of `PAIR_SCHEMA`).

    Subclasses set `name` (the reason code written for dropped rows, unique within a plan) and `requires` (the
    columns `score` reads; a missing column is a configuration error before any work), and implement `score` and
    `accept`. A null in a required column must give a score that `accept` rejects (never an exception).
    """

    name: str = ""
    requires: tuple[str, ...] = ()

    def score(self, row: dict) -> Any:
        raise NotImplementedError

    def accept(self, score: Any) -> bool:
        raise NotImplementedError

    def describe(self) -> str:
        """One line for reports: what the filter keeps."""
        return self.name

    def check(self, row: dict) -> tuple[bool, Any]:
        """(accepted, score) for one row."""
        value = self.score(row)
        return self.accept(value), value
