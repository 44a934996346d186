"""Names inside an output directory of `paranmt build` and `paranmt filter` (layout 2).

Data files sit at the top level (`DIR/<shard>.parquet`); everything else starts with `_`, the prefix that pandas,
pyarrow.dataset, Polars, DuckDB (`DIR/*.parquet`) and Hugging Face `datasets` skip, so the directory loads as it
is. Layout 1 (before schema v2) used the same names without the underscore; readers accept both
(LEGACY_NAMES), writers write layout 2 only.
"""
from __future__ import annotations

REJECTS = "_rejects"              # build: reject rows per shard (REJECT_SCHEMA)
DROPPED = "_dropped"              # filter --keep-dropped: rows a filter dropped, with the reason
CONFIG = "_config.yaml"           # the resolved config of the run
METRICS = "_metrics.json"         # build: the accounting (per shard and total)
MANIFEST = "_manifest.json"       # build: files, models, versions
FILTER_REPORT = "_filter_report.json"
TSV_PARTS = "_tsv_parts"          # filter --tsv: per-shard TSV parts before concatenation

LEGACY_NAMES = {REJECTS: "rejects", DROPPED: "dropped", CONFIG: "config.yaml", METRICS: "metrics.json",
                FILTER_REPORT: "filter_report.json", TSV_PARTS: "tsv_parts"}
SIDE_NAMES = frozenset(LEGACY_NAMES) | frozenset(LEGACY_NAMES.values()) | {MANIFEST}


def is_side_path(name: str) -> bool:
    """True for a file or folder name that is not a data shard (side files of either layout, hidden files)."""
    return name in SIDE_NAMES or name.startswith(("_", "."))
