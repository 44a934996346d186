"""Corpus statistics: score bins, moments, entropies, IDF, and that merging partial accumulators equals one pass
(real STS Benchmark pairs, gold / 5 as the score)."""
import math
from collections import Counter

import numpy as np
import pytest

from paranmt.models.stats.corpus_stats import (HASH_SPACE, CorpusAccumulator, Moments, histogram_bin, sample_hash_limit,
                                              score_bin, score_bin_labels)
from paranmt.models.stats.report import build_stats, render_markdown
from paranmt.models.stats.text_stats import IdfTable, entropy, words


@pytest.fixture(scope="module")
def sts_rows(shared_data):
    rows = []
    lines = (shared_data / "sts" / "stsbenchmark" / "sts-train.csv").read_text(encoding="utf-8").splitlines()
    for number, line in enumerate(lines[::10], 1):  # every 10th pair: all three genres
        fields = line.split("\t")
        if len(fields) < 7:
            continue
        ref, bt = fields[5], fields[6]
        rows.append({"id": f"stsb:{number}", "corpus": fields[0], "ref": ref, "bt": bt,
                     "para_score": float(fields[4]) / 5, "trigram_overlap": None, "bt_score": None,
                     "ref_len": len(words(ref)), "bt_len": len(words(bt)),
                     "ref_template": "(S(NP)(VP)(.))" if number % 3 else "(NP(NP)(.))", "bt_template": None})
    return rows


def test_score_bins_follow_the_papers_half_open_intervals():
    assert score_bin_labels()[1:] == ["(-0.1, 0.2]", "(0.2, 0.4]", "(0.4, 0.6]", "(0.6, 0.8]", "(0.8, 1]"]
    assert [score_bin(v) for v in (-1.0, -0.1, -0.0999, 0.2, 0.2001, 0.8, 0.81, 1.0, 1.0000001)] == \
        [0, 0, 1, 1, 2, 4, 5, 5, 5]
    assert histogram_bin(1.0, (-1.0, 1.0), 40) == 39 and histogram_bin(-1.0, (-1.0, 1.0), 40) == 0
    assert histogram_bin(7.0, (0.0, 1.0), 20) == 19


def test_moments_match_numpy():
    values = [0.1, 0.5, 0.9, 0.93, -0.2]
    moments, half = Moments(), Moments()
    for value in values[:2]:
        half.add(value)
    for value in values[2:]:
        moments.add(value)
    moments.merge(half)
    assert moments.mean == pytest.approx(np.mean(values))
    assert moments.sd == pytest.approx(np.std(values))
    assert Moments().summary() == {"n": 0, "mean": None, "sd": None}


def test_entropy_and_idf_formulas():
    assert entropy(Counter({"a": 1, "b": 1})) == pytest.approx(math.log(2))
    assert entropy(Counter({"a": 5})) == 0.0 and entropy(Counter()) == 0.0
    idf = IdfTable([["a", "man", "plays"], ["a", "woman"], ["the", "man"]])
    assert idf.idf("a") == pytest.approx(math.log(4 / 3))
    assert idf.idf("unseen") == pytest.approx(math.log(4))
    assert idf.sentence_idf(["a", "unseen"]) == pytest.approx((math.log(4 / 3) + math.log(4)) / 2)
    assert idf.sentence_idf([]) is None
    assert words("A man, who's 30, plays.") == ["a", "man", "who", "'s", "30", "plays"]


def test_merged_partial_accumulators_equal_a_single_pass(sts_rows):
    single = CorpusAccumulator(sample_size=100)
    parts = [CorpusAccumulator(sample_size=100) for _ in range(3)]
    for index, row in enumerate(sts_rows):
        single.add(row)
        parts[index % 3].add(row)
    merged = parts[0]
    merged.merge(parts[1])
    merged.merge(parts[2])
    assert merged.rows == single.rows == len(sts_rows)
    assert merged.para.mean == pytest.approx(single.para.mean)
    assert merged.para_hist == single.para_hist and merged.templates == single.templates
    assert [r["ref"] for r in merged.sample_rows()] == [r["ref"] for r in single.sample_rows()]
    assert len(merged.sample_rows()) == 100
    bins = merged.score_bin_table()
    expected = Counter(score_bin(r["para_score"]) for r in sts_rows)
    assert [b["rows"] for b in bins] == [expected.get(i, 0) for i in range(6)]
    assert all(b["overlap_mean"] is None for b in bins)  # no overlap column in this data


def test_report_numbers_come_from_the_rows(sts_rows):
    accumulators = {}
    for row in sts_rows:
        accumulators.setdefault(row["corpus"], CorpusAccumulator(sample_size=10_000)).add(row)
    report = build_stats(accumulators)
    captions = [r for r in sts_rows if r["corpus"] == "main-captions"]
    table = report["corpora"]["main-captions"]["table1"]
    assert table["rows"] == len(captions)
    assert table["ref_length"]["mean"] == pytest.approx(np.mean([r["ref_len"] for r in captions]))
    assert table["para_score"]["sd"] == pytest.approx(np.std([r["para_score"] for r in captions]), rel=1e-6)
    templates = Counter(r["ref_template"] for r in captions)
    assert table["template_entropy"] == pytest.approx(entropy(templates))
    assert report["corpora"]["all"]["table1"]["rows"] == len(sts_rows)
    assert 0 < table["ref_idf"]["mean"] < math.log(len(sts_rows) + 1)
    markdown = render_markdown(report, ["score_histograms.png"])
    assert "| main-captions |" in markdown and "(0.8, 1]" in markdown and "![score_histograms.png]" in markdown


def test_hash_limited_partial_samples_give_the_same_sample(sts_rows):
    limit = sample_hash_limit(len(sts_rows), 20)
    assert limit < HASH_SPACE and sample_hash_limit(100, 20) == HASH_SPACE
    unlimited, limited = CorpusAccumulator(sample_size=20), CorpusAccumulator(sample_size=20)
    parts = [CorpusAccumulator(sample_size=20, hash_limit=limit) for _ in range(4)]
    for index, row in enumerate(sts_rows):
        unlimited.add(row)
        parts[index % 4].add(row)
    for part in parts:
        limited.merge(part)
    assert sum(len(p.sample) for p in parts) < len(sts_rows) / 2
    assert [r["ref"] for r in limited.sample_rows()] == [r["ref"] for r in unlimited.sample_rows()]
    assert limited.rows == unlimited.rows and limited.para.n == unlimited.para.n


def test_same_template_share_counts_rows_with_both_templates_and_merges(sts_rows):
    """P18 Table 2's question: how often do the two sides of a pair share a template?"""
    rows = [{**row, "bt_template": row["ref_template"] if number % 4 else "(FRAG(NP))" if number % 8 else None}
            for number, row in enumerate(sts_rows)]
    both = [r for r in rows if r["ref_template"] and r["bt_template"]]
    same = sum(r["ref_template"] == r["bt_template"] for r in both)
    halves = [CorpusAccumulator(), CorpusAccumulator()]
    for number, row in enumerate(rows):
        halves[number % 2].add(row)
    halves[0].merge(halves[1])
    assert (halves[0].both_parsed, halves[0].same_template) == (len(both), same)
    table = build_stats({"stsb": halves[0]})["corpora"]["stsb"]["table1"]
    assert table["same_template_share"] == pytest.approx(same / len(both)) and 0 < same < len(both)
    assert f"{same / len(both):.1%} of {len(both)}" in render_markdown(build_stats({"stsb": halves[0]}), [])
