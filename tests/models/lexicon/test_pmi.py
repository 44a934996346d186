"""Cross-sentence / within-sentence / adjusted PMI: direct marginal formulas against brute-force enumeration,
hand-computed values, and the SimLex evaluation."""
import math
from collections import Counter

import pytest

from paranmt.models.lexicon.pmi import (CROSS, WITHIN_BT, WITHIN_REF, CooccurrenceCounter, canonical,
                                        lexicon_entry, lexicon_words, pmi, within_pairs)
from paranmt.models.lexicon.simlex import evaluate, read_word_pairs

# Real pairs (sow-reap-samples/sample_test_baseline.txt and STS Benchmark).
PAIRS = [("that 's very kind , but we can make our own way .", "that 's very generous , but we 'll go our own way ."),
         ("A man is playing a large flute.", "A man is playing a flute."),
         ("wild , right ? - you need his permission to breathe .", "you ca n't even breathe without his permission .")]


def brute_force(pairs):
    """Every (kind, u, v) event of the module docstring, enumerated literally."""
    events = Counter()
    for ref, bt in pairs:
        r, b = lexicon_words(ref), lexicon_words(bt)
        for u in r:
            for v in b:
                events[CROSS, u, v] += 1
                events[CROSS, v, u] += 1
        for kind, ws in ((WITHIN_REF, r), (WITHIN_BT, b)):
            for u in ws:
                for v in ws:
                    if u != v:
                        events[kind, u, v] += 1
    return events


def test_lexicon_words_keep_letters_only():
    # Moses splits "can't" into "can" + "'t"; the clitic is not a lexicon word.
    assert lexicon_words("You can't even breathe, 2 times!") == ["breathe", "can", "even", "times", "you"]
    assert lexicon_words("A well-known anti-dumping duty.") == ["a", "anti-dumping", "duty", "well-known"]


def test_direct_marginals_and_totals_equal_the_enumerated_ones():
    counter = CooccurrenceCounter()
    for ref, bt in PAIRS:
        counter.add_pair(ref, bt)
    counter.add_pair("no translation", None)
    cross, marginals, totals = counter.drain()
    events = brute_force(PAIRS)
    for kind in (CROSS, WITHIN_REF, WITHIN_BT):
        assert totals[kind] == sum(n for (k, _, _), n in events.items() if k == kind)
        by_word = Counter()
        for (k, u, _), n in events.items():
            if k == kind:
                by_word[u] += n
        assert {w: n for (k, w), n in marginals.items() if k == kind and n} == +by_word
    for (k, u, v), n in events.items():
        if k == CROSS and u != v:
            assert cross[canonical(u, v)] == n
    assert len(counter) == 0


def test_within_pairs_and_entry_values_by_hand():
    words = lexicon_words(PAIRS[1][0])
    assert list(within_pairs(words, {("a", "man"), ("flute", "large"), ("x", "y")})) == [("a", "man"),
                                                                                        ("flute", "large")]
    assert pmi(1, 2, 2, 8, alpha=1.0) == pytest.approx(math.log(2 * 8 / 9))
    marginals = {(CROSS, "kind"): 10, (CROSS, "generous"): 6, (WITHIN_REF, "kind"): 4,
                 (WITHIN_REF, "generous"): 2, (WITHIN_BT, "kind"): 3, (WITHIN_BT, "generous"): 5}
    totals = {CROSS: 100, WITHIN_REF: 50, WITHIN_BT: 60}
    entry = lexicon_entry("kind", "generous", {CROSS: 4, WITHIN_REF: 0}, marginals, totals)
    cross = math.log(5 * 100 / (11 * 7))
    within = (math.log(1 * 50 / (5 * 3)) + math.log(1 * 60 / (4 * 6))) / 2
    assert entry["pmi_cross"] == pytest.approx(cross)
    assert entry["pmi_within"] == pytest.approx(within)
    assert entry["pmi_adj"] == pytest.approx(cross - within)
    assert entry["cross_count"] == 4


def test_simlex_evaluation_on_the_real_file(shared_data):
    pairs = read_word_pairs(shared_data / "word-sim" / "EN-SIMLEX-999.txt")
    assert len(pairs) == 999 and pairs[0] == ("old", "new", 1.58)
    perfect = {(w1, w2): gold for w1, w2, gold in pairs[:500]}
    result = evaluate(perfect, pairs)
    assert result["covered"] == 500 and result["rho_covered"] == pytest.approx(1.0)
    assert 0 < result["rho_all"] < 1
    reversed_order = {(w2, w1): -gold for w1, w2, gold in pairs}
    assert evaluate(reversed_order, pairs)["rho_covered"] == pytest.approx(-1.0)
    assert evaluate({}, pairs) == {"pairs": 999, "covered": 0, "rho_covered": None, "rho_all": None}
