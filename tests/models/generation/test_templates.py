"""Template notations (paranmt's and the SCPN authors'), template sources, and template matching."""
import json

import pytest

from paranmt.models.generation.templates import (TemplateError, choose_templates, matches_template,
                                                 normalize_template, scpn_template)
from paranmt.models.parsing.trees import from_scpn


def scpn_top10(shared_data):
    return (shared_data / "scpn" / "scpn_top10_templates.txt").read_text().splitlines()


def test_both_notations_round_trip_on_the_scpn_authors_templates(shared_data):
    for line in scpn_top10(shared_data):
        ours = normalize_template(line)
        assert "ROOT" not in ours and " " not in ours and ours == from_scpn(line)
        assert scpn_template(ours) == line               # back to the authors' exact string
        assert normalize_template(ours) == ours          # idempotent
    assert normalize_template("( ROOT ( S ( NP ) ( VP ) ( . ) ) ) EOP") == "(S(NP)(VP)(.))"
    assert normalize_template(" (S (NP) (VP) (.)) ") == "(S(NP)(VP)(.))"
    assert normalize_template("(ROOT(SBARQ(WHADVP)(SQ)(.)))") == "(SBARQ(WHADVP)(SQ)(.))"


@pytest.mark.parametrize("bad, problem", [
    ("", "empty template"), ("EOP", "empty template"), ("(S(NP)(VP)", "unbalanced"),
    ("(S(NP(PRP))(VP)(.))", "more than two levels"), ("(S(NP she)(VP)(.))", "more than two levels"),
    ("(S)", "with children"), ("S NP VP", "outside a bracket"), ("(S(NP)(VP)(.))(S(VP))", "expected one tree"),
    ("(S word (VP))", "no words"), ("( ROOT ( S ( NP ) ) ( VP ) ) EOP", "exactly one constituent")])
def test_bad_templates_are_one_clear_error(bad, problem):
    with pytest.raises(TemplateError, match=problem):
        normalize_template(bad)


def test_template_match_compares_the_top_two_levels():
    assert matches_template("(S(NP(PRP))(VP(VBD)(NP(NN)))(.))", "(S(NP)(VP)(.))")
    assert matches_template("(S(NP(PRP))(VP(VBD))(.))", "(S(NP(DT)(NN))(VP(VBZ)(ADJP(JJ)))(.))")
    assert not matches_template("(S(VP(VB)(NP(PRP)))(.))", "(S(NP)(VP)(.))")
    assert not matches_template(None, "(S(NP)(VP)(.))") and not matches_template("(S(NP", "(S(NP)(VP)(.))")


def test_template_sources(tmp_path, shared_data):
    stored = [f"(S(NP)(VP)({i}))" for i in range(25)]
    assert choose_templates(None, stored) == stored[:20]
    assert choose_templates("top3", stored) == stored[:3]
    assert choose_templates("(S (VP) (.))", stored) == ["(S(VP)(.))"]
    assert choose_templates("( ROOT ( S ( VP ) ( . ) ) ) EOP", stored) == ["(S(VP)(.))"]
    wide = "(S" + "(NP)" * 80 + ")"             # 323 bytes: too long for a file name, so a template (issue 47)
    assert choose_templates(wide, stored) == [wide]
    assert choose_templates("( ROOT ( S" + " ( NP )" * 40 + " ) ) EOP", stored) == ["(S" + "(NP)" * 40 + ")"]
    # a file, either notation, comments, repeats dropped in order
    listed = tmp_path / "templates.txt"
    listed.write_text("# mine\n" + "\n".join(scpn_top10(shared_data)) + "\n\n(S(NP)(VP)(.))\n")
    assert choose_templates(str(listed), []) == [from_scpn(t) for t in scpn_top10(shared_data)]
    # a `paranmt stats` output: the `all` corpus when there are several
    report = {"corpora": {"news": {"templates_top": [{"template": "(NP(NP)(.))", "count": 9}]},
                          "all": {"templates_top": [{"template": f"(S(NP)(VP)({i}))", "count": 30 - i}
                                                    for i in range(22)]}}}
    stats_dir = tmp_path / "stats"
    stats_dir.mkdir()
    (stats_dir / "stats.json").write_text(json.dumps(report))
    assert choose_templates(str(stats_dir), []) == stored[:20]
    assert choose_templates(f"top5:{stats_dir / 'stats.json'}", []) == stored[:5]


def test_template_source_errors(tmp_path):
    with pytest.raises(TemplateError, match="stores no templates"):
        choose_templates(None, [])
    with pytest.raises(TemplateError, match="not a `paranmt stats` output"):
        choose_templates("top5:nowhere/stats", ["(S(VP))"])
    with pytest.raises(TemplateError, match="not a `paranmt stats` report"):
        choose_templates(str(tmp_path / "missing.json"), [])
    bad = tmp_path / "bad.txt"
    bad.write_text("(S(NP)(VP)(.))\n(S(NP(PRP)))\n")
    with pytest.raises(TemplateError, match="bad.txt:2: not a template"):
        choose_templates(str(bad), [])
    with pytest.raises(TemplateError, match="at least 1"):
        choose_templates("top0", ["(S(VP))"])
    with pytest.raises(TemplateError, match=r"missing\.txt: no such file or directory .* and not a template"):
        choose_templates(str(tmp_path / "missing.txt"), ["(S(VP))"])      # a path, not "not a template" alone
    with pytest.raises(TemplateError, match="empty value"):
        choose_templates("", ["(S(VP))"])
    with pytest.raises(TemplateError, match=r"no such file or directory .* and not a template"):
        choose_templates("x" * 300, ["(S(VP))"])                            # too long for a file name: no path
    for too_long in ("x" * 300 + ".json", "top5:" + "x" * 300, "top5:" + "x" * 300 + ".json"):
        with pytest.raises(TemplateError, match="not a `paranmt stats`"):
            choose_templates(too_long, ["(S(VP))"])                                   # no stats.json nobody gave
    with pytest.raises(TemplateError, match="empty value"):
        choose_templates("  ", ["(S(VP))"])
