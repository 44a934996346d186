"""trigram_overlap (schema v1 definition), para_score and the pure score stage, on real sentences."""
import math

import numpy as np
import pytest

from paranmt.models.encoders import create_encoder
from paranmt.models.scoring.overlap import trigram_overlap, word_trigrams
from paranmt.models.scoring.para_score import ParaScorer
from paranmt.models.scoring.stage import ScoreStage
from paranmt.schemas.build_config import ScoreConfig
from paranmt.schemas.records import empty_row


def test_trigram_overlap_definition():
    assert trigram_overlap("The cat sat down.", "the cat sat up.") == pytest.approx(1 / 3)
    # sacremoses splits "don't" -> "don", "'t": T = {(i, don, 't), (don, 't, know)}; shared with the other side: 1
    assert trigram_overlap("I don't know", "You don't know") == pytest.approx(1 / 2)
    assert trigram_overlap("Thank you", "thank you") == 1.0, "under 3 tokens: the token tuple is the one trigram"
    assert trigram_overlap("Thank you", "Thank you very much") == 0.0
    assert trigram_overlap("", "Hello") is None and trigram_overlap("Hi", "   ") is None
    assert word_trigrams(["a", "b", "a", "b"]) == {("a", "b", "a"), ("b", "a", "b")}, "a set, not a multiset"


def test_denominator_is_the_shorter_side():
    short, long = "He went home early", "He went home early , because he was tired and bored ."
    assert trigram_overlap(short, long) == 1.0 == trigram_overlap(long, short)


@pytest.fixture(scope="module")
def encoder_dir(bitext, tmp_path_factory):
    sentences = (bitext / "newstest2015.eng").read_text(encoding="utf-8").splitlines()
    directory = tmp_path_factory.mktemp("encoder")
    create_encoder("word", sentences, dim=32).save(directory)
    return directory


def test_para_score_is_a_batched_cosine(encoder_dir):
    from paranmt.models.encoders import load_encoder

    encoder = load_encoder(encoder_dir)
    refs = ["The government said on Monday.", "A man plays a guitar.", "Hello"]
    bts = ["The government said on Monday.", "A woman eats an apple.", ""]
    scores = ParaScorer(encoder).score(refs, bts)
    a, b = encoder.encode(refs[1:2])[0], encoder.encode(bts[1:2])[0]
    assert scores[0] == pytest.approx(1.0, abs=1e-6)
    assert scores[1] == pytest.approx(a @ b / np.linalg.norm(a) / np.linalg.norm(b), abs=1e-6)
    assert math.isnan(scores[2])


def test_score_stage_fills_scores_and_passes_untranslated_rows(encoder_dir):
    stage = ScoreStage(str(encoder_dir), ScoreConfig())
    rows = [dict(empty_row("t:f:1", "t", "Ahoj.", "Hello there, my friend."), bt="Hello there, my dear friend."),
            empty_row("t:f:2", "t", "Ne.", "No."),
            dict(empty_row("t:f:3", "t", "…", "Yes."), bt="")]
    out = stage.process_batch(rows)
    assert len(out) == 3 and [r["id"] for r in out] == ["t:f:1", "t:f:2", "t:f:3"]
    assert out[0]["trigram_overlap"] == pytest.approx(trigram_overlap(rows[0]["ref"], rows[0]["bt"]))
    assert 0 < out[0]["para_score"] <= 1
    assert out[1]["trigram_overlap"] is None and out[1]["para_score"] is None and out[1]["ref"] == "No."
    assert out[2]["trigram_overlap"] is None and out[2]["para_score"] is None, "empty bt: undefined scores"
