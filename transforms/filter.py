"""Beam adapter of `paranmt.models.filters.plan.FilterPlan`: shard files in, filtered shard files out.

Elements are shard file paths. Every pass streams a shard in record batches (memory = one batch), so no worker
ever holds the corpus; the global decisions travel as small side inputs:

  1. quantiles   ApproximateQuantiles (Beam's mergeable sketch, 1001 quantiles) of each QuantileFilter's column
                 over the whole input -> {column: [q_0 .. q_1000]}
  2. dedup       for rows that pass the row filters: ((field, key64), (rank, id)) combined per key into
                 (count, best); keys with count > 1 -> {(field, key): winning id}
  3. sample      Top.Smallest(N) of the 64-bit sample hashes of the surviving rows -> the N-th smallest hash
  4. write       each shard again: verdict per row; kept rows -> OUT/<shard>.parquet (same schema and metadata,
                 plus the filter's), optionally dropped rows with reason -> OUT/dropped/<shard>.parquet and a
                 `ref TAB bt` part file; yields the shard's counts.
Passes that the plan does not need are skipped. Each pass starts after a Reshuffle of the paths: without that
fusion break a local runner fuses all passes into one stage that waits for its own side inputs. Memory of the
side inputs: O(1) for quantiles, O(#duplicate groups) for dedup, O(N) 8-byte ints for the sample.
"""
from __future__ import annotations

from collections import Counter

import apache_beam as beam
import pyarrow as pa
import pyarrow.compute as pc
from apache_beam.io.filesystems import FileSystems
from apache_beam.metrics import Metrics
from apache_beam.transforms.stats import ApproximateQuantiles

from paranmt.models.filters.plan import FilterPlan
from paranmt.models.filters.quantiles import NUM_QUANTILES
from paranmt.models.filters.text_keys import dedup_rank
from paranmt.schemas.records import PAIR_SCHEMA
from paranmt.transforms.shards import (ParquetShardWriter, iter_row_batches, iter_table_batches, rows_of_table,
                                       shard_metadata, shard_name)

DROPPED_SCHEMA = PAIR_SCHEMA.append(pa.field("drop_reason", pa.string(), nullable=False)) \
    .append(pa.field("drop_detail", pa.string()))
TSV_PARTS = "_tsv_parts"


def tsv_line(row: dict) -> str:
    """`ref TAB bt` with any tab or line break inside a sentence replaced by a space (cleaned shards have none)."""
    return "\t".join(" ".join((row[side] or "").split()) for side in ("ref", "bt")) + "\n"


class _ColumnValuesFn(beam.DoFn):
    """path -> batches (lists) of the non-null, non-NaN values of one column."""

    def __init__(self, column: str):
        self.column = column

    def process(self, path):
        for batch in iter_row_batches(path, [self.column]):
            values = [row[self.column] for row in batch
                      if row[self.column] is not None and row[self.column] == row[self.column]]
            if values:
                yield values


class _DedupCandidatesFn(beam.DoFn):
    """path -> ((field, key), (rank, id)) for every dedup key of every row that passes the row filters."""

    def __init__(self, plan: FilterPlan, columns: list[str]):
        self.plan, self.columns = plan, columns

    def process(self, path, quantiles):
        plan = self.plan.bind_quantiles(quantiles)
        for batch in iter_row_batches(path, self.columns):
            for row in batch:
                if plan.row_verdict(row) is None:
                    rank = dedup_rank(row)
                    for dedup_field, key in plan.dedup_keys(row).items():
                        yield (dedup_field, key), rank


class DedupWinnerFn(beam.CombineFn):
    """(rank, id) values of one dedup key -> (count, id of the smallest rank)."""

    def create_accumulator(self):
        return 0, None

    def add_input(self, accumulator, rank):
        count, best = accumulator
        return count + 1, rank if best is None or rank < best else best

    def merge_accumulators(self, accumulators):
        count, best = 0, None
        for other_count, other_best in accumulators:
            count += other_count
            if other_best is not None and (best is None or other_best < best):
                best = other_best
        return count, best

    def extract_output(self, accumulator):
        count, best = accumulator
        return count, None if best is None else best[1]


class _SampleHashesFn(beam.DoFn):
    """path -> sample hash of every row that passes the row filters and dedup."""

    def __init__(self, plan: FilterPlan, columns: list[str]):
        self.plan, self.columns = plan, columns

    def process(self, path, quantiles, winners):
        plan = self.plan.bind_quantiles(quantiles)
        for batch in iter_row_batches(path, self.columns):
            for row in batch:
                if plan.row_verdict(row) is None and plan.dedup_verdict(row, winners) is None:
                    yield plan.sample_hash(row)


