"""`paranmt lexicon` end to end from the CLI: lexicon rows against a brute-force count, SimLex evaluation."""
import json
import math
from collections import Counter

import pyarrow.parquet as pq
import pytest

from paranmt.models.lexicon.pmi import lexicon_words
from paranmt.pipelines.cli import main
from paranmt.pipelines.lexicon import MIN_COVERED_PAIRS, print_summary

LOCAL = ["--runner=DirectRunner", "--direct_running_mode=in_memory"]


def test_lexicon_values_and_simlex_evaluation(corpus_shards, tmp_path):
    files = sorted(corpus_shards.glob("s*.parquet"))  # sick + sowreap: 1012 real pairs
    output = tmp_path / "lexicon"
    assert main(["lexicon", "--input", str(corpus_shards / "s*.parquet"), "--output", str(output),
                 "--min-count", "3", *LOCAL]) == 0
    evaluation = json.loads((output / "lexicon_eval.json").read_text())
    assert evaluation["pmi_adj"]["pairs"] == 999 and evaluation["min_count"] == 3
    assert evaluation["pmi_adj"]["covered"] == evaluation["pmi_cross"]["covered"] > 0

    lines = [line.split("\t") for path in sorted(output.glob("lexicon-*.tsv"))
             for line in path.read_text().splitlines()[1:]]
    entries = {(u, v): (int(n), float(c), float(w), float(a)) for u, v, n, c, w, a in lines}
    assert all((v, u) in entries for u, v in entries) and all(u != v for u, v in entries)

    pairs = [(r["ref"], r["bt"]) for path in files for r in pq.read_table(path, columns=["ref", "bt"]).to_pylist()]
    cross, marg_x = Counter(), Counter()
    within = {"r": Counter(), "t": Counter()}
    marginal = {"r": Counter(), "t": Counter()}
    for ref, bt in pairs:
        r, b = lexicon_words(ref), lexicon_words(bt)
        for u in r:
            for v in b:
                cross[u, v] += 1
                cross[v, u] += 1
                marg_x[u] += 1
                marg_x[v] += 1
        for kind, words in (("r", r), ("t", b)):
            for u in words:
                for v in words:
                    if u != v:
                        within[kind][u, v] += 1
                        marginal[kind][u] += 1
    expected = {pair for pair, n in cross.items() if n >= 3 and pair[0] != pair[1]}
    assert set(entries) == expected
    u, v = max(expected, key=lambda pair: (cross[pair], pair))
    total_x = sum(cross.values())
    count, pmi_cross, pmi_within, pmi_adj = entries[u, v]
    assert count == cross[u, v]
    assert pmi_cross == pytest.approx(math.log((cross[u, v] + 1) * total_x / ((marg_x[u] + 1) * (marg_x[v] + 1))),
                                      abs=1e-4)
    expected_within = sum(math.log((within[k][u, v] + 1) * sum(within[k].values())
                                   / ((marginal[k][u] + 1) * (marginal[k][v] + 1))) for k in ("r", "t")) / 2
    assert pmi_within == pytest.approx(expected_within, abs=1e-4)
    assert pmi_adj == pytest.approx(pmi_cross - pmi_within, abs=2e-5)
    simlex_lines = (output / "simlex_pairs.tsv").read_text().splitlines()
    assert len(simlex_lines) - 1 == 2 * evaluation["pmi_adj"]["covered"]


def test_the_summary_is_readable_and_low_coverage_is_a_warning(corpus_shards, tmp_path, capsys):
    """12 SOW-REAP pairs cover a handful of SimLex pairs: the rho is printed, and stderr says it means little."""
    assert main(["lexicon", "--input", str(corpus_shards / "sowreap-*.parquet"), "--output", str(tmp_path / "lex"),
                 "--min-count", "2", *LOCAL]) == 0
    captured = capsys.readouterr()
    evaluation = json.loads((tmp_path / "lex" / "lexicon_eval.json").read_text())
    covered = evaluation["pmi_adj"]["covered"]
    assert covered < 50
    assert f"EN-SIMLEX-999.txt: {covered} of 999 pairs covered (min count 2)" in captured.out
    assert "Spearman rho of pmi_adj" in captured.out and "{" not in captured.out
    warning = [line for line in captured.err.splitlines() if "WARNING" in line]
    assert warning == [f"paranmt lexicon: WARNING: only {covered} of the 999 benchmark pairs are in the lexicon, "
                       f"too few for the Spearman rho to mean much: give more shards (a bigger corpus) or a lower "
                       f"--min-count"]
    evaluation["pmi_adj"]["covered"] = MIN_COVERED_PAIRS
    print_summary(evaluation, str(tmp_path / "lex"))
    assert "WARNING" not in capsys.readouterr().err
