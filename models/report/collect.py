"""What `paranmt report` learns from a corpus in one streaming pass over its shards, Arrow table by table (the
command reads them with the shard readers of transforms/shards.py; nothing here holds more than one batch of rows
plus the samples):

- `PairCollector` (shards of a build or a filtered corpus): rows per corpus and source language; fixed-bin
  histograms of the score and length columns present (`DISTRIBUTIONS`); the statistics of `paranmt stats`
  (models/stats/corpus_stats.py `CorpusAccumulator` per corpus: P18 Table 1, the score-bin table, templates,
  languages, parses); template pairs (ref, bt) with their first example; `per_band` seeded samples per band of
  `bands.column` (models/report/sampling.py); the filter previews (`Preview`);
- `RejectCollector`: the build's reject rows by stage and reason, three examples each;
- `ParaphraseCollector` (shards of `paranmt paraphrase`, schemas/paraphrases.py): candidates kept and dropped by
  reason, template match, histograms, and whole sampled sources with every candidate.

`exact_quantiles` gives the quantile values a quantile filter of a preset and decile bands need, from two counting
passes over one column (models/filters/quantiles.py, as `paranmt filter` computes them).
"""
from __future__ import annotations

import math
from collections import Counter
from typing import Callable, Iterable

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from paranmt.models.filters.plan import KEPT, FilterPlan
from paranmt.models.filters.quantiles import (add_counts, finite_values, high_counts, low_counts, needed_buckets,
                                              value_at)
from paranmt.models.report.sampling import HASH_END, Bands, BottomK, float_values, seeded_hashes
from paranmt.models.stats.corpus_stats import LANGUAGE_COLUMNS, SIGNAL_RANGES, CorpusAccumulator
from paranmt.models.stats.report import build_stats

# column -> ((low, high), bins) of its histogram in the report; values outside the range count in the end bins
DISTRIBUTIONS = {"para_score": ((-1.0, 1.0), 40), "trigram_overlap": ((0.0, 1.0), 20), "simile": ((-1.0, 1.0), 40),
                 "xsim": ((-1.0, 1.0), 40), "bt_score": ((-6.0, 0.0), 30), "ref_len": ((0.0, 80.0), 40),
                 "bt_len": ((0.0, 80.0), 40), "cs_lang_conf": ((0.0, 1.0), 20),
                 "ref_lang_conf": ((0.0, 1.0), 20), "bt_lang_conf": ((0.0, 1.0), 20)}
PARAPHRASE_DISTRIBUTIONS = {"para_score": ((-1.0, 1.0), 40), "overlap": ((0.0, 1.0), 20),
                            "score": ((-6.0, 0.0), 30)}
# what a shown pair carries
SAMPLE_COLUMNS = ("id", "corpus", "src_lang", "cs", "ref", "bt", "para_score", "trigram_overlap", "bt_score",
                  "simile", "xsim")
STATS_COLUMNS = ("id", "corpus", "ref", "bt", "ref_len", "bt_len", "bt_score", "para_score", "trigram_overlap",
                 "ref_template", "bt_template", "parse_skipped", *SIGNAL_RANGES, *LANGUAGE_COLUMNS)
PAIR_COLUMNS = tuple(dict.fromkeys(("src_lang", *SAMPLE_COLUMNS, *STATS_COLUMNS, *DISTRIBUTIONS)))
REJECT_EXAMPLES = 3
PREVIEW_KEPT, PREVIEW_DROPPED = 5, 3          # samples a filter preview shows: kept rows, rows per drop reason
TOP_TEMPLATE_PAIRS = 20


def exact_quantiles(batches: Callable[[], Iterable[pa.Array]], fractions: Iterable[float]) -> dict | None:
    """{fraction: nearest-rank value} of the non-null values `batches()` yields (called twice: one pass per count),
    None when there are none."""
    fractions = list(fractions)
    high = add_counts([high_counts(finite_values(values)) for values in batches()])
    if not int(high.sum()):
        return None
    buckets = needed_buckets(high, fractions)
    low = add_counts([low_counts(finite_values(values), buckets) for values in batches()])
    return {fraction: value_at(high, low, fraction) for fraction in fractions}


