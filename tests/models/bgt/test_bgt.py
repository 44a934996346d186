"""BGT and its baselines: the losses on hand-computed values, a few updates of every variant on real bitext,
save / reload / encode through the encoder interface, resume, and the schedule (the precision choice:
tests/models/test_device.py)."""
import json

import numpy as np
import pytest
import torch

from paranmt.models.bgt.model import VARIANTS, BGTModel, gaussian_kl
from paranmt.models.bgt.trainer import BGTConfig, BGTTrainer, kl_weight, learning_rate, token_batches
from paranmt.models.encoders import load_encoder
from paranmt.models.encoders.featurizers import SentencePieceFeaturizer
from paranmt.models.evaluation.sts import sts_dev
from paranmt.schemas.errors import ConfigError

TINY = dict(dim=16, latent=8, encoder_layers=1, decoder_layers=1, heads=2, ffn=32, max_len=40, max_tokens=600,
            log_every=2, checkpoint_every=2, threads=1, device="cpu")


@pytest.fixture(scope="module")
def pairs(bitext):
    english = (bitext / "multi30k_test_2016_flickr.eng").read_text(encoding="utf-8").splitlines()[:120]
    czech = (bitext / "multi30k_test_2016_flickr.ces").read_text(encoding="utf-8").splitlines()[:120]
    return list(zip(english, czech))


@pytest.fixture(scope="module")
def sp_model(repo):
    return str(repo / "assets" / "nmt-cs-en" / "spm.model")


def test_gaussian_kl_is_zero_at_the_prior_and_matches_the_closed_form():
    assert gaussian_kl(torch.zeros(2, 3), torch.zeros(2, 3)).tolist() == [0.0, 0.0]
    mu, log_var = torch.tensor([[1.0, 0.0]]), torch.tensor([[0.0, np.log(4.0)]])
    # ½[(1 + 1 - 0 - 1) + (0 + 4 - ln 4 - 1)]
    assert gaussian_kl(mu, log_var).item() == pytest.approx(0.5 * (1 + 3 - np.log(4.0)), rel=1e-6)


def test_schedules_and_batches():
    assert learning_rate(1, 5e-4, 4000) == pytest.approx(5e-4 / 4000)
    assert learning_rate(4000, 5e-4, 4000) == pytest.approx(5e-4)
    assert learning_rate(16000, 5e-4, 4000) == pytest.approx(2.5e-4)
    assert kl_weight(0, 100) == 0 and kl_weight(50, 100) == 0.5 and kl_weight(500, 100) == 1.0
    batches = token_batches([5, 1, 9, 3, 3], max_tokens=7)
    assert sorted(i for b in batches for i in b) == [0, 1, 2, 3, 4]
    assert batches == [[1, 3, 4], [0], [2]]                 # by length; the 9-token pair alone


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_variant_trains_saves_reloads_and_encodes(variant, pairs, sp_model, tmp_path):
    config = BGTConfig(variant=variant, sp_model=sp_model, max_steps=3, **TINY)
    model = BGTTrainer(config, tmp_path).fit(pairs)
    records = [json.loads(line) for line in (tmp_path / "metrics.jsonl").read_text().splitlines()]
    assert records[-1]["done"] and records[-1]["step"] == 3
    assert all(np.isfinite(r["loss"]) for r in records if "loss" in r)
    if variant in ("multilingual-translation", "english-translation", "bgt-no-prior"):
        assert all(r["kl"] == 0 for r in records if "kl" in r)
    encoder = load_encoder(tmp_path)
    assert encoder.kind == "bgt" and encoder.dim == 8
    sentences = [e for e, _ in pairs[:5]]
    np.testing.assert_allclose(encoder.encode(sentences), model.encoder.encode(sentences), atol=1e-6)
    assert encoder.similarity(sentences[:2], sentences[:2]).shape == (2, 2)


def test_dev_sts_keeps_the_best_semantic_encoder(pairs, sp_model, shared_data, tmp_path):
    """With dev_sts_dir each epoch end scores the dev STS, as `paranmt train` does (models/encoder_dev.py): `best/`
    is the semantic encoder of the highest mean Pearson, its dev.json that evaluation's metrics line."""
    config = BGTConfig(sp_model=sp_model, epochs=3, lr=3e-3, warmup=1, dev_sts_dir=str(shared_data / "sts"), **TINY)
    BGTTrainer(config, tmp_path).fit(pairs[:60])
    records = [json.loads(line) for line in (tmp_path / "metrics.jsonl").read_text().splitlines()]
    dev = [record for record in records if "dev" in record]
    assert [record["epoch"] for record in dev] == [1, 2, 3] and list(dev[0]["dev"]) == ["STS2017/track5.en-en"]
    best = max(range(len(dev)), key=lambda i: (np.mean(list(dev[i]["dev"].values())), -i))
    kept = json.loads((tmp_path / "best" / "dev.json").read_text())
    assert kept == dev[best]
    rescored = sts_dev(load_encoder(tmp_path / "best").encode, config.dev_sts_dir, config.dev_datasets)
    assert rescored == {"dev": kept["dev"]}


