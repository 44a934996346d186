"""Every encoder kind through the trainer: a few steps on real cs-en bitext, saved, reloaded, encoding as trained."""
import json

import numpy as np
import pytest
import torch

from paranmt.models.encoders import BASE_KINDS, load_encoder
from paranmt.models.pairs import read_pairs
from paranmt.models.training.trainer import TrainConfig, Trainer
from paranmt.schemas.errors import ConfigError


@pytest.fixture(scope="module")
def pairs(bitext):
    return read_pairs([str(bitext / "newssyscomb2009")])[0][:60]


@pytest.mark.parametrize("kind", [k for k in BASE_KINDS if k != "sp"] + ["word+trigram+lstm", "word,trigram,lstm"])
def test_every_encoder_trains_saves_reloads_and_encodes(kind, pairs, tmp_path):
    torch.manual_seed(0)
    config = TrainConfig(encoder=kind, mode="bilingual", dim=8, epochs=1, max_steps=2, batch_size=20,
                         megabatch_size=2, anneal_every=0, dropout=0.1, word_dropout=0.1, ngram_min_count=1,
                         log_every=1, vocab_size=2000)
    trained = Trainer(config, tmp_path / kind).fit(pairs)
    sentences = [a for a, _ in pairs[:5]]
    loaded = load_encoder(tmp_path / kind)
    assert loaded.kind == kind and loaded.dim == trained.dim
    assert np.array_equal(loaded.encode(sentences), trained.encode(sentences))
    assert np.isfinite(loaded.encode(sentences)).all()


def test_encoder_options_are_validated():
    with pytest.raises(ConfigError, match="hidden == dim"):
        TrainConfig(encoder="word+irnn", hidden=10).validate()
    with pytest.raises(ConfigError, match="activation of charagram"):
        TrainConfig(encoder="charagram", activation="relu").validate()
    with pytest.raises(ConfigError, match="mixes"):
        TrainConfig(encoder="word+trigram,lstm").validate()
    assert TrainConfig(encoder="word,trigram,lstm").scramble_probability == 0.3


@pytest.mark.parametrize("kind", ["lstm", "gran-3", "lstm-og", "gran-4", "rnn"])
def test_recurrent_encoders_train_in_bf16_on_the_cpu_with_fp32_weights_and_resume(kind, pairs, tmp_path):
    """`fp16: bf16` (models/device.py MixedPrecision): the mini-batch's forward pass under bfloat16 autocast (the
    scans of lstm-og and gran-4 in fp32 inside it, the CPU's LSTM in bf16 where oneDNN has one for the CPU), the
    loss finite, the master weights fp32, the checkpoint resumed."""
    config = TrainConfig(encoder=kind, mode="bilingual", dim=8, epochs=1, max_steps=2, batch_size=20,
                         megabatch_size=2, anneal_every=0, checkpoint_every=1, log_every=1, vocab_size=2000,
                         fp16="bf16")
    Trainer(config, tmp_path).fit(pairs)
    state = torch.load(tmp_path / "checkpoint" / "trainer_state.pt", weights_only=True)
    assert state["scaler"] == {} and state["step"] == 2
    config.max_steps = 3
    trained = Trainer(config, tmp_path).fit(pairs, resume=True)
    records = [json.loads(line) for line in (tmp_path / "metrics.jsonl").read_text().splitlines()]
    lines = [record for record in records if "loss" in record]             # a line per mega-batch
    assert [r["step"] for r in lines] == [2, 3] and np.isfinite([r["loss"] for r in lines]).all()
    assert {p.dtype for p in trained.parameters()} == {torch.float32}


@pytest.mark.parametrize("kind", ["lstm-og", "lstm-nog", "gran-4"])
def test_the_stepped_cells_compute_in_fp32_under_autocast(kind, pairs):
    """models/encoders/cells.py's Functions (PeepholeScan, TwoGateScan) write into buffers of one dtype: under
    autocast they run in fp32 and give the fp32 embeddings and gradients."""
    from paranmt.models.encoders import create_encoder

    torch.manual_seed(0)
    encoder = create_encoder(kind, [s for pair in pairs for s in pair], dim=8, vocab_size=2000)
    sentences = [a for a, _ in pairs[:12]]

    def run(autocast: bool):
        encoder.zero_grad()
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=autocast):
            states = encoder.embed(sentences)
        states.float().pow(2).sum().backward()
        weights = next(p for name, p in encoder.named_parameters() if "input_map.weight" in name or "gate_a" in name)
        return states, weights.grad.clone()

    fp32_states, fp32_grad = run(False)
    states, grad = run(True)
    assert torch.allclose(states.float(), fp32_states, atol=0.05)
    assert torch.allclose(grad, fp32_grad, rtol=0.1, atol=0.05)



def test_fp16_loss_scaling_goes_through_the_trainer_and_its_scale_resumes(pairs, tmp_path, monkeypatch):
    """The fp16 path of the trainer (training_dtype allows fp16 on CUDA only, so it is forced here on the CPU, where
    torch's GradScaler and fp16 autocast run too): the objective and the lambda_w regularizer go backward scaled,
    the sparse gradients of the embedding tables are unscaled for SparseAdam (models/device.py MixedPrecision), and
    the scaler's state is saved and resumed. Scaling by a power of two and back is exact, and on the CPU this encoder
    has no operation that autocast lowers (averaging; the LSTM runs in fp32 there): the updates are the fp32 run's."""
    from paranmt.models.device import MixedPrecision
    from paranmt.models.training import trainer

    config = TrainConfig(encoder="word+lstm", mode="bilingual", dim=8, epochs=1, max_steps=2, batch_size=20,
                         megabatch_size=2, anneal_every=0, checkpoint_every=1, log_every=1, vocab_size=2000,
                         lambda_w=1e-3, lr=0.01)
    torch.manual_seed(0)
    fp32 = Trainer(config, tmp_path / "fp32").fit(pairs)
    monkeypatch.setattr(trainer.MixedPrecision, "select", classmethod(lambda cls, *args: cls("cpu", torch.float16)))
    fp16 = Trainer(config, tmp_path / "fp16").fit(pairs)
    initial = load_encoder(tmp_path / "fp16" / "initial")
    for name, weights in fp16.named_parameters():
        moved = (dict(fp32.named_parameters())[name] - initial.state_dict()[name]).abs()
        assert weights.dtype == torch.float32 and moved.max() > 0.005, name
        assert torch.equal(weights, dict(fp32.named_parameters())[name]), name
    state = torch.load(tmp_path / "fp16" / "checkpoint" / "trainer_state.pt", weights_only=True)
    assert state["scaler"]["scale"] == 65536.0 and state["scaler"]["_growth_tracker"] == 2   # 2 updates, no overflow
    resumed = []
    monkeypatch.setattr(MixedPrecision, "load_state_dict", lambda self, saved: resumed.append(saved))
    config.max_steps = 3
    Trainer(config, tmp_path / "fp16").fit(pairs, resume=True)
    assert resumed == [state["scaler"]]
