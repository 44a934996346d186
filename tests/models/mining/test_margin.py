"""Ratio margin, candidate strategies and the k-NN search (exact blocked, IVF) on small matrices."""
import math

import numpy as np
import pytest

from paranmt.models.mining.corpus import normalize_rows
from paranmt.models.mining.knn import SearchConfig, knn, recall_at_k
from paranmt.models.mining.margin import STRATEGIES, margins_from_neighbours, mine_vectors, select

S3 = math.sqrt(3) / 2        # cos 30 degrees
# unit vectors in the plane: x at 0 and 90 degrees, y at 0, 60 and 90 degrees
X = np.array([[1.0, 0.0], [0.0, 1.0]], np.float32)
Y = np.array([[1.0, 0.0], [0.5, S3], [0.0, 1.0]], np.float32)


def test_margin_matches_the_hand_computed_ratio_margin():
    # cos(x, y): x0 -> [1, .5, 0], x1 -> [0, .866, 1]; k = 2
    # means over NN_2: x0 (1 + .5)/2 = .75, x1 (1 + .866)/2; y0 (1 + 0)/2, y1 (.866 + .5)/2, y2 (1 + 0)/2
    x2y, y2x = knn(X, Y, 2), knn(Y, X, 2)
    assert x2y[1].tolist() == [[0, 1], [2, 1]] and y2x[1].tolist() == [[0, 1], [1, 0], [1, 0]]
    forward, backward = margins_from_neighbours(x2y, y2x)
    mx0, mx1 = 0.75, (1 + S3) / 2
    my0, my1, my2 = 0.5, (S3 + 0.5) / 2, 0.5
    expected_forward = [[1 / ((mx0 + my0) / 2), 0.5 / ((mx0 + my1) / 2)],
                        [1 / ((mx1 + my2) / 2), S3 / ((mx1 + my1) / 2)]]
    assert np.allclose(forward, expected_forward, atol=1e-6)
    assert forward[0, 0] == pytest.approx(1.6, abs=1e-6)
    expected_backward = [[1 / ((my0 + mx0) / 2), 0.0], [S3 / ((my1 + mx1) / 2), 0.5 / ((my1 + mx0) / 2)],
                         [1 / ((my2 + mx1) / 2), 0.0]]
    assert np.allclose(backward, expected_backward, atol=1e-6)


def test_strategies_on_the_hand_computed_example():
    x2y, y2x = knn(X, Y, 2), knn(Y, X, 2)
    pairs = {s: select(x2y, y2x, s) for s in STRATEGIES}
    as_set = {s: set(zip(p.source.tolist(), p.target.tolist())) for s, p in pairs.items()}
    assert as_set["forward"] == {(0, 0), (1, 2)}
    assert as_set["backward"] == {(0, 0), (1, 1), (1, 2)}
    assert as_set["intersection"] == {(0, 0), (1, 2)}
    assert as_set["max"] == {(0, 0), (1, 2)}
    assert pairs["backward"].margin.tolist() == sorted(pairs["backward"].margin.tolist(), reverse=True)
    assert pairs["forward"].cos.tolist() == pytest.approx([1.0, 1.0])
    thresholded = select(x2y, y2x, "backward", threshold=1.5)
    assert list(zip(thresholded.source.tolist(), thresholded.target.tolist())) == [(0, 0)]


def clustered(n, dim, rng, centers=20, spread=0.35):
    c = rng.normal(size=(centers, dim))
    return normalize_rows(c[rng.integers(0, centers, n)] + spread * rng.normal(size=(n, dim)))


def test_strategy_invariants_on_random_data():
    rng = np.random.default_rng(0)
    x = clustered(120, 16, rng)
    y = normalize_rows(np.vstack([x[:80] + 0.05 * rng.normal(size=(80, 16)), clustered(60, 16, rng)]))
    pairs = {s: mine_vectors(x, y, 4, s) for s in STRATEGIES}
    sets = {s: set(zip(p.source.tolist(), p.target.tolist())) for s, p in pairs.items()}
    assert sorted(pairs["forward"].source.tolist()) == list(range(120))
    assert sorted(pairs["backward"].target.tolist()) == list(range(140))
    assert sets["intersection"] == sets["forward"] & sets["backward"]
    for name in ("intersection", "max"):
        p = pairs[name]
        assert len(set(p.source.tolist())) == len(p) == len(set(p.target.tolist()))   # one to one
    assert sets["intersection"] <= sets["max"] <= sets["forward"] | sets["backward"]
    assert len(sets["max"]) > len(sets["intersection"])
    # the planted pairs (i, i) are found
    assert len({(i, i) for i in range(80)} & sets["max"]) >= 75


def test_blocked_search_equals_unblocked_and_numpy_brute_force():
    rng = np.random.default_rng(1)
    x, y = normalize_rows(rng.normal(size=(203, 24))), normalize_rows(rng.normal(size=(157, 24)))
    whole = knn(x, y, 5, SearchConfig(index="exact", block_size=100_000))
    blocked = knn(x, y, 5, SearchConfig(index="exact", block_size=13))
    assert np.array_equal(whole[1], blocked[1]) and np.allclose(whole[0], blocked[0], atol=1e-6)
    brute = np.argsort(-(x @ y.T), axis=1)[:, :5]
    assert np.array_equal(whole[1], brute)
    mined_whole = mine_vectors(x, y, 4, "max", search=SearchConfig(index="exact", block_size=100_000))
    mined_blocked = mine_vectors(x, y, 4, "max", search=SearchConfig(index="exact", block_size=7))
    assert np.array_equal(mined_whole.source, mined_blocked.source)
    assert np.array_equal(mined_whole.target, mined_blocked.target)
    assert np.allclose(mined_whole.margin, mined_blocked.margin, atol=1e-5)


def test_k_larger_than_the_base_is_clamped():
    sims, ids = knn(X, Y[:1], 4, SearchConfig(index="exact", block_size=1))
    assert ids.tolist() == [[0], [0]] and sims.shape == (2, 1)
    assert len(mine_vectors(X, Y[:1], 4, "forward")) == 2


def test_hnsw_is_close_to_exact_on_clustered_data():
    rng = np.random.default_rng(2)
    x = clustered(4000, 32, rng)
    y = normalize_rows(x + 0.3 * rng.normal(size=x.shape))
    exact = knn(x, y, 4, SearchConfig(index="exact"))
    approx = knn(x, y, 4, SearchConfig(index="hnsw", block_size=1000))
    assert recall_at_k(approx[1], exact[1]) > 0.9
    assert recall_at_k(exact[1], exact[1]) == 1.0
    mined_exact = mine_vectors(x, y, 4, "max", search=SearchConfig(index="exact"))
    mined_approx = mine_vectors(x, y, 4, "max", search=SearchConfig(index="hnsw"))
    common = set(zip(mined_exact.source.tolist(), mined_exact.target.tolist())) & set(
        zip(mined_approx.source.tolist(), mined_approx.target.tolist()))
    assert len(common) > 0.9 * len(mined_exact)


def test_auto_switches_to_hnsw_above_the_measured_size():
    config = SearchConfig()
    assert config.resolve(1000, 1000) == "exact" and config.resolve(300_000, 300_000) == "hnsw"
    with pytest.raises(ValueError, match="index must be one of auto, exact, hnsw, not 'annoy'"):
        knn(np.ones((2, 3), np.float32), np.ones((2, 3), np.float32), 1, SearchConfig(index="annoy"))