def test_bgt_components(pairs, sp_model):
    model = BGTModel(SentencePieceFeaturizer(sp_model), "bgt", dim=16, latent=8, encoder_layers=1, heads=2, ffn=32)
    assert set(model.language_nets) == {"en", "cs"} and set(model.decoders) == {"en", "cs"}
    assert model.decoders["en"].output.in_features == 16 + 2 * 8             # logits see [h; z_sem; z_lang]
    english = model.encoder.featurizer.ids([e for e, _ in pairs[:4]])
    czech = model.encoder.featurizer.ids([c for _, c in pairs[:4]])
    model.train()
    losses = model(english, czech, kl_weight=0.0)
    assert losses["kl"].item() > 0
    assert losses["loss"].item() == pytest.approx((losses["reconstruction"] + losses["translation"]).item(), rel=1e-5)
    translation = BGTModel(SentencePieceFeaturizer(sp_model), "english-translation", dim=16, latent=8,
                           encoder_layers=1, heads=2, ffn=32)
    assert set(translation.decoders) == {"cs"} and not translation.language_nets


def test_training_lowers_the_loss_and_resume_continues(pairs, sp_model, tmp_path):
    config = BGTConfig(variant="multilingual-translation", sp_model=sp_model, max_steps=4, lr=3e-3, warmup=1,
                       **TINY)
    torch.manual_seed(config.seed)                         # the trainer's initial model, untrained
    initial = BGTModel(SentencePieceFeaturizer(sp_model), config.variant, dim=16, latent=8, encoder_layers=1,
                       decoder_layers=1, heads=2, ffn=32, max_len=40).eval()
    BGTTrainer(config, tmp_path).fit(pairs)
    config.max_steps = 30
    trained = BGTTrainer(config, tmp_path).fit(pairs, resume=True)
    records = [json.loads(line) for line in (tmp_path / "metrics.jsonl").read_text().splitlines()]
    steps = [r["step"] for r in records if "loss" in r]
    assert steps == sorted(steps) and steps[-1] == 30 and steps.count(4) == 1   # resumed at 4, not from 0
    ids = initial.encoder.featurizer.ids
    batch = (ids([e for e, _ in pairs[:16]]), ids([c for _, c in pairs[:16]]))
    with torch.no_grad():
        assert trained(*batch)["loss"].item() < 0.95 * initial(*batch)["loss"].item()


def test_config_errors():
    with pytest.raises(ConfigError, match="variant"):
        BGTConfig(variant="vae").validate()
    with pytest.raises(ConfigError, match="multiple of heads"):
        BGTConfig(dim=10, heads=4).validate()


def test_the_random_baseline_of_a_bgt_encoder_reinitializes_its_attention(sp_model):
    from paranmt.models.encoders.base import random_copy

    encoder = BGTModel(SentencePieceFeaturizer(sp_model), "bgt", dim=16, latent=8, encoder_layers=1, heads=2,
                       ffn=32).encoder
    clone = random_copy(encoder, seed=3)
    original, copied = dict(encoder.named_parameters()), dict(clone.named_parameters())
    assert original.keys() == copied.keys()
    assert all(not torch.equal(original[name], copied[name]) for name in original
               if name.endswith("in_proj_weight"))


def test_bgt_trains_in_bf16_on_the_cpu_with_fp32_weights_and_resumes(pairs, sp_model, tmp_path):
    """`fp16: bf16` (models/device.py MixedPrecision): the transformer layers under bfloat16 autocast, the master
    weights fp32, no scaler state to save."""
    config = BGTConfig(variant="bgt", sp_model=sp_model, max_steps=2, fp16="bf16", **{**TINY, "log_every": 1,
                                                                                     "max_tokens": 200})
    BGTTrainer(config, tmp_path).fit(pairs[:40])
    state = torch.load(tmp_path / "checkpoint" / "trainer_state.pt", weights_only=True)
    assert state["scaler"] == {} and state["step"] == 2
    config.max_steps = 3
    trained = BGTTrainer(config, tmp_path).fit(pairs[:40], resume=True)
    losses = [json.loads(line)["loss"] for line in (tmp_path / "metrics.jsonl").read_text().splitlines()
              if '"loss"' in line]
    assert len(losses) == 3 and np.isfinite(losses).all()
    assert {p.dtype for p in trained.parameters()} == {torch.float32}
