"""Mergeable per-corpus statistics of shard rows (SPEC §1), built for a Beam CombineFn but pure Python.

Two kinds of numbers, as in the papers:
- over EVERY row of the corpus: size, para score mean +- sd, the score-bin table (T-Tab27: rows and mean +- sd
  trigram overlap per para-score bin), fixed-bin histograms of para score and trigram overlap, the 2-D histogram
  para score x trigram overlap, and template frequencies (ref and bt templates counted together);
- over a deterministic SAMPLE of up to `sample_size` rows per corpus (P18-Tab1 uses 100K random references per
  source): average length, average IDF, vocabulary entropy, parse (template) entropy, and the bt_score and length
  histograms. Also over every row: fixed-bin histograms of the schema v2 pair signals (SIGNAL_RANGES: xsim,
  simile, bt_repetition, unigram_f1, kendall_tau), the language labels of each side (cs_lang, ref_lang,
  bt_lang), the share of rows whose two sides have the same template (of the rows with both templates), and
  parsed / not parsed rows (`ref_parsed`: the ref has a template; `parse_skipped`: the parse stage
  skipped the row under `parse.only_if`; the rest have no parse for another reason: too long, empty, a parser
  error, or no parse stage). The sample is the `sample_size` rows with the smallest 64-bit hash of `stats:<id>`,
  so it does not depend on row order or sharding, and merging two accumulators keeps exactly that set.

Bounded partial samples: a partial accumulator (one shard) cannot know which of its rows are among the corpus's
smallest hashes, so a pipeline first counts rows per corpus and passes `hash_limit = sample_hash_limit(rows,
sample_size)`: rows with a larger hash are never sampled. The limit is set so that about sample_size + 10 *
sqrt(sample_size) + 100 rows of the corpus fall below it (10 standard deviations above sample_size), so whenever
at least sample_size rows pass — all but certainly — the sample is still exactly the sample_size smallest hashes,
and the partial samples of all shards together hold O(sample_size) rows instead of O(rows).

Means and standard deviations: sd is the population sd, sqrt(E[x^2] - E[x]^2) (from running sums, so mergeable).
"""
from __future__ import annotations

import heapq
import math
from collections import Counter
from dataclasses import dataclass, field

from paranmt.models.filters.text_keys import sample_hash

# SPEC §1 (T-Tab27) para-score bins, (low, high]; the first bin also takes -1.0 itself.
SCORE_BIN_EDGES = (-1.0, -0.1, 0.2, 0.4, 0.6, 0.8, 1.0)
PARA_RANGE, PARA_BINS = (-1.0, 1.0), 40
OVERLAP_RANGE, OVERLAP_BINS = (0.0, 1.0), 20
SAMPLE_COLUMNS = ("ref", "ref_len", "bt_len", "bt_score", "ref_template")
# pair signals of schema v2: column -> (value range, bins) of its every-row histogram
SIGNAL_RANGES = {"xsim": ((-1.0, 1.0), 40), "simile": ((-1.0, 1.0), 40), "bt_repetition": ((0.0, 1.0), 20),
                 "unigram_f1": ((0.0, 1.0), 20), "kendall_tau": ((-1.0, 1.0), 20)}
LANGUAGE_COLUMNS = ("cs_lang", "ref_lang", "bt_lang")
SAMPLE_SEED = "stats"
HASH_SPACE = 2 ** 64


def sample_hash_limit(rows: int, sample_size: int) -> int:
    """The hash below which about sample_size + 10 sqrt(sample_size) + 100 of `rows` uniform hashes fall
    (HASH_SPACE, i.e. no limit, when that is all of them)."""
    wanted = sample_size + 10 * math.sqrt(sample_size) + 100
    if rows <= wanted:
        return HASH_SPACE
    return math.ceil(wanted / rows * HASH_SPACE)


def score_bin_labels() -> list[str]:
    return [f"({low:g}, {high:g}]" for low, high in zip(SCORE_BIN_EDGES, SCORE_BIN_EDGES[1:])]


def score_bin(value: float) -> int:
    """Index of the (low, high] bin of SCORE_BIN_EDGES holding `value` (values outside [-1, 1] are clamped)."""
    for index, high in enumerate(SCORE_BIN_EDGES[1:]):
        if value <= high:
            return index
    return len(SCORE_BIN_EDGES) - 2


def histogram_bin(value: float, value_range: tuple[float, float], bins: int) -> int:
    """Equal-width bins over [low, high]; the last bin is closed; values outside are clamped to the end bins."""
    low, high = value_range
    index = int((value - low) / (high - low) * bins)
    return min(max(index, 0), bins - 1)


@dataclass
class Moments:
    n: int = 0
    total: float = 0.0
    squares: float = 0.0

    def add(self, value: float) -> None:
        self.n += 1
        self.total += value
        self.squares += value * value

    def merge(self, other: "Moments") -> None:
        self.n += other.n
        self.total += other.total
        self.squares += other.squares

    @property
    def mean(self) -> float | None:
        return self.total / self.n if self.n else None

    @property
    def sd(self) -> float | None:
        if not self.n:
            return None
        return math.sqrt(max(0.0, self.squares / self.n - (self.total / self.n) ** 2))

    def summary(self) -> dict:
        return {"n": self.n, "mean": self.mean, "sd": self.sd}


