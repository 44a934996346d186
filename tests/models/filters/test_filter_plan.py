"""The filter plan on Arrow tables: verdict order, dedup keys and losers, deterministic sample hashes, quantile
helpers, per-filter accounting."""
import random
import unicodedata

import numpy as np
import pyarrow as pa
import pytest
import regex

from paranmt.models.filters.pair_filters import QuantileFilter, RangeFilter, TokenCountFilter
from paranmt.models.filters.plan import (CANDIDATE_SCHEMA, KEPT, LOSER_SCHEMA, NOT_SAMPLED, FilterPlan,
                                         dedup_losers, filter_counts)
from paranmt.models.filters.quantiles import add_counts, high_counts, low_counts, needed_buckets, value_at
from paranmt.models.filters.text_keys import dedup_keys, normalize_texts, sample_hash, text_hashes


def rows_table(*rows) -> pa.Table:
    """(id, ref, bt, para, ref_len, bt_len) tuples as a table with the shard column types."""
    ids, refs, bts, paras, ref_lens, bt_lens = zip(*rows)
    return pa.table({"id": pa.array(ids), "ref": pa.array(refs, pa.string()), "bt": pa.array(bts, pa.string()),
                     "para_score": pa.array(paras, pa.float32()), "ref_len": pa.array(ref_lens, pa.int16()),
                     "bt_len": pa.array(bt_lens, pa.int16())})


def normalize_by_hand(text: str) -> str:
    """The documented normalization in plain Python (NFKC, lowercase, non-word runs -> one space, strip)."""
    return regex.sub(r"[^\p{L}\p{N}]+", " ", unicodedata.normalize("NFKC", text).lower()).strip()


def test_normalize_texts_folds_case_punctuation_and_width():
    texts = ["Hello, World!", "hello world", "ＡＢＣ  — 12", "Hello world 2", "Hello world 3",
             "So, what's half an hour?", None]
    assert normalize_texts(pa.array(texts)).to_pylist() == [
        "hello world", "hello world", "abc 12", "hello world 2", "hello world 3", "so what s half an hour", None]
    assert normalize_texts(pa.array(texts[:-1])).to_pylist() == [normalize_by_hand(t) for t in texts[:-1]]


def test_text_hashes_equal_exactly_for_equal_strings_on_real_sentences(bitext):
    lines = (bitext / "newstest2017.eng").read_text(encoding="utf-8").splitlines()[:2000]
    texts = lines + lines[:500] + ["", "a", "abcdefgh", "abcdefghi", "abcdefgh\x00"]
    hashes = text_hashes(pa.array(texts))
    by_hash = {}
    for text, value in zip(texts, hashes.tolist()):
        by_hash.setdefault(value, set()).add(text)
    assert all(len(group) == 1 for group in by_hash.values())  # no two different texts share a hash
    assert len(by_hash) == len(set(texts))
    # slices and chunking do not change a string's hash
    assert text_hashes(pa.array(texts).slice(100, 50)).tolist() == hashes[100:150].tolist()
    assert text_hashes(pa.chunked_array([texts[:7], texts[7:20]])).tolist() == hashes[:20].tolist()
    assert text_hashes(pa.array(texts, pa.large_string())).tolist() == hashes.tolist()


def test_dedup_keys_exact_vs_normalized_and_null_sides():
    table = rows_table(("1", "So, what's half an hour?", "What is half an hour?", 0.9, 5, 5),
                       ("2", "so what s half an hour", "What is half an hour?", 0.8, 5, 5),
                       ("3", "so what s half an hour", None, 0.8, 5, 5))
    exact, has_exact = dedup_keys(table, "pair", "exact")
    normalized, _ = dedup_keys(table, "pair", "normalized")
    bt, has_bt = dedup_keys(table, "bt", "exact")
    assert exact[0] != exact[1] and normalized[0] == normalized[1] and bt[0] == bt[1]
    assert has_exact.tolist() == [True, True, False] and has_bt.tolist() == [True, True, False]
    ref, _ = dedup_keys(table, "ref", "exact")
    assert ref[1] == ref[2] and ref[0] != ref[1] and exact[0] != ref[0]


