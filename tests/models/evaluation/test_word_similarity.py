"""Word-similarity evaluation over the real benchmarks in ../shared/data/word-sim."""
import numpy as np
import pytest
import torch
from scipy.stats import spearmanr

from paranmt.models.encoders.averaging import AveragingEncoder
from paranmt.models.encoders.featurizers import WordFeaturizer
from paranmt.models.evaluation.word_similarity import discover_benchmarks, evaluate_benchmark, write_results


def test_discovers_the_six_benchmarks_and_skips_the_notes(shared_data):
    benchmarks = discover_benchmarks(shared_data / "word-sim")
    assert {name: len(pairs) for name, pairs in benchmarks.items()} == {
        "men-tr-3k": 3000, "simlex-999": 999, "simverb-3500": 3500, "ws-353-all": 353, "ws-353-rel": 252,
        "ws-353-sim": 203}


def test_spearman_over_covered_pairs_against_an_independent_computation(shared_data, tmp_path):
    pairs = discover_benchmarks(shared_data / "word-sim")["ws-353-sim"]
    words = sorted({w for a, b, _ in pairs[:50] for w in (a, b)})
    torch.manual_seed(0)
    encoder = AveragingEncoder(WordFeaturizer(["<unk>"] + words), dim=4).eval()
    result = evaluate_benchmark(encoder, "ws-353-sim", pairs)
    vocabulary = set(words)
    covered = [(a, b, s) for a, b, s in pairs if a in vocabulary and b in vocabulary]
    assert result.n == 203 and result.covered == len(covered) >= 50
    table = dict(zip(words, encoder.embedding.weight.detach().numpy()[1:]))
    cosines = [float(table[a] @ table[b] / np.linalg.norm(table[a]) / np.linalg.norm(table[b])) for a, b, _ in covered]
    assert result.spearman == pytest.approx(spearmanr([s for _, _, s in covered], cosines).statistic, abs=1e-6)
    assert result.spearman_all is not None and result.spearman_all != result.spearman
    write_results([result], tmp_path, "t")
    assert (tmp_path / "results.csv").read_text().splitlines()[1].startswith("ws-353-sim,203,")
