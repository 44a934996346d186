"""`encoder.similarity(a, b)`: cosine matrix or pairwise, with the shipped encoder on real STS-B sentences."""
import numpy as np
import pytest

from paranmt.models.encoders import load_encoder
from paranmt.models.encoders.base import cosine_matrix, cosine_rows


@pytest.fixture(scope="module")
def encoder(repo):
    return load_encoder(repo / "assets" / "encoder-sp")


def test_similarity_matrix_is_the_cosine_of_every_pair_of_embeddings(encoder, sts_dev):
    a, b = sts_dev.s1[:7], sts_dev.s2[:5]
    x, y = encoder.encode(a), encoder.encode(b)
    expected = np.array([[u @ v / np.linalg.norm(u) / np.linalg.norm(v) for v in y] for u in x])
    matrix = encoder.similarity(a, b)
    assert matrix.shape == (7, 5) and matrix.dtype == np.float32
    assert np.abs(matrix - expected).max() < 1e-6


def test_pairwise_similarity_is_the_diagonal_and_ranks_paraphrases_first(encoder, sts_dev):
    a, b = sts_dev.s1[:50], sts_dev.s2[:50]
    pairwise = encoder.similarity(a, b, pairwise=True)
    assert pairwise.shape == (50,)
    assert np.allclose(pairwise, np.diag(encoder.similarity(a, b)), atol=1e-6)
    gold = sts_dev.gold[:50]
    assert pairwise[gold >= 4].mean() > pairwise[gold <= 1].mean() + 0.2


def test_similarity_edge_cases(encoder, sts_dev):
    [[same]] = encoder.similarity("A man is playing a guitar.", ["A man is playing a guitar."])
    assert same == pytest.approx(1.0, abs=1e-6)
    assert encoder.similarity(sts_dev.s1[:100], sts_dev.s1[:100], pairwise=True).max() <= 1.0, "clipped"
    assert np.isnan(encoder.similarity([""], ["A man."])).all(), "no units: zero vector, cosine undefined"
    assert encoder.similarity([], ["A man."]).shape == (0, 1)
    with pytest.raises(ValueError, match="equal length"):
        encoder.similarity(["a", "b"], ["c"], pairwise=True)


def test_cosine_matrix_agrees_with_cosine_rows():
    rng = np.random.default_rng(0)
    a, b = rng.normal(size=(4, 3)).astype(np.float32), rng.normal(size=(4, 3)).astype(np.float32)
    a[2] = 0
    assert np.allclose(np.diag(cosine_matrix(a, b)), cosine_rows(a, b), equal_nan=True)
