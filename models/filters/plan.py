"""A filter plan: the ordered row filters, then deduplication, then deterministic sampling, decided row by row.

Every input row gets exactly one verdict: kept, or dropped with ONE reason — the first row filter that rejects it
(its name), else `duplicate_<field>` (field = pair, ref or bt), else `not_sampled`.

The global parts are computed by the pipeline beforehand and handed in:
- quantile bounds of each QuantileFilter, over the whole input (before any filter);
- dedup winners: for every dedup key shared by more than one row that passed the row filters, the id of the row
  that wins (`text_keys.dedup_rank`: highest para_score, then smallest id). A row is kept only if it wins every
  dedup group it belongs to. (Because all groups use the same total order, this keeps exactly one row of every
  `pair` group; for `ref`/`bt` groups it can drop a whole group whose winner lost in another field, which a
  sequential greedy dedup would not; we prefer the order-independent rule.)
- the sample threshold: the N-th smallest `sample_hash(id, seed)` among the rows that survived filters and dedup;
  rows with a larger hash are `not_sampled`. Exactly min(N, survivors) rows are kept (hashes are 64-bit, so ties
  are practically impossible; a tie would keep both).
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from paranmt.models.filters.base import PairFilter
from paranmt.models.filters.pair_filters import QuantileFilter
from paranmt.models.filters.quantiles import value_at
from paranmt.models.filters.text_keys import dedup_key, sample_hash

NOT_SAMPLED = "not_sampled"


def duplicate_reason(dedup_field: str) -> str:
    return f"duplicate_{dedup_field}"


@dataclass
class FilterPlan:
    filters: list[PairFilter]
    dedup: list[str] = field(default_factory=list)
    dedup_normalization: str = "normalized"
    sample: int | None = None
    seed: str = "paranmt"

    @property
    def quantile_columns(self) -> list[str]:
        return sorted({f.column for f in self.filters if isinstance(f, QuantileFilter)})

    def required_columns(self) -> list[str]:
        """Columns the plan reads besides `id` (a missing one is a configuration error before any work)."""
        needed = {column for f in self.filters for column in f.requires}
        if self.dedup:
            needed.add("para_score")  # dedup_rank
            needed.update({"ref", "bt"} if "pair" in self.dedup else set(self.dedup))
        return sorted(needed)

    def reasons(self) -> list[str]:
        """All drop reasons in the order they are tested (the report's order)."""
        return ([f.name for f in self.filters] + [duplicate_reason(d) for d in self.dedup]
                + ([NOT_SAMPLED] if self.sample else []))

    def bind_quantiles(self, quantiles: dict[str, list[float]]) -> "FilterPlan":
        """A copy whose QuantileFilters carry value bounds from `quantiles[column]` (evenly spaced quantiles)."""
        bound = [f.with_bounds(value_at(quantiles[f.column], f.lower), value_at(quantiles[f.column], f.upper))
                 if isinstance(f, QuantileFilter) else f for f in self.filters]
        return FilterPlan(bound, list(self.dedup), self.dedup_normalization, self.sample, self.seed)

    def row_verdict(self, row: dict) -> tuple[str, str] | None:
        """None when every row filter accepts the row, else (reason, detail) of the first that rejects it."""
        for pair_filter in self.filters:
            accepted, score = pair_filter.check(row)
            if not accepted:
                return pair_filter.name, f"score={score!r}; keeps {pair_filter.describe()}"
        return None

    def dedup_keys(self, row: dict) -> dict[str, int]:
        keys = {}
        for dedup_field in self.dedup:
            key = dedup_key(row, dedup_field, self.dedup_normalization)
            if key is not None:
                keys[dedup_field] = key
        return keys

    def dedup_verdict(self, row: dict, winners: Mapping[tuple[str, int], str]) -> tuple[str, str] | None:
        """`winners` maps (dedup field, key) -> winning id, for the keys shared by more than one row."""
        for dedup_field, key in self.dedup_keys(row).items():
            winner = winners.get((dedup_field, key))
            if winner is not None and winner != row["id"]:
                detail = f"duplicate of {winner} ({self.dedup_normalization} {dedup_field})"
                return duplicate_reason(dedup_field), detail
        return None

    def sample_hash(self, row: dict) -> int:
        return sample_hash(row["id"], self.seed)

    def verdict(self, row: dict, winners: Mapping[tuple[str, int], str], sample_threshold: int | None):
        """The final verdict: None = kept, else (reason, detail)."""
        verdict = self.row_verdict(row) or self.dedup_verdict(row, winners)
        if verdict is None and sample_threshold is not None and self.sample_hash(row) > sample_threshold:
            verdict = (NOT_SAMPLED, f"sample of {self.sample} with seed {self.seed!r}")
        return verdict


def filter_counts(reason_counts: dict[str, int], total: int, reasons: list[str]) -> list[dict]:
    """Per-filter accounting in plan order: each step sees the rows the earlier steps kept.
    [{filter, seen, kept, dropped}], with seen_i = total - sum(dropped_j, j < i), kept_i = seen_i - dropped_i."""
    table, seen = [], total
    for reason in reasons:
        dropped = reason_counts.get(reason, 0)
        table.append({"filter": reason, "seen": seen, "kept": seen - dropped, "dropped": dropped})
        seen -= dropped
    return table
