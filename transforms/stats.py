"""Beam adapter of `paranmt.models.stats.corpus_stats`: shard files -> one merged {corpus: CorpusAccumulator}.

A first pass counts rows per corpus (reading the `corpus` column only) to set each corpus's sample hash limit
(`sample_hash_limit`); the second streams each shard in record batches into per-corpus accumulators (fixed-size
histograms, counters, and a hash sample that only takes rows under the limit), merged by a CombineFn. All partial
accumulators together hold O(sample size x corpora + distinct templates) values, never O(rows).
"""
from __future__ import annotations

from collections import Counter

import apache_beam as beam

from paranmt.models.stats.corpus_stats import (LANGUAGE_COLUMNS, SAMPLE_COLUMNS, SIGNAL_RANGES, CorpusAccumulator,
                                               sample_hash_limit)
from paranmt.transforms.shards import iter_row_batches

STATS_COLUMNS = sorted({"id", "corpus", "para_score", "trigram_overlap", "ref_template", "bt_template",
                        "parse_skipped",
                        *SAMPLE_COLUMNS, *SIGNAL_RANGES, *LANGUAGE_COLUMNS})


def corpus_counts(path: str) -> Counter:
    counts = Counter()
    for batch in iter_row_batches(path, ["corpus"]):
        counts.update(row["corpus"] for row in batch)
    return counts


class _AccumulateShardFn(beam.DoFn):
    def __init__(self, sample_size: int):
        self.sample_size = sample_size

    def process(self, path, corpus_rows):
        accumulators: dict[str, CorpusAccumulator] = {}
        for batch in iter_row_batches(path, STATS_COLUMNS):
            for row in batch:
                accumulator = accumulators.get(row["corpus"])
                if accumulator is None:
                    limit = sample_hash_limit(corpus_rows[row["corpus"]], self.sample_size)
                    accumulator = accumulators[row["corpus"]] = CorpusAccumulator(self.sample_size, limit)
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
        corpus_rows = (paths
                       | "PathsForCounts" >> beam.Reshuffle()
                       | "CountCorpora" >> beam.Map(corpus_counts)
                       | "SumCounts" >> beam.CombineGlobally(lambda counters: sum(counters, Counter())))
        return (paths
                | "PathsForStats" >> beam.Reshuffle()
                | "Accumulate" >> beam.ParDo(_AccumulateShardFn(self.sample_size),
                                             beam.pvalue.AsSingleton(corpus_rows))
                | "Merge" >> beam.CombineGlobally(MergeCorpusAccumulators()))
