"""SIMILE (models/scoring/simile.py): the formula on hand-computed examples, lengths in the encoder's units, the
batched scorer against its definition, the corpus mean."""
import math

import numpy as np
import pytest

from paranmt.models.encoders import create_encoder, load_encoder
from paranmt.models.scoring.para_score import ParaScorer
from paranmt.models.scoring.simile import SimileScorer, corpus_simile, simile_rows, unit_counts


def test_formula_by_hand():
    # (|r|, |h|, SIM) -> SIM * exp(1 - max/min) ** 0.25
    sims = np.array([0.8, 0.8, 0.6, -0.5, 0.9, 0.7])
    refs = np.array([10, 4, 12, 3, 0, 5])
    hyps = np.array([10, 8, 9, 6, 4, 1])
    got = simile_rows(sims, refs, hyps)
    assert got[0] == pytest.approx(0.8), "equal lengths: no penalty"
    assert got[1] == pytest.approx(0.8 * math.exp(-0.25)) == pytest.approx(0.62304, abs=1e-5)  # 8/4 = 2
    assert got[2] == pytest.approx(0.6 * math.exp(-1 / 12)) == pytest.approx(0.55203, abs=1e-5)  # 12/9
    assert got[3] == pytest.approx(-0.5 * math.exp(-0.25)), "a negative SIM stays negative, shrunk toward 0"
    assert math.isnan(got[4]), "a side without units: undefined"
    assert got[5] == pytest.approx(0.7 * math.exp(-1.0)), "5 vs 1 unit: LP = e**-4, LP**0.25 = e**-1"
    assert simile_rows(np.array([0.8]), np.array([4]), np.array([8]), alpha=1.0)[0] == pytest.approx(0.8 * math.e ** -1)


def test_symmetric_in_reference_and_hypothesis():
    a = simile_rows(np.array([0.7]), np.array([7]), np.array([11]))
    b = simile_rows(np.array([0.7]), np.array([11]), np.array([7]))
    assert a[0] == b[0]


def test_corpus_score_counts_undefined_as_zero():
    assert corpus_simile(np.array([0.5, 1.0, np.nan, 0.5])) == pytest.approx(0.5)
    assert corpus_simile(np.array([], dtype=np.float32)) == 0.0


@pytest.fixture(scope="module")
def sp_encoder(repo):
    return load_encoder(repo / "assets" / "encoder-sp")


def test_lengths_are_sentencepiece_pieces_of_the_shipped_encoder(sp_encoder):
    sentences = ["The government said on Monday.", "Hello", ""]
    pieces = [sp_encoder.featurizer.processor.encode(s.lower(), out_type=str) for s in sentences]
    assert list(unit_counts(sp_encoder, sentences)) == [len(p) for p in pieces]
    assert pieces[2] == [] and len(pieces[0]) >= 6


def test_word_and_combined_encoders_count_words(bitext):
    texts = (bitext / "newstest2015.eng").read_text(encoding="utf-8").splitlines()[:300]
    word = create_encoder("word", texts, dim=8)
    combined = create_encoder("word,trigram", texts, dim=8)
    # WordFeaturizer units: don ' t stop , zyxwv ! (words and single punctuation marks; unknown words count)
    assert list(unit_counts(word, ["Don't stop, zyxwv!"])) == [7]
    assert list(unit_counts(combined, ["Don't stop, zyxwv!"])) == [7]


def test_scorer_is_cosine_times_length_penalty_on_real_sentences(sp_encoder, bitext):
    refs = (bitext / "newstest2017.eng").read_text(encoding="utf-8").splitlines()[:20]
    hyps = [refs[0], " ".join(refs[1].split()[:4]), refs[2] + " " + refs[3], "", *refs[4:20]]
    scores = SimileScorer(sp_encoder).score(refs, hyps)
    cosines = ParaScorer(sp_encoder).score(refs, hyps)
    lengths_r, lengths_h = unit_counts(sp_encoder, refs), unit_counts(sp_encoder, hyps)
    assert scores[0] == pytest.approx(1.0, abs=1e-5), "identical sentences"
    for i in (1, 2):
        lp = math.exp(1 - max(lengths_r[i], lengths_h[i]) / min(lengths_r[i], lengths_h[i]))
        assert scores[i] == pytest.approx(cosines[i] * lp ** 0.25, rel=1e-5)
        assert scores[i] < cosines[i], "a length difference is penalized"
    assert math.isnan(scores[3]), "empty hypothesis"
    assert np.allclose(scores[4:], cosines[4:]), "same sentence: same length, SIMILE = SIM"
