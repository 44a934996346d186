"""Tree reading, PTB cleaning, linearization, templates and the SCPN format, on real trees: the PTB sample, the SCPN
authors' templates and example parses, and CoreNLP parses from SOW-REAP."""
import csv
import re

import pytest

from paranmt.models.generation.templates import TemplateError, normalize_template, template_of
from paranmt.models.parsing.trees import (MAX_DEPTH, Tree, TreeDepthError, TreeFormatError, bare_label, from_scpn,
                                          linearize, parse_bracketed, parse_one, strip_ptb, template,
                                          template_of_linearized, to_scpn)


@pytest.fixture(scope="module")
def scpn_templates(shared_data):
    return [line.strip() for line in (shared_data / "scpn" / "scpn_top10_templates.txt").read_text().splitlines()
            if line.strip()]


@pytest.fixture(scope="module")
def corenlp_parses(shared_data):
    """The 24 pretty-printed CoreNLP constituency parses of the SOW-REAP sample."""
    text = (shared_data / "sow-reap-samples" / "sample_test_sow_reap.txt").read_text()
    blocks = re.findall(r"Constituency parse:\n(.*?)\n\n", text, re.S)
    assert len(blocks) == 24
    return [parse_one(block) for block in blocks]


@pytest.fixture(scope="module")
def scpn_examples(shared_data):
    with open(shared_data / "scpn" / "scpn_ex.tsv", newline="") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    return [(row["tokens"], parse_one(row["parse"])) for row in rows]


def test_spec_example_linearization_and_template():
    tree = parse_one("(ROOT (S (NP (PRP She)) (VP (VBD drove) (NP (NN home))) (. .)))")
    assert linearize(tree) == "(S(NP(PRP))(VP(VBD)(NP(NN)))(.))"
    assert template(tree) == "(S(NP)(VP)(.))"
    assert to_scpn(template(tree)) == "( ROOT ( S ( NP ) ( VP ) ( . ) ) ) EOP"
    assert tree.leaves() == ["She", "drove", "home", "."]
    assert tree.tags() == ["PRP", "VBD", "NN", "."]


def test_ptb_file_is_cleaned(shared_data):
    raw = (shared_data / "treebank" / "ptb-sample" / "wsj_0003.mrg").read_text()
    trees = parse_bracketed(raw)
    assert "-NONE-" in raw and "NP-SBJ" in raw
    cleaned = [strip_ptb(tree) for tree in trees]
    for tree in cleaned:
        text = str(tree)
        assert tree.label == "ROOT"
        assert "-NONE-" not in text and "*T*" not in text
        assert not re.search(r"\((?!-)[A-Z]+[-=][A-Z0-9]", text)  # no function tags / indices left
    # the first sentence: "A form of asbestos once used * * to make Kent cigarette filters has caused ..."
    first = cleaned[0]
    assert first.leaves()[:5] == ["A", "form", "of", "asbestos", "once"]
    assert "*" not in first.leaves()
    assert len(first.leaves()) == len([w for w in trees[0].leaves()
                                       if w not in ("*", "*-1", "0") and not w.startswith("*")])
    assert template(first) == "(S(S)(,)(NP)(VP)(.))"


def test_empty_constituents_are_removed():
    # a relative clause whose subject is a trace: (NP-SBJ (-NONE- *T*-1)) must vanish with its bracket
    tree = parse_one("( (S (NP-SBJ (NN Rain)) (VP (VBD fell) (SBAR (WHNP-1 (-NONE- 0)) (S (NP-SBJ (-NONE- *T*-1)) "
                     "(VP (-NONE- *?*))))) (. .)) )")
    assert str(strip_ptb(tree)) == "(ROOT (S (NP (NN Rain)) (VP (VBD fell)) (. .)))"


def test_bare_label():
    assert bare_label("NP-SBJ-1") == "NP"
    assert bare_label("PP-LOC=2") == "PP"
    assert bare_label("-LRB-") == "-LRB-"
    assert bare_label("-NONE-") == "-NONE-"
    assert bare_label("PRP$") == "PRP$"


def test_scpn_templates_round_trip(scpn_templates):
    assert len(scpn_templates) == 10
    for scpn in scpn_templates:
        linear = from_scpn(scpn)
        assert " " not in linear and "ROOT" not in linear and "EOP" not in linear
        assert to_scpn(linear) == scpn
        assert template_of_linearized(linear) == linear   # a template is its own template
    assert from_scpn(scpn_templates[0]) == "(S(NP)(VP)(.))"
    assert from_scpn(scpn_templates[6]) == "(SBARQ(WHADVP)(SQ)(.))"


