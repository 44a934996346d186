"""The thesis's post-filter (trigram overlap >= 0.5, paraphrastic similarity >= 0.7) with the shipped encoder, on
hand-checked candidates for one source sentence."""
import math

import pytest

from paranmt.models.encoders import open_encoder
from paranmt.models.generation.postfilter import PostFilter

SOURCE = "a man is playing a guitar ."


@pytest.fixture(scope="module")
def post_filter():
    return PostFilter(open_encoder("assets/encoder-sp"))


def test_hand_checked_candidates(post_filter):
    candidates = {
        # 4 of the source's 5 trigrams, same meaning: kept
        "a man is playing a guitar on the stage .": (0.8, None),
        # the source again (case and punctuation aside): not a paraphrase
        "A man is playing a guitar!": (0.8, "copy"),
        # a word twice where the source has it once: the commonest disfluency of an undertrained generator
        "a man is playing a guitar guitar on the stage .": (0.8, "repeated_word"),
        # "a" is twice in the source too: not a repeat
        "a man on the stage is playing a guitar .": (0.6, None),
        # a passive: no shared trigram, dropped by the thesis's overlap rule although the meaning is kept
        "the guitar is being played by a man .": (0.0, "low_overlap"),
        "on the mat , the cat sat .": (0.0, "low_overlap"),
        # 3 of 5 trigrams shared, but another instrument: the encoder's cosine (0.61) is under 0.7
        "a man is playing a piano .": (0.6, "low_similarity"),
        "a man is playing a game of chess with his neighbours in the old park .": (0.6, "low_similarity"),
        "": (None, "empty_paraphrase"),
    }
    scores = post_filter.score([SOURCE] * len(candidates), list(candidates))
    for (text, (overlap, reason)), got_overlap, got_reason, cosine in zip(
            candidates.items(), scores.overlap, scores.reasons, scores.para_score):
        assert got_reason == reason, text
        assert got_overlap == (None if overlap is None else pytest.approx(overlap)), text
        if reason is None:
            assert cosine >= 0.7
        if reason == "low_similarity":
            assert cosine < 0.7
    assert math.isnan(scores.para_score[-1])
    assert scores.kept == [True, False, False, True, False, False, False, False, False]


def test_thresholds_are_configurable(post_filter):
    loose = PostFilter(post_filter.scorer.encoder, min_overlap=0.0, min_similarity=0.5)
    assert loose.score([SOURCE], ["a man is playing a piano ."]).kept == [True]
    with pytest.raises(ValueError, match="min_similarity"):
        PostFilter(post_filter.scorer.encoder, min_similarity=1.5)


def test_the_guards_can_be_turned_off(post_filter):
    loose = PostFilter(post_filter.scorer.encoder, drop_copies=False, drop_repeats=False)
    assert loose.score([SOURCE] * 2, ["A man is playing a guitar!", "a man is playing a guitar guitar ."]).kept == [
        True, True]


@pytest.mark.parametrize("source, paraphrase, repeats", [
    ("It's time for him, it's time for them.", "It's time time for them.", True),        # twice in a row
    ("The Defense Ministry announced the test.", "The Defense test of Defense was announced.", True),
    ("A cat sat on a mat.", "On the mat sat the cat.", False),            # short words repeat in fluent English
    ("Yes, yes, we know.", "We know: yes, yes.", False),                  # the source says it twice in a row too
    ("Prices rose and prices fell.", "Prices fell after prices rose.", False),
])
def test_repeated_words(source, paraphrase, repeats):
    from paranmt.models.generation.postfilter import repeats_a_word
    assert repeats_a_word(source, paraphrase) is repeats
