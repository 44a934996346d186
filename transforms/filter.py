"""Beam adapter of `paranmt.models.filters.plan.FilterPlan`: shard files in, filtered shard files out.

Elements are shard file paths (and, for dedup, partition numbers). Every pass streams a shard in Arrow record
batches and decides a whole batch at once (pyarrow compute / numpy), so no worker ever holds the corpus and no row
becomes a Python object; the global decisions travel as small side inputs or as spill files:

  1. quantiles   two counting passes over each QuantileFilter's column (models/filters/quantiles.py: counts per
                 high, then per low half of an order-preserving key; summed in any order) -> the exact
                 nearest-rank values {column: {fraction: value}}
  2. dedup       (a) per shard: the candidates (key, field, score, id) of the rows that pass the row filters,
                 hash-partitioned by key into `partitions` spill files,
                 OUT/__paranmt__/dedup_work/keys/pNNNNN/<shard>.arrow;
                 (b) per partition (after all of (a)): the partition's candidates grouped by (field, key) with one
                 sort, every non-best row written back to its shard's loser file
                 OUT/__paranmt__/dedup_work/losers/<shard>/pNNNNN.arrow (id, field, winning id).
                 Memory: one shard's candidates in (a); one partition (about input rows x dedup fields /
                 partitions candidates, ~40 bytes each) in (b), whatever the input size.
  3. sample      per shard the N smallest 64-bit sample hashes of its surviving rows; combined into the N
                 smallest overall -> the N-th smallest hash (numpy arrays: 8 bytes per hash)
  4. write       each shard again: verdicts per batch; kept rows -> OUT/<shard>.parquet (same schema and metadata,
                 plus the filter's), optionally dropped rows with reason ->
                 OUT/__paranmt__/dropped/<shard>.pq and a `ref TAB bt` part file; yields the shard's counts.
Passes that the plan does not need are skipped. Each pass starts after a Reshuffle of the paths: without that
fusion break a local runner fuses all passes into one stage that waits for its own side inputs.
"""
from __future__ import annotations

from typing import Any

import apache_beam as beam
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from apache_beam.io.filesystems import FileSystems
from apache_beam.metrics import Metrics

from paranmt.models.filters.plan import KEPT, LOSER_SCHEMA, FilterPlan, dedup_losers
from paranmt.models.filters.quantiles import (add_counts, finite_values, high_counts, low_counts, needed_buckets,
                                              value_at)
from paranmt.schemas import layout, tsv
from paranmt.schemas.records import PAIR_SCHEMA
from paranmt.transforms.shards import (ParquetShardWriter, dropped_path, iter_table_batches, matching,
                                       read_shard_metadata, shard_name, shard_path)

DROPPED_SCHEMA = PAIR_SCHEMA.append(pa.field("drop_reason", pa.string(), nullable=False)) \
    .append(pa.field("drop_detail", pa.string()))
# Python's str.split() whitespace: what a TSV line must not contain inside a sentence.
WHITESPACE_RUN = r"[\t\n\x{0b}\x{0c}\r\x{1c}-\x{1f}\x{85}\p{Z}]+"


def tsv_lines(table: pa.Table) -> bytes:
    """`ref TAB bt` rows of a table TSV (schemas/tsv.py: every whitespace run inside a sentence, tabs and line
    breaks included, replaced by one space and the ends trimmed, as `tsv.one_line` does; a sentence that begins
    with a double quote quoted); a null bt gives an empty second column."""
    sides = [tsv.quote_array(pc.utf8_trim(pc.replace_substring_regex(
        table.column(side).combine_chunks().fill_null(""), WHITESPACE_RUN, " "), " "))
        for side in tsv.PAIRS_COLUMNS]
    lines = pc.binary_join_element_wise(sides[0], "\t", sides[1], "\n", "").cast(pa.large_string())
    offsets = np.frombuffer(lines.buffers()[1], dtype=np.int64)[lines.offset: lines.offset + len(lines) + 1]
    return lines.buffers()[2].to_pybytes()[offsets[0]: offsets[-1]] if len(lines) else b""


def partition_dir(work: str, partition: int) -> str:
    return FileSystems.join(work, "keys", f"p{partition:05d}")


