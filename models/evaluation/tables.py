"""The results files every evaluation command writes: `results.csv` (one header row, then one row per result;
floats with 6 decimals, so pandas/DuckDB/Polars read them as numbers) and the others (summary.md, results.md,
JSON lines) in an output directory made on demand, each written atomically (`write_result_file`): a stop or a full
disk never leaves a half-written results file."""
from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from pathlib import Path

from paranmt.models.files import write_text_atomically


def write_result_file(path: str | Path, text: str) -> Path:
    """Write `text` to `path` whole (models/files.py `write_text_atomically`: a temporary `.<name>.tmp-<pid>` beside
    it, renamed over it once complete), creating its directory. Returns `path`."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_text_atomically(path, text)
    return path


def write_results_csv(output: str | Path, header: Sequence[str], rows: Iterable[Sequence]) -> Path:
    """Write `output/results.csv` (creating `output`); floats as `%.6f`, everything else as str. Returns its path."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(header)
    for row in rows:
        writer.writerow([f"{cell:.6f}" if isinstance(cell, float) else cell for cell in row])
    return write_result_file(Path(output) / "results.csv", buffer.getvalue())
