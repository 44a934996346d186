"""Hard STS: symmetric WER on hand-computed pairs; the Hard+/Hard- selection on real STS data."""
import numpy as np
import pytest

from paranmt.models.evaluation.hard_sts import (DIFFICULTY_SPLITS, difficulty_splits, edit_distance, hard_subsets,
                                                  is_negated, swer, word_error_rate)
from paranmt.models.evaluation.sts import YEAR_GROUP, STSDataset, discover_datasets


def test_word_error_rate_and_its_symmetric_mean():
    assert edit_distance(("a", "b", "c"), ("a", "c")) == 1
    assert edit_distance((), ("a", "b")) == 2
    assert word_error_rate(("a", "c"), ("a", "b", "c")) == pytest.approx(1 / 3)      # one deletion / 3
    assert word_error_rate(("a", "b", "c"), ("a", "c")) == pytest.approx(1 / 2)      # one insertion / 2
    assert swer("A b c", "a c") == pytest.approx(0.5 * (1 / 2) + 0.5 * (1 / 3))      # lowercased tokens
    assert swer("The cat sat.", "The cat sat.") == 0.0
    assert word_error_rate((), ()) == 0.0 and word_error_rate(("a",), ()) == 1.0


def test_hard_subsets_keep_high_gold_low_overlap_and_low_gold_high_overlap():
    s1 = ["a b c d", "a b c d", "w x y z", "a b c d", "p q r s"] * 4
    s2 = ["a b c d", "e f g h", "w x y q", "k l m n", "p q r t"] * 4
    gold = np.array([4.8, 4.5, 0.5, 1.0, 3.0] * 4)
    plus, minus = hard_subsets([STSDataset("t/x", "t", s1, s2, gold)], fraction=0.4)
    assert plus.name == "hard/Hard+" and set(zip(plus.s1, plus.s2)) == {("a b c d", "e f g h")}
    assert minus.name == "hard/Hard-" and set(zip(minus.s1, minus.s2)) == {("w x y z", "w x y q")}
    assert (plus.gold >= 4).all() and (minus.gold <= 1).all()


def test_hard_subsets_of_the_real_sts_years(shared_data):
    datasets, _ = discover_datasets(shared_data / "sts")
    years = [d for d in datasets if YEAR_GROUP.match(d.group)]
    plus, minus = hard_subsets(years)
    pooled = sum(len(d.gold) for d in years)
    assert 50 < len(plus.gold) < 0.2 * pooled and 50 < len(minus.gold) < 0.2 * pooled
    assert np.mean([swer(a, b) for a, b in zip(plus.s1[:50], plus.s2[:50])]) > \
        np.mean([swer(a, b) for a, b in zip(minus.s1[:50], minus.s2[:50])])


@pytest.mark.parametrize("sentence, tokens, substring", [
    ("The man is not playing a guitar.", True, True),
    ("A woman doesn't cut an onion.", True, True),
    ("He cannot swim.", True, True),
    ("A man is playing a guitar.", False, False),
    ("Nothing is happening on the street.", False, True),     # "not" inside a word: only the literal reading
    ("The knot is tight.", False, True),
    ("No man is playing.", False, False),                       # "no" is not one of the thesis' markers
])
def test_negation_rules_on_hand_written_sentences(sentence, tokens, substring):
    assert is_negated(sentence, "tokens") is tokens
    assert is_negated(sentence, "substring") is substring


def test_difficulty_splits_membership_on_hand_written_pairs():
    groups = {  # name -> (s1, s2, gold) of 3-5 pairs; SWER 0, 0.25, 1, 1, about 0.18, 0
        "alike, low gold": [(f"a{i} b c d", f"a{i} b c d", 1.5) for i in range(5)],
        "one word off, high gold": [(f"w{i} x y z", f"w{i} x y q", 4.5) for i in range(5)],
        "different, high gold": [(f"a{i} b c d", f"e{i} f g h", 4.2) for i in range(5)],
        "different, low gold": [(f"p{i} q r s", f"k{i} l m n", 0.5) for i in range(5)],
        "one negated": [(f"the dog{i} is not running", f"the dog{i} is running", 3.0) for i in range(3)],
        "both negated": [(f"he doesn't eat{i}", f"he doesn't eat{i}", 5.0) for i in range(3)],
    }
    rows = [row for group in groups.values() for row in group]
    pooled = STSDataset("t/x", "t", [r[0] for r in rows], [r[1] for r in rows], np.array([r[2] for r in rows]))
    splits = {d.name: {(a, b) for a, b in zip(d.s1, d.s2)} for d in difficulty_splits([pooled, pooled])}

    def pairs(*names):
        return {(a, b) for name in names for a, b, _ in groups[name]}

    assert splits["hard/all"] == pairs(*groups)                  # the second copy of every pair is dropped
    assert splits["hard/negation"] == pairs("one negated")
    assert splits["hard/swer-bottom20-gold0-2"] == pairs("alike, low gold")
    assert splits["hard/swer-top20-gold3-5"] == splits["hard/swer-top10-gold4-5"] == pairs("different, high gold")
    assert splits["hard/easy-swer-top20-gold0-2"] == pairs("different, low gold")
    assert splits["hard/easy-swer-bottom20-gold3-5"] == pairs("both negated")
    assert "hard/swer-bottom10-gold0-1" not in splits            # no pair has gold <= 1 and SWER at the bottom


def test_difficulty_splits_of_the_real_sts_years(shared_data):
    datasets, _ = discover_datasets(shared_data / "sts")
    years = [d for d in datasets if YEAR_GROUP.match(d.group)]
    splits = {d.name: d for d in difficulty_splits(years)}
    assert list(splits) == ["hard/all", "hard/negation"] + [f"hard/{s.name}" for s in DIFFICULTY_SPLITS]
    everything = len(splits["hard/all"].gold)
    assert everything < sum(len(d.gold) for d in years)          # duplicates across years are pooled once
    negation = splits["hard/negation"]
    assert 100 < len(negation.gold) < 0.1 * everything
    assert all(is_negated(a) != is_negated(b) for a, b in zip(negation.s1, negation.s2))
    assert len(splits["hard/swer-bottom10-gold0-1"].gold) < len(splits["hard/swer-bottom20-gold0-2"].gold)
    assert len(splits["hard/swer-top10-gold4-5"].gold) < len(splits["hard/swer-top20-gold3-5"].gold)
    literal = {d.name: d for d in difficulty_splits(years, negation="substring")}
    assert len(literal["hard/negation"].gold) >= len(negation.gold)
