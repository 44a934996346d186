"""benchmarks/sts_bins.py (thesis Tables 20-21) on STS 2012 MSRvid with a word encoder whose vocabulary comes from a
few thousand real wmt-bt pairs: the unknown-word bins and the length bins each partition the pairs, and the "all" row
is the encoder's Pearson on the dataset as `paranmt eval` scores it."""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
import warm

from paranmt.models.encoders import load_encoder
from paranmt.models.evaluation.sts import (discover_datasets, length_bins, pearson_by_bin, score_dataset,
                                           unknown_word_bins)

REPO = Path(__file__).resolve().parents[1]
SCRIPT = REPO / "benchmarks" / "sts_bins.py"


@pytest.fixture(scope="module")
def word_encoder(untrained_encoder) -> Path:
    """An untrained WORD encoder (`paranmt train --epochs 0`) with the vocabulary of 2,000 wmt22 cs-en pairs."""
    return untrained_encoder("word")


def tables(stdout: str) -> list[dict[str, list[str]]]:
    found: list[dict[str, list[str]]] = []
    for line in stdout.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("| ") and cells[1] == "pairs":
            found.append({})
        elif line.startswith("| ") and found:
            found[-1][cells[0]] = cells[1:]
    return found


def test_the_bins_partition_the_pairs_and_all_is_the_dataset_score(shared_data, word_encoder):
    result = warm.run([sys.executable, str(SCRIPT), "--model", f"word={word_encoder}",
                       f"sp={REPO / 'assets' / 'encoder-sp'}", "--vocabulary", str(word_encoder), "--sts-dir",
                       str(shared_data / "sts"), "--select", "STS2012-test/MSRvid"],
                      capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    unknown, length = tables(result.stdout)
    count = {label: int(cells[0].replace(",", "")) for label, cells in unknown.items()}
    assert count["all"] == 750
    assert count["0"] + count["1"] + count["2"] + count[">=3"] == 750 and count[">=1"] == 750 - count["0"]
    assert count["0"] > 0 and count[">=1"] > 0        # news vocabulary: some video captions are covered, some not
    assert sum(int(cells[0].replace(",", "")) for cells in length.values()) == 750
    dataset = discover_datasets(shared_data / "sts", ["STS2012-test/MSRvid"])[0][0]
    expected = score_dataset(load_encoder(REPO / "assets" / "encoder-sp").encode, dataset).pearson
    assert float(unknown["all"][2]) == pytest.approx(100 * expected, abs=0.051)


def test_pearson_by_bin_leaves_small_bins_empty():
    gold = np.array([1.0, 2.0, 3.0, 4.0, 5.0])
    rows = pearson_by_bin(gold, {"m": np.array([0.1, 0.2, 0.35, 0.3, 0.5])}, unknown_word_bins([0, 0, 0, 1, 3]))
    assert [(label, n) for label, n, _ in rows] == [("0", 3), ("1", 1), ("2", 0), (">=3", 1), (">=1", 2), ("all", 5)]
    assert rows[0][2]["m"] == pytest.approx(np.corrcoef([0.1, 0.2, 0.35], [1, 2, 3])[0, 1])
    assert np.isnan(rows[1][2]["m"])
    bins = length_bins([3, 4, 5, 15, 21, 40])
    assert [int(bins[label].sum()) for label in ("<=4", "5", "11-15", ">=21")] == [2, 1, 1, 2]


def test_a_vocabulary_without_words_is_one_line(shared_data):
    result = warm.run([sys.executable, str(SCRIPT), "--model", f"sp={REPO / 'assets' / 'encoder-sp'}",
                       "--vocabulary", str(REPO / "assets" / "encoder-sp"), "--sts-dir",
                       str(shared_data / "sts")], capture_output=True, text=True, timeout=300)
    assert result.returncode == 2 and not result.stdout
    assert result.stderr.splitlines() == [f"sts_bins.py: configuration error: --vocabulary {REPO / 'assets'}/"
                                          "encoder-sp is not a word-averaging encoder (its units are not words)"]
