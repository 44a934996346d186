"""The report's seeded samples and score bands, decided for whole Arrow tables at a time.

A sample is "the k rows with the smallest seeded hash" per key (a band, a drop reason, a reject reason): a uniform
sample without replacement that depends on the seed and the row ids only, not on the row order or the sharding,
and that streams in O(k) memory per key (`BottomK`). The hash of a row is `text_hashes` (models/filters/text_keys.py,
the filter's vectorized 64-bit hash) of `<seed>:<id>`.

Bands (`Bands`): intervals (low, high] of one numeric column, the first one closed below, as P18 Table 3 bins
para_score. A column with a finite range (para_score, trigram_overlap, SIMILE, xsim, the language-ID confidences)
is cut into tenths of that range (`tenths`: para_score's (0.8, 0.9], ...); any other (bt_score, the lengths) into
its deciles over the whole input (`deciles`, from exact quantiles: models/filters/quantiles.py), equal edges merged.
Edges are float32, the shards' type, so a para_score stored as 0.8 falls in (0.7, 0.8].
"""
from __future__ import annotations

import heapq
import itertools
import math
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from paranmt.models.filters.pair_filters import COLUMN_RANGES
from paranmt.models.filters.text_keys import text_hashes

# finite value ranges of the numeric columns bands can be tenths of (the others: deciles)
BAND_RANGES = {**{name: bounds for name, bounds in COLUMN_RANGES.items() if all(map(math.isfinite, bounds))},
               **{f"{side}_lang_conf": (0.0, 1.0) for side in ("cs", "ref", "bt")}}
HASH_END = np.uint64(2 ** 64 - 1)


def seeded_hashes(ids: pa.Array, seed: str) -> np.ndarray:
    """The 64-bit sample hash (uint64) of every id of `ids` under `seed` (module docstring)."""
    ids = ids.combine_chunks() if isinstance(ids, pa.ChunkedArray) else ids
    return text_hashes(pc.binary_join_element_wise(f"{seed}:", ids.cast(pa.string()), ""))


def float_values(values: pa.Array) -> np.ndarray:
    """A numeric column as float64 (null -> NaN)."""
    values = values.combine_chunks() if isinstance(values, pa.ChunkedArray) else values
    return values.cast(pa.float64()).fill_null(math.nan).to_numpy(zero_copy_only=False)


@dataclass(frozen=True)
class Bands:
    """Bands (edges[i], edges[i + 1]] of `column` (the first closed below): `kind` says how they were cut."""
    column: str
    edges: tuple[float, ...]
    kind: str = "tenths"

    @classmethod
    def tenths(cls, column: str) -> "Bands":
        low, high = BAND_RANGES[column]
        edges = np.linspace(low, high, 11 if high - low <= 1 else 21)
        return cls(column, tuple(float(np.float32(round(edge, 6))) for edge in edges))

    @classmethod
    def deciles(cls, column: str, values: list[float]) -> "Bands":
        """Bands between the quantile `values` at 0, 0.1, ..., 1 (equal ones merged; one band when all are)."""
        edges = sorted(set(values))
        return cls(column, tuple(edges if len(edges) > 1 else [edges[0], edges[0]]), "deciles")

    def __len__(self) -> int:
        return len(self.edges) - 1

    def labels(self) -> list[str]:
        def number(value: float) -> str:
            return f"{value:.{0 if self.kind == 'deciles' and float(value).is_integer() else 2}f}"
        return [f"({number(low)}, {number(high)}]" for low, high in zip(self.edges, self.edges[1:])]

    def index(self, values: np.ndarray) -> np.ndarray:
        """The band of each value (int64), -1 for NaN; values outside the edges go to the end bands."""
        edges = np.asarray(self.edges, dtype=np.float64)
        bands = np.clip(np.searchsorted(edges, values, side="left") - 1, 0, len(self) - 1)
        return np.where(np.isnan(values), -1, bands)


class BottomK:
    """Per key (an int code), the `k` rows with the smallest hash seen so far, as dicts of the given table's columns.
    `offer` takes a whole table; only rows that can enter a sample become Python objects."""

    def __init__(self, k: int):
        self.k = k
        self.heaps: dict[int, list] = {}      # key -> max-heap by hash: (-hash, arrival, row)
        self.arrival = itertools.count()

    def limit(self, key: int) -> np.uint64:
        """Hashes below this can enter the sample of `key`."""
        heap = self.heaps.get(key, [])
        return np.uint64(-heap[0][0]) if len(heap) >= self.k else HASH_END

    def offer(self, keys: np.ndarray, hashes: np.ndarray, table: pa.Table) -> None:
        """Rows of `table` whose key is `keys[i]` (negative: none) and hash `hashes[i]`."""
        for key in np.unique(keys[keys >= 0]).tolist():
            chosen = np.flatnonzero((keys == key) & (hashes < self.limit(key)))
            if chosen.size > self.k:
                chosen = chosen[np.argsort(hashes[chosen], kind="stable")[: self.k]]
            heap = self.heaps.setdefault(key, [])
            for position, row in zip(chosen.tolist(), table.take(pa.array(chosen, pa.int64())).to_pylist()):
                entry = (-int(hashes[position]), next(self.arrival), row)
                if len(heap) < self.k:
                    heapq.heappush(heap, entry)
                elif entry[0] > heap[0][0]:
                    heapq.heapreplace(heap, entry)

    def rows(self, key: int) -> list[dict]:
        """The sample of `key`, smallest hash first."""
        return [row for _, _, row in sorted(self.heaps.get(key, []), key=lambda entry: (-entry[0], entry[1]))]
