"""Objectives and regularizers alone on tiny tensors with hand-computed values, then through the trainer."""
import json

import numpy as np
import pytest
import torch

from paranmt.models.encoders import create_encoder, load_encoder
from paranmt.models.encoders.word_vectors import WordVectorsError, initialize_embeddings, read_word_vectors
from paranmt.models.pairs import read_pairs
from paranmt.models.training.loss import BiCVMLoss, MarginLoss, PairBatch
from paranmt.models.training.negatives import mine_noise
from paranmt.models.training.regularizers import composition_l2, embedding_l2
from paranmt.models.training.trainer import TrainConfig, Trainer
from paranmt.schemas.errors import ConfigError

T = torch.tensor


def test_margin_loss_with_squared_euclidean_distance():
    loss = MarginLoss(torch.nn.Identity(), margin=1.0, distance="euclidean")
    g1, g2 = T([[0.0, 0.0]]), T([[1.0, 0.0]])          # ||g1 - g2||^2 = 1
    n1, n2 = T([[0.0, 1.0]]), T([[3.0, 0.0]])          # ||g1 - n1||^2 = 1, ||g2 - n2||^2 = 4
    # max(0, 1 - (-1) + (-1)) + max(0, 1 - (-1) + (-4)) = 1 + 0
    assert loss.hinge(g1, g2, n1, n2).item() == pytest.approx(1.0)
    with pytest.raises(ValueError, match="distance"):
        MarginLoss(torch.nn.Identity(), distance="manhattan")


def test_bicvm_hinge_sums_over_k_noise_samples():
    loss = BiCVMLoss(torch.nn.Identity(), margin=1.0)
    g1, g2 = T([[0.0, 0.0]]), T([[1.0, 0.0]])                   # positive distance 1
    n1 = T([[[0.0, 1.0], [2.0, 0.0]]])                          # distances to g1: 1, 4
    n2 = T([[[1.0, 0.5], [1.0, 3.0]]])                          # distances to g2: 0.25, 9
    # side 1: [1 + 1 - 1]+ + [1 + 1 - 4]+ = 1 + 0; side 2: [2 - 0.25]+ + [2 - 9]+ = 1.75
    assert loss.hinge(g1, g2, n1, n2).item() == pytest.approx(2.75)
    valid = np.array([[True, False]])
    assert loss.hinge(g1, g2, n1, n2, valid, np.array([[False, True]])).item() == pytest.approx(1.0)


def test_objectives_embed_a_pair_batch_through_the_model():
    sentences = ["a cat sat", "a dog ran", "the sun", "kocka sedi", "pes bezi", "slunce"]
    encoder = create_encoder("add", sentences, dim=4)
    encoder.train()
    batch = PairBatch(["a cat sat"], ["kocka sedi"], [["pes bezi", "slunce"]], [["a dog ran", "the sun"]],
                      np.ones((1, 2), bool), np.ones((1, 2), bool))
    vectors = {s: torch.from_numpy(encoder.encode([s])[0]) for s in sentences}
    n1 = torch.stack([vectors["pes bezi"], vectors["slunce"]])[None]
    n2 = torch.stack([vectors["a dog ran"], vectors["the sun"]])[None]
    bicvm = BiCVMLoss(encoder, margin=1.0)
    expected = bicvm.hinge(vectors["a cat sat"][None], vectors["kocka sedi"][None], n1, n2)
    assert bicvm(batch).item() == pytest.approx(expected.item(), abs=1e-6)
    with pytest.raises(ValueError, match="one negative"):
        MarginLoss(encoder)(batch)


def test_embedding_l2_covers_the_rows_the_batch_used():
    encoder = create_encoder("word", ["a b c d"], dim=2)
    initial = encoder.embedding.weight.detach().clone()
    with torch.no_grad():
        encoder.embedding.weight += 1.0                          # every row 1 away from its start in both dims
    toward_init = embedding_l2(encoder, 0.5, "init", {"embedding.weight": initial})
    toward_zero = embedding_l2(encoder, 0.5, "zero")
    assert toward_init().item() == 0.0, "no gradient yet: no rows used"
    encoder.train()
    encoder.embed(["a b", "b"]).sum().backward()                 # rows of "a" and "b" (ids 1, 2)
    assert encoder.embedding.weight.grad.is_sparse
    assert toward_init().item() == pytest.approx(0.5 * 2 * 2)   # 2 rows x 2 dims x 1^2
    weights = encoder.embedding.weight.detach()
    assert toward_zero().item() == pytest.approx(0.5 * float((weights[[1, 2]] ** 2).sum()), rel=1e-5)
    penalty = toward_init()
    penalty.backward()
    assert encoder.embedding.weight.grad.is_sparse, "the penalty keeps the gradient sparse (SparseAdam)"


def test_composition_l2_toward_zero_and_toward_irnn_identity():
    texts = ["a b c"]
    dan = create_encoder("dan", texts, dim=3, hidden=2)
    expected = sum(float((p.detach() ** 2).sum()) for n, p in dan.named_parameters() if not n.startswith("embedding"))
    assert composition_l2(dan, 0.1)().item() == pytest.approx(0.1 * expected, rel=1e-5)
    combined = create_encoder("word+irnn", texts, dim=3)
    regularizer = composition_l2(combined, 1.0)
    assert set(regularizer.anchors) == {"parts.1.cell.input_map.weight", "parts.1.cell.input_map.bias",
                                        "parts.1.cell.hidden_map.weight"}
    assert regularizer().item() == 0.0, "iRNN at its identity start: nothing to pull"
    with torch.no_grad():
        combined.parts[1].cell.hidden_map.weight[0, 0] += 2.0
    assert regularizer().item() == pytest.approx(4.0)


