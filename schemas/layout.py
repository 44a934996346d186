"""Names inside an output directory of `paranmt build` and `paranmt filter` (layout 2).

Data files sit at the top level (`DIR/<shard>.parquet`); everything else (rejects, config, metrics, manifest,
reports) lives in one folder, `DIR/__paranmt__/`. Every tool users load a corpus with skips that folder: pandas,
pyarrow.dataset and Polars skip names starting with `_` or `.`, DuckDB and Polars globs `DIR/*.parquet` do not
descend into it, and Hugging Face `datasets.load_dataset("parquet", data_dir=DIR)` skips folders whose names
start with `__` (a single `_` is not enough for it: it would read `_config.yaml` as Parquet). So DIR loads as the
pair rows alone, in each of them.

Side tables (rejects, dropped rows) are Parquet files named `<shard>.pq`, not `.parquet`: a recursive glob
`DIR/**/*.parquet` (DuckDB, Polars) would otherwise sweep them in with the pair rows (DuckDB counted 308 rows for 300
pairs, and a column read failed on the mixed schemas). They read with one call all the same:
`pd.read_parquet("DIR/__paranmt__/rejects")`, `pyarrow.dataset.dataset(same)`,
`duckdb.read_parquet("DIR/__paranmt__/rejects/*.pq")`, `pl.read_parquet("DIR/__paranmt__/rejects/*.pq")`.

Layout 1 (before schema v2) kept the side files at the top level (LEGACY_NAMES); layout 2 before issue 24 named side
tables `<shard>.parquet`. Readers accept all of them, writers write the current layout only.
"""
from __future__ import annotations

DATA_SUFFIX = ".parquet"                      # pair rows: DIR/<shard>.parquet
SIDE_TABLE_SUFFIX = ".pq"                     # side tables: DIR/__paranmt__/{rejects,dropped}/<shard>.pq (Parquet)
SIDE_DIR = "__paranmt__"
REJECTS = f"{SIDE_DIR}/rejects"               # build: reject rows per shard (REJECT_SCHEMA)
DROPPED = f"{SIDE_DIR}/dropped"               # filter --write-dropped: rows a filter dropped, with the reason
CONFIG = f"{SIDE_DIR}/config.yaml"            # the resolved config of the run
METRICS = f"{SIDE_DIR}/metrics.json"          # build: the accounting (per shard and total)
MANIFEST = f"{SIDE_DIR}/manifest.json"        # build: files, models, versions, input fingerprints
WORKER_LOG = f"{SIDE_DIR}/workers.log"        # build: what the worker processes printed (the console shows it with -v)
LOCK = f"{SIDE_DIR}/lock.json"                # build: the build that holds the directory (pipelines/runtime/output_lock.py)
FILTER_REPORT = f"{SIDE_DIR}/filter_report.json"
PARAPHRASE_SUMMARY = f"{SIDE_DIR}/paraphrase_summary.json"   # paraphrase --input SHARDS: settings and counts
TSV_PARTS = f"{SIDE_DIR}/tsv_parts"           # filter --tsv: per-shard TSV parts before concatenation
PAIRS_TSV = f"{SIDE_DIR}/pairs.tsv"           # filter --tsv: `ref TAB bt` of the kept rows
DEDUP_WORK = f"{SIDE_DIR}/dedup_work"         # filter dedup: spilled keys and losers while it runs

LEGACY_NAMES = {REJECTS: "rejects", DROPPED: "dropped", CONFIG: "config.yaml", METRICS: "metrics.json",
                MANIFEST: "_manifest.json", FILTER_REPORT: "filter_report.json", TSV_PARTS: "_tsv_parts",
                PAIRS_TSV: "pairs.tsv"}


def is_side_path(name: str) -> bool:
    """True for a top-level file or folder name of an output directory that is not a data shard."""
    return name == SIDE_DIR or name in LEGACY_NAMES.values() or name.startswith(("_", "."))


def shard_pattern(input_path: str) -> tuple[str, str]:
    """(glob pattern, root) of a shard input: a directory stands for its top-level `*.parquet` files, a glob or a
    `.parquet` path for itself; side paths (`is_side_path`) are looked for below `root` (the directory, or the
    glob's fixed folder). `transforms/shards.list_shards` lists any filesystem with it, `local_shards` local
    disks."""
    wildcard = min((input_path.find(c) for c in "*?[" if c in input_path), default=-1)
    pattern = input_path if wildcard >= 0 or input_path.endswith(DATA_SUFFIX) \
        else input_path.rstrip("/") + "/*" + DATA_SUFFIX
    fixed = input_path[:wildcard] if wildcard >= 0 else ""
    root = fixed.rsplit("/", 1)[0] if "/" in fixed else "" if wildcard >= 0 else input_path
    return pattern, root


def is_shard(path: str, root: str) -> bool:
    """Whether a path the pattern matched is a data shard: it ends in DATA_SUFFIX and no part of it below `root` is a
    side path."""
    return path.endswith(DATA_SUFFIX) and not any(
        is_side_path(part) for part in path[len(root):].strip("/").split("/") if part)


def local_shards(input_path: str) -> list[str]:
    """Sorted shard files of a local directory, `.parquet` file or glob (the rule of `shard_pattern` / `is_shard`,
    without Beam: for models/ code that reads local shards); [] when there are none."""
    import glob

    pattern, root = shard_pattern(input_path)
    return sorted(path for path in glob.glob(pattern) if is_shard(path, root))
