"""benchmarks/megabatch_negatives.py on real wmt-bt pairs (references beside several systems' translations of them)
with the shipped encoder: a larger mega-batch never picks a farther negative (its pool holds the smaller one's), other
systems' translations of the same reference are picked as negatives unless `--one-per-reference` keeps one pair per
reference, and each query's negative is another pair's sentence."""
from __future__ import annotations

import csv
import gzip
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def wmt_pairs(shared_data, tmp_path_factory) -> Path:
    """(reference, system output) pairs of the first 120 segments of wmt22 cs-en, every system, as a TSV."""
    path = tmp_path_factory.mktemp("negatives") / "pairs.tsv"
    with gzip.open(shared_data / "wmt-bt" / "wmt22.cs-en.tsv.gz", "rt", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE))
    segments = list(dict.fromkeys(row["ref"] for row in rows))[:120]
    keep = set(segments)
    path.write_text("".join(f"{row['ref']}\t{row['bt']}\n" for row in rows if row["ref"] in keep), encoding="utf-8")
    return path


def run(pairs: Path, *flags: str) -> tuple[list[list[str]], dict[str, list[list[str]]]]:
    """The M rows of the summary table and, per query sentence, its rows (M, negative, cos)."""
    result = subprocess.run([sys.executable, str(REPO / "benchmarks" / "megabatch_negatives.py"), "--input",
                             str(pairs), "--model", str(REPO / "assets" / "encoder-sp"), "--sizes", "1", "4",
                             "--batch-size", "10", "--pools", "2", "--queries", "2", *flags],
                            capture_output=True, text=True, timeout=300,
                            env={"OMP_NUM_THREADS": "1", "PATH": "/usr/bin:/bin"})
    assert result.returncode == 0, result.stderr
    summary, queries, query = [], {}, None
    for line in result.stdout.splitlines():
        if line.startswith("**"):
            query = line[2:line.index("**", 2)]
            queries[query] = []
        elif line.startswith("| ") and line[2].isdigit():
            cells = [cell.strip() for cell in line.strip("|").split(" | ")]
            (queries[query] if query else summary).append(cells)
    return summary, queries


def test_larger_megabatches_pick_closer_negatives_and_siblings(wmt_pairs):
    assert [row[5] for row in run(wmt_pairs)[0]] == ["0.0%", "0.0%"], "the trainer's default excludes siblings"
    summary, queries = run(wmt_pairs, "--sibling-negatives")
    assert [row[0] for row in summary] == ["1", "4"] and [row[1] for row in summary] == ["18", "78"]
    negative = [float(row[2]) for row in summary]
    positive = [float(row[3]) for row in summary]
    assert negative[1] > negative[0] + 0.1 and positive[0] == positive[1]
    siblings = [float(row[5].rstrip("%")) for row in summary]
    assert siblings[1] > siblings[0] and siblings[1] > 10, summary       # other systems' outputs of the reference
    assert len(queries) == 2
    lines = set(wmt_pairs.read_text(encoding="utf-8").replace("\t", "\n").splitlines())
    for query, rows in queries.items():
        assert [row[0] for row in rows] == ["1", "4"]
        assert float(rows[1][2]) >= float(rows[0][2])        # the M = 4 pool holds the M = 1 one
        assert all(row[1] in lines and row[1] != query for row in rows)


def test_one_pair_per_reference_leaves_no_sibling_to_pick(wmt_pairs):
    summary, _ = run(wmt_pairs, "--one-per-reference")
    assert [row[5] for row in summary] == ["0.0%", "0.0%"]
    assert float(summary[1][2]) > float(summary[0][2])


def test_too_few_pairs_is_one_line(wmt_pairs):
    result = subprocess.run([sys.executable, str(REPO / "benchmarks" / "megabatch_negatives.py"), "--input",
                             str(wmt_pairs), "--one-per-reference", "--sizes", "40"], capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 2 and not result.stdout
    # 116: four of the 120 references have over 40 words
    assert result.stderr.splitlines() == ["megabatch_negatives.py: configuration error: --input has 116 usable pairs; "
                                          "4000 are needed (largest M x batch x pools)"]
