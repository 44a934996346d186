"""Encoders exported for sentence-transformers: `SentenceTransformer(DIR)` gives paranmt's vectors, for every kind,
on 100 real STS-B sentences; model.similarity and ST's STS evaluator agree with paranmt's."""
import numpy as np
import pytest
import torch
from sentence_transformers import SentenceTransformer
from sentence_transformers.evaluation import EmbeddingSimilarityEvaluator

from paranmt.models.encoders import ENCODER_KINDS, create_encoder, load_encoder
from paranmt.models.encoders.sentence_transformers import export_sentence_transformer
from paranmt.models.evaluation.sts import score_dataset

TOLERANCE = 1e-5


@pytest.fixture(scope="module")
def sentences(sts_dev):
    """100 real sentences of different lengths (ST sorts batches by length) and one without units."""
    return sts_dev.s1[:50] + sts_dev.s2[:50] + [""]


@pytest.mark.parametrize("kind", ENCODER_KINDS)
def test_every_encoder_kind_loads_in_sentence_transformers_with_the_same_vectors(kind, sentences, repo, tmp_path):
    torch.manual_seed(0)
    encoder = create_encoder(kind, sentences, dim=16, sp_model=repo / "assets" / "encoder-sp" / "sp.model")
    encoder.save(tmp_path / "encoder")
    export_sentence_transformer(load_encoder(tmp_path / "encoder"), tmp_path / "st")

    model = SentenceTransformer(str(tmp_path / "st"), device="cpu")
    vectors = model.encode(sentences, batch_size=32)
    expected = load_encoder(tmp_path / "encoder").encode(sentences)
    assert vectors.shape == expected.shape == (101, 16 * (kind.count(",") + 1))
    assert np.abs(vectors - expected).max() < TOLERANCE
    assert np.all(vectors[-1] == 0)
    assert model.get_embedding_dimension() == expected.shape[1]


def test_shipped_encoder_through_sentence_transformers(repo, sentences, sts_dev, tmp_path):
    encoder = load_encoder(repo / "assets" / "encoder-sp")
    export_sentence_transformer(encoder, tmp_path / "st")
    module_dir = tmp_path / "st" / "0_EncoderModule"
    weights = (repo / "assets" / "encoder-sp" / "weights.npz").stat().st_size
    assert (module_dir / "weights.npz").stat().st_size == weights, "float16 weights stay float16"

    model = SentenceTransformer(str(tmp_path / "st"), device="cpu")
    assert np.abs(model.encode(sentences) - encoder.encode(sentences)).max() < TOLERANCE
    a, b = sts_dev.s1[:20], sts_dev.s2[:30]
    st_matrix = model.similarity(model.encode(a), model.encode(b)).numpy()
    assert np.abs(st_matrix - encoder.similarity(a, b)).max() < TOLERANCE

    evaluator = EmbeddingSimilarityEvaluator(sts_dev.s1, sts_dev.s2, sts_dev.gold.tolist(), write_csv=False)
    st_spearman = evaluator(model)["spearman_cosine"]
    assert st_spearman == pytest.approx(score_dataset(encoder.encode, sts_dev).spearman, abs=1e-4)


def test_prompt_is_prepended_and_the_saved_model_round_trips(repo, sentences, tmp_path):
    encoder = load_encoder(repo / "assets" / "encoder-sp")
    model = SentenceTransformer(str(export_sentence_transformer(encoder, tmp_path / "st")), device="cpu")
    with_prompt = model.encode(sentences[:5], prompt="query: ")
    assert np.abs(with_prompt - encoder.encode(["query: " + s for s in sentences[:5]])).max() < TOLERANCE
    model.save(str(tmp_path / "again"))
    assert np.array_equal(load_encoder(tmp_path / "again" / "0_EncoderModule").encode(sentences),
                          encoder.encode(sentences))
