"""Shallow fusion of SCPN's beam search with a plain paraphraser on the same units (models/generation/scpn.py,
Fusion; models.py finds the plain model): the fused score is what the docstring defines, a large weight follows the
plain model, and models on other units are refused. Tiny real models trained for a few updates on real pairs."""
import shutil

import pytest
import torch

from paranmt.models.generation.data import read_parsed_pairs
from paranmt.models.generation.models import ModelSetError, find_models
from paranmt.models.generation.paraphraser import load_generator
from paranmt.models.generation.units import BOS, EOS, PAD


@pytest.fixture(scope="module")
def fused_pair(tiny_paraphraser, paraphrase_pairs, tmp_path_factory):
    """A directory of models: the session's tiny scpn and parse generator, and a tiny plain model trained on the
    scpn's units (train-paraphraser --units-from)."""
    from paranmt.models.generation.tiny import train_tiny_paraphraser

    models = tmp_path_factory.mktemp("fusion-models")
    for task in ("scpn", "parse-generator"):
        shutil.copytree(tiny_paraphraser(task, "scpn"), models / task)
    train_tiny_paraphraser("plain", "scpn", models / "plain", paraphrase_pairs, steps=20,
                           units_from=str(models / "scpn"))
    return models


def teacher_forced(network, source, condition, ids):
    """log P of each unit of `ids` (EOS appended) under `network`, one row."""
    target = torch.tensor([ids])
    memory = network.encode(source, condition)
    log_probs, _ = network.decode(memory, torch.cat([torch.full_like(target[:, :1], BOS), target[:, :-1]], 1))
    return log_probs[0].gather(1, target[0].unsqueeze(1)).squeeze(1)


def test_the_fused_score_is_the_weighted_log_probability_per_unit(fused_pair, paraphrase_pairs):
    scpn, plain = (load_generator(fused_pair / name, device="cpu") for name in ("scpn", "plain"))
    pairs = read_parsed_pairs([str(paraphrase_pairs)])[:4]
    source, condition = scpn._tensors([p.s1 for p in pairs], [p.p2 for p in pairs])
    limits = [40] * len(pairs)
    weight = 0.5
    with torch.no_grad():
        fused = scpn.network.beam_search(source, condition, 3, 2, limits, fusion=(plain.network, weight))
        unfused = scpn.network.beam_search(source, condition, 3, 2, limits)
        assert scpn.network.beam_search(source, condition, 3, 2, limits, fusion=(plain.network, 0.0)) == unfused
        for row, hypotheses in enumerate(fused):
            assert len(hypotheses) == 2
            one = source[row:row + 1][:, : int((source[row] != PAD).sum())]
            for ids, score in hypotheses:
                target = ids if len(ids) == limits[row] else ids + [EOS]       # a cut hypothesis has no EOS
                total = teacher_forced(scpn.network, one, condition[row:row + 1], target) + \
                    weight * teacher_forced(plain.network, one, None, target)
                assert score == pytest.approx(float(total.sum()) / ((1 + weight) * len(target)), abs=1e-4)


def test_a_large_weight_follows_the_plain_model(fused_pair, paraphrase_pairs):
    scpn, plain = (load_generator(fused_pair / name, device="cpu") for name in ("scpn", "plain"))
    pairs = read_parsed_pairs([str(paraphrase_pairs)])[:6]
    sources = [p.s1 for p in pairs]
    own = plain.generate(sources, beam=3)
    followed = scpn.generate(sources, [p.p2 for p in pairs], beam=3, fusion=(plain, 1e4))
    assert [h[0][0] for h in followed] == [h[0][0] for h in own]
    assert scpn.generate(sources, [p.p2 for p in pairs], beam=3, fusion=(plain, 0.0)) == \
        scpn.generate(sources, [p.p2 for p in pairs], beam=3)


def test_the_plain_model_beside_is_found_only_on_the_same_units(fused_pair, tiny_paraphraser, tmp_path):
    found = find_models(str(fused_pair), "scpn", fusion="auto")
    assert found.fusion.path == fused_pair / "plain"
    assert find_models(str(fused_pair), "scpn", fusion="none").fusion is None
    assert find_models(str(fused_pair), "scpn", fusion=str(fused_pair / "plain")).fusion.path == fused_pair / "plain"
    other = tmp_path / "models"                        # the session's plain model: its own units
    shutil.copytree(fused_pair, other, ignore=shutil.ignore_patterns("plain"))
    shutil.copytree(tiny_paraphraser("plain", "scpn"), other / "plain")
    assert find_models(str(other), "scpn", fusion="auto").fusion is None
    with pytest.raises(ModelSetError, match="does not have the units of the scpn model .*--units-from"):
        find_models(str(other), "scpn", fusion=str(other / "plain"))
    with pytest.raises(ModelSetError, match="holds 0 plain paraphrasers"):
        find_models(str(other), "scpn", fusion=str(other / "scpn"))
    scpn = load_generator(other / "scpn", device="cpu")
    with pytest.raises(ValueError, match="same units"):
        scpn.generate(["a man is playing"], ["(S(NP(DT)(NN))(VP(VBZ)(VP(VBG)))(.))"],
                      fusion=(load_generator(other / "plain", device="cpu"), 1.0))


def test_the_config_resolves_the_fusion_model(fused_pair, tiny_paraphraser):
    from paranmt.models.generation.config import ParaphraseConfig
    from paranmt.schemas.errors import ConfigError

    def resolved(**settings):
        return ParaphraseConfig(model=str(fused_pair), templates="top5", **settings).resolve().settings.fusion_model

    assert resolved() == str(fused_pair / "plain")                     # auto: the plain model beside, same units
    assert resolved(fusion_model="none") is None
    assert resolved(fusion_weight=0.0) is None
    assert resolved(task="plain") is None
    assert resolved(fusion_model=str(fused_pair / "plain")) == str(fused_pair / "plain")
    with pytest.raises(ConfigError, match="does not have the units"):
        resolved(fusion_model=str(tiny_paraphraser("plain", "scpn")))
