"""Hard STS: symmetric WER on hand-computed pairs; the Hard+/Hard- selection on real STS data."""
import numpy as np
import pytest

from paranmt.models.evaluation.hard_sts import edit_distance, hard_subsets, swer, word_error_rate
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