class Histogram:
    """Counts of a numeric column in equal-width bins over `value_range` (outside values in the end bins), with
    the rows, nulls, sum and sum of squares (mean and sd)."""

    def __init__(self, value_range: tuple[float, float], bins: int):
        self.range, self.counts = value_range, np.zeros(bins, dtype=np.int64)
        self.rows = self.nulls = 0
        self.total = self.squares = 0.0

    def add(self, values: pa.Array) -> None:
        numbers = float_values(values)
        finite = numbers[~np.isnan(numbers)]
        self.rows += len(numbers)
        self.nulls += len(numbers) - len(finite)
        self.total += float(finite.sum())
        self.squares += float((finite * finite).sum())
        low, high = self.range
        index = np.clip(((finite - low) / (high - low) * len(self.counts)).astype(np.int64), 0, len(self.counts) - 1)
        self.counts += np.bincount(index, minlength=len(self.counts))

    def summary(self) -> dict:
        n = self.rows - self.nulls
        mean = self.total / n if n else None
        sd = math.sqrt(max(0.0, self.squares / n - mean * mean)) if n else None
        return {"range": list(self.range), "counts": self.counts.tolist(), "rows": self.rows, "nulls": self.nulls,
                "values": n, "mean": mean, "sd": sd}


class Preview:
    """What one filter (a preset's plan, or a `--where` condition) keeps and drops: counts per reason and samples.
    `plan`: a FilterPlan whose quantile filters have their bounds (bind_quantiles); its dedup and sample steps are
    not previewed. `condition`: a row condition (schemas/row_condition.py); the rows it is false for are dropped
    as `where`."""

    def __init__(self, name: str, describe: list[str], plan: FilterPlan | None = None, condition=None):
        self.name, self.describe, self.plan, self.condition = name, describe, plan, condition
        self.reasons = plan.reasons()[: len(plan.filters)] if plan is not None else ["where"]
        self.requires = sorted({c for f in plan.filters for c in f.requires}) if plan is not None else \
            sorted(condition.columns)
        self.counts = np.zeros(len(self.reasons) + 1, dtype=np.int64)       # [kept, reason 0, reason 1, ...]
        self.kept_samples = BottomK(PREVIEW_KEPT)               # key 0: kept
        self.dropped_samples = BottomK(PREVIEW_DROPPED)         # key i + 1: dropped by reason i

    def verdicts(self, table: pa.Table) -> np.ndarray:
        """KEPT or the index of the reason of every row."""
        if self.plan is not None:
            return self.plan.row_verdicts(table)[0].astype(np.int64)
        rows = table.select(self.requires).to_pylist()
        return np.fromiter((KEPT if self.condition(row) else 0 for row in rows), dtype=np.int64, count=len(rows))

    def add(self, table: pa.Table, hashes: np.ndarray) -> None:
        """Count and sample the rows of `table` (`hashes`: their seeded sample hashes)."""
        keys = self.verdicts(table) + 1
        self.counts += np.bincount(keys, minlength=len(self.counts))
        shown = table.select([c for c in SAMPLE_COLUMNS if c in table.column_names])
        self.kept_samples.offer(np.where(keys == 0, 0, -1), hashes, shown)
        self.dropped_samples.offer(np.where(keys > 0, keys, -1), hashes, shown)

    def summary(self, empty_columns: set[str]) -> dict:
        missing = [c for c in self.requires if c in empty_columns]
        return {"name": self.name, "describe": self.describe, "rows": int(self.counts.sum()),
                "kept": int(self.counts[0]), "missing_columns": missing,
                "dropped": [{"reason": reason, "rows": int(self.counts[i + 1]),
                             "samples": self.dropped_samples.rows(i + 1)} for i, reason in enumerate(self.reasons)],
                "kept_samples": self.kept_samples.rows(0)}


