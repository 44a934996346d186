"""The results files every evaluation command writes: `results.csv` (one header row, then one row per result;
floats with 6 decimals, so pandas/DuckDB/Polars read them as numbers) in an output directory made on demand."""
from __future__ import annotations

import csv
from collections.abc import Iterable, Sequence
from pathlib import Path


def write_results_csv(output: str | Path, header: Sequence[str], rows: Iterable[Sequence]) -> Path:
    """Write `output/results.csv` (creating `output`); floats as `%.6f`, everything else as str. Returns its path."""
    output = Path(output)
    output.mkdir(parents=True, exist_ok=True)
    path = output / "results.csv"
    with path.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(header)
        for row in rows:
            writer.writerow([f"{cell:.6f}" if isinstance(cell, float) else cell for cell in row])
    return path