def _usable(value) -> bool:
    return value is not None and value == value  # not null, not NaN


@dataclass
class CorpusAccumulator:
    """Statistics of one corpus; `add(row)` for each row, `merge(other)` to combine partial results."""
    sample_size: int = 100_000
    hash_limit: int = HASH_SPACE
    rows: int = 0
    para: Moments = field(default_factory=Moments)
    bins: list[list] = field(default_factory=lambda: [[0, Moments()] for _ in SCORE_BIN_EDGES[1:]])
    para_null: int = 0
    para_hist: list[int] = field(default_factory=lambda: [0] * PARA_BINS)
    overlap_hist: list[int] = field(default_factory=lambda: [0] * OVERLAP_BINS)
    joint_hist: list[list[int]] = field(default_factory=lambda: [[0] * OVERLAP_BINS for _ in range(PARA_BINS)])
    templates: Counter = field(default_factory=Counter)
    ref_parsed: int = 0          # rows whose ref has a parse
    both_parsed: int = 0         # rows whose ref and bt both have a template
    same_template: int = 0       # ... and the two templates are equal
    parse_skipped: int = 0       # rows the parse stage skipped (parse_skipped set: parse.only_if)
    signal_hists: dict = field(default_factory=lambda: {c: [0] * bins for c, (_, bins) in SIGNAL_RANGES.items()})
    languages: dict = field(default_factory=lambda: {c: Counter() for c in LANGUAGE_COLUMNS})
    sample: list = field(default_factory=list)  # max-heap by hash: entries (-hash, id, reduced row)

    def add(self, row: dict) -> None:
        self.rows += 1
        para, overlap = row.get("para_score"), row.get("trigram_overlap")
        if _usable(para):
            self.para.add(para)
            self.para_hist[histogram_bin(para, PARA_RANGE, PARA_BINS)] += 1
            score_bin_entry = self.bins[score_bin(para)]
            score_bin_entry[0] += 1
            if _usable(overlap):
                score_bin_entry[1].add(overlap)
                self.joint_hist[histogram_bin(para, PARA_RANGE, PARA_BINS)][
                    histogram_bin(overlap, OVERLAP_RANGE, OVERLAP_BINS)] += 1
        else:
            self.para_null += 1
        if _usable(overlap):
            self.overlap_hist[histogram_bin(overlap, OVERLAP_RANGE, OVERLAP_BINS)] += 1
        for side in ("ref_template", "bt_template"):
            if row.get(side):
                self.templates[row[side]] += 1
        self.ref_parsed += bool(row.get("ref_template"))
        if row.get("ref_template") and row.get("bt_template"):
            self.both_parsed += 1
            self.same_template += row["ref_template"] == row["bt_template"]
        self.parse_skipped += bool(row.get("parse_skipped"))
        for column, (value_range, bins) in SIGNAL_RANGES.items():
            if _usable(row.get(column)):
                self.signal_hists[column][histogram_bin(row[column], value_range, bins)] += 1
        for column in LANGUAGE_COLUMNS:
            if row.get(column):
                self.languages[column][row[column]] += 1
        row_hash = sample_hash(row["id"], SAMPLE_SEED)
        if row_hash >= self.hash_limit:
            return
        entry = (-row_hash, row["id"], {c: row.get(c) for c in SAMPLE_COLUMNS})
        if len(self.sample) < self.sample_size:
            heapq.heappush(self.sample, entry)
        elif entry > self.sample[0]:
            heapq.heapreplace(self.sample, entry)

    def merge(self, other: "CorpusAccumulator") -> None:
        self.rows += other.rows
        self.para.merge(other.para)
        self.para_null += other.para_null
        for mine, theirs in zip(self.bins, other.bins):
            mine[0] += theirs[0]
            mine[1].merge(theirs[1])
        self.para_hist = [a + b for a, b in zip(self.para_hist, other.para_hist)]
        self.overlap_hist = [a + b for a, b in zip(self.overlap_hist, other.overlap_hist)]
        self.joint_hist = [[a + b for a, b in zip(ra, rb)] for ra, rb in zip(self.joint_hist, other.joint_hist)]
        self.templates.update(other.templates)
        self.ref_parsed += other.ref_parsed
        self.both_parsed += other.both_parsed
        self.same_template += other.same_template
        self.parse_skipped += other.parse_skipped
        for column, counts in other.signal_hists.items():
            self.signal_hists[column] = [a + b for a, b in zip(self.signal_hists[column], counts)]
        for column, counts in other.languages.items():
            self.languages[column].update(counts)
        for entry in other.sample:
            if len(self.sample) < self.sample_size:
                heapq.heappush(self.sample, entry)
            elif entry > self.sample[0]:
                heapq.heapreplace(self.sample, entry)

    def sample_rows(self) -> list[dict]:
        """The sampled rows in a fixed order (by hash)."""
        return [row for _, _, row in sorted(self.sample, reverse=True)]

    def score_bin_table(self) -> list[dict]:
        return [{"bin": label, "rows": count, "overlap_mean": overlap.mean, "overlap_sd": overlap.sd}
                for label, (count, overlap) in zip(score_bin_labels(), self.bins)]
