"""Both Translator backends on the same tiny checkpoint (tests/fixtures/nmt-tiny, see its SOURCE.md): same best
hypotheses, same length-normalized scores, n-best lists, and clear errors for incomplete model directories."""
from pathlib import Path

import pytest

from paranmt.models.nmt.model_dir import ModelDir, ModelDirError
from paranmt.models.nmt.translator import open_translator

TINY = Path(__file__).resolve().parents[2] / "fixtures" / "nmt-tiny"
MAX_TARGET = 60


@pytest.fixture(scope="module")
def sources(bitext):
    return (bitext / "newstest2017.ces").read_text(encoding="utf-8").splitlines()[:24]


@pytest.fixture(scope="module")
def results(sources):
    out = {}
    for backend in ("fairseq", "ctranslate2"):
        translator = open_translator(str(TINY), backend, device="cpu", threads=1, max_target_tokens=MAX_TARGET)
        out[backend] = translator.translate(sources, beam=12, nbest=3)
    return out


def test_backends_agree_on_best_hypotheses_and_scores(results):
    finished = [(f, c) for f, c in zip(results["fairseq"], results["ctranslate2"]) if f.length <= MAX_TARGET]
    assert len(finished) >= 12, "the tiny model should finish most translations before the length limit"
    for fairseq_result, ct2_result in finished:
        assert ct2_result.text == fairseq_result.text
        assert ct2_result.length == fairseq_result.length
        assert ct2_result.score == pytest.approx(fairseq_result.score, abs=1e-3)


def test_scores_are_mean_token_log_probs_with_eos(results, sources):
    """Rescore each best hypothesis with ctranslate2's teacher-forced scorer: mean log-prob incl. EOS."""
    translator = open_translator(str(TINY), "ctranslate2", device="cpu", threads=1, max_target_tokens=MAX_TARGET)
    for source, result in zip(sources, results["ctranslate2"]):
        if result.length >= MAX_TARGET:                        # cut at the limit: no EOS to score
            continue
        target = translator.spm.encode(result.text, out_type=str)
        scored = translator.ct2.score_batch([translator.pieces([source])[0]], [target])[0]
        assert len(scored.log_probs) == result.length          # pieces + EOS
        assert sum(scored.log_probs) / len(scored.log_probs) == pytest.approx(result.score, abs=1e-3)
        assert result.score < 0


def test_nbest_lists_are_sorted_best_first(results):
    for backend, translations in results.items():
        for translation in translations:
            assert len(translation.nbest) == 3
            assert translation.nbest[0].text == translation.text
            scores = [h.score for h in translation.nbest]
            assert scores == sorted(scores, reverse=True), backend


def test_no_nbest_when_not_asked_and_empty_input():
    translator = open_translator(str(TINY), "ctranslate2", device="cpu", threads=1)
    assert translator.translate([]) == []
    [result] = translator.translate(["Dobrý den."], beam=4)
    assert result.nbest == [] and result.text


def test_model_dir_errors(tmp_path):
    with pytest.raises(ModelDirError, match="does not exist"):
        ModelDir.open(str(tmp_path / "missing"))
    with pytest.raises(ModelDirError, match="sentencepiece"):
        ModelDir.open(str(tmp_path))
    (tmp_path / "spm.model").write_bytes((TINY / "spm.model").read_bytes())
    model = ModelDir.open(str(tmp_path))
    with pytest.raises(ModelDirError, match="convert-nmt"):
        model.check("ctranslate2")
    with pytest.raises(ModelDirError, match="no fairseq checkpoint"):
        model.check("fairseq")
    with pytest.raises(ModelDirError, match="unknown NMT backend"):
        model.check("marian")


def test_the_ctranslate2_compute_type_follows_the_stored_weights(tmp_path, sources):
    """nmt.json's ct2_quantization (written by convert-nmt) chooses the compute type on CPU: the float32 fixture
    runs as stored ("default"); the same directory declared int8 runs as int8 (CTranslate2 quantizes on load) and
    still translates; an explicit compute type wins; other backends refuse one."""
    import json
    import shutil

    assert open_translator(str(TINY), device="cpu", threads=1).compute_type == "default"
    model = tmp_path / "model"
    shutil.copytree(TINY, model, ignore=shutil.ignore_patterns("fairseq", "MANIFEST.json"))    # a changed model
    descriptor = json.loads((model / "nmt.json").read_text())
    (model / "nmt.json").write_text(json.dumps({**descriptor, "ct2_quantization": "int8"}))
    translator = open_translator(str(model), device="cpu", threads=1)
    assert translator.compute_type == "int8" and translator.ct2.compute_type == "int8_float32"   # int8 GEMMs
    assert len(translator.translate(sources[:2], beam=2)) == 2
    assert open_translator(str(model), device="cpu", threads=1, compute_type="float32").ct2.compute_type == "float32"
    with pytest.raises(ModelDirError, match="compute_type 'int8' is a ctranslate2 backend setting"):
        open_translator(str(TINY), "fairseq", device="cpu", compute_type="int8")
