"""unigram_f1 and kendall_tau (models/scoring/diversity.py) on hand-computed examples and real pairs."""
import pytest

from paranmt.models.scoring.diversity import kendall_tau, unigram_f1, words


def test_words_are_lowercased_tokens_without_punctuation():
    assert words("The cat, the DOG's bone!") == ("the", "cat", "the", "dog", "'s", "bone")
    assert words("... !") == ()


def test_unigram_f1_by_hand():
    # common = the + cat + sat = 3 (min counts: the 1), P = 3/3, R = 3/6 -> F1 = 2 * 1 * 0.5 / 1.5 = 2/3
    assert unigram_f1("The cat sat on the mat.", "The cat sat.") == pytest.approx(2 / 3)
    assert unigram_f1("He bought a car yesterday", "Yesterday he bought a car") == 1.0
    assert unigram_f1("a a b", "a c") == pytest.approx(2 * 1 / 5), "multiset: one shared a"
    assert unigram_f1("Good morning.", "Hello there!") == 0.0
    assert unigram_f1("Hello", "...") is None and unigram_f1("", "Hello") is None


def test_kendall_tau_by_hand():
    # shared, in ref order: he bought a car yesterday at bt positions 1 2 3 4 0: 6 concordant, 4 discordant
    assert kendall_tau("He bought a car yesterday", "Yesterday he bought a car") == pytest.approx(0.2)
    assert kendall_tau("one two three four", "one two three four") == 1.0
    assert kendall_tau("one two three four", "four three two one") == -1.0
    # once on each side: john loves and mary (the two "the"s are left out), bt positions 0 3 1 2:
    # 4 concordant, 2 discordant pairs -> tau = 2/6
    assert kendall_tau("John loves the cat and the dog Mary", "John and Mary loves") == pytest.approx(1 / 3)


def test_kendall_tau_null_under_two_shared_words():
    assert kendall_tau("The cat sat.", "A dog barked.") is None, "no shared word"
    assert kendall_tau("Yes.", "Yes!") is None, "one shared word: no order"
    assert kendall_tau("the the cat", "cat the the") is None, "the repeated on both sides: only cat usable"
    assert kendall_tau("the cat sat", "sat the the cat") == -1.0, "the repeated in bt: cat, sat reversed"
    assert kendall_tau("", "Hello") is None


def test_real_pairs_from_the_bitext(bitext):
    refs = (bitext / "newstest2017.eng").read_text(encoding="utf-8").splitlines()[:200]
    for ref in refs:
        if len(set(words(ref))) == len(words(ref)) >= 2:
            assert unigram_f1(ref, ref) == 1.0 and kendall_tau(ref, ref) == 1.0
    # a real paraphrase (a reordered sentence of newstest2017): same words, clause order changed
    ref = "A 28-year-old chef who had recently moved to San Francisco was found dead in the stairwell of a local mall"
    bt = "In the stairwell of a local mall, a 28-year-old chef who had recently moved to San Francisco was found dead"
    assert unigram_f1(ref, bt) == 1.0
    assert kendall_tau(ref, bt) < 0.5