class PairCollector:
    """The pair shards' part of the report (module docstring); `add(table)` per batch, `summary()` at the end."""

    def __init__(self, bands: Bands, per_band: int, seed: str, previews: list[Preview], sample_size: int):
        self.bands, self.seed, self.previews = bands, seed, previews
        self.sample_size = sample_size
        self.rows = 0
        self.filled: Counter = Counter()                # column -> non-null rows
        self.corpora: Counter = Counter()
        self.languages: Counter = Counter()
        self.histograms = {name: Histogram(*spec) for name, spec in DISTRIBUTIONS.items()}
        self.stats: dict[str, CorpusAccumulator] = {}
        self.template_pairs: Counter = Counter()
        self.template_examples: dict[tuple, dict] = {}
        self.band_rows = np.zeros(len(bands), dtype=np.int64)
        self.band_null = 0
        self.samples = BottomK(per_band)

    def add(self, table: pa.Table) -> None:
        self.rows += table.num_rows
        for name in table.column_names:
            self.filled[name] += table.num_rows - table.column(name).null_count
        self.corpora.update(dict(zip(*_value_counts(table.column("corpus")))))
        self.languages.update(dict(zip(*_value_counts(table.column("src_lang")))))
        for name, histogram in self.histograms.items():
            histogram.add(table.column(name))
        self.add_statistics(table)
        hashes = seeded_hashes(table.column("id"), self.seed)
        bands = self.bands.index(float_values(table.column(self.bands.column)))
        self.band_rows += np.bincount(bands[bands >= 0], minlength=len(self.bands))
        self.band_null += int((bands < 0).sum())
        shown = table.select([c for c in dict.fromkeys((*SAMPLE_COLUMNS, self.bands.column))])
        self.samples.offer(bands, hashes, shown)
        for preview in self.previews:
            preview.add(table, hashes)

    def add_statistics(self, table: pa.Table) -> None:
        """`paranmt stats`' per-corpus accumulators and the template pairs, row by row."""
        for row in table.select(list(STATS_COLUMNS)).to_pylist():
            accumulator = self.stats.get(row["corpus"])
            if accumulator is None:
                accumulator = self.stats[row["corpus"]] = CorpusAccumulator(sample_size=self.sample_size)
            accumulator.add(row)
            if row["ref_template"] and row["bt_template"]:
                pair = (row["ref_template"], row["bt_template"])
                self.template_pairs[pair] += 1
                if pair not in self.template_examples:
                    self.template_examples[pair] = {"id": row["id"], "ref": row["ref"], "bt": row["bt"]}

    def template_table(self) -> list[dict]:
        """The TOP_TEMPLATE_PAIRS most frequent (ref, bt) template pairs, each with its first example."""
        total = sum(self.template_pairs.values())
        top = sorted(self.template_pairs.items(), key=lambda item: (-item[1], item[0]))[:TOP_TEMPLATE_PAIRS]
        return [{"ref_template": ref, "bt_template": bt, "rows": count, "share": count / total,
                 "example": self.template_examples[ref, bt]} for (ref, bt), count in top]

    def statistics(self) -> dict | None:
        """`paranmt stats`' report of the rows (models/stats/report.py `build_stats`; the IDF reference is the
        sampled references), without its plot samples; None for no rows."""
        if not self.stats:
            return None
        report = build_stats(self.stats)
        for data in report["corpora"].values():
            for key in ("bt_score_sample", "ref_length_sample"):
                data.pop(key)
        return report

    def empty_columns(self) -> set[str]:
        """The columns read that are null in every row."""
        return {name for name, filled in self.filled.items() if not filled}

    def summary(self) -> dict:
        empty = self.empty_columns()
        labels = self.bands.labels()
        return {
            "rows": self.rows,
            "corpora": dict(self.corpora.most_common()),
            "languages": dict(self.languages.most_common()),
            "distributions": {name: h.summary() for name, h in self.histograms.items() if name not in empty},
            "bands": {"column": self.bands.column, "kind": self.bands.kind, "null": self.band_null,
                      "edges": list(self.bands.edges),
                      "bands": [{"band": labels[i], "low": self.bands.edges[i], "high": self.bands.edges[i + 1],
                                 "rows": int(self.band_rows[i]), "samples": self.samples.rows(i)}
                                for i in range(len(self.bands))]},
            "filters": [preview.summary(empty) for preview in self.previews],
            "statistics": self.statistics(),
            "template_pairs": self.template_table(),
            "template_pairs_distinct": len(self.template_pairs),
            "template_pairs_rows": sum(self.template_pairs.values()),
        }


def _value_counts(values: pa.Array) -> tuple[list, list]:
    counts = pc.value_counts(values.combine_chunks() if isinstance(values, pa.ChunkedArray) else values)
    return counts.field("values").to_pylist(), counts.field("counts").to_pylist()


