"""Beam adapter of `paranmt.models.lexicon.pmi`: shard files -> lexicon rows with cross / within / adjusted PMI.

Pass 1 streams each shard (columns ref, bt) into a CooccurrenceCounter (cross counts of canonical word pairs,
marginals and totals of all kinds), drained into the pipeline whenever it holds `max_entries` entries, so a
worker's memory is bounded; CombinePerKey sums the partial counts. The pairs with cross count >= min_count (the
lexicon) become a side input of pass 2, which streams the shards again and counts, for those pairs only, how
often they co-occur within a reference and within a translation. Joint counts of the three kinds meet per pair
in a CoGroupByKey; marginals and totals are side inputs (O(vocabulary)).
"""
from __future__ import annotations

from collections import Counter

import apache_beam as beam

from paranmt.models.lexicon.pmi import (CROSS, WITHIN_BT, WITHIN_REF, CooccurrenceCounter, lexicon_entry,
                                        lexicon_words, within_pairs)
from paranmt.transforms.shards import iter_row_batches

MARGINALS, TOTALS = "marginals", "totals"


class _CrossCountsFn(beam.DoFn):
    """path -> ((a, b), n) cross counts; tagged ((kind, word), n) marginals and (kind, n) totals."""

    def __init__(self, max_entries: int):
        self.max_entries = max_entries

    def _drain(self, counter):
        cross, marginals, totals = counter.drain()
        yield from cross.items()
        for item in marginals.items():
            yield beam.pvalue.TaggedOutput(MARGINALS, item)
        for item in totals.items():
            yield beam.pvalue.TaggedOutput(TOTALS, item)

    def process(self, path):
        counter = CooccurrenceCounter()
        for batch in iter_row_batches(path, ["ref", "bt"]):
            for row in batch:
                counter.add_pair(row["ref"], row["bt"])
            if len(counter) >= self.max_entries:
                yield from self._drain(counter)
        yield from self._drain(counter)


class _WithinCountsFn(beam.DoFn):
    """path -> ((a, b), (kind, n)) within-sentence counts of the lexicon's pairs (side input `wanted`)."""

    def process(self, path, wanted):
        counts = Counter()
        for batch in iter_row_batches(path, ["ref", "bt"]):
            for row in batch:
                for kind, sentence in ((WITHIN_REF, row["ref"]), (WITHIN_BT, row["bt"])):
                    if sentence is not None:
                        counts.update((pair, kind) for pair in within_pairs(lexicon_words(sentence), wanted))
        for (pair, kind), n in counts.items():
            yield pair, (kind, n)


def _lexicon_rows(element, alpha: float, marginals, totals):
    """Both directions of one canonical pair: (a, b) and (b, a) share every count."""
    (a, b), grouped = element
    cross = sum(grouped["cross"])
    if not cross:
        return
    joints = {CROSS: cross}
    for kind, n in grouped["within"]:
        joints[kind] = joints.get(kind, 0) + n
    yield lexicon_entry(a, b, joints, marginals, totals, alpha)
    yield lexicon_entry(b, a, joints, marginals, totals, alpha)


class ParaphraseLexicon(beam.PTransform):
    """PCollection of shard paths -> PCollection of lexicon rows (dicts: u, v, cross_count, pmi_cross,
    pmi_within, pmi_adj), both directions of every pair u != v with cross count >= min_count."""

    def __init__(self, min_count: int = 2, alpha: float = 1.0, max_entries: int = 500_000):
        super().__init__()
        self.min_count, self.alpha, self.max_entries = min_count, alpha, max_entries

    def expand(self, paths):
        min_count = self.min_count
        counted = (paths
                   | "CrossCounts" >> beam.ParDo(_CrossCountsFn(self.max_entries)).with_outputs(
                       MARGINALS, TOTALS, main="cross"))
        cross = (counted.cross
                 | "SumCross" >> beam.CombinePerKey(sum)
                 | "Frequent" >> beam.Filter(lambda kv: kv[1] >= min_count and kv[0][0] != kv[0][1]))
        marginals = beam.pvalue.AsDict(counted[MARGINALS] | "SumMarginals" >> beam.CombinePerKey(sum))
        totals = beam.pvalue.AsDict(counted[TOTALS] | "SumTotals" >> beam.CombinePerKey(sum))
        within = (paths
                  | "PathsForWithin" >> beam.Reshuffle()
                  | "WithinCounts" >> beam.ParDo(_WithinCountsFn(), beam.pvalue.AsDict(cross)))
        return ({"cross": cross, "within": within}
                | "JoinKinds" >> beam.CoGroupByKey()
                | "Score" >> beam.FlatMap(_lexicon_rows, self.alpha, marginals, totals))
