"""bt_repetition (models/scoring/repetition.py): degenerate NMT loops score high, fluent sentences (real news and
Tatoeba English) score (almost) 0."""
import pytest

from paranmt.models.scoring.repetition import MAX_PERIOD, repeated_share, repetition


def test_definition_by_hand():
    assert repetition("San San San San") == pytest.approx(3 / 4)
    # tokens: the ministry of | the ministry of | the ministry: period 3, run of 5 after the first copy
    assert repetition("the Ministry of the Ministry of the Ministry") == pytest.approx(5 / 8)
    assert repetition("The Ministry of the Ministry of the Ministry of the Ministry") == pytest.approx(8 / 11)
    assert repetition("very very good") == pytest.approx(1 / 3)
    # i don 't know , | i don 't know , | i don 't know . : period 5, the run stops at "." (9 of 15 tokens)
    assert repetition("I don't know, I don't know, I don't know.") == pytest.approx(9 / 15)
    assert repetition("The cat sat on the mat.") == 0.0
    assert repetition("the cat saw the dog") == 0.0, "a word repeated at a distance is not a loop"
    assert repetition("Thank you, thank you.") == 0.0, "'thank you ,' is not followed by 'thank you ,'"
    assert repetition("San") == 0.0
    assert repetition("") is None and repetition("   ") is None


def test_a_partial_copy_shorter_than_the_period_is_not_a_loop():
    assert repeated_share(("a", "b", "c", "a", "b", "x")) == 0.0
    assert repeated_share(("a", "b", "c", "a", "b", "c")) == pytest.approx(3 / 6)


def test_periods_up_to_max_period():
    phrase = [f"w{i}" for i in range(MAX_PERIOD)]
    assert repeated_share(tuple(phrase * 2)) == pytest.approx(1 / 2)
    longer = [f"w{i}" for i in range(MAX_PERIOD + 1)]
    assert repeated_share(tuple(longer * 2)) == 0.0


def test_degenerate_outputs_score_far_above_fluent_sentences(bitext):
    degenerate = ["San San San San San San San San San San San San",
                  "the Ministry of the Ministry of the Ministry of the Ministry of",
                  "He said that he said that he said that he said that he said",
                  "It's a, it's a, it's a, it's a, it's a, it's a, it's a",
                  "The The The The The The The The The The."]
    assert all(repetition(s) >= 0.5 for s in degenerate), [repetition(s) for s in degenerate]
    fluent = [line for name in ("newstest2017.eng", "tatoeba-test-v2021-08-07.eng")
              for line in (bitext / name).read_text(encoding="utf-8").splitlines()[:1500] if line.strip()]
    scores = [repetition(s) for s in fluent]
    assert max(scores) < 0.2
    assert sum(s > 0 for s in scores) / len(scores) < 0.01