def write_arrow(path: str, table: pa.Table) -> None:
    with FileSystems.create(path) as handle:
        with pa.ipc.new_file(handle, table.schema) as writer:
            writer.write_table(table)


def read_arrow(paths: list[str]) -> list[pa.Table]:
    tables = []
    for path in paths:
        with FileSystems.open(path) as handle:
            tables.append(pa.ipc.open_file(handle).read_all())
    return tables


def shard_losers(work: str | None, path: str) -> pa.Table:
    """The dedup losers (LOSER_SCHEMA) of one shard, from every partition; empty without dedup."""
    if work is None:
        return LOSER_SCHEMA.empty_table()
    tables = read_arrow(matching(FileSystems.join(work, "losers", shard_name(path), "*.arrow")))
    return pa.concat_tables(tables) if tables else LOSER_SCHEMA.empty_table()


class _HighCountsFn(beam.DoFn):
    """path -> quantile pass 1 counts of one column over the shard."""

    def __init__(self, column: str):
        self.column = column

    def process(self, path):
        yield add_counts(high_counts(finite_values(table.column(self.column)))
                         for table in iter_table_batches(path, [self.column]))


class _LowCountsFn(beam.DoFn):
    """path -> quantile pass 2 counts of one column over the shard, for the needed high halves."""

    def __init__(self, column: str):
        self.column = column

    def process(self, path, buckets):
        counts = [low_counts(finite_values(table.column(self.column)), buckets)
                  for table in iter_table_batches(path, [self.column])]
        yield add_counts(counts) if counts else {}


class SumCounts(beam.CombineFn):
    """Count arrays (or {bucket: count array} dicts) -> their sum; order-free."""

    def create_accumulator(self):
        return None

    def add_input(self, accumulator, counts):
        return counts if accumulator is None else add_counts([accumulator, counts])

    def merge_accumulators(self, accumulators):
        present = [a for a in accumulators if a is not None]
        return add_counts(present) if present else None

    def extract_output(self, accumulator):
        return add_counts([]) if accumulator is None else accumulator


class _SpillCandidatesFn(beam.DoFn):
    """path -> writes the shard's dedup candidates, hash-partitioned into spill files; yields the partitions it
    wrote to."""

    def __init__(self, plan: FilterPlan, columns: list[str], work: str, partitions: int):
        self.plan, self.columns, self.work, self.partitions = plan, columns, work, partitions

    def process(self, path, quantiles):
        plan = self.plan.bind_quantiles(quantiles)
        parts: dict[int, list[pa.Table]] = {}
        for table in iter_table_batches(path, self.columns):
            codes, _ = plan.row_verdicts(table)
            candidates = plan.dedup_candidates(table, codes)
            if not candidates.num_rows:
                continue
            partition = candidates.column("key").to_numpy() % np.uint64(self.partitions)
            for number in np.unique(partition):
                parts.setdefault(int(number), []).append(candidates.filter(pa.array(partition == number)))
        for number, tables in parts.items():
            write_arrow(FileSystems.join(partition_dir(self.work, number), f"{shard_name(path)}.arrow"),
                        pa.concat_tables(tables))
            yield number


class _PartitionLosersFn(beam.DoFn):
    """partition -> every candidate of the partition that loses its dedup group, written to its shard's loser
    file; yields the number of losers."""

    def __init__(self, work: str):
        self.work = work

    def process(self, partition):
        paths = matching(FileSystems.join(partition_dir(self.work, partition), "*.arrow"))
        tables = [table.append_column("shard", pa.array(np.full(table.num_rows, index, np.int32)))
                  for index, table in enumerate(read_arrow(paths))]
        losers = dedup_losers(pa.concat_tables(tables))
        shard_of_loser = losers.column("shard").to_numpy()
        for index in np.unique(shard_of_loser):
            shard = paths[index].rsplit("/", 1)[-1][: -len(".arrow")]  # spill files are named <shard>.arrow
            write_arrow(FileSystems.join(self.work, "losers", shard, f"p{partition:05d}.arrow"),
                        losers.filter(pa.array(shard_of_loser == index)).select(LOSER_SCHEMA.names))
        yield losers.num_rows


