"""benchmarks/error_analysis.py (P17 Tables 4 and 7) on two real STS 2012 sets with the two shipped encoders: the
per-dataset Pearson is the one `paranmt eval` computes, and each example listed under a model is a pair where that
model's scaled similarity is the closer to gold."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest
import warm

from paranmt.models.encoders import load_encoder
from paranmt.models.evaluation.sts import discover_datasets, score_dataset

REPO = Path(__file__).resolve().parents[1]
SETS = ["STS2012-test/MSRvid", "STS2012-test/surprise.OnWN"]


def test_per_dataset_scores_and_examples(shared_data):
    sp, xling = REPO / "assets" / "encoder-sp", REPO / "assets" / "encoder-xling"
    result = warm.run([sys.executable, str(REPO / "benchmarks" / "error_analysis.py"), "--model", f"sp={sp}",
                       "--model", f"xling={xling}", "--sts-dir", str(shared_data / "sts"), "--select", *SETS,
                       "--examples", "2"], capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    rows = [[c.strip() for c in line.strip("|").split("|")] for line in result.stdout.splitlines()
            if line.startswith("| ")]
    datasets = discover_datasets(shared_data / "sts", SETS)[0]
    for dataset in datasets:
        row = next(r for r in rows if r[0] == dataset.name)
        expected = [100 * score_dataset(load_encoder(d).encode, dataset).pearson for d in (sp, xling)]
        assert [float(row[2]), float(row[3])] == pytest.approx(expected, abs=0.051)
        assert float(row[4]) == pytest.approx(float(row[2]) - float(row[3]), abs=0.11)
    sections = result.stdout.split("closer to gold: sentence 1")
    examples = [[c.strip() for c in line.strip("|").split("|")] for section in sections[1:]
                for line in section.splitlines()[1:] if line.startswith("| ") and line.endswith(" |")]
    assert len(sections) == 3 and len(examples) == 4
    for gold, a, b in ([float(x) for x in r[2:]] for r in examples[:2]):
        assert abs(a - gold) <= abs(b - gold)
    for gold, a, b in ([float(x) for x in r[2:]] for r in examples[2:]):
        assert abs(b - gold) <= abs(a - gold)


def test_one_model_is_one_line(shared_data):
    result = warm.run([sys.executable, str(REPO / "benchmarks" / "error_analysis.py"), "--model",
                       f"sp={REPO / 'assets' / 'encoder-sp'}", "--sts-dir", str(shared_data / "sts")],
                      capture_output=True, text=True, timeout=300)
    assert result.returncode == 2 and result.stderr.splitlines() == [
        "error_analysis.py: configuration error: give --model A=DIR --model B=DIR (two encoders)"]
