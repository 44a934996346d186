"""The filter plan: verdict order, dedup keys and winners, deterministic sample hashes, quantile helpers,
per-filter accounting."""
import random

import pytest

from paranmt.models.filters.pair_filters import QuantileFilter, RangeFilter, TokenCountFilter
from paranmt.models.filters.plan import NOT_SAMPLED, FilterPlan, filter_counts
from paranmt.models.filters.quantiles import exact_quantiles, value_at
from paranmt.models.filters.text_keys import dedup_key, dedup_rank, normalize_text, sample_hash


def row(row_id, ref, bt, para, ref_len=5, bt_len=5):
    return {"id": row_id, "ref": ref, "bt": bt, "para_score": para, "ref_len": ref_len, "bt_len": bt_len}


def test_normalize_text_folds_case_punctuation_and_width():
    assert normalize_text("Hello, World!") == normalize_text("hello world") == "hello world"
    assert normalize_text("ＡＢＣ  — 12") == "abc 12"
    assert normalize_text("Hello world 2") != normalize_text("Hello world 3")


def test_dedup_keys_exact_vs_normalized_and_null_sides():
    a = row("1", "So, what's half an hour?", "What is half an hour?", 0.9)
    b = row("2", "so what s half an hour", "What is half an hour?", 0.8)
    assert dedup_key(a, "pair", "exact") != dedup_key(b, "pair", "exact")
    assert dedup_key(a, "pair", "normalized") == dedup_key(b, "pair", "normalized")
    assert dedup_key(a, "bt", "exact") == dedup_key(b, "bt", "exact")
    assert dedup_key({**a, "bt": None}, "pair", "exact") is None
    assert dedup_rank(a) < dedup_rank(b) < dedup_rank({**b, "para_score": None})


def test_verdict_reports_the_first_failing_filter_then_dedup_then_sample():
    plan = FilterPlan([RangeFilter("para_score", min=0.5), TokenCountFilter(max_tokens=30)], dedup=["ref"],
                      sample=1)
    assert plan.reasons() == ["para_score_range", "tokens", "duplicate_ref", NOT_SAMPLED]
    assert plan.required_columns() == ["bt_len", "para_score", "ref", "ref_len"]
    low_and_long = row("x", "a", "b", 0.1, ref_len=40)
    assert plan.row_verdict(low_and_long)[0] == "para_score_range"
    long = row("y", "a", "b", 0.9, ref_len=40)
    reason, detail = plan.row_verdict(long)
    assert reason == "tokens" and "score=(40, 5)" in detail
    keeper, loser = row("k", "Same ref.", "x", 0.9), row("l", "same ref", "y", 0.7)
    winners = {("ref", plan.dedup_keys(keeper)["ref"]): "k"}
    assert plan.verdict(keeper, winners, None) is None
    assert plan.verdict(loser, winners, None)[0] == "duplicate_ref"
    threshold = plan.sample_hash(keeper)
    assert plan.verdict(keeper, winners, threshold) is None
    assert plan.verdict(keeper, winners, threshold - 1)[0] == NOT_SAMPLED


def test_sample_hash_is_deterministic_and_seeded():
    assert sample_hash("czeng:f:1", "paranmt") == sample_hash("czeng:f:1", "paranmt")
    assert sample_hash("czeng:f:1", "paranmt") != sample_hash("czeng:f:1", "other")
    hashes = [sample_hash(f"id{i}", "paranmt") for i in range(20000)]
    assert len(set(hashes)) == len(hashes)
    below_half = sum(h < 2 ** 63 for h in hashes) / len(hashes)
    assert 0.48 < below_half < 0.52


def test_quantile_helpers_and_binding():
    values = [random.Random(3).random() for _ in range(5001)]
    quantiles = exact_quantiles(values)
    assert quantiles[0] == min(values) and quantiles[-1] == max(values)
    assert value_at(quantiles, 0.8) == sorted(values)[4000]
    with pytest.raises(ValueError, match="no quantiles"):
        value_at([], 0.5)
    plan = FilterPlan([QuantileFilter("para_score", 0.8, 1.0)])
    bound = plan.bind_quantiles({"para_score": quantiles})
    assert bound.filters[0].bounds == (sorted(values)[4000], max(values))
    assert plan.filters[0].bounds is None


def test_filter_counts_are_sequential():
    table = filter_counts({"a": 3, "c": 1}, 10, ["a", "b", "c"])
    assert table == [{"filter": "a", "seen": 10, "kept": 7, "dropped": 3},
                     {"filter": "b", "seen": 7, "kept": 7, "dropped": 0},
                     {"filter": "c", "seen": 7, "kept": 6, "dropped": 1}]
