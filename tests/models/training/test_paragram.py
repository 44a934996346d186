"""PARAGRAM word embeddings: the loss on tiny tensors, the input readers, and a short training run whose trained
pairs end up more similar than before."""
import numpy as np
import pytest
import torch

from paranmt.models.lexicon.simlex import read_word_pairs
from paranmt.models.encoders.word_vectors import read_word_vectors
from paranmt.models.training.paragram import (ParagramConfig, WordPairsError, paragram_loss, read_lexicon_pairs,
                                              read_ppdb_pairs, save_word2vec, train_paragram)


def test_paragram_loss_on_hand_values():
    w1, w2 = torch.tensor([[1.0, 0.0]]), torch.tensor([[1.0, 1.0]])
    t1, t2 = torch.tensor([[0.0, 2.0]]), torch.tensor([[2.0, 0.0]])
    # dot: s(w1,w2) = 1, s(w1,t1) = 0, s(w2,t2) = 2 -> max(0, 1 - 1 + 0) + max(0, 1 - 1 + 2) = 2
    assert paragram_loss(w1, w2, t1, t2, 1.0, "dot").item() == pytest.approx(2.0)
    # cosine, margin 0.4: cos(w1,w2) = 0.7071, cos(w1,t1) = 0, cos(w2,t2) = 0.7071 -> 0 + 0.4
    assert paragram_loss(w1, w2, t1, t2, 0.4, "cosine").item() == pytest.approx(0.4, abs=1e-6)
    no_negative = paragram_loss(w1, w2, t1, t2, 1.0, "dot", torch.tensor([True]), torch.tensor([False]))
    assert no_negative.item() == pytest.approx(0.0), "a term without a valid negative counts 0"


def test_readers(tmp_path):
    (tmp_path / "lexicon-00000-of-00001.tsv").write_text(
        "u\tv\tcross_count\tpmi_cross\tpmi_within\tpmi_adj\n"
        "car\tautomobile\t5\t2.0\t0.5\t1.5\ncar\tautomobile\t5\t2.0\t0.5\t1.5\nautomobile\tcar\t5\t2.0\t0.5\t1.5\n"
        "the\ta\t90\t0.1\t0.4\t-0.3\nbig\tlarge\t3\t1.0\t0.2\t0.8\n")
    assert read_lexicon_pairs(tmp_path) == [("automobile", "car"), ("big", "large")], "best first, pmi_adj >= 0"
    assert read_lexicon_pairs(tmp_path, "cross_count", 0, max_pairs=1) == [("a", "the")]
    ppdb = tmp_path / "ppdb.txt"
    ppdb.write_text("[NN] ||| car ||| automobile ||| PPDB2.0Score=3.1 ||| 0-0 ||| Equivalence\n"
                    "[VP] ||| look at ||| watch ||| PPDB2.0Score=2.0 ||| 0-0 1-0 ||| Equivalence\n"
                    "[JJ] ||| Big ||| large ||| PPDB2.0Score=2.5 ||| 0-0 ||| Equivalence\n")
    assert read_ppdb_pairs(ppdb) == [("automobile", "car"), ("big", "large")], "one-token pairs, fields 2 and 3"
    (tmp_path / "bad.txt").write_text("car automobile\n")
    with pytest.raises(WordPairsError, match="bad.txt:1"):
        read_ppdb_pairs(tmp_path / "bad.txt")
    vectors = tmp_path / "vectors.txt"
    vectors.write_text("3 2\ncar 1 2\nCar 5 5\nboat 0.5 -1\n")
    found, dim = read_word_vectors(vectors, {"car", "plane"})
    assert dim == 2 and list(found) == ["car"] and found["car"].tolist() == [1.0, 2.0]


def test_training_pulls_the_paraphrase_pairs_together(shared_data, tmp_path):
    # training pairs: the WS-353 similarity pairs rated >= 7 (real related words), as a word-pair lexicon
    pairs = [(a, b) for a, b, score in read_word_pairs(shared_data / "word-sim" / "EN-WS-353-SIM.txt") if score >= 7]
    assert len(pairs) > 40
    init = tmp_path / "init.txt"
    rng = np.random.default_rng(0)
    words = sorted({w for pair in pairs for w in pair})
    init.write_text("".join(f"{w} {' '.join(f'{x:.4f}' for x in rng.normal(size=8))}\n" for w in words))
    config = ParagramConfig(dim=8, batch_size=10, epochs=15, lr=0.2, l2_to_init=1e-4, init_vectors=str(init))
    before, _ = train_paragram(pairs, ParagramConfig(dim=8, epochs=1, max_steps=0, lr=1e-9, init_vectors=str(init)))
    encoder, report = train_paragram(pairs, config, tmp_path / "metrics.jsonl")
    assert report["initialized"] == len(words) and report["steps"] == 15 * int(np.ceil(len(pairs) / 10))

    def mean_pair_cosine(model):
        a, b = model.encode([p[0] for p in pairs]), model.encode([p[1] for p in pairs])
        return float(np.mean(np.sum(a * b, 1) / np.linalg.norm(a, axis=1) / np.linalg.norm(b, axis=1)))

    assert mean_pair_cosine(encoder) > mean_pair_cosine(before) + 0.3
    assert encoder.embedding.sparse, "saved as an ordinary word encoder"
    assert save_word2vec(encoder, tmp_path / "w2v.txt") == encoder.featurizer.vocab_size - 1
    again, dim = read_word_vectors(tmp_path / "w2v.txt", set(words))
    assert dim == 8 and len(again) == len(words)
    with pytest.raises(ValueError, match="similarity"):
        ParagramConfig(similarity="l1").validate()
