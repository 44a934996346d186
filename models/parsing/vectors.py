"""Small word vectors for the parser's pretrain file: truncated SVD of a positive-PMI co-occurrence matrix.

Counts: words are lowercased tokens (stanza looks pretrained vectors up by `word.lower()`); the vocabulary is the
`max_vocab` most frequent words seen at least `min_count` times; #(w, c) counts c within `window` tokens of w
(both sides, weight 1). With context smoothing (Levy, Goldberg & Dagan 2015), alpha = 0.75:
    PMI(w, c) = log( #(w,c) * sum_c' #(c')^alpha / ( #(w) * #(c)^alpha ) ),   PPMI = max(PMI, 0)
(#(w) = sum_c #(w,c), #(c) = sum_w #(w,c)). With the rank-`dim` truncated SVD PPMI ~ U S V^T the vectors are
rows of U * sqrt(S) (symmetric weighting), scaled so that the mean row norm is 1.
"""
from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Iterable

import numpy as np
import torch


def ppmi_svd_vectors(sentences: Iterable[list[str]], dim: int = 50, max_vocab: int = 20000, min_count: int = 2,
                     window: int = 2, alpha: float = 0.75, seed: int = 1) -> tuple[list[str], np.ndarray]:
    """(words, vectors[len(words), dim]) from tokenized sentences (see the module docstring for the formula)."""
    corpus = [[token.lower() for token in sentence] for sentence in sentences]
    frequencies = Counter(token for sentence in corpus for token in sentence)
    words = [w for w, n in frequencies.most_common(max_vocab) if n >= min_count]
    if len(words) <= dim:
        raise ValueError(f"only {len(words)} words with count >= {min_count}; need more than dim={dim}")
    index = {w: i for i, w in enumerate(words)}
    pairs: Counter = Counter()
    for sentence in corpus:
        ids = [index.get(token, -1) for token in sentence]
        for position, word_id in enumerate(ids):
            if word_id < 0:
                continue
            for other in ids[max(0, position - window):position] + ids[position + 1:position + 1 + window]:
                if other >= 0:
                    pairs[(word_id, other)] += 1
    rows = np.fromiter((p[0] for p in pairs), dtype=np.int64, count=len(pairs))
    cols = np.fromiter((p[1] for p in pairs), dtype=np.int64, count=len(pairs))
    counts = np.fromiter(pairs.values(), dtype=np.float64, count=len(pairs))
    word_totals = np.bincount(rows, weights=counts, minlength=len(words))
    context_smoothed = np.bincount(cols, weights=counts, minlength=len(words)) ** alpha
    pmi = np.log(counts * context_smoothed.sum() / (word_totals[rows] * context_smoothed[cols]))
    keep = pmi > 0
    matrix = torch.sparse_coo_tensor(np.vstack([rows[keep], cols[keep]]), torch.tensor(pmi[keep], dtype=torch.float32),
                                     size=(len(words), len(words)), check_invariants=True).coalesce()
    torch.manual_seed(seed)
    u, s, _ = torch.svd_lowrank(matrix, q=dim + 10, niter=6)
    vectors = (u[:, :dim] * s[:dim].sqrt()).numpy()
    vectors /= np.linalg.norm(vectors, axis=1).mean()
    return words, vectors.astype(np.float32)


def write_text_vectors(words: list[str], vectors: np.ndarray, path: str | Path) -> None:
    """word2vec text format: a `count dim` header, then `word v1 ... vdim` per line."""
    with open(path, "w", encoding="utf-8") as out:
        out.write(f"{len(words)} {vectors.shape[1]}\n")
        for word, vector in zip(words, vectors):
            out.write(word + " " + " ".join(f"{x:.5f}" for x in vector) + "\n")