def smallest(values: np.ndarray, count: int) -> np.ndarray:
    """The `count` smallest of `values`, sorted (all of them when there are fewer)."""
    if len(values) > count:
        values = np.partition(values, count - 1)[:count]
    return np.sort(values)


class SmallestHashes(beam.CombineFn):
    """uint64 arrays -> the `count` smallest values of all of them (sorted; fewer when there are fewer)."""

    def __init__(self, count: int):
        self.count = count

    def create_accumulator(self):
        return np.empty(0, dtype=np.uint64)

    def add_input(self, accumulator, values):
        return smallest(np.concatenate([accumulator, values]), self.count)

    def merge_accumulators(self, accumulators):
        return smallest(np.concatenate(list(accumulators)), self.count)

    def extract_output(self, accumulator):
        return accumulator


class _SampleHashesFn(beam.DoFn):
    """path -> the `count` smallest sample hashes of the rows that pass the row filters and dedup."""

    def __init__(self, plan: FilterPlan, columns: list[str], work: str | None):
        self.plan, self.columns, self.work = plan, columns, work

    def process(self, path, quantiles, dedup_done):
        plan = self.plan.bind_quantiles(quantiles)
        losers = shard_losers(self.work, path)
        for table in iter_table_batches(path, self.columns):
            codes, _ = plan.row_verdicts(table)
            ids = table.column("id").combine_chunks()
            codes, _ = plan.apply_losers(ids, codes, None, losers)
            alive = codes == KEPT
            if alive.any():
                yield smallest(plan.sample_hashes(ids.filter(pa.array(alive))), plan.sample)


class _WriteFilteredShardFn(beam.DoFn):
    """path -> writes the shard's kept rows (and optionally dropped rows and a TSV part); yields its counts.
    Verdicts are computed per Arrow batch; rows are selected with masks and written without becoming Python
    objects."""

    def __init__(self, plan: FilterPlan, output: str, metadata: dict[str, str], write_dropped: bool,
                 write_tsv: bool, work: str | None):
        self.plan, self.output, self.metadata = plan, output, metadata
        self.write_dropped, self.write_tsv, self.work = write_dropped, write_tsv, work
        self.kept_counter = Metrics.counter("filter", "kept")

    def process(self, path, quantiles, dedup_done, sample_threshold):
        plan = self.plan.bind_quantiles(quantiles)
        reasons = plan.reasons()
        name = shard_name(path)
        metadata = {**read_shard_metadata(path), **self.metadata}
        losers = shard_losers(self.work, path)
        kept_writer = ParquetShardWriter(shard_path(self.output, name), PAIR_SCHEMA, metadata)
        dropped_writer = ParquetShardWriter(dropped_path(self.output, name),
                                            DROPPED_SCHEMA, metadata) if self.write_dropped else None
        tsv = FileSystems.create(FileSystems.join(self.output, layout.TSV_PARTS, f"{name}.tsv")) \
            if self.write_tsv else None
        counts, rows_in = np.zeros(len(reasons), dtype=np.int64), 0
        for table in iter_table_batches(path):
            codes, details = plan.verdicts(table, losers, sample_threshold, with_details=self.write_dropped)
            keep = codes == KEPT
            kept = table.filter(pa.array(keep))
            kept_writer.write_table(kept)
            rows_in += table.num_rows
            counts += np.bincount(codes[~keep], minlength=len(reasons))
            if dropped_writer and not keep.all():
                dropped_mask = pa.array(~keep)
                dropped = table.filter(dropped_mask).append_column(
                    "drop_reason", pa.array(reasons).take(pa.array(codes[~keep])))
                dropped_writer.write_table(dropped.append_column("drop_detail", details.filter(dropped_mask)))
            if tsv and kept.num_rows:
                tsv.write(tsv_lines(kept))
            self.kept_counter.inc(kept.num_rows)
        kept_writer.close()
        if dropped_writer:
            dropped_writer.close()
        if tsv:
            tsv.close()
        dropped = {reason: int(count) for reason, count in zip(reasons, counts) if count}
        for reason, count in dropped.items():
            Metrics.counter("filter", f"dropped_{reason}").inc(count)
        yield {"shard": name, "rows": rows_in, "kept": kept_writer.rows, "dropped": dropped}


