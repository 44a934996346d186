"""Exact quantiles of a score column over the whole input, from counts that merge in any order.

    value_at(f) = v_(r), r = round(f * (N - 1))

the nearest-rank value: v_(0) <= ... <= v_(N-1) are the column's N non-null, non-NaN values in ascending order (as
float32, the shards' type), r is 0-based (Python's round).

Each float32 value v maps to an order-preserving 32-bit key k(v) (its IEEE-754 bits with the sign bit set for
v >= 0, all bits inverted for v < 0), so ranking values = ranking keys. Two counting passes find v_(r) exactly:
  1. `high_counts`: values per high half of the key (k >> 16, 65,536 counters); the running sum tells which
     high half h holds rank r and the rank of v_(r) within it;
  2. `low_counts`: for the needed high halves only, values per low half (k & 0xFFFF, 65,536 counters each); the
     running sum within h gives the low half, and (h, low) -> k -> v_(r).
Counters add, so per-shard counts merged in any order give the same, exact result (deterministic whatever the
sharding or runner), with O(65,536) memory per needed rank.
"""
from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

HALF = 1 << 16
SIGN = np.uint32(0x80000000)


def finite_values(values: pa.Array) -> np.ndarray:
    """The non-null, non-NaN values of a float column as float32."""
    values = values.combine_chunks() if isinstance(values, pa.ChunkedArray) else values
    values = values.drop_null().cast(pa.float32())
    return values.filter(pc.invert(pc.is_nan(values))).to_numpy(zero_copy_only=False)


def order_keys(values: np.ndarray) -> np.ndarray:
    """k(v) of the module docstring: uint32 keys in the order of the float32 values."""
    bits = np.ascontiguousarray(values, dtype=np.float32).view(np.uint32)
    return np.where(bits & SIGN, ~bits, bits | SIGN)


def key_value(key: int) -> float:
    bits = np.uint32(key) ^ SIGN if np.uint32(key) & SIGN else ~np.uint32(key)
    return float(np.array([bits], dtype=np.uint32).view(np.float32)[0])


def high_counts(values: np.ndarray) -> np.ndarray:
    """Pass 1 for one batch: int64[65536], values per high half of the key."""
    return np.bincount(order_keys(values) >> np.uint32(16), minlength=HALF).astype(np.int64)


def rank(fraction: float, total: int) -> int:
    if not 0.0 <= fraction <= 1.0:
        raise ValueError(f"fraction must be in [0, 1], got {fraction}")
    if not total:
        raise ValueError("no values: the column has no non-null value in the input")
    return round(fraction * (total - 1))


def _locate(counts: np.ndarray, target: int) -> tuple[int, int]:
    """(bucket holding the 0-based rank `target`, the rank within that bucket)."""
    cumulative = np.cumsum(counts)
    bucket = int(np.searchsorted(cumulative, target, side="right"))
    return bucket, target - (int(cumulative[bucket - 1]) if bucket else 0)


def needed_buckets(high: np.ndarray, fractions) -> list[int]:
    """The high halves pass 2 has to count for these fractions."""
    total = int(high.sum())
    return sorted({_locate(high, rank(f, total))[0] for f in fractions})


def low_counts(values: np.ndarray, buckets: list[int]) -> dict[int, np.ndarray]:
    """Pass 2 for one batch: {high half: int64[65536] values per low half}, for the `buckets` only."""
    keys = order_keys(values)
    highs = keys >> np.uint32(16)
    return {bucket: np.bincount((keys[highs == bucket] & np.uint32(0xFFFF)), minlength=HALF).astype(np.int64)
            for bucket in buckets}


def value_at(high: np.ndarray, low: dict[int, np.ndarray], fraction: float) -> float:
    """v_(r) for r = round(fraction * (N - 1)), from the merged counts of both passes."""
    bucket, within = _locate(high, rank(fraction, int(high.sum())))
    low_half, _ = _locate(low[bucket], within)
    return key_value((bucket << 16) | low_half)


def add_counts(parts):
    """Sum of count arrays, or of {bucket: count array} dicts (the merge of both passes; any order)."""
    parts = list(parts)
    if parts and isinstance(parts[0], dict):
        merged: dict[int, np.ndarray] = {}
        for part in parts:
            for bucket, counts in part.items():
                merged[bucket] = merged[bucket] + counts if bucket in merged else counts.copy()
        return merged
    return np.sum(parts, axis=0) if parts else np.zeros(HALF, dtype=np.int64)
