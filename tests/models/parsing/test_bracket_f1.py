"""The evalb-style scorer on real PTB trees and hand-checked perturbations."""
import pytest

from paranmt.models.parsing.evaluate import labeled_brackets, score_parses
from paranmt.models.parsing.ptb import read_mrg
from paranmt.models.parsing.trees import parse_one


def test_identical_trees_score_one(shared_data):
    trees = read_mrg(shared_data / "treebank" / "ptb-sample" / "wsj_0001.mrg")
    scores = score_parses(trees, trees)
    assert scores.bracket_f1 == 1.0 and scores.pos_accuracy == 1.0 and scores.exact_template_match == 1.0
    assert scores.sentences == 2 and scores.words == 31


def test_hand_checked_scores():
    gold = parse_one("(ROOT (S (NP (PRP She)) (VP (VBD drove) (NP (NN home))) (. .)))")
    # brackets without punctuation: S(0,3) NP(0,1) VP(1,3) NP(2,3)
    assert labeled_brackets(gold) == {("S", 0, 3): 1, ("NP", 0, 1): 1, ("VP", 1, 3): 1, ("NP", 2, 3): 1}
    # a wrong attachment and a wrong tag: predicted S(0,3) NP(0,1) VP(1,2) ADVP(2,3) -> 2 of 4 match
    predicted = parse_one("(ROOT (S (NP (PRP She)) (VP (VBD drove)) (ADVP (RB home)) (. .)))")
    scores = score_parses([gold], [predicted])
    assert scores.precision == pytest.approx(0.5) and scores.recall == pytest.approx(0.5)
    assert scores.bracket_f1 == pytest.approx(0.5)
    assert scores.pos_accuracy == pytest.approx(3 / 4)
    assert scores.exact_template_match == 0.0      # (S(NP)(VP)(.)) vs (S(NP)(VP)(ADVP)(.))


def test_punctuation_and_prt_conventions():
    gold = parse_one("(ROOT (S (NP (PRP I)) (VP (VBD gave) (PRT (RP up))) (. .)))")
    predicted = parse_one("(ROOT (S (NP (PRP I)) (VP (VBD gave) (ADVP (RP up)) (. .))))")
    # the period moved inside VP: spans ignore punctuation, and PRT == ADVP, so everything matches
    assert score_parses([gold], [predicted]).bracket_f1 == 1.0


def test_different_words_are_an_error():
    with pytest.raises(ValueError):
        score_parses([parse_one("(ROOT (NP (NN a)))")], [parse_one("(ROOT (NP (NN b)))")])
    with pytest.raises(ValueError):
        score_parses([parse_one("(ROOT (NP (NN a)))")], [])
