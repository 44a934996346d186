"""benchmarks/model_differences.py (ParaNMT-50M Table 10) on the per-dataset STS results of the two shipped encoders:
the printed gap is the mean of the per-dataset |r_a - r_b| of their results.csv, over the test-year datasets only
unless `--all-datasets`; a probe's results.csv names its models by kind; mistakes are one line."""
from __future__ import annotations

import csv
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import warm

from paranmt.models.encoders import load_encoder
from paranmt.models.evaluation.sts import evaluate, model_differences, write_results, year_datasets
from paranmt.models.training.probe import HEADER

REPO = Path(__file__).resolve().parents[1]
SCRIPT = REPO / "benchmarks" / "model_differences.py"


@pytest.fixture(scope="module")
def results(shared_data, tmp_path_factory) -> dict[str, Path]:
    """`paranmt eval`'s results.csv of encoder-sp and encoder-xling on STS 2012 (5 sets) and STS2017 en-en."""
    root = tmp_path_factory.mktemp("differences")
    paths = {}
    for name in ("encoder-sp", "encoder-xling"):
        encoder = load_encoder(REPO / "assets" / name)
        scored, _ = evaluate(encoder.encode, shared_data / "sts", ["STS2012-test", "STS2017/track5.en-en"])
        write_results(scored, [], root / name)
        paths[name] = root / name / "results.csv"
    return paths


def pearsons(path: Path) -> dict[str, float]:
    return {row["dataset"]: float(row["pearson"]) for row in csv.DictReader(path.open())}


def run(*argv: str) -> subprocess.CompletedProcess:
    return warm.run([sys.executable, str(SCRIPT), *argv], capture_output=True, text=True, timeout=120)


def gap_rows(stdout: str) -> dict[str, list[str]]:
    return {line.split(" | ")[0].strip("| "): [c.strip() for c in line.strip("|").split("|")]
            for line in stdout.splitlines() if " / " in line.split(" | ")[0]}


def test_the_gap_is_the_mean_absolute_difference_over_the_test_years(results):
    sp, xling = pearsons(results["encoder-sp"]), pearsons(results["encoder-xling"])
    assert len(sp) == 6 and "STS2017/track5.en-en" in sp
    result = run("--eval", f"sp={results['encoder-sp']}", f"xling={results['encoder-xling']}")
    assert result.returncode == 0, result.stderr
    row = gap_rows(result.stdout)["sp / xling"]
    years = [d for d in sp if d.startswith("STS2012-test/")]
    expected = 100 * np.mean([abs(sp[d] - xling[d]) for d in years])
    assert float(row[1]) == pytest.approx(expected, abs=0.005)
    shift = 100 * abs(np.mean([sp[d] for d in years]) - np.mean([xling[d] for d in years]))
    assert float(row[2]) == pytest.approx(shift, abs=0.005) and float(row[2]) <= float(row[1])
    assert row[3] == "5"
    widest = max(years, key=lambda d: abs(sp[d] - xling[d]))
    assert row[4].startswith(widest)
    assert f"| sp | 5 | {100 * np.mean([sp[d] for d in years]):.1f} |" in result.stdout
    everything = gap_rows(run("--eval", f"sp={results['encoder-sp']}", f"xling={results['encoder-xling']}",
                              "--all-datasets").stdout)["sp / xling"]
    assert everything[3] == "6"
    assert float(everything[1]) == pytest.approx(100 * np.mean([abs(sp[d] - xling[d]) for d in sp]), abs=0.005)


def test_a_probe_results_file_names_its_models_by_kind(results, tmp_path):
    probe = tmp_path / "results.csv"
    with probe.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(HEADER)
        for kind, path in (("word", results["encoder-sp"]), ("trigram", results["encoder-xling"])):
            writer.writerows(["wmt", "all", kind, 100, dataset, r] for dataset, r in pearsons(path).items())
    result = run("--probe", str(probe), "--eval", f"sp={results['encoder-sp']}")
    assert result.returncode == 0, result.stderr
    rows = gap_rows(result.stdout)
    assert list(rows) == ["word / trigram", "word / sp", "trigram / sp"]
    assert float(rows["word / sp"][1]) == 0.0            # the same numbers under two names
    assert rows["word / trigram"][1] == gap_rows(run("--eval", f"a={results['encoder-sp']}",
                                                     f"b={results['encoder-xling']}").stdout)["a / b"][1]
    (tmp_path / "again").mkdir()
    (tmp_path / "again" / "results.csv").write_text(probe.read_text())
    both = gap_rows(run("--probe", str(probe), str(tmp_path / "again" / "results.csv")).stdout)
    name = tmp_path.name
    assert f"word [{name}] / word [again]" in both and float(both[f"word [{name}] / word [again]"][1]) == 0.0


def test_model_differences_skips_pairs_without_shared_datasets():
    rows = model_differences({"a": {"x": 0.5, "y": 0.7}, "b": {"x": 0.4, "y": 0.9}, "c": {"z": 0.1}})
    assert rows == [("a", "b", pytest.approx(0.15), 2, "y")]
    assert year_datasets({"STS2014-test/images": 0.8, "STS2017/track5.en-en": 0.7}) == {"STS2014-test/images": 0.8}


@pytest.mark.parametrize("argv, message", [
    (["--eval", "results.csv"], "--eval results.csv: give NAME=PATH (the results.csv of `paranmt eval`)"),
    (["--eval", "a=missing.csv"], "--eval missing.csv does not exist"),
    (["--probe", "missing.csv"], "--probe missing.csv does not exist"),
])
def test_a_mistake_is_one_line(argv, message, tmp_path):
    result = warm.run([sys.executable, str(SCRIPT), *argv], cwd=tmp_path, capture_output=True, text=True,
                      timeout=120)
    assert result.returncode == 2 and not result.stdout
    assert result.stderr.splitlines() == [f"model_differences.py: configuration error: {message}"]


def test_one_model_is_not_a_comparison(results):
    result = run("--eval", f"sp={results['encoder-sp']}")
    assert result.returncode == 2 and result.stderr.splitlines() == [
        "model_differences.py: configuration error: two models with STS test-year results are needed (give "
        "--eval / --probe; --all-datasets counts every dataset)"]
