"""Tai et al.'s supervised heads: targets on hand-computed values, the KL loss, L2 toward the initial weights, a
short fine-tuning run on real SICK pairs; the classification tasks (SICK-E, SST-2): their splits from the real
layout, their heads, and a head trained on a few hundred real rows beating the majority class."""
import numpy as np
import pytest
import torch

from paranmt.models.encoders import load_encoder
from paranmt.models.training.regularizers import l2_to_initial
from paranmt.models.training.sts_finetune import (FinetuneConfig, FinetuneDataError, PairHead, SentenceHead,
                                                  SimilarityHead, finetune, kl_loss, limit_dataset,
                                                  load_labelled_splits, load_splits, majority_accuracy,
                                                  not_in_training, target_distribution, unit_rms)


def test_target_distribution_of_tai_et_al_on_hand_values():
    # SICK bins 1..5: y = 3.6 -> p_3 = floor(y) - y + 1 = 0.4, p_4 = y - floor(y) = 0.6
    target = target_distribution(np.array([3.6, 1.0, 5.0, 4.2]), 1, 5)
    np.testing.assert_allclose(target, [[0, 0, 0.4, 0.6, 0], [1, 0, 0, 0, 0], [0, 0, 0, 0, 1],
                                        [0, 0, 0, 0.8, 0.2]], atol=1e-6)
    np.testing.assert_allclose(target @ np.arange(1, 6), [3.6, 1.0, 5.0, 4.2], rtol=1e-6, err_msg="r^T p = y")
    # STS-B bins 0..5 (K = 6): y = 0.25 -> p_0 = 0.75, p_1 = 0.25
    np.testing.assert_allclose(target_distribution(np.array([0.25]), 0, 5), [[0.75, 0.25, 0, 0, 0, 0]])
    with pytest.raises(ValueError, match=r"\[1, 5\]"):
        target_distribution(np.array([0.5]), 1, 5)


def test_kl_loss_is_zero_at_the_target_and_matches_the_formula():
    p = torch.tensor([[0.0, 0.4, 0.6], [1.0, 0.0, 0.0]])
    assert kl_loss(torch.log(p.clamp_min(1e-30)), p).item() == pytest.approx(0.0, abs=1e-6)
    q = torch.tensor([[0.2, 0.3, 0.5], [0.5, 0.25, 0.25]])
    expected = ((0.4 * np.log(0.4 / 0.3) + 0.6 * np.log(0.6 / 0.5)) + np.log(1 / 0.5)) / 2
    assert kl_loss(torch.log(q), p).item() == pytest.approx(expected, rel=1e-5)


def test_head_shapes_expected_score_and_scale_invariance():
    torch.manual_seed(0)
    head = SimilarityHead(dim=4, hidden=3, low=1, high=5)
    u, v = torch.randn(2, 4), torch.randn(2, 4)
    log_p = head(u, v)
    assert log_p.shape == (2, 5) and torch.allclose(log_p.exp().sum(1), torch.ones(2))
    assert torch.all((head.expected(log_p) >= 1) & (head.expected(log_p) <= 5))
    assert torch.allclose(head(100 * u, 0.01 * v), log_p, atol=1e-5), "embeddings are rescaled to unit RMS"
    assert unit_rms(torch.zeros(1, 4)).abs().sum() == 0
    assert (unit_rms(u) ** 2).mean(1).tolist() == pytest.approx([1.0, 1.0])


def test_l2_to_initial_penalty_and_gradient():
    weight = torch.nn.Parameter(torch.tensor([1.0, 2.0]))
    regularizer = l2_to_initial({"w": weight}, 0.5)
    with torch.no_grad():
        weight += torch.tensor([1.0, -2.0])
    penalty = regularizer()
    assert penalty.item() == pytest.approx(0.5 * (1 + 4))
    penalty.backward()
    assert weight.grad.tolist() == pytest.approx([1.0, -2.0]), "2 * lambda * (w - w_init)"
    assert l2_to_initial({"w": weight}, 0.0)().item() == 0.0
    with pytest.raises(ValueError):
        l2_to_initial({"w": weight}, -1.0)


def test_splits_from_the_real_layout(shared_data):
    sick = load_splits(shared_data / "sts", "sick-r")
    assert [len(sick[s].gold) for s in ("train", "dev", "test")] == [4500, 500, 4927]
    stsb = load_splits(shared_data / "sts", "stsb", dev_fraction=0.1, seed=1)
    assert stsb["test"].name == "stsbenchmark/sts-dev", "sts-test.csv is not staged: sts-dev is the test set"
    assert [len(stsb[s].gold) for s in ("train", "dev", "test")] == [5174, 575, 1500], "5,749 = 5,174 + 575"
    with pytest.raises(FinetuneDataError, match="unknown task"):
        load_splits(shared_data / "sts", "sst")
    # P17's split: 40/10/50% of each of the 19 STS 2012-15 test sets staged (2013 SMT is not), pooled
    semeval = load_splits(shared_data / "sts", "sts12-15", seed=1)
    assert [len(semeval[s].gold) for s in ("train", "dev", "test")] == [4544, 1137, 5677], "11,358 pairs"
    assert semeval["test"].name == "STS2012-2015[50% of 19 datasets]"
    assert semeval["train"].gold.min() >= 0 and semeval["train"].gold.max() <= 5
    again = load_splits(shared_data / "sts", "sts12-15", seed=1)["train"]
    assert again.s1 == semeval["train"].s1, "seeded"
    with pytest.raises(FinetuneDataError, match="no STS 2012-2015 test datasets"):
        load_splits(shared_data / "sts" / "SICK", "sts12-15")


