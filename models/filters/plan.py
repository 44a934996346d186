"""A filter plan: the ordered row filters, then deduplication, then deterministic sampling, decided for whole Arrow
tables at a time (pyarrow compute and numpy; the only per-row Python is the sample hash, and only when sampling).

Every input row gets exactly one verdict: kept, or dropped with ONE reason — the first row filter that rejects it
(its name), else `duplicate_<field>` (field = pair, ref or bt), else `not_sampled`. Verdicts are codes: KEPT, or
the index of the reason in `reasons()`.

The global parts are computed by the pipeline beforehand and handed in:
- quantile values of each QuantileFilter's column at its lower and upper fractions, exact over the whole input
  (before any filter; `quantiles.py`);
- dedup losers: the rows that passed the row filters (candidates: one row per dedup field with a key,
  `dedup_candidates`) are grouped by (field, key) (`text_keys`); in each group of more than one row the row with
  the highest para_score wins (null lowest, ties: the smallest id) and every other row loses (`dedup_losers`). A row
  is kept only if it wins every dedup group it belongs to. (Because all groups use the same total order, this keeps
  exactly one row of every `pair` group; for `ref`/`bt` groups it can drop a whole group whose winner lost in
  another field, which a sequential greedy dedup would not; we prefer the order-independent rule.)
- the sample threshold: the N-th smallest `sample_hash(id, seed)` among the rows that survived filters and dedup;
  rows with a larger hash are `not_sampled`. Exactly min(N, survivors) rows are kept (hashes are 64-bit, so ties
  are practically impossible; a tie would keep both).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from paranmt.models.filters.base import PairFilter, column, describe_scores
from paranmt.models.filters.pair_filters import QuantileFilter
from paranmt.models.filters.text_keys import dedup_keys, dedup_scores, sample_hash

NOT_SAMPLED = "not_sampled"
KEPT = -1
CANDIDATE_SCHEMA = pa.schema([("key", pa.uint64()), ("field", pa.int8()), ("score", pa.float32()),
                              ("id", pa.string())])
LOSER_SCHEMA = pa.schema([("id", pa.string()), ("field", pa.int8()), ("winner", pa.string())])


def duplicate_reason(dedup_field: str) -> str:
    return f"duplicate_{dedup_field}"


@dataclass
class FilterPlan:
    filters: list[PairFilter]
    dedup: list[str] = field(default_factory=list)
    dedup_normalization: str = "normalized"
    sample: int | None = None
    seed: str = "paranmt"

    def quantile_fractions(self) -> dict[str, list[float]]:
        """{column: the fractions whose quantile values the QuantileFilters on it need}."""
        fractions: dict[str, set[float]] = {}
        for f in self.filters:
            if isinstance(f, QuantileFilter):
                fractions.setdefault(f.column, set()).update((f.lower, f.upper))
        return {column: sorted(values) for column, values in sorted(fractions.items())}

    def required_columns(self) -> list[str]:
        """Columns the plan reads besides `id` (a missing one is a configuration error before any work)."""
        needed = {name for f in self.filters for name in f.requires}
        if self.dedup:
            needed.add("para_score")  # the dedup order
            needed.update({"ref", "bt"} if "pair" in self.dedup else set(self.dedup))
        return sorted(needed)

    def reasons(self) -> list[str]:
        """All drop reasons in the order they are tested (the report's order); a verdict code indexes this list."""
        return ([f.name for f in self.filters] + [duplicate_reason(d) for d in self.dedup]
                + ([NOT_SAMPLED] if self.sample else []))

    def bind_quantiles(self, quantiles: dict[str, dict[float, float]]) -> "FilterPlan":
        """A copy whose QuantileFilters carry value bounds from `quantiles[column][fraction]`."""
        bound = [f.with_bounds(quantiles[f.column][f.lower], quantiles[f.column][f.upper])
                 if isinstance(f, QuantileFilter) else f for f in self.filters]
        return FilterPlan(bound, list(self.dedup), self.dedup_normalization, self.sample, self.seed)

    def row_verdicts(self, table: pa.Table, with_details: bool = False) -> tuple[np.ndarray, pa.Array | None]:
        """(codes, details) of the row filters: codes[i] = KEPT when every filter accepts row i, else the index of
        the first that rejects it; details (only `with_details`) = `<score>; keeps <what the filter keeps>` for
        dropped rows, null for kept ones."""
        codes = np.full(table.num_rows, KEPT, dtype=np.int16)
        details = pa.nulls(table.num_rows, pa.string()) if with_details else None
        for index, pair_filter in enumerate(self.filters):
            accepted, score = pair_filter.check(table)
            dropped_here = (codes == KEPT) & ~accepted
            codes[dropped_here] = index
            if with_details and dropped_here.any():
                text = pc.binary_join_element_wise(describe_scores(score), f"; keeps {pair_filter.describe()}", "")
                details = pc.if_else(pa.array(dropped_here), text, details)
        return codes, details

    def dedup_candidates(self, table: pa.Table, codes: np.ndarray) -> pa.Table:
        """CANDIDATE_SCHEMA rows (key, field index, dedup score, id) of the rows still KEPT, one per dedup field
        with a key."""
        alive = codes == KEPT
        if not alive.any():
            return CANDIDATE_SCHEMA.empty_table()
        table = table.filter(pa.array(alive))
        scores, ids = dedup_scores(table), column(table, "id")
        parts = []
        for index, dedup_field in enumerate(self.dedup):
            keys, has_key = dedup_keys(table, dedup_field, self.dedup_normalization)
            mask = pa.array(has_key)
            parts.append(pa.table([pa.array(keys[has_key]), pa.array(np.full(int(has_key.sum()), index, np.int8)),
                                   pa.array(scores[has_key]), ids.filter(mask)], schema=CANDIDATE_SCHEMA))
        return pa.concat_tables(parts)

    def apply_losers(self, ids: pa.Array, codes: np.ndarray, details: pa.Array | None, losers: pa.Table):
        """Mark the KEPT rows whose id is among `losers` (LOSER_SCHEMA) as duplicates, by the first dedup field
        (in plan order) they lose in. Returns (codes, details)."""
        first = len(self.filters)
        for index, dedup_field in enumerate(self.dedup):
            if not losers.num_rows:
                break
            lost = losers.filter(pc.equal(losers.column("field"), index))
            position = pc.index_in(ids, lost.column("id"))
            dropped_here = (codes == KEPT) & position.is_valid().to_numpy(zero_copy_only=False)
            codes[dropped_here] = first + index
            if details is not None and dropped_here.any():
                winners = pc.take(lost.column("winner"), position)
                text = pc.binary_join_element_wise(
                    "duplicate of ", winners, f" ({self.dedup_normalization} {dedup_field})", "")
                details = pc.if_else(pa.array(dropped_here), text, details)
        return codes, details

    def sample_hashes(self, ids: pa.Array) -> np.ndarray:
        return np.fromiter((sample_hash(row_id, self.seed) for row_id in ids.to_pylist()), dtype=np.uint64,
                           count=len(ids))

    def apply_sample(self, ids: pa.Array, codes: np.ndarray, details: pa.Array | None, threshold: int | None):
        """Mark the KEPT rows whose sample hash exceeds `threshold` (None: no sampling) as not sampled."""
        alive = np.flatnonzero(codes == KEPT)
        if threshold is None or not alive.size:
            return codes, details
        over = alive[self.sample_hashes(pc.take(ids, pa.array(alive))) > np.uint64(threshold)]
        codes[over] = len(self.reasons()) - 1
        if details is not None and over.size:
            dropped_here = np.zeros(len(codes), dtype=bool)
            dropped_here[over] = True
            details = pc.if_else(pa.array(dropped_here), f"sample of {self.sample} with seed {self.seed!r}",
                                 details)
        return codes, details

    def verdicts(self, table: pa.Table, losers: pa.Table, sample_threshold: int | None, with_details: bool = False):
        """The final (codes, details) of every row of `table`: row filters, then dedup losers, then the sample."""
        codes, details = self.row_verdicts(table, with_details)
        ids = column(table, "id")
        codes, details = self.apply_losers(ids, codes, details, losers)
        return self.apply_sample(ids, codes, details, sample_threshold)


def dedup_losers(candidates: pa.Table) -> pa.Table:
    """LOSER_SCHEMA rows plus the candidates' extra columns (e.g. the shard they came from) for every candidate
    that is not the best of its (field, key) group: best = highest score, ties broken by the smallest id."""
    extra = [name for name in candidates.column_names if name not in CANDIDATE_SCHEMA.names]
    parts = []
    for field_index in np.unique(candidates.column("field").to_numpy()):
        group = candidates.filter(pc.equal(candidates.column("field"), field_index))
        _, inverse, counts = np.unique(group.column("key").to_numpy(), return_inverse=True, return_counts=True)
        shared = group.filter(pa.array(counts[inverse] > 1))
        if not shared.num_rows:
            continue
        shared = shared.sort_by([("key", "ascending"), ("score", "descending"), ("id", "ascending")])
        keys = shared.column("key").to_numpy()
        starts = np.ones(len(keys), dtype=bool)
        starts[1:] = keys[1:] != keys[:-1]
        group_start = np.maximum.accumulate(np.where(starts, np.arange(len(keys)), 0))
        losing = np.flatnonzero(~starts)
        winners = pc.take(shared.column("id"), pa.array(group_start[losing]))
        lost = shared.take(pa.array(losing))
        parts.append(pa.table([lost.column("id"), lost.column("field"), winners]
                              + [lost.column(name) for name in extra],
                              names=LOSER_SCHEMA.names + extra))
    if not parts:
        return pa.table([pa.array([], f.type) for f in LOSER_SCHEMA]
                        + [candidates.column(name).slice(0, 0) for name in extra], names=LOSER_SCHEMA.names + extra)
    return pa.concat_tables(parts)


def filter_counts(reason_counts: dict[str, int], total: int, reasons: list[str]) -> list[dict]:
    """Per-filter accounting in plan order: each step sees the rows the earlier steps kept.
    [{filter, seen, kept, dropped}], with seen_i = total - sum(dropped_j, j < i), kept_i = seen_i - dropped_i."""
    table, seen = [], total
    for reason in reasons:
        dropped = reason_counts.get(reason, 0)
        table.append({"filter": reason, "seen": seen, "kept": seen - dropped, "dropped": dropped})
        seen -= dropped
    return table
