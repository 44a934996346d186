"""Quantile helpers: turning the evenly spaced quantile list of an approximate-quantiles sketch into the value
bounds of a `QuantileFilter`.

A sketch with n = NUM_QUANTILES returns values q_0 = min, q_i ~ the (i / (n - 1))-quantile, q_{n-1} = max. The value
at fraction f is q_round(f * (n - 1)). With n = 1001 (Beam's ApproximateQuantiles, epsilon = 1 / n) each bound is
within about 0.1% of the input's rows of its exact rank.
"""
from __future__ import annotations

NUM_QUANTILES = 1001


def value_at(quantiles: list[float], fraction: float) -> float:
    if not quantiles:
        raise ValueError("no quantiles: the column has no non-null value in the input")
    if not 0.0 <= fraction <= 1.0:
        raise ValueError(f"fraction must be in [0, 1], got {fraction}")
    return quantiles[round(fraction * (len(quantiles) - 1))]


def exact_quantiles(values: list[float], num_quantiles: int = NUM_QUANTILES) -> list[float]:
    """The same evenly spaced list computed exactly (nearest rank) in memory: the reference for tests and small
    inputs. q_i = sorted(values)[round(i * (len(values) - 1) / (num_quantiles - 1))]."""
    ordered = sorted(values)
    if not ordered:
        return []
    last = len(ordered) - 1
    return [ordered[round(i * last / (num_quantiles - 1))] for i in range(num_quantiles)]
