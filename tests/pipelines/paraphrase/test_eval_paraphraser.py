"""`paranmt eval-paraphraser` on held-out shards: every system's row, and the baselines' values that follow from
their definition (copy-input keeps 100% of input templates and matches exactly the pairs whose templates agree;
the back-translation is the target)."""
import csv
import json

import pytest

from paranmt.pipelines.cli import main

SYSTEMS = ["scpn-gold-parse", "scpn-generated-parse", "parse-generator", "plain", "copy-input", "back-translation"]


def test_systems_and_baseline_rows(tiny_models, held_out_shards, sick_pairs, tmp_path, capsys):
    output = tmp_path / "eval"
    assert main(["eval-paraphraser", "--model", str(tiny_models), "--input", str(held_out_shards),
                 "--output", str(output), "--max-pairs", "30", "--beam", "2"]) == 0
    with open(output / "results.csv", newline="") as handle:
        results = {row["system"]: row for row in csv.DictReader(handle)}
    assert list(results) == SYSTEMS
    pairs = sick_pairs[:30]
    same = 100 * sum(p["ref_template"] == p["bt_template"] for p in pairs) / len(pairs)
    copy, bt = results["copy-input"], results["back-translation"]
    assert float(copy["keeps_input_template"]) == 100.0
    assert float(copy["template_match"]) == pytest.approx(same)
    assert float(copy["template_match_differing"]) == 0.0
    assert float(copy["para_score"]) == pytest.approx(1.0, abs=1e-5)
    assert float(copy["simile"]) == pytest.approx(1.0, abs=1e-5)
    assert float(bt["template_match"]) == 100.0 and float(bt["bleu"]) == pytest.approx(100.0)
    assert float(bt["keeps_input_template"]) == pytest.approx(same)
    assert results["parse-generator"]["bleu"] == ""
    for system in ("scpn-gold-parse", "scpn-generated-parse", "plain"):
        row = results[system]
        assert int(row["pairs"]) == 30 and 0 <= float(row["template_match"]) <= 100 and float(row["bleu"]) >= 0
    outputs = [json.loads(line) for line in (output / "outputs.jsonl").read_text().splitlines()]
    assert [o["id"] for o in outputs] == [p["id"] for p in pairs]
    assert all(o["copy-input"] == o["s1"] and o["back-translation"] == o["s2"] for o in outputs)
    printed = capsys.readouterr().out
    assert printed.startswith("| system | pairs | template_match") and "| copy-input | 30 |" in printed


def test_shards_without_parses_are_one_line_error(tiny_models, tmp_path, capsys, write_rows_shard):
    shard_dir = write_rows_shard(tmp_path / "unparsed")
    assert main(["eval-paraphraser", "--model", str(tiny_models), "--input", str(shard_dir)]) == 2
    error = capsys.readouterr().err.strip()
    assert "eval-paraphraser needs column(s) ['bt', 'ref_parse', 'bt_parse']" in error and len(error.splitlines()) == 1