class _WriteFilteredShardFn(beam.DoFn):
    """path -> writes the shard's kept rows (and optionally dropped rows and a TSV part); yields its counts.
    Verdicts are computed on the columns the plan reads; the rows themselves are selected with an Arrow mask
    and written without becoming Python objects."""

    def __init__(self, plan: FilterPlan, output: str, metadata: dict[str, str], write_dropped: bool,
                 write_tsv: bool):
        self.plan, self.output, self.metadata = plan, output, metadata
        self.write_dropped, self.write_tsv = write_dropped, write_tsv
        self.verdict_columns = ["id"] + plan.required_columns()
        self.kept_counter = Metrics.counter("filter", "kept")

    def process(self, path, quantiles, winners, sample_threshold):
        plan = self.plan.bind_quantiles(quantiles)
        name = shard_name(path)
        metadata = {**shard_metadata(path), **self.metadata}
        kept_writer = ParquetShardWriter(FileSystems.join(self.output, f"{name}.parquet"), PAIR_SCHEMA, metadata)
        dropped_writer = ParquetShardWriter(FileSystems.join(self.output, "dropped", f"{name}.parquet"),
                                            DROPPED_SCHEMA, metadata) if self.write_dropped else None
        tsv = FileSystems.create(FileSystems.join(self.output, TSV_PARTS, f"{name}.tsv")) if self.write_tsv \
            else None
        reasons, rows_in = Counter(), 0
        for table in iter_table_batches(path):
            verdicts = [plan.verdict(row, winners, sample_threshold)
                        for row in rows_of_table(table.select(self.verdict_columns))]
            keep = pa.array([verdict is None for verdict in verdicts])
            kept = table.filter(keep)
            kept_writer.write_table(kept)
            rows_in += table.num_rows
            dropped_verdicts = [verdict for verdict in verdicts if verdict is not None]
            reasons.update(reason for reason, _ in dropped_verdicts)
            if dropped_writer and dropped_verdicts:
                dropped = table.filter(pc.invert(keep))
                dropped = dropped.append_column("drop_reason", pa.array([r for r, _ in dropped_verdicts]))
                dropped_writer.write_table(dropped.append_column("drop_detail",
                                                                 pa.array([d for _, d in dropped_verdicts])))
            if tsv:
                tsv.write("".join(tsv_line(row) for row in kept.select(["ref", "bt"]).to_pylist()).encode("utf-8"))
            self.kept_counter.inc(kept.num_rows)
        kept_writer.close()
        if dropped_writer:
            dropped_writer.close()
        if tsv:
            tsv.close()
        for reason, count in reasons.items():
            Metrics.counter("filter", f"dropped_{reason}").inc(count)
        yield {"shard": name, "rows": rows_in, "kept": kept_writer.rows, "dropped": dict(reasons)}


class FilterShards(beam.PTransform):
    """PCollection of shard paths -> {"counts": per-shard counts, "quantiles": (column, quantile list) pairs,
    "sample_threshold": the sample's hash threshold or None}; writes the filtered corpus to `output`."""

    def __init__(self, plan: FilterPlan, output: str, metadata: dict[str, str], write_dropped: bool = False,
                 write_tsv: bool = False):
        super().__init__()
        self.plan, self.output, self.metadata = plan, output, metadata
        self.write_dropped, self.write_tsv = write_dropped, write_tsv

    def expand(self, paths):
        plan = self.plan
        pipeline = paths.pipeline
        row_columns = ["id"] + plan.required_columns()

        quantile_sets = [
            paths | f"Paths_{column}" >> beam.Reshuffle() | f"Values_{column}" >> beam.ParDo(_ColumnValuesFn(column))
            | f"Quantiles_{column}" >> ApproximateQuantiles.Globally(NUM_QUANTILES, input_batched=True)
            | f"Key_{column}" >> beam.Map(lambda q, c=column: (c, q))
            for column in plan.quantile_columns]
        quantile_lists = (quantile_sets | "AllQuantiles" >> beam.Flatten(pipeline=pipeline)) if quantile_sets \
            else pipeline | "NoQuantiles" >> beam.Create([])
        quantiles = beam.pvalue.AsSingleton(quantile_lists | "QuantileDict" >> beam.combiners.ToDict())

        if plan.dedup:
            winners = (paths
                       | "PathsForDedup" >> beam.Reshuffle()
                       | "DedupCandidates" >> beam.ParDo(_DedupCandidatesFn(plan, row_columns), quantiles)
                       | "DedupWinners" >> beam.CombinePerKey(DedupWinnerFn())
                       | "SharedKeys" >> beam.Filter(lambda kv: kv[1][0] > 1)
                       | "WinnerIds" >> beam.Map(lambda kv: (kv[0], kv[1][1])))
        else:
            winners = pipeline | "NoDedup" >> beam.Create([])
        winners = beam.pvalue.AsDict(winners)

        if plan.sample:
            threshold_value = (paths
                               | "PathsForSample" >> beam.Reshuffle()
                               | "SampleHashes" >> beam.ParDo(_SampleHashesFn(plan, row_columns), quantiles, winners)
                               | "SmallestHashes" >> beam.combiners.Top.Smallest(plan.sample)
                               | "Threshold" >> beam.Map(lambda smallest: max(smallest) if smallest else None))
        else:
            threshold_value = pipeline | "NoSample" >> beam.Create([None])
        threshold = beam.pvalue.AsSingleton(threshold_value)

        counts = paths | "PathsForWrite" >> beam.Reshuffle() | "WriteFiltered" >> beam.ParDo(
            _WriteFilteredShardFn(plan, self.output, self.metadata, self.write_dropped, self.write_tsv),
            quantiles, winners, threshold)
        return {"counts": counts, "quantiles": quantile_lists, "sample_threshold": threshold_value}

