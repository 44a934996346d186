"""`paranmt eval-nmt` on the tiny fixture model and real newstest2017 lines: BLEU, chrF and the SIMILE column."""
import json

import pytest

from paranmt.models.encoders import load_encoder
from paranmt.models.scoring.simile import SimileScorer, corpus_simile
from paranmt.pipelines.cli import main


def test_eval_nmt_reports_simile_next_to_bleu_and_chrf(repo, bitext, tmp_path, capsys):
    hypotheses = tmp_path / "hyp.txt"
    args = ["eval-nmt", "--model", str(repo / "tests/fixtures/nmt-tiny"), "--source",
            str(bitext / "newstest2017.ces"), "--reference", str(bitext / "newstest2017.eng"), "--limit", "20",
            "--beam", "2", "--threads", "1", "--hypotheses", str(hypotheses)]
    assert main(args) == 0
    entry = json.loads(capsys.readouterr().out)
    assert {"bleu", "chrf", "simile", "simile_encoder"} <= set(entry) and entry["simile_encoder"] == "assets/encoder-sp"
    references = (bitext / "newstest2017.eng").read_text(encoding="utf-8").splitlines()[:20]
    expected = corpus_simile(SimileScorer(load_encoder(repo / "assets/encoder-sp")).score(
        references, hypotheses.read_text(encoding="utf-8").splitlines()))
    assert entry["simile"] == pytest.approx(100 * expected, abs=0.01)
    assert 0 <= entry["simile"] < 100, "the tiny model's translations are far from the references"
    assert main(args + ["--simile-encoder", "", "--overwrite"]) == 0     # the same --hypotheses file again
    assert "simile" not in json.loads(capsys.readouterr().out)
