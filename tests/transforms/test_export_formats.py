"""Line / table formats of `paranmt export` on real pairs (sow-reap-samples, with real CoreNLP parses)."""
import json

from paranmt.models.parsing.trees import from_scpn, linearize, parse_one, template
from paranmt.schemas.records import empty_row, pairs_to_table
from paranmt.transforms.export import HF_SCHEMA, hf_table, paranmt_line, scpn_lines

REF = "that 's very kind , but we can make our own way ."
BT = "that 's very generous , but we 'll go our own way ."
REF_TREE = ("(ROOT (S (S (NP (DT that)) (VP (VBZ 's) (ADJP (RB very) (JJ kind)))) (, ,) (CC but) "
            "(S (NP (PRP we)) (VP (MD can) (VP (VB make) (NP (PRP$ our) (JJ own) (NN way))))) (. .)))")
BT_TREE = ("(ROOT (S (S (NP (DT that)) (VP (VBZ 's) (ADJP (RB very) (JJ generous)))) (, ,) (CC but) "
           "(S (NP (PRP we)) (VP (MD 'll) (VP (VB go) (NP (PRP$ our) (JJ own) (NN way))))) (. .)))")


def pair_row(**columns):
    row = empty_row("sowreap:sample_test_baseline.txt:9", "sowreap", "(no Czech)", REF, {"adq_score": 0.25})
    row.update({"bt": BT, "para_score": 0.87654321, **columns})
    return row


def test_paranmt_line_and_null_rows():
    assert paranmt_line(pair_row(), lowercase=True) == (f"{REF}\t{BT}\t0.876543\n", "written")
    assert paranmt_line({**pair_row(), "ref": "Tab\there\nand there"}, lowercase=False)[0].startswith(
        "Tab here and there\t")
    assert paranmt_line(pair_row(para_score=None), lowercase=True) == (None, "skipped_null")


def test_scpn_lines_both_directions_only_for_different_parses():
    ref_tree, bt_tree = parse_one(REF_TREE), parse_one(BT_TREE)
    row = pair_row(ref_parse=linearize(ref_tree), bt_parse=linearize(bt_tree), ref_template=template(ref_tree),
                   bt_template=template(bt_tree))
    assert scpn_lines(row, lowercase=True) == (None, "skipped_same_parse")  # same structure, different words
    row["bt_parse"] = linearize(parse_one("(ROOT (S (NP (PRP we)) (VP (MD 'll) (VP (VB go))) (. .)))"))
    text, key = scpn_lines(row, lowercase=True)
    forward, backward = text.splitlines()
    assert key == "written"
    assert forward.split("\t")[0] == REF and from_scpn(forward.split("\t")[1]) == row["bt_parse"]
    assert backward.split("\t")[3] == REF and from_scpn(backward.split("\t")[1]) == row["ref_parse"]
    assert forward.split("\t")[2] == "( ROOT ( S ( S ) ( , ) ( CC ) ( S ) ( . ) ) ) EOP"
    assert scpn_lines(pair_row(ref_parse=None, bt_parse="(S)"), lowercase=True) == (None, "skipped_null")


def test_hf_table_stores_source_scores_as_json():
    table = hf_table(pairs_to_table([pair_row(), {**pair_row(), "source_scores": None}]))
    assert table.column("source_scores").to_pylist() == [json.dumps({"adq_score": 0.25}), None]
    assert table.select(HF_SCHEMA.names).cast(HF_SCHEMA).num_rows == 2
