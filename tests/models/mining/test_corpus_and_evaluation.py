"""Corpora encoded in blocks to disk, and the BUCC-style task / P-R-F1 of eval-xling."""
import numpy as np
import pytest

from paranmt.models.encoders import create_encoder, load_encoder
from paranmt.models.mining.corpus import encode_corpus
from paranmt.models.mining.evaluate import best_threshold, make_mining_task, prf, retrieval_p_at_1
from paranmt.models.mining.margin import MinedPairs, mine_vectors
from paranmt.models.mining.corpus import normalize_rows


@pytest.fixture(scope="module")
def newstest(bitext):
    cs = (bitext / "newstest2017.ces").read_text(encoding="utf-8").splitlines()[1500:1800]
    en = (bitext / "newstest2017.eng").read_text(encoding="utf-8").splitlines()[1500:1800]
    return cs, en


@pytest.fixture(scope="module")
def shipped(repo):
    return load_encoder(repo / "assets" / "encoder-xling")


def test_encode_corpus_dedups_skips_empty_and_reads_texts_back(tmp_path, shipped, newstest):
    cs = newstest[0][:50]
    stream = [cs[0], "  ", cs[1], cs[0], "a\tb", "", *cs[2:]]
    corpus = encode_corpus(iter(stream), shipped.encode, shipped.dim, tmp_path, "cs", block_size=7)
    assert corpus.counts == {"read": len(stream), "empty": 2, "duplicate": 1, "kept": 51}
    assert corpus.texts([2, 0, 1]) == ["a b", cs[0], cs[1]]
    assert np.allclose(np.linalg.norm(corpus.vectors, axis=1), 1.0, atol=1e-5)
    whole = normalize_rows(shipped.encode(corpus.texts(range(len(corpus)))))
    assert np.allclose(corpus.vectors, whole, atol=1e-5)      # blocks of 7 == one call


def test_mining_task_gold_pairs_are_bitext_pairs_and_distractors_have_no_partner(newstest):
    cs, en = newstest
    task = make_mining_task(cs, en, gold_fraction=0.2, seed=3, extra_targets=["An extra English sentence."])
    pairs = dict(zip(cs, en))
    assert len(task.gold) == round(0.2 * len(set(cs)))
    for s, t in task.gold:
        assert pairs[task.source[s]] == task.target[t]
    gold_sources = {s for s, _ in task.gold}
    target_set = set(task.target)
    for i, text in enumerate(task.source):
        if i not in gold_sources:
            assert pairs[text] not in target_set
    assert "An extra English sentence." in task.target
    assert len(task.source) + len(task.target) - 1 == len(set(cs)) + len(task.gold)
    assert make_mining_task(cs, en, 0.2, seed=3).gold == make_mining_task(cs, en, 0.2, seed=3).gold


def test_prf_and_best_threshold_against_a_brute_force_sweep():
    mined = MinedPairs(np.array([0, 1, 2, 3, 4]), np.array([0, 1, 5, 3, 9]),
                       np.array([2.0, 1.8, 1.5, 1.5, 1.1], np.float32), np.zeros(5, np.float32))
    gold = {(0, 0), (1, 1), (3, 3), (7, 7)}
    result = prf(mined, gold, 1.6)
    assert (result["precision"], result["recall"], result["f1"]) == (1.0, 0.5, pytest.approx(2 / 3))
    sweep = max((prf(mined, gold, t) for t in mined.margin.tolist()), key=lambda r: r["f1"])
    best = best_threshold(mined, gold)
    assert best["f1"] == pytest.approx(sweep["f1"]) == pytest.approx(2 * 3 / (4 + 4))
    assert best["threshold"] == 1.5 and best["mined"] == 4


def test_shipped_encoder_retrieves_and_mines_where_a_random_one_fails(tmp_path, shipped, newstest, repo):
    cs, en = newstest
    random = create_encoder("sp", sp_model=repo / "assets" / "encoder-xling" / "sp.model")
    scores = {}
    for name, encoder in (("shipped", shipped), ("random", random)):
        x, y = normalize_rows(encoder.encode(cs)), normalize_rows(encoder.encode(en))
        p1 = retrieval_p_at_1(x, y, cs, en)
        task = make_mining_task(cs, en, 0.2, seed=1)
        mined = mine_vectors(normalize_rows(encoder.encode(task.source)), normalize_rows(encoder.encode(task.target)))
        scores[name] = (p1["cs->en cosine"], p1["en->cs margin"], best_threshold(mined, task.gold)["f1"])
    assert min(scores["shipped"]) > 0.8
    assert max(scores["random"]) < 0.5