class FilterShards(beam.PTransform):
    """PCollection of shard paths -> {"counts": per-shard counts, "quantiles": (column, {fraction: value}) pairs,
    "sample_threshold": the sample's hash threshold or None}; writes the filtered corpus to `output`.
    `dedup_partitions`: how many hash partitions the dedup spills into (each is processed in memory alone)."""

    def __init__(self, plan: FilterPlan, output: str, metadata: dict[str, str], write_dropped: bool = False,
                 write_tsv: bool = False, dedup_partitions: int = 1):
        super().__init__()
        self.plan, self.output, self.metadata = plan, output, metadata
        self.write_dropped, self.write_tsv, self.dedup_partitions = write_dropped, write_tsv, dedup_partitions

    def expand(self, paths):
        plan = self.plan
        pipeline = paths.pipeline
        row_columns = ["id"] + plan.required_columns()

        quantile_sets = []
        for column, fractions in plan.quantile_fractions().items():
            high = (paths | f"PathsHigh_{column}" >> beam.Reshuffle()
                    | f"HighCounts_{column}" >> beam.ParDo(_HighCountsFn(column))
                    | f"SumHigh_{column}" >> beam.CombineGlobally(SumCounts()))
            buckets = high | f"Buckets_{column}" >> beam.Map(needed_buckets, fractions)
            low = (paths | f"PathsLow_{column}" >> beam.Reshuffle()
                   | f"LowCounts_{column}" >> beam.ParDo(_LowCountsFn(column), beam.pvalue.AsSingleton(buckets))
                   | f"SumLow_{column}" >> beam.CombineGlobally(SumCounts()))
            quantile_sets.append(low | f"Values_{column}" >> beam.Map(
                lambda low_counts_, high_counts_, c=column, fs=tuple(fractions):
                    (c, {f: value_at(high_counts_, low_counts_, f) for f in fs}), beam.pvalue.AsSingleton(high)))
        quantile_values = (quantile_sets | "AllQuantiles" >> beam.Flatten(pipeline=pipeline)) if quantile_sets \
            else pipeline | "NoQuantiles" >> beam.Create([])
        quantiles = beam.pvalue.AsSingleton(quantile_values | "QuantileDict" >> beam.combiners.ToDict()
                                            if quantile_sets else pipeline | "NoQuantileDict" >> beam.Create([{}]))

        work = FileSystems.join(self.output, layout.DEDUP_WORK) if plan.dedup else None
        if plan.dedup:
            dedup_done = (paths
                          | "PathsForDedup" >> beam.Reshuffle()
                          | "SpillCandidates" >> beam.ParDo(
                              _SpillCandidatesFn(plan, row_columns, work, self.dedup_partitions), quantiles)
                          | "Partitions" >> beam.Distinct()
                          | "PartitionLosers" >> beam.ParDo(_PartitionLosersFn(work))
                          | "Losers" >> beam.CombineGlobally(sum))
        else:
            dedup_done = pipeline | "NoDedup" >> beam.Create([0])
        dedup_done = beam.pvalue.AsSingleton(dedup_done)

        if plan.sample:
            threshold_value = (paths
                               | "PathsForSample" >> beam.Reshuffle()
                               | "SampleHashes" >> beam.ParDo(_SampleHashesFn(plan, row_columns, work), quantiles,
                                                              dedup_done)
                               | "SmallestHashes" >> beam.CombineGlobally(SmallestHashes(plan.sample))
                               | "Threshold" >> beam.Map(lambda smallest: int(smallest[-1]) if len(smallest)
                                                         else None).with_output_types(Any))
        else:
            threshold_value = pipeline | "NoSample" >> beam.Create([None])
        threshold = beam.pvalue.AsSingleton(threshold_value)

        counts = paths | "PathsForWrite" >> beam.Reshuffle() | "WriteFiltered" >> beam.ParDo(
            _WriteFilteredShardFn(plan, self.output, self.metadata, self.write_dropped, self.write_tsv, work),
            quantiles, dedup_done, threshold)
        return {"counts": counts, "quantiles": quantile_values, "sample_threshold": threshold_value}
