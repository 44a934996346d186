"""Transfer probes (SentEval protocol) on the real task files in ../shared/data."""
import numpy as np
import pytest
from scipy import sparse

from paranmt.models.encoders import load_encoder
from paranmt.models.encoders.base import random_copy
from paranmt.models.evaluation.transfer import (BagOfWords, TransferDataError, TransferProbeConfig, binary_f1,
                                               choose_c, evaluate_task, load_task, pair_features, stratified_sample)


def test_tasks_load_with_the_staged_sizes(shared_data):
    sizes = {name: {split: len(s.labels) for split, s in load_task(name, shared_data).splits.items()}
             for name in ("mr", "cr", "subj", "sick-e", "mrpc")}
    # MRPC: 3,576 + 500 = the 4,076 pairs of the official train file
    assert sizes == {"mr": {"all": 10662}, "cr": {"all": 1719}, "subj": {"all": 10000},
                     "sick-e": {"train": 4500, "dev": 500, "test": 4927}, "mrpc": {"train": 3576, "test": 500}}
    mrpc = load_task("mrpc", shared_data).splits["train"]
    assert mrpc.first[0].startswith("Amrozi accused his brother") and mrpc.labels[:2].tolist() == [1, 0]
    sick = load_task("sick-e", shared_data).splits["train"]
    assert sick.labels[0] == 1, "pair 1 of SICK_train is NEUTRAL"
    sst = load_task("sst2", shared_data).splits        # no test.tsv staged: dev.tsv is the test split
    assert {split: (s.name, len(s.labels)) for split, s in sst.items()} == {"train": ("sst2/train", 60614),
                                                                            "test": ("sst2/dev", 6735)}
    assert sst["test"].first[0] == "the expressive power of the camera" and sst["test"].labels[0] == 1


def test_bad_task_files_are_clear_errors(tmp_path):
    (tmp_path / "transfer").mkdir()
    with pytest.raises(TransferDataError, match="not found"):
        load_task("mr", tmp_path)
    (tmp_path / "transfer" / "cr.tsv").write_text("label\tsentence\n2\tgreat\n")
    with pytest.raises(TransferDataError, match="cr.tsv:2"):
        load_task("cr", tmp_path)
    with pytest.raises(TransferDataError, match="unknown transfer task"):
        load_task("sst", tmp_path)


def test_binary_f1_and_pair_features_on_hand_values():
    # TP = 2, FP = 1, FN = 1 -> F1 = 4 / 6
    assert binary_f1(np.array([1, 1, 1, 0, 0]), np.array([1, 1, 0, 1, 0])) == pytest.approx(2 / 3)
    assert binary_f1(np.array([0, 0]), np.array([0, 0])) == 0.0
    u, v = np.array([[1.0, -2.0]]), np.array([[3.0, 1.0]])
    assert pair_features(u, v).tolist() == [[1, -2, 3, 1, 2, 3, 3, -2]]
    dense = pair_features(sparse.csr_matrix(u), sparse.csr_matrix(v)).toarray()
    assert dense.tolist() == [[1, -2, 3, 1, 2, 3, 3, -2]]


def test_bag_of_words_rows_are_normalized_binary_indicators():
    bow = BagOfWords(["a good film", "a bad film"])
    x = bow(["good good film", "unseen words"]).toarray()
    assert x.shape == (2, 4)
    assert np.count_nonzero(x[0]) == 2 and x[0].max() == pytest.approx(1 / np.sqrt(2))
    assert not x[1].any(), "a sentence without known words is the zero row"


def test_stratified_sample_keeps_label_proportions():
    labels = np.array([0] * 80 + [1] * 20)
    chosen = stratified_sample(labels, 50, seed=1)
    assert len(chosen) == 50 and labels[chosen].sum() == 10
    assert stratified_sample(labels, 0, seed=1).tolist() == list(range(100))


def test_choose_c_prefers_regularization_on_noise_and_fits_a_separable_signal():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(200, 5))
    y = (x[:, 0] > 0).astype(int)
    config = TransferProbeConfig(inner_folds=3, c_grid=(1e-4, 1.0))
    assert choose_c(x, y, config) == 1.0, "1e-4 shrinks every weight to ~0"


def test_probe_beats_chance_on_a_real_slice_and_random_encoder_differs(repo, shared_data):
    encoder = load_encoder(repo / "assets" / "encoder-sp")
    randomized = random_copy(encoder, seed=3)
    assert randomized.dim == encoder.dim
    assert not np.allclose(randomized.encode(["a cat"]), encoder.encode(["a cat"]))
    assert np.allclose(random_copy(encoder, seed=3).encode(["a cat"]), randomized.encode(["a cat"]))
    config = TransferProbeConfig(folds=2, inner_folds=2, limit=300, c_grid=(0.01, 1.0))
    subj = evaluate_task(encoder.encode, load_task("subj", shared_data), config)
    assert 0.6 < subj["accuracy"] <= 1.0, subj
    mrpc = evaluate_task(encoder.encode, load_task("mrpc", shared_data), config)
    assert set(mrpc) == {"accuracy", "f1"} and 0.5 < mrpc["accuracy"] < 1.0
