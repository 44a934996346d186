"""Encoders on real sentences (newstest2016 English side of ../shared/data/bitext/cs-en)."""
import numpy as np
import pytest
import torch

from paranmt.models.encoders import ENCODER_KINDS, EncoderError, create_encoder, load_encoder
from paranmt.models.encoders.featurizers import WordFeaturizer, char_trigrams, word_tokens


@pytest.fixture(scope="module")
def sentences(bitext):
    return (bitext / "newstest2016.eng").read_text(encoding="utf-8").splitlines()[:400]


def test_char_trigrams_span_word_boundaries():
    assert char_trigrams("A  cat") == [" a ", "a c", " ca", "cat"]
    assert char_trigrams("") == []
    assert char_trigrams("I") == [" i"]


def test_word_tokens_and_unknown_words_map_to_zero():
    assert word_tokens("Don't stop!") == ["don", "'", "t", "stop", "!"]
    featurizer = WordFeaturizer.build(["the cat", "the dog"], max_size=3)
    assert featurizer.tokens == ["<unk>", "the", "cat"]
    assert featurizer.ids(["The zebra cat"]) == [[1, 0, 2]]


@pytest.mark.parametrize("kind", [k for k in ENCODER_KINDS if k != "sp"])
def test_every_encoder_encodes_trains_and_round_trips(kind, sentences, tmp_path):
    torch.manual_seed(0)
    encoder = create_encoder(kind, sentences, dim=16, dropout=0.2, word_dropout=0.1)
    vectors = encoder.encode(sentences[:5] + [""])
    assert vectors.shape == (6, 16 * (kind.count(",") + 1)) and vectors.dtype == np.float32
    assert np.all(vectors[-1] == 0), "a sentence without units embeds to the zero vector"
    assert np.all(np.linalg.norm(vectors[:5], axis=1) > 0)
    encoder.train()
    encoder.embed(sentences[:4]).pow(2).sum().backward()
    assert all(p.grad is not None for p in encoder.parameters())
    encoder.save(tmp_path / kind)
    assert np.array_equal(load_encoder(tmp_path / kind).encode(sentences[:5] + [""]), vectors)


def test_sp_encoder_trains_its_sentencepiece_model_and_saves_float16(sentences, tmp_path):
    encoder = create_encoder("sp", sentences, dim=8, sp_vocab_size=500, work_dir=tmp_path / "work")
    assert encoder.featurizer.vocab_size == 500
    encoder.save(tmp_path / "sp", dtype="float16")
    loaded = load_encoder(tmp_path / "sp")
    assert sorted(p.name for p in (tmp_path / "sp").iterdir()) == ["config.json", "sp.model", "weights.npz"]
    assert np.allclose(loaded.encode(sentences[:20]), encoder.encode(sentences[:20]), atol=1e-3)


def test_training_path_of_averaging_equals_embedding_bag_without_dropout(sentences):
    encoder = create_encoder("trigram", sentences, dim=8, word_dropout=1e-12)
    inputs = encoder.prepare(sentences[:10])
    encoder.train()
    segment_mean = encoder(inputs)
    encoder.eval()
    assert torch.allclose(segment_mean, encoder(inputs), atol=1e-6)


def test_blstm_averages_directions_and_gran_keeps_word_dim(sentences):
    blstm = create_encoder("blstm", sentences, dim=12, hidden=10)
    gran = create_encoder("gran", sentences, dim=12, hidden=10)
    assert blstm.lstm.bidirectional and blstm.encode(sentences[:2]).shape == (2, 10)
    assert gran.encode(sentences[:2]).shape == (2, 12)


def test_load_encoder_errors(tmp_path):
    with pytest.raises(EncoderError, match="no config.json"):
        load_encoder(tmp_path)
    (tmp_path / "config.json").write_text('{"format": "other"}')
    with pytest.raises(EncoderError, match="format"):
        load_encoder(tmp_path)
    with pytest.raises(EncoderError, match="unknown encoder"):
        create_encoder("bert", ["a"])