def test_verdicts_report_the_first_failing_filter_then_dedup_then_sample():
    plan = FilterPlan([RangeFilter("para_score", min=0.5), TokenCountFilter(max_tokens=30)], dedup=["ref"],
                      sample=1)
    assert plan.reasons() == ["para_score_range", "tokens", "duplicate_ref", NOT_SAMPLED]
    assert plan.required_columns() == ["bt_len", "para_score", "ref", "ref_len"]
    table = rows_table(("x", "a", "b", 0.1, 40, 5), ("y", "a", "b", 0.9, 40, 5), ("k", "Same ref.", "x", 0.9, 5, 5),
                       ("l", "same ref", "y", 0.7, 5, 5), ("m", "same ref", "z", 0.9, 5, 5))
    codes, details = plan.row_verdicts(table, with_details=True)
    assert codes.tolist() == [0, 1, KEPT, KEPT, KEPT]
    assert details.to_pylist()[:2] == ["score=0.1; keeps 0.5 <= para_score <= inf",
                                       "ref_len=40, bt_len=5; keeps 1 <= tokens <= 30 on ref, bt"]
    candidates = plan.dedup_candidates(table, codes)
    assert candidates.schema == CANDIDATE_SCHEMA and candidates.column("id").to_pylist() == ["k", "l", "m"]
    losers = dedup_losers(candidates)
    # normalized ref: all three share a key; k and m tie on 0.9 -> the smaller id k wins
    assert sorted(zip(losers.column("id").to_pylist(), losers.column("winner").to_pylist())) == [("l", "k"),
                                                                                                ("m", "k")]
    keeper_hash = sample_hash("k", plan.seed)
    codes, details = plan.verdicts(table, losers, keeper_hash, with_details=True)
    assert codes.tolist() == [0, 1, KEPT, 2, 2]
    assert details.to_pylist()[3] == "duplicate of k (normalized ref)"
    codes, details = plan.verdicts(table, losers, keeper_hash - 1, with_details=True)
    assert codes.tolist() == [0, 1, 3, 2, 2] and details.to_pylist()[2] == "sample of 1 with seed 'paranmt'"
    assert plan.verdicts(table, LOSER_SCHEMA.empty_table(), None)[0].tolist() == [0, 1, KEPT, KEPT, KEPT]


def test_dedup_losers_best_score_wins_then_smallest_id_whatever_the_order():
    rng = random.Random(5)
    rows = [(f"id{i:03d}", f"ref {rng.randrange(30)}", "bt", rng.choice([0.5, 0.7, None]), 5, 5)
            for i in range(300)]
    expected = {}
    for row_id, ref, _, para, _, _ in rows:
        rank = (-(para if para is not None else -np.inf), row_id)
        expected.setdefault(ref, []).append(rank)
    winners = {min(ranks)[1] for ranks in expected.values()}
    plan = FilterPlan([], dedup=["ref"], dedup_normalization="exact")
    for _ in range(3):
        rng.shuffle(rows)
        table = rows_table(*rows)
        candidates = plan.dedup_candidates(table, np.full(len(rows), KEPT, np.int16))
        losers = set(dedup_losers(candidates).column("id").to_pylist())
        assert {row[0] for row in rows} - losers == winners


def test_sample_hash_is_deterministic_and_seeded():
    assert sample_hash("czeng:f:1", "paranmt") == sample_hash("czeng:f:1", "paranmt")
    assert sample_hash("czeng:f:1", "paranmt") != sample_hash("czeng:f:1", "other")
    hashes = [sample_hash(f"id{i}", "paranmt") for i in range(20000)]
    assert len(set(hashes)) == len(hashes)
    below_half = sum(h < 2 ** 63 for h in hashes) / len(hashes)
    assert 0.48 < below_half < 0.52


def exact_values(values: np.ndarray, fractions) -> dict:
    """Both counting passes over `values` split into uneven parts merged in a shuffled order (as shards are)."""
    rng = random.Random(11)
    parts = np.array_split(values, [3, 100, 2500, 2501])
    high = add_counts(rng.sample([high_counts(part) for part in parts], len(parts)))
    buckets = needed_buckets(high, fractions)
    low = add_counts(rng.sample([low_counts(part, buckets) for part in parts], len(parts)))
    return {f: value_at(high, low, f) for f in fractions}


def test_quantiles_are_exact_nearest_ranks_whatever_the_merge_order():
    rng = np.random.default_rng(3)
    values = np.concatenate([rng.beta(5, 2, 5001) * 2 - 1, [-0.0, 0.0, 1.0, -1.0, 0.25, 0.25, np.inf]]) \
        .astype(np.float32)
    rng.shuffle(values)
    fractions = [0.0, 0.1, 0.5, 0.8, 0.9, 0.999, 1.0]
    ordered = np.sort(values)
    assert exact_values(values, fractions) == {f: float(ordered[round(f * (len(values) - 1))]) for f in fractions}
    negative = -np.abs(values[:101])
    assert exact_values(negative, [0.0, 0.5, 1.0]) == {f: float(np.sort(negative)[round(f * 100)])
                                                       for f in (0.0, 0.5, 1.0)}
    with pytest.raises(ValueError, match="no values"):
        needed_buckets(high_counts(np.zeros(0, np.float32)), [0.5])


def test_plan_binds_quantile_values_by_column_and_fraction():
    plan = FilterPlan([QuantileFilter("para_score", 0.8, 1.0), QuantileFilter("bt_score", 0.0, 0.5)])
    assert plan.quantile_fractions() == {"bt_score": [0.0, 0.5], "para_score": [0.8, 1.0]}
    bound = plan.bind_quantiles({"para_score": {0.8: 0.7, 1.0: 0.99}, "bt_score": {0.0: -3.0, 0.5: -1.0}})
    assert [f.bounds for f in bound.filters] == [(0.7, 0.99), (-3.0, -1.0)]
    assert plan.filters[0].bounds is None


def test_filter_counts_are_sequential():
    table = filter_counts({"a": 3, "c": 1}, 10, ["a", "b", "c"])
    assert table == [{"filter": "a", "seen": 10, "kept": 7, "dropped": 3},
                     {"filter": "b", "seen": 7, "kept": 7, "dropped": 0},
                     {"filter": "c", "seen": 7, "kept": 6, "dropped": 1}]
