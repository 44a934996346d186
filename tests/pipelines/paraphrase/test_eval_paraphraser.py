"""`paranmt eval-paraphraser` on held-out shards and on a pair TSV: every system's row, and the baselines' values
that follow from their definition (copy-input keeps 100% of input templates and matches exactly the pairs whose
templates agree; the NMT-BT output is another row of the same input sentence, scored on the pairs that have one;
copy-input is always kept, so it answers exactly the template requests of its own template); the kept-per-request
rate on a hand-checked case; the NMT-BT row on real WMT22 rows, other systems' outputs of the same segment."""
import csv
import gzip
import json

import pytest

from paranmt.models.generation.evaluate import METRICS, kept_in_template
from paranmt.models.generation.paraphraser import read_templates
from paranmt.pipelines.cli import main

SYSTEMS = ["scpn-gold-parse", "scpn-generated-parse", "parse-generator", "plain", "copy-input", "nmt-bt"]


def test_systems_and_baseline_rows(tiny_models, held_out_shards, sick_pairs, tmp_path, capsys):
    output = tmp_path / "eval"
    assert main(["eval-paraphraser", "--model", str(tiny_models), "--input", str(held_out_shards),
                 "--output", str(output), "--max-pairs", "30", "--beam", "2"]) == 0
    with open(output / "results.csv", newline="") as handle:
        results = {row["system"]: row for row in csv.DictReader(handle)}
    assert list(results) == SYSTEMS
    pairs = sick_pairs[:30]
    same = 100 * sum(p["ref_template"] == p["bt_template"] for p in pairs) / len(pairs)
    copy, bt = results["copy-input"], results["nmt-bt"]
    assert float(copy["keeps_input_template"]) == 100.0
    assert float(copy["template_match"]) == pytest.approx(same)
    assert float(copy["template_match_differing"]) == 0.0
    assert float(copy["para_score"]) == pytest.approx(1.0, abs=1e-5)
    assert float(copy["simile"]) == pytest.approx(1.0, abs=1e-5)
    # NMT-BT: another pair's bt of the same SICK sentence A (every row of the input is in the pool)
    refs = [p["ref"] for p in sick_pairs]
    with_other = [p for p in pairs if refs.count(p["ref"]) > 1]
    assert 0 < len(with_other) < 30 and int(bt["pairs"]) == len(with_other)
    assert 0 <= float(bt["template_match"]) <= 100 and float(bt["bleu"]) < 100
    assert results["parse-generator"]["bleu"] == ""
    for system in ("scpn-gold-parse", "scpn-generated-parse", "plain"):
        row = results[system]
        assert int(row["pairs"]) == 30 and 0 <= float(row["template_match"]) <= 100 and float(row["bleu"]) >= 0
    outputs = [json.loads(line) for line in (output / "outputs.jsonl").read_text().splitlines()]
    assert [o["id"] for o in outputs] == [p["id"] for p in pairs]
    assert all(o["copy-input"] == o["s1"] for o in outputs)
    bts = {p["id"]: p for p in sick_pairs}
    for o in outputs:
        if o["nmt-bt"] is None:
            assert o["nmt-bt_id"] is None and refs.count(o["s1"]) == 1
        else:
            other = bts[o["nmt-bt_id"]]
            assert other["id"] != o["id"] and other["ref"] == o["s1"] and other["bt"] == o["nmt-bt"]
    printed = capsys.readouterr().out
    assert printed.startswith("| system | pairs | template_match") and "| copy-input | 30 |" in printed


def test_shards_without_parses_are_one_line_error(tiny_models, tmp_path, capsys, write_rows_shard):
    shard_dir = write_rows_shard(tmp_path / "unparsed")
    assert main(["eval-paraphraser", "--model", str(tiny_models), "--input", str(shard_dir)]) == 2
    error = capsys.readouterr().err.strip()
    assert "eval-paraphraser needs column(s) ['bt', 'ref_parse', 'bt_parse']" in error and len(error.splitlines()) == 1


