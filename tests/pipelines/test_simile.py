"""`paranmt simile --hyp FILE --ref FILE`: one line `SIMILE = x.xxxx` on stdout (the mean of the sentence scores
with the score stage's encoder); user mistakes are one line on stderr and exit 2."""
import re

import pytest

from paranmt.models.encoders import load_encoder
from paranmt.models.scoring.simile import SimileScorer
from paranmt.pipelines.cli import main


@pytest.fixture
def files(tmp_path, bitext):
    refs = (bitext / "newstest2017.eng").read_text(encoding="utf-8").splitlines()[:30]
    hyps = [" ".join(line.split()[: max(1, len(line.split()) // 2)]) for line in refs[:15]] + refs[15:]
    (tmp_path / "ref.txt").write_text("\n".join(refs) + "\n", encoding="utf-8")
    (tmp_path / "hyp.txt").write_text("\n".join(hyps) + "\n", encoding="utf-8")
    return tmp_path / "hyp.txt", tmp_path / "ref.txt", hyps, refs


def test_prints_the_corpus_mean_like_sacrebleu(files, capsys, repo):
    hyp, ref, hyps, refs = files
    assert main(["simile", "--hyp", str(hyp), "--ref", str(ref)]) == 0
    out = capsys.readouterr().out
    assert re.fullmatch(r"SIMILE = \d\.\d{4}\n", out), out
    expected = SimileScorer(load_encoder(repo / "assets" / "encoder-sp")).score(refs, hyps).mean()
    assert float(out.split("=")[1]) == pytest.approx(expected, abs=5e-5)
    assert 0.5 < expected < 1.0, "half the hypotheses are truncated references, half are identical"
    assert main(["simile", "--hyp", str(ref), "--ref", str(ref)]) == 0
    assert capsys.readouterr().out == "SIMILE = 1.0000\n"


def test_user_mistakes_exit_2_with_one_line(files, tmp_path, capsys):
    hyp, ref, _, refs = files
    short = tmp_path / "short.txt"
    short.write_text("\n".join(refs[:29]) + "\n", encoding="utf-8")
    cases = [["--hyp", str(tmp_path / "missing.txt"), "--ref", str(ref)],
             ["--hyp", str(short), "--ref", str(ref)],
             ["--hyp", str(hyp), "--ref", str(ref), "--encoder", str(tmp_path)]]
    for args in cases:
        assert main(["simile", *args]) == 2
        captured = capsys.readouterr()
        assert captured.out == "" and len(captured.err.strip().splitlines()) == 1, captured.err