class RejectCollector:
    """Reject rows (schemas/records.py REJECT_SCHEMA) by `stage/reason`, REJECT_EXAMPLES seeded examples each."""

    def __init__(self, seed: str):
        self.seed, self.counts, self.codes = seed, Counter(), {}
        self.examples = BottomK(REJECT_EXAMPLES)

    def add(self, table: pa.Table) -> None:
        reasons = pc.binary_join_element_wise(table.column("stage").combine_chunks(),
                                              table.column("reason").combine_chunks(), "/").to_pylist()
        self.counts.update(reasons)
        keys = np.fromiter((self.codes.setdefault(reason, len(self.codes)) for reason in reasons), dtype=np.int64,
                           count=len(reasons))
        self.examples.offer(keys, seeded_hashes(table.column("id"), self.seed), table)

    def summary(self) -> list[dict]:
        return [{"reason": reason, "rows": count, "examples": self.examples.rows(self.codes[reason])}
                for reason, count in sorted(self.counts.items(), key=lambda item: (-item[1], item[0]))]


class ParaphraseCollector:
    """The report of `paranmt paraphrase` shards: every candidate counted (kept, or dropped by reason; template
    match), histograms, and the `sources` sources with the smallest seeded hash of their id, each with all its
    candidates (a source's rows can span batches: a source is kept or evicted whole)."""

    COLUMNS = ("source_id", "source", "source_template", "template", "rank", "paraphrase", "score",
               "template_match", "overlap", "para_score", "kept", "reason")

    def __init__(self, sources: int, seed: str):
        self.k, self.seed = sources, seed
        self.rows = self.kept = 0
        self.reasons: Counter = Counter()
        self.matches: Counter = Counter()
        self.source_hashes: list[np.ndarray] = []
        self.histograms = {name: Histogram(*spec) for name, spec in PARAPHRASE_DISTRIBUTIONS.items()}
        self.chosen: dict[str, int] = {}            # source_id -> hash
        self.candidates: dict[str, list[dict]] = {}

    def add(self, table: pa.Table) -> None:
        self.rows += table.num_rows
        kept = table.column("kept").combine_chunks().fill_null(False)
        self.kept += int(pc.sum(kept.cast(pa.int64())).as_py() or 0)
        self.reasons.update({reason: count for reason, count in zip(*_value_counts(table.column("reason")))
                             if reason is not None})
        self.matches.update({str(match).lower(): count
                             for match, count in zip(*_value_counts(table.column("template_match")))})
        for name, histogram in self.histograms.items():
            histogram.add(table.column(name))
        hashes = seeded_hashes(table.column("source_id"), self.seed)
        self.source_hashes.append(np.unique(hashes))
        limit = np.uint64(sorted(self.chosen.values())[self.k - 1]) if len(self.chosen) >= self.k else HASH_END
        chosen = np.flatnonzero(hashes <= limit)
        for position, row in zip(chosen.tolist(), table.select(list(self.COLUMNS)).take(
                pa.array(chosen, pa.int64())).to_pylist()):
            self.chosen[row["source_id"]] = int(hashes[position])
            self.candidates.setdefault(row["source_id"], []).append(row)
        for source in sorted(self.chosen, key=lambda s: (self.chosen[s], s))[self.k:]:
            del self.chosen[source], self.candidates[source]

    def summary(self) -> dict:
        sources = np.unique(np.concatenate(self.source_hashes)) if self.source_hashes else np.zeros(0)
        shown = sorted(self.chosen, key=lambda s: (self.chosen[s], s))
        return {"rows": self.rows, "kept": self.kept, "dropped": self.rows - self.kept, "sources": len(sources),
                "reasons": dict(self.reasons.most_common()), "template_match": dict(self.matches),
                "distributions": {name: h.summary() for name, h in self.histograms.items()
                                  if h.rows > h.nulls},
                "samples": [{"source_id": s, "source": self.candidates[s][0]["source"],
                             "source_template": self.candidates[s][0]["source_template"],
                             "candidates": sorted(self.candidates[s], key=lambda r: (r["template"] or "", r["rank"]))}
                            for s in shown]}