def test_kept_in_template_per_request_by_hand():
    a, b = "(S(NP)(VP)(.))", "(SQ(VBZ)(NP)(VP)(.))"
    parse_a, parse_b = "(S(NP(PRP))(VP(VBZ))(.))", "(SQ(VBZ)(NP(PRP))(VP(VBG))(.))"
    controlled = [
        {"source_id": "1", "template": a, "kept": True, "paraphrase_parse": parse_a},     # answers (1, a)
        {"source_id": "1", "template": b, "kept": False, "paraphrase_parse": parse_b},    # dropped: no answer
        {"source_id": "2", "template": a, "kept": True, "paraphrase_parse": parse_b},     # another template
        {"source_id": "2", "template": b, "kept": True, "paraphrase_parse": parse_b},     # answers (2, b)
        {"source_id": "2", "template": b, "kept": True, "paraphrase_parse": parse_b},     # n-best: counted once
        {"source_id": "3", "template": a, "kept": True, "paraphrase_parse": None},        # not parsed
    ]
    assert kept_in_template(3, [a, b], controlled) == pytest.approx(100 * 2 / 6)
    plain = [{"source_id": "1", "template": None, "kept": True, "paraphrase_parse": parse_b},   # answers (1, b)
             {"source_id": "2", "template": None, "kept": False, "paraphrase_parse": parse_a}]
    assert kept_in_template(2, [a, b], plain) == 25.0
    assert kept_in_template(0, [a, b], []) is None


def test_a_pair_tsv_is_parsed_and_evaluated(tiny_models, sick_pairs, tmp_path):
    rows = [(p["ref"], p["bt"]) for p in sick_pairs[:8]]
    rows.insert(3, ("A sentence without its paraphrase", ""))
    tsv = tmp_path / "pairs.tsv"
    tsv.write_text("ref\tbt\n" + "".join(f"{ref}\t{bt}\n" for ref, bt in rows))
    output = tmp_path / "eval"
    assert main(["eval-paraphraser", "--model", str(tiny_models), "--input", str(tsv), "--output", str(output),
                 "--max-pairs", "6", "--beam", "2", "--templates", "top2"]) == 0
    with open(output / "results.csv", newline="") as handle:
        reader = csv.DictReader(handle)
        assert reader.fieldnames == ["system", "pairs", *METRICS]
        results = {row["system"]: row for row in reader}
    assert list(results) == SYSTEMS
    outputs = [json.loads(line) for line in (output / "outputs.jsonl").read_text().splitlines()]
    assert [o["id"] for o in outputs] == [f"pairs.tsv:{i}" for i in (1, 2, 3, 5, 6, 7)]
    pairs = sick_pairs[:6]
    assert [(o["t1"], o["t2"]) for o in outputs] == [(p["ref_template"], p["bt_template"]) for p in pairs]
    assert len((output / "parses.tsv").read_text().splitlines()) == len({s for p in pairs for s in (p["ref"], p["bt"])})
    assert "6 pairs (1 rows skipped)" in (output / "results.md").read_text()
    assert results["nmt-bt"]["pairs"] == "0" and results["nmt-bt"]["template_match"] == ""   # no sentence twice
    assert results["nmt-bt"]["kept_in_template"] == "" and all(o["nmt-bt"] is None for o in outputs)
    del results["nmt-bt"]
    for system, row in results.items():
        assert int(row["pairs"]) == 6 and 0 <= float(row["template_match"]) <= 100
        if system != "parse-generator":
            assert 0 <= float(row["bleu"]) <= 100 + 1e-9 and -1 - 1e-6 <= float(row["simile"]) <= 1 + 1e-6
        has_requests = system not in ("scpn-gold-parse", "parse-generator")
        assert (row["kept_in_template"] != "") == has_requests
        if has_requests:
            assert 0 <= float(row["kept_in_template"]) <= 100
    templates = [t for t, _ in read_templates(tiny_models / "scpn")][:2]
    sentences = {p["ref"]: p["ref_template"] for p in pairs}
    # the post-filter's copy guard: the input itself is never a kept paraphrase
    assert float(results["copy-input"]["kept_in_template"]) == 0
    requests = [json.loads(line) for line in (output / "requests.jsonl").read_text().splitlines()]
    assert {(r["source"], r["template"]) for r in requests} == {(s, t) for s in sentences for t in templates}


