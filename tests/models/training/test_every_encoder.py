"""Every encoder kind through the trainer: a few steps on real cs-en bitext, saved, reloaded, encoding as trained."""
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