def test_corenlp_templates_match_the_scpn_format(corenlp_parses, scpn_templates):
    for tree in corenlp_parses:
        linear = linearize(tree)
        # going through the SCPN string format of the full parse gives the same parse and template
        assert from_scpn(to_scpn(linear)) == linear
        assert template_of_linearized(from_scpn(to_scpn(linear))) == template(tree)
        assert to_scpn(template(tree)).startswith("( ROOT ( ") and to_scpn(template(tree)).endswith(" ) ) EOP")
    templates = [template(tree) for tree in corenlp_parses]
    # read off the pretty-printed parses by hand
    assert templates[0] == "(S(NP)(VP)(.))"
    assert templates[2] == "(S(FRAG)(:)(S)(.))"
    assert templates[10] == "(NP(NP)(.))"
    assert templates[13] == "(S(PP)(,)(NP)(VP)(.))"
    in_top10 = [to_scpn(t) in scpn_templates for t in templates]
    assert sum(in_top10) == 17   # ParaNMT-like sentences mostly follow the frequent templates


def test_scpn_example_parses(scpn_examples, scpn_templates):
    assert len(scpn_examples) == 4
    for tokens, tree in scpn_examples:
        assert tree.leaves() == tokens.split()
        assert to_scpn(template(tree)) == scpn_templates[0]
    first = linearize(scpn_examples[3][1])
    assert first == ("(S(NP(NP(DT)(NN))(PP(IN)(NP(DT)(JJ)(NN))))(VP(VBZ)(VP(VBG)(NP(NNS))(PP(IN)(NP(DT)(NN)))))(.))")


def test_malformed_input_is_an_error():
    for bad in ["(S (NP x)", "S (NP x))", "(S x) y"]:
        with pytest.raises(TreeFormatError):
            parse_bracketed(bad)
    with pytest.raises(TreeFormatError):
        parse_one("(S x) (S y)")
    with pytest.raises(TreeFormatError):
        from_scpn("( ROOT ( S ( NP ) ) EOP")


def test_a_tree_nested_deeper_than_max_depth_is_an_error_not_a_recursion_error():
    deepest = "(X" * MAX_DEPTH + ")" * MAX_DEPTH
    assert linearize(parse_one(deepest)) == deepest and template_of_linearized(deepest) == "(X(X))"
    for text in ("(X" * (MAX_DEPTH + 1) + ")" * (MAX_DEPTH + 1), "(" * 5000 + ")" * 5000, "( X" * 5000):
        with pytest.raises(TreeDepthError, match=f"nested deeper than {MAX_DEPTH} levels"):
            parse_bracketed(text)
    assert template_of("(NP" * 5000 + ")" * 5000) is None
    with pytest.raises(TemplateError, match="nested deeper"):
        normalize_template("( ROOT" + " ( S" * 3000 + " )" * 3001 + " EOP")


def test_tree_without_words_is_dropped():
    assert strip_ptb(parse_one("( (S (NP-SBJ (-NONE- *)) ) )")) is None
    assert isinstance(strip_ptb(parse_one("((NP (NN x)))")), Tree)


def test_scpn_round_trip_on_generated_parses(shared_data):
    """to_scpn / from_scpn are inverses, and the template survives the trip, for random trees over SCPN's own
    label vocabulary (bracket-free labels of data/scpn/ptb_tagset.txt)."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    labels = [label for label in (shared_data / "scpn" / "ptb_tagset.txt").read_text().split()
              if label not in ("(", ")", "ROOT", "EOP", "PAD") and not label.startswith("-")]
    trees = st.recursive(st.builds(lambda label: Tree(label), st.sampled_from(labels)),
                         lambda children: st.builds(lambda label, kids: Tree(label, tuple(kids)),
                                                    st.sampled_from(labels), st.lists(children, min_size=1, max_size=4)),
                         max_leaves=25)

    @settings(max_examples=200, deadline=None)
    @given(trees)
    def check(tree):
        linear = linearize(tree)
        assert from_scpn(to_scpn(linear)) == linear
        assert template_of_linearized(from_scpn(to_scpn(linear))) == template(tree)
        assert to_scpn(linear).split()[:2] == ["(", "ROOT"] and to_scpn(linear).endswith(") EOP")

    check()