def test_bicvm_noise_is_random_never_the_own_pair_and_marks_missing_candidates():
    text1, text2 = ["a", "b", "c", "d"], ["w", "x", "y", "z"]
    rng = np.random.default_rng(0)
    side1, index1, valid1, side2, index2, valid2 = mine_noise(text1, text2, True, 3, rng)
    assert index1.shape == (4, 3) and (side1 == 2).all() and (side2 == 1).all() and valid1.all()
    assert all(i not in row for i, row in enumerate(index1)) and all(len(set(row)) == 3 for row in index1)
    *_, valid = mine_noise(text1[:2], text2[:2], True, 3, rng)
    assert valid.sum(1).tolist() == [1, 1], "one other pair: one valid noise sentence, two marked invalid"
    side1, index1, *_ = mine_noise(text1, text2, False, 6, rng)
    assert all((s, i) not in {(1, p), (2, p)} for p, (ss, ii) in enumerate(zip(side1, index1))
               for s, i in zip(ss, ii)), "monolingual: both sides of the own pair excluded"


def test_word_vectors_text_formats(tmp_path):
    (tmp_path / "w2v.txt").write_text("3 2\nThe 1 2\nthe 3 4\nCat 5 6\n")
    vectors, dim = read_word_vectors(tmp_path / "w2v.txt", {"the", "cat", "dog"})
    assert dim == 2 and vectors["the"].tolist() == [3, 4] and vectors["cat"].tolist() == [5, 6]
    encoder = create_encoder("word,trigram", ["the cat", "the dog"], dim=2)
    coverage = initialize_embeddings(encoder, tmp_path / "w2v.txt")
    word = encoder.parts[0]
    assert (coverage.tables, coverage.found) == (1, 2)
    assert word.embedding.weight[word.featurizer.index["cat"]].tolist() == [5, 6]
    (tmp_path / "bad.txt").write_text("the 1 2\ncat 3\n")
    with pytest.raises(WordVectorsError, match="bad.txt:2"):
        read_word_vectors(tmp_path / "bad.txt", {"cat"})
    with pytest.raises(WordVectorsError, match="set dim to 2"):
        initialize_embeddings(create_encoder("word", ["the"], dim=3), tmp_path / "w2v.txt")
    with pytest.raises(WordVectorsError, match="no word- or sentencepiece-unit"):
        initialize_embeddings(create_encoder("trigram", ["the"], dim=2), tmp_path / "w2v.txt")


@pytest.fixture(scope="module")
def pairs(bitext):
    return read_pairs([str(bitext / "newssyscomb2009")])[0][:200]


@pytest.fixture(scope="module")
def glove(tmp_path_factory, pairs):
    """A GloVe-format file: 8-d vectors for the 300 most frequent English words of the pairs (cased as seen)."""
    from collections import Counter

    counts = Counter(w for a, _ in pairs for w in a.split())
    rng = np.random.default_rng(0)
    path = tmp_path_factory.mktemp("vectors") / "glove.txt"
    path.write_text("".join(f"{w} " + " ".join(f"{x:.4f}" for x in rng.normal(size=8)) + "\n"
                            for w, _ in counts.most_common(300)))
    return path


@pytest.mark.parametrize("options", [
    {"encoder": "add", "objective": "bicvm", "margin": 1.0, "noise_samples": 3, "lambda_frobenius": 1e-3},
    {"encoder": "word", "distance": "euclidean", "margin": 1.0},
    {"encoder": "dan", "lambda_w": 1e-2, "lambda_c": 1e-3, "init_embeddings": True},
    {"encoder": "word+irnn", "lambda_c": 1e-2},
], ids=["bicvm", "euclidean", "l2-init-embeddings", "irnn-l2-to-init"])
def test_every_objective_trains_saves_reloads_and_resumes(options, pairs, glove, tmp_path):
    options = {**options, "init_embeddings": str(glove) if options.get("init_embeddings") else None}
    base = dict(mode="bilingual", dim=8, epochs=2, batch_size=25, megabatch_size=2, anneal_every=0, log_every=2,
                vocab_size=3000, **options)
    whole = Trainer(TrainConfig(**base), tmp_path / "whole").fit(pairs)
    losses = [json.loads(line)["loss"] for line in (tmp_path / "whole" / "metrics.jsonl").read_text().splitlines()
              if '"loss"' in line]
    assert all(np.isfinite(losses)) and losses[-1] < losses[0]
    sentences = [a for a, _ in pairs[:5]]
    assert np.array_equal(load_encoder(tmp_path / "whole").encode(sentences), whole.encode(sentences))
    Trainer(TrainConfig(**base, max_steps=5), tmp_path / "parts").fit(pairs)
    resumed = Trainer(TrainConfig(**base), tmp_path / "parts").fit(pairs, resume=True)
    assert np.allclose(resumed.encode(sentences), whole.encode(sentences), atol=1e-6)
    if options.get("init_embeddings"):
        coverage = json.loads((tmp_path / "whole" / "init_embeddings.json").read_text())
        assert coverage["found"] > 200
        assert (tmp_path / "whole" / "initial" / "config.json").is_file()


def test_objective_options_are_validated(tmp_path):
    with pytest.raises(ConfigError, match="objective"):
        TrainConfig(objective="triplet").validate()
    with pytest.raises(ConfigError, match="distance"):
        TrainConfig(distance="l1").validate()
    with pytest.raises(ConfigError, match="init_embeddings .* not found"):
        TrainConfig(init_embeddings=str(tmp_path / "missing.txt")).validate()
    with pytest.raises(ConfigError, match="lambda"):
        TrainConfig(lambda_w=-1).validate()
