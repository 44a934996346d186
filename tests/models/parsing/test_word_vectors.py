"""PPMI-SVD vectors on real text (the PTB sample's words): shapes, the text format, and that distributionally
similar words end up close."""
import numpy as np

from paranmt.models.parsing.ptb import read_mrg
from paranmt.models.parsing.vectors import ppmi_svd_vectors, write_text_vectors


def test_vectors_from_ptb_words(shared_data, tmp_path):
    files = sorted((shared_data / "treebank" / "ptb-sample").glob("wsj_00*.mrg"))
    sentences = [tree.leaves() for path in files for tree in read_mrg(path)]
    words, vectors = ppmi_svd_vectors(sentences, dim=20, max_vocab=3000, min_count=3)
    assert vectors.shape == (len(words), 20) and len(words) <= 3000
    assert words[0] in ("the", ",") and all(w == w.lower() for w in words)
    unit = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
    index = {w: i for i, w in enumerate(words)}

    def similarity(a, b):
        return float(unit[index[a]] @ unit[index[b]])

    assert similarity("million", "billion") > similarity("million", "said")
    write_text_vectors(words, vectors, tmp_path / "v.txt")
    lines = (tmp_path / "v.txt").read_text().splitlines()
    assert lines[0] == f"{len(words)} 20" and len(lines[1].split()) == 21
