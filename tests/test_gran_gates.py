"""GRAN's gates (P17 §5.2) on real data: `GRANEncoder.gates` are the gates the encoder applies (the embedding is the
mean of x_t * g_t), and benchmarks/gran_gates.py reads the Penn Treebank sample's gold tags and phrase labels,
counts every word of the sentences it keeps once, and stops in one line on an encoder that is not a GRAN."""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
import torch
import warm

from paranmt.models.encoders import load_encoder
from paranmt.models.parsing.ptb import read_mrg

REPO = Path(__file__).resolve().parents[1]
SCRIPT = REPO / "benchmarks" / "gran_gates.py"
sys.path.insert(0, str(REPO / "benchmarks"))
import gran_gates  # noqa: E402


@pytest.fixture(scope="module")
def gran(untrained_encoder) -> Path:
    """A 20-d GRAN (`paranmt train --epochs 0`) with the word vocabulary of 2,000 wmt22 cs-en pairs."""
    return untrained_encoder("gran")


def test_the_gates_are_the_ones_the_embedding_applies(gran):
    encoder = load_encoder(gran)
    sentences = ["The company didn't say how much it paid.", "Shares rose 5 % in U.S. trading"]
    gates = encoder.gates(sentences)
    ids = encoder.featurizer.ids(sentences)
    assert [tuple(g.shape) for g in gates] == [(len(i), 20) for i in ids]
    assert all(((g > 0) & (g < 1)).all() for g in gates)
    with torch.no_grad():
        x = [encoder.embedding(torch.tensor(i)) for i in ids]
    expected = np.stack([(xi * g).mean(0).numpy() for xi, g in zip(x, gates)])
    assert np.allclose(encoder.encode(sentences), expected, atol=1e-5)


def test_words_are_aligned_with_their_units(gran, shared_data):
    tree = read_mrg(shared_data / "treebank" / "ptb-sample" / "wsj_0001.mrg")[0]
    labeled = gran_gates.words_with_labels(tree)
    assert labeled[:3] == [("Pierre", "NNP", "NP"), ("Vinken", "NNP", "NP"), (",", ",", "NP")]
    assert [tag for _, tag, _ in labeled] == tree.tags()
    encoder = load_encoder(gran)
    words = ["It", "does", "n't", "pay", "U.S.", "taxes"]
    norms = gran_gates.word_gate_norms(encoder, [words])[0]
    units = encoder.gates([" ".join(words)])[0].abs().sum(1).numpy()       # it does n ' t pay u . s . taxes
    assert len(units) == 11 and len(norms) == 6
    assert norms[2] == pytest.approx(units[2:5].mean()) and norms[4] == pytest.approx(units[6:10].mean())


def test_the_table_counts_every_kept_word(gran, shared_data):
    treebank = shared_data / "treebank" / "ptb-sample"
    result = warm.run([sys.executable, str(SCRIPT), "--model", str(gran), "--treebank", str(treebank),
                       "--min-count", "1"], capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    kept = [tree for file in sorted(treebank.glob("wsj_*.mrg")) for tree in read_mrg(file)
            if 0 < len(tree.leaves()) <= 15]
    tables, current = [], None
    for line in result.stdout.splitlines():
        if line.startswith("| ") and "mean gate" in line:
            current = {}
            tables.append(current)
        elif line.startswith("| ") and current is not None:
            cells = [c.strip() for c in line.strip("|").split("|")]
            current[cells[0]] = (float(cells[1]), int(cells[2].replace(",", "")))
    pos, labels = tables
    words = sum(len(tree.leaves()) for tree in kept)
    assert sum(count for _, count in pos.values()) == words == sum(count for _, count in labels.values())
    assert result.stdout.startswith(f"{len(kept):,} sentences of at most 15 words, {words:,} words")
    assert {"NN", "DT", "IN"} <= set(pos) and {"NP", "VP", "PP"} <= set(labels)
    assert all(0 < norm < 20 for norm, _ in pos.values())


def test_an_encoder_that_is_not_a_gran_is_one_line(shared_data):
    result = warm.run([sys.executable, str(SCRIPT), "--model", str(REPO / "assets" / "encoder-sp"),
                       "--treebank", str(shared_data / "treebank" / "ptb-sample")],
                      capture_output=True, text=True, timeout=300)
    assert result.returncode == 2 and not result.stdout
    assert result.stderr.splitlines() == [f"gran_gates.py: configuration error: --model {REPO / 'assets'}/encoder-sp "
                                          "is a sp encoder, not gran"]