def test_a_pair_tsv_line_that_is_not_utf8_is_a_skipped_reject_with_a_warning(tiny_models, sick_pairs, tmp_path,
                                                                               caplog):
    """Issue 47: a line in latin-1 was evaluated as a pair of U+FFFD sentences; it is a reject, counted as skipped."""
    rows = [f"{p['ref']}\t{p['bt']}\n".encode() for p in sick_pairs[:4]]
    rows.insert(2, "Un café au lait\tA coffee with milk, café\n".encode("latin-1"))
    tsv = tmp_path / "pairs.tsv"
    tsv.write_bytes(b"ref\tbt\n" + b"".join(rows))
    output = tmp_path / "eval"
    assert main(["eval-paraphraser", "--model", str(tiny_models), "--input", str(tsv), "--output", str(output),
                 "--max-pairs", "10", "--beam", "2", "--templates", "top2"]) == 0
    outputs = [json.loads(line) for line in (output / "outputs.jsonl").read_text().splitlines()]
    assert [o["s1"] for o in outputs] == [p["ref"] for p in sick_pairs[:4]]
    assert "4 pairs (1 rows skipped)" in (output / "results.md").read_text()
    assert f"--input: 1 of 6 lines are not UTF-8, the first at {tsv} line 4 (" in caplog.text


def wmt22_rows(shared_data, segments: range) -> list[dict]:
    """Every system's output of these WMT22 cs-en segments, in the file's order (system by system)."""
    with gzip.open(shared_data / "wmt-bt" / "wmt22.cs-en.tsv.gz", "rt", encoding="utf-8", newline="") as handle:
        return [row for row in csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE)
                if int(row["id"].split(".")[2]) in segments]


def test_the_nmt_bt_row_on_real_wmt_rows(tiny_models, shared_data, tmp_path, capsys):
    """Test pairs (reference, one system's output) of three WMT22 segments; the NMT-BT pool holds every system's
    output of them, so each pair's nmt-bt output is another system's translation of its segment."""
    rows = wmt22_rows(shared_data, range(3, 6))
    first = [row for row in rows if row["system"] == rows[0]["system"]]
    assert len(first) == 3 and len(rows) >= 15
    held_out, pool = tmp_path / "held-out.tsv", tmp_path / "pool.tsv"
    held_out.write_text("ref\tbt\n" + "".join(f"{r['ref']}\t{r['bt']}\n" for r in first), encoding="utf-8")
    pool.write_text("ref\tbt\n" + "".join(f"{r['ref']}\t{r['bt']}\n" for r in rows), encoding="utf-8")
    output = tmp_path / "eval"
    assert main(["eval-paraphraser", "--model", str(tiny_models), "--input", str(held_out), "--nmt-bt", str(pool),
                 "--output", str(output), "--beam", "2", "--templates", "top2"]) == 0
    with open(output / "results.csv", newline="") as handle:
        results = {row["system"]: row for row in csv.DictReader(handle)}
    assert list(results) == SYSTEMS
    bt = results["nmt-bt"]
    assert bt["pairs"] == "3" and 0 <= float(bt["template_match"]) <= 100 and 0 < float(bt["bleu"]) < 100
    assert 0 <= float(bt["keeps_input_template"]) <= 100 and 0 < float(bt["simile"]) <= 1
    assert 0 <= float(bt["kept_in_template"]) <= 100
    outputs = [json.loads(line) for line in (output / "outputs.jsonl").read_text().splitlines()]
    pool_rows = {f"pool.tsv:{i + 1}": row for i, row in enumerate(rows)}
    for o, pair in zip(outputs, first):
        drawn = pool_rows[o["nmt-bt_id"]]
        assert drawn["ref"] == pair["ref"] and drawn["system"] != pair["system"] and drawn["bt"] == o["nmt-bt"]
        assert drawn["id"].split(".")[2] == pair["id"].split(".")[2]
    assert "| nmt-bt | 3 |" in capsys.readouterr().out


def test_an_nmt_bt_pool_that_is_not_there_is_one_line(tiny_models, sick_pairs, tmp_path, capsys):
    tsv = tmp_path / "pairs.tsv"
    tsv.write_text("ref\tbt\n" + "".join(f"{p['ref']}\t{p['bt']}\n" for p in sick_pairs[:3]))
    assert main(["eval-paraphraser", "--model", str(tiny_models), "--input", str(tsv),
                 "--nmt-bt", str(tmp_path / "gone")]) == 2
    error = capsys.readouterr().err.strip()
    assert len(error.splitlines()) == 1 and str(tmp_path / "gone") in error
