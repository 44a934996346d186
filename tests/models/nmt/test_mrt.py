"""Minimum risk training: the costs and the risk on hand-computed values, the recipe's fairseq arguments, and a
few MRT updates of the tiny test NMT model raising the SIMILE of its translations of the training sentences."""

import numpy as np
import pytest
import torch
import yaml

from paranmt.models.encoders import load_encoder
from paranmt.models.nmt.evaluate import translate_corpus
from paranmt.models.nmt.export import export_model
from paranmt.models.nmt.mrt import RiskCost, expected_risk, sentence_bleu_plus1
from paranmt.models.nmt.recipe import NMTRecipe, load_recipe_config
from paranmt.models.nmt.translator import open_translator
from paranmt.models.scoring.simile import SimileScorer, corpus_simile
from paranmt.schemas.errors import ConfigError


@pytest.fixture(scope="module")
def simile(repo):
    return SimileScorer(load_encoder(repo / "assets" / "encoder-sp"))


def test_bleu_plus1_and_the_costs(simile):
    assert sentence_bleu_plus1("the cat sat on the mat", "the cat sat on the mat") == pytest.approx(1.0)
    # 1-gram precision 1/1, 2..4-gram counts 0/0 smoothed to 1/1; brevity penalty exp(1 - 6/1)
    assert sentence_bleu_plus1("the", "the cat sat on the mat") == pytest.approx(np.exp(1 - 6), rel=1e-3)
    hyps, refs = ["A man plays a guitar.", "zzz qqq"], ["A man is playing the guitar.", "The market fell."]
    bleu, sim = RiskCost("bleu")(hyps, refs), RiskCost("simile", simile)(hyps, refs)
    both = RiskCost("both", simile)(hyps, refs)
    np.testing.assert_allclose(both, 1 - 0.5 * ((1 - bleu) + (1 - sim)))
    assert sim[0] < sim[1] and bleu[0] < bleu[1]                  # the paraphrase costs less
    with pytest.raises(ValueError, match="SIMILE scorer"):
        RiskCost("simile")


def test_expected_risk_is_the_cost_under_the_renormalized_nbest_distribution():
    log_p = torch.tensor([np.log(0.2), np.log(0.1), np.log(0.1)], requires_grad=True)
    risk = expected_risk(log_p, torch.tensor([0.0, 1.0, 0.5]))
    assert risk.item() == pytest.approx((0.0 * 0.2 + 1.0 * 0.1 + 0.5 * 0.1) / 0.4)
    risk.backward()
    assert log_p.grad[0] < 0 < log_p.grad[1]             # raising the cheap hypothesis lowers the risk


def _recipe(repo, tmp_path, bitext, **mrt) -> NMTRecipe:
    data = tmp_path / "data"
    data.mkdir(parents=True)
    for side in ("ces", "eng"):
        lines = (bitext / f"multi30k_test_2016_flickr.{side}").read_text(encoding="utf-8").splitlines()
        (data / f"train.{side}").write_text("\n".join(lines[:48]) + "\n", encoding="utf-8")
        lines = (bitext / f"newstest2017.{side}").read_text(encoding="utf-8").splitlines()
        (data / f"valid.{side}").write_text("\n".join(lines[:16]) + "\n", encoding="utf-8")
    tiny = yaml.safe_load((repo / "configs" / "nmt" / "tiny.yaml").read_text())
    config = {"work_dir": str(tmp_path / "work"), "nice": 0, "init_from": str(repo / "tests/fixtures/nmt-tiny"),
              "objective": "mrt", "model": tiny["model"],
              "data": {"inputs": [str(data)], "suffixes": ["ces", "eng"], "heldout": ["valid"], "valid": "valid",
                       "valid_lines": 16},
              "mrt": {"nbest": 4, **mrt, "train": {"optimizer": "adam", "lr": 1e-3, "lr_scheduler": "fixed",
                                                   "max_tokens": 4096, "max_update": 6, "seed": 1,
                                                   "no_epoch_checkpoints": True, "disable_validation": True}}}
    path = tmp_path / "mrt.yaml"
    path.write_text(yaml.safe_dump(config))
    return NMTRecipe(load_recipe_config(str(path)))


def test_the_recipe_starts_mrt_from_the_init_model_with_the_criterion(repo, tmp_path, bitext):
    recipe = _recipe(repo, tmp_path, bitext, cost="bleu", gamma=0.4)
    assert recipe.default_steps() == ("data", "spm", "preprocess", "mrt")     # the model exists: no MLE step
    args = recipe.mrt_args()
    assert args[args.index("--criterion") + 1] == "mrt" and args[args.index("--mrt-cost") + 1] == "bleu"
    assert args[args.index("--restore-file") + 1].endswith("nmt-tiny/fairseq/model.pt")
    assert "--reset-optimizer" in args and args[args.index("--mrt-gamma") + 1] == "0.4"
    with pytest.raises(ConfigError, match="mrt.cost"):
        _recipe(repo, tmp_path / "x", bitext, cost="meteor")


def test_a_few_mrt_updates_raise_the_training_set_simile(repo, tmp_path, bitext, simile):
    recipe = _recipe(repo, tmp_path, bitext, cost="simile")
    recipe.run()
    sources = (recipe.raw / "train.cs").read_text(encoding="utf-8").splitlines()
    references = (recipe.raw / "train.en").read_text(encoding="utf-8").splitlines()
    model = tmp_path / "model-mrt"
    export_model(str(recipe.work / "checkpoints-mrt-simile"), str(recipe.bin), str(recipe.spm_model), str(model),
                 fp16=False, ct2=False)
    scores = {}
    for name, path in (("before", repo / "tests/fixtures/nmt-tiny"), ("after", model)):
        translator = open_translator(str(path), backend="fairseq", device="cpu", threads=1)
        hypotheses = translate_corpus(translator, sources, beam=4, progress=False)
        scores[name] = corpus_simile(simile.score(references, hypotheses))
    assert scores["after"] > scores["before"] + 0.005, scores
