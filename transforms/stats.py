"""Beam adapter of `paranmt.models.stats.corpus_stats`: shard files -> one merged {corpus: CorpusAccumulator}.

Each shard is streamed in record batches into per-corpus accumulators (fixed-size histograms, counters, and a
bounded hash sample), and the accumulators are merged by a CombineFn, so memory is O(sample size x corpora +
distinct templates), never O(rows).
"""
from __future__ import annotations

import apache_beam as beam

from paranmt.models.stats.corpus_stats import SAMPLE_COLUMNS, CorpusAccumulator
from paranmt.transforms.shards import iter_row_batches

STATS_COLUMNS = sorted({"id", "corpus", "para_score", "trigram_overlap", "ref_template", "bt_template",
                        *SAMPLE_COLUMNS})


class _AccumulateShardFn(beam.DoFn):
    def __init__(self, sample_size: int):
        self.sample_size = sample_size

    def process(self, path):
        accumulators: dict[str, CorpusAccumulator] = {}
        for batch in iter_row_batches(path, STATS_COLUMNS):
            for row in batch:
                accumulator = accumulators.get(row["corpus"])
                if accumulator is None:
                    accumulator = accumulators[row["corpus"]] = CorpusAccumulator(self.sample_size)
                accumulator.add(row)
        yield accumulators


class MergeCorpusAccumulators(beam.CombineFn):
    """{corpus: CorpusAccumulator} dicts -> one merged dict."""

    def create_accumulator(self):
        return {}

    def add_input(self, merged, accumulators):
        for corpus, accumulator in accumulators.items():
            if corpus in merged:
                merged[corpus].merge(accumulator)
            else:
                merged[corpus] = accumulator
        return merged

    def merge_accumulators(self, dicts):
        merged = {}
        for accumulators in dicts:
            self.add_input(merged, accumulators)
        return merged

    def extract_output(self, merged):
        return merged


class CorpusStatistics(beam.PTransform):
    """PCollection of shard paths -> a single {corpus: CorpusAccumulator}."""

    def __init__(self, sample_size: int):
        super().__init__()
        self.sample_size = sample_size

    def expand(self, paths):
        return (paths
                | "Accumulate" >> beam.ParDo(_AccumulateShardFn(self.sample_size))
                | "Merge" >> beam.CombineGlobally(MergeCorpusAccumulators()))
