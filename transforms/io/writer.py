"""Writing shards: Parquet files (schema v2, zstd), written atomically, with per-shard accounting.

Layout of an output directory DIR (schemas/layout.py: side files live in DIR/__paranmt__/, which pandas,
pyarrow.dataset, Polars, DuckDB and Hugging Face `datasets` skip, so they load DIR as the pair rows alone):
  DIR/<shard>.parquet                     pair rows (PAIR_SCHEMA), in input order
  DIR/__paranmt__/rejects/<shard>.pq      reject rows (REJECT_SCHEMA, Parquet) of the same block, sorted by id
                                          (natural order); `.pq` keeps them out of `DIR/**/*.parquet`
  DIR/__paranmt__/{manifest.json, metrics.json, config.yaml}   written by the launcher (pipelines/build.py,
                                          pipelines/runtime/building/)
Each file is first written as `.<name>.tmp-<uuid>` and then renamed (transforms/shards.py, the home of shard
I/O), the data file last, so a shard whose
data file exists is complete (that is what `--resume` checks). A shard is written by the worker that read and
processed it, as soon as its rows are done (no group-by): a run killed half-way keeps the shards it finished.
The bytes of a shard are a function of its rows and the metadata alone (no timestamps). Every data file carries the shard's counts in its
key-value metadata (`paranmt.counts`), so metrics can be rebuilt from the files alone.
"""
from __future__ import annotations

import json
import re
from collections import Counter

import apache_beam as beam
from apache_beam.metrics import Metrics

from paranmt.schemas.records import pairs_to_table, rejects_to_table
from paranmt.transforms.shards import COUNTS_KEY, reject_path, shard_path, write_table_atomically


class AccountingError(RuntimeError):
    """Records were lost or duplicated inside the pipeline (read != written + rejected for a shard)."""


def natural_key(text: str) -> list:
    """Sort key comparing digit runs as numbers: `a:f:9` < `a:f:10`."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", text)]


def shard_counts(read: dict | None, rows: list, rejects: list) -> dict:
    """The accounting of one shard; raises AccountingError unless read == rows + rejects. `bt_sources`: the
    written rows with a bt by where it came from (their `bt_source`; `unrecorded` for rows of shards written
    before that column)."""
    read = read or {"read": 0, "separators": 0}
    reasons = Counter(f"{r['stage']}/{r['reason']}" for r in rejects)
    sources = Counter(r.get("bt_source") or "unrecorded" for r in rows if r.get("bt") is not None)
    counts = {"read": read["read"], "separators": read["separators"], "written": len(rows),
              "rejected": len(rejects), "rejects_by_reason": dict(sorted(reasons.items())),
              "bt_sources": dict(sorted(sources.items()))}
    if counts["read"] != counts["written"] + counts["rejected"]:
        raise AccountingError(f"read {counts['read']} != written {counts['written']} + rejected "
                              f"{counts['rejected']}")
    return counts


class _WriteShardFn(beam.DoFn):
    def __init__(self, output: str, metadata: dict[str, str]):
        self.output, self.metadata = output, metadata
        self.written = Metrics.counter("write", "rows")
        self.rejected = Metrics.counter("write", "rejects")
        self.shards = Metrics.counter("write", "shards")

    def process(self, work):
        try:
            counts = shard_counts({"read": work.read, "separators": work.separators}, work.rows, work.rejects)
        except AccountingError as error:
            raise AccountingError(f"shard {work.name}: {error}") from None
        rejects = sorted(work.rejects, key=lambda r: natural_key(r["id"]))
        write_table_atomically(rejects_to_table(rejects), reject_path(self.output, work.name))
        table = pairs_to_table(work.rows)
        metadata = {**self.metadata, COUNTS_KEY.decode(): json.dumps(counts, sort_keys=True)}
        table = table.replace_schema_metadata({k.encode(): v.encode() for k, v in metadata.items()})
        write_table_atomically(table, shard_path(self.output, work.name))
        self.written.inc(len(work.rows))
        self.rejected.inc(len(work.rejects))
        self.shards.inc()
        yield work.name, counts


class WriteShards(beam.PTransform):
    """ShardWork -> one data file + one rejects file per shard, written in the same fused step that processed
    it; outputs (shard, counts) per shard written."""

    def __init__(self, output: str, metadata: dict[str, str]):
        super().__init__()
        self.output, self.metadata = output, metadata

    def expand(self, shards):
        return shards | "WriteShard" >> beam.ParDo(_WriteShardFn(self.output, self.metadata))
