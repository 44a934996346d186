"""benchmarks/xsim_calibration.py on real held-out pairs: its aligned xsim is the build's xsim stage's value for the
same pair, aligned pairs of a trained multilingual encoder separate from misaligned ones (AUC near 1 on Tatoeba)
while an untrained encoder of the same vocabulary does not, and the script's table has a row per language asked
(wmt-bt's Livonian label `li` taken for the listed `liv`)."""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
import warm

from paranmt.models.encoders import load_encoder
from paranmt.models.scoring.para_score import ParaScorer
from paranmt.models.scoring.xsim import XsimStage
from paranmt.schemas.build_config import XsimConfig
from paranmt.schemas.records import empty_row

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benchmarks"))
import xsim_calibration  # noqa: E402


@pytest.fixture(scope="module")
def spanish(shared_data):
    kind, pairs = xsim_calibration.held_out_pairs(shared_data, "es")
    assert kind == "Tatoeba" and len(pairs) == 1000
    return pairs[:300]


def test_aligned_pairs_separate_from_misaligned_ones_as_the_xsim_stage_scores_them(repo, spanish):
    multi = repo / "assets" / "encoder-multi"
    found = xsim_calibration.calibration(ParaScorer(load_encoder(multi)), spanish)
    assert found["pairs"] == 300 and found["auc"] > 0.98
    assert found["aligned_mean"] > found["misaligned_mean"] + 0.3
    assert found["t99"] > found["t95"] and found["aligned_kept_t99"] <= found["aligned_kept_t95"]
    assert found["misaligned_rejected_0.2"] > 0.95
    stage = XsimStage(str(multi), XsimConfig(), None)
    rows = stage.process_batch([empty_row(f"t:{i}", "t", x, e) for i, (x, e) in enumerate(spanish)])
    assert np.isclose(np.mean([r["xsim"] for r in rows]), found["aligned_mean"], atol=1e-6)


def test_an_untrained_encoder_does_not_separate_them(repo, spanish, tmp_path):
    """The same vocabulary, random embeddings (`paranmt train --epochs 0` with encoder-multi's sentencepiece)."""
    train = tmp_path / "pairs.tsv"
    train.write_text("".join(f"{e}\t{x}\n" for x, e in spanish), encoding="utf-8")
    result = warm.run([sys.executable, "-m", "paranmt.pipelines.cli", "train", "--train", str(train),
                       "--format", "tsv", "--epochs", "0", "--dim", "32", "--sp-model",
                       str(repo / "assets" / "encoder-multi" / "sp.model"), "--output", str(tmp_path / "random")],
                      capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    found = xsim_calibration.calibration(ParaScorer(load_encoder(tmp_path / "random")), spanish)
    assert found["auc"] < 0.9


def test_the_script_prints_a_row_per_language(shared_data, tmp_path):
    result = warm.run([sys.executable, str(REPO / "benchmarks" / "xsim_calibration.py"), "--data",
                       str(shared_data), "--languages", "de,li", "--limit", "100", "--output",
                       str(tmp_path / "table.tsv")], cwd=REPO, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    lines = (tmp_path / "table.tsv").read_text().splitlines()
    assert result.stdout.splitlines() == lines and lines[0].startswith("lang\theld_out\tpairs\t")
    assert [line.split("\t")[:3] for line in lines[1:]] == [["de", "Tatoeba", "100"], ["li", "WMT", "100"]]