def test_short_finetuning_lowers_the_training_loss_and_keeps_the_encoder_loadable(repo, shared_data, tmp_path):
    encoder = load_encoder(repo / "assets" / "encoder-sp")
    before = encoder.embedding.weight.detach().clone()
    splits = {k: limit_dataset(d, 200, 1) for k, d in load_splits(shared_data / "sts", "sick-r").items()}
    config = FinetuneConfig(epochs=3, batch_size=20, l2_to_init=1e-3)
    tuned, head, report = finetune(encoder, splits, config, tmp_path / "metrics.jsonl")
    assert torch.equal(encoder.embedding.weight, before), "the given encoder is not modified"
    assert not torch.equal(tuned.embedding.weight, before) and tuned.embedding.sparse
    kl = [float(line.split('"kl": ')[1].split(",")[0]) for line in (tmp_path / "metrics.jsonl").read_text().splitlines()]
    assert len(kl) == 3 and kl[2] < kl[0]
    assert report["steps"] == 30 and 1 <= report["best_epoch"] <= 3
    assert set(report["supervised"]) == {"dev", "test"} and all(-1 <= v <= 1 for v in report["supervised"].values())
    tuned.save(tmp_path / "encoder")
    assert load_encoder(tmp_path / "encoder").encode(["a man plays"]).shape == (1, 300)


def test_classification_splits_from_the_real_layout(shared_data, tmp_path):
    sick = load_labelled_splits(shared_data, "sick-e")
    assert [len(sick[s].labels) for s in ("train", "dev", "test")] == [4500, 500, 4927]
    assert sick["test"].name == "SICK/SICK_test_annotated" and sick["train"].second is not None
    sst = load_labelled_splits(shared_data, "sst2", dev_fraction=0.1, seed=1)
    assert sst["test"].name == "sst2/dev", "no test.tsv is staged: dev.tsv is the test set"
    assert [len(sst[s].labels) for s in ("train", "dev", "test")] == [54553, 6061, 6735], "60,614 = 54,553 + 6,061"
    assert sst["dev"].name == "sst2/train[held-out 0.1]" and sst["train"].second is None
    assert not set(sst["dev"].first) - set(load_labelled_splits(shared_data, "sst2")["dev"].first), "seeded"
    # a data dir with test.tsv: train, dev and test as they are
    folder = tmp_path / "transfer" / "sst2"
    folder.mkdir(parents=True)
    lines = (shared_data / "transfer" / "sst2" / "dev.tsv").read_text().splitlines()
    for name, rows in (("train", lines[1:41]), ("dev", lines[41:61]), ("test", lines[61:81])):
        (folder / f"{name}.tsv").write_text("\n".join([lines[0], *rows]) + "\n")
    with_test = load_labelled_splits(tmp_path, "sst2")
    assert [(d.name, len(d.labels)) for d in with_test.values()] == [("sst2/train", 40), ("sst2/dev", 20),
                                                                     ("sst2/test", 20)]
    (folder / "test.tsv").write_text("label\tsentence\n1\tgood\n")
    with pytest.raises(FinetuneDataError, match="header `sentence TAB label`"):
        load_labelled_splits(tmp_path, "sst2")
    with pytest.raises(FinetuneDataError, match="unknown task"):
        load_labelled_splits(tmp_path, "sick-r")


def test_classification_heads_shapes_projection_and_scale_invariance():
    torch.manual_seed(0)
    u, v = torch.randn(3, 8), torch.randn(3, 8)
    pair = PairHead(dim=8, hidden=5, outputs=3)
    assert pair(u, v).shape == (3, 3) and torch.allclose(pair(u, v).exp().sum(1), torch.ones(3))
    assert torch.allclose(pair(100 * u, 0.01 * v), pair(u, v), atol=1e-5)
    sentence = SentenceHead(dim=8, hidden=5, outputs=2, projection=4)
    assert sentence.projection.weight.shape == (4, 8) and sentence.hidden.in_features == 4
    assert sentence(u).shape == (3, 2) and torch.allclose(sentence(u).exp().sum(1), torch.ones(3))
    assert majority_accuracy(np.array([1, 1, 0]), np.array([1, 0, 0, 1])) == 0.5
    assert not_in_training(["a good film", "bad"], ["good film", "bad", "a great film"]).tolist() == [False, False,
                                                                                                      True]


@pytest.mark.parametrize("task, extra", [("sick-e", {}), ("sst2", {"freeze_encoder": True, "projection": 100})])
def test_a_trained_head_beats_the_majority_class_on_real_rows(repo, shared_data, tmp_path, task, extra):
    encoder = load_encoder(repo / "assets" / "encoder-sp")
    splits = {k: limit_dataset(d, 600, 1) for k, d in load_labelled_splits(shared_data, task).items()}
    config = FinetuneConfig(task=task, epochs=2, batch_size=25, **extra)
    tuned, head, report = finetune(encoder, splits, config, tmp_path / "metrics.jsonl")
    assert report["metric"] == "accuracy" and report["baseline"] == "majority"
    assert report["supervised"]["test"] > report["majority"]["test"] + 0.05, report
    lines = (tmp_path / "metrics.jsonl").read_text().splitlines()
    assert len(lines) == 2 and '"nll"' in lines[0] and '"dev_accuracy"' in lines[0]
    assert ("test_not_in_training" in report) == (task == "sst2")
    if extra.get("freeze_encoder"):
        assert torch.equal(tuned.embedding.weight, encoder.embedding.weight), "a frozen encoder stays as it was"
        assert head.projection.weight.shape == (100, 300)
