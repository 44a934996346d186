"""Pretrained word vectors from a text file (word2vec text or GloVe format) into an encoder's word embeddings.

Format: one `token v_1 ... v_d` per line, separated by single spaces; word2vec's first line `count d` (two
integers) is skipped; d is taken from the first vector line and every line must have it (a token may contain
spaces: the last d fields are the vector). Matching against the encoder's lowercased word vocabulary: a file token
equal to the vocabulary entry wins; otherwise the first file token whose lowercase form equals it
("The" initializes "the" when the file has no "the"). Rows of words the file lacks keep their random
initialization. Only tables over word units (`WordFeaturizer`) are initialized; trigram / n-gram / sentencepiece
tables are left alone.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch
from torch import nn

from paranmt.models.files import require_text


class WordVectorsError(ValueError):
    """A word-vector file that cannot be read or does not fit the encoder."""


@dataclass
class Coverage:
    tables: int          # word-embedding tables initialized
    found: int           # vocabulary rows set from the file (over all tables)
    vocabulary: int      # vocabulary rows in those tables


def read_word_vectors(path: str | Path, wanted: set[str]) -> tuple[dict[str, np.ndarray], int]:
    """Vectors of the tokens in `wanted` (lowercase), matched as the module docstring says, and the file's d. A
    file that is not text (models/files.py `require_text`: binary, compressed) is a DataFileError naming it; a few
    undecodable bytes in a text file are read as U+FFFD."""
    require_text(path, "word-vector file")
    exact: dict[str, np.ndarray] = {}
    folded: dict[str, np.ndarray] = {}
    dim = None
    with open(path, encoding="utf-8", errors="replace") as handle:
        for number, line in enumerate(handle, 1):
            fields = line.rstrip("\n").rstrip(" ").split(" ")
            if number == 1 and len(fields) == 2 and all(f.isdigit() for f in fields):
                continue                                             # word2vec header "count dim"
            if dim is None:
                dim = len(fields) - 1
                if dim < 1:
                    raise WordVectorsError(f"{path}:{number}: expected 'token v1 ... vd', got {line[:60]!r}")
            if len(fields) < dim + 1:
                raise WordVectorsError(f"{path}:{number}: {len(fields) - 1} values, expected {dim}")
            token = " ".join(fields[:-dim])
            key = token.lower()
            if key not in wanted or key in exact or (token != key and key in folded):
                continue
            try:
                vector = np.asarray(fields[-dim:], dtype=np.float32)
            except ValueError:
                raise WordVectorsError(f"{path}:{number}: non-numeric vector values") from None
            (exact if token == key else folded)[key] = vector
    if dim is None:
        raise WordVectorsError(f"{path}: no word vectors")
    return {**folded, **exact}, dim


def initialize_word_embeddings(encoder: nn.Module, path: str | Path) -> Coverage:
    """Copy the file's vectors into every word-unit embedding table of `encoder` (parts of combinations too)."""
    targets = [module for module in encoder.modules()
               if getattr(getattr(module, "featurizer", None), "kind", None) == "word"
               and isinstance(getattr(module, "embedding", None), nn.Embedding)]
    if not targets:
        raise WordVectorsError("the encoder has no word-unit embeddings to initialize (init_embeddings needs a word "
                               "vocabulary: word, add, proj, dan or a recurrent encoder over words)")
    wanted = {token for module in targets for token in module.featurizer.tokens}
    vectors, dim = read_word_vectors(path, wanted)
    found = 0
    for module in targets:
        table = module.embedding.weight
        if table.shape[1] != dim:
            raise WordVectorsError(f"{path} has {dim}-d vectors but the encoder's word embeddings are "
                                   f"{table.shape[1]}-d; set dim to {dim}")
        rows = [(i, vectors[t]) for i, t in enumerate(module.featurizer.tokens) if t in vectors]
        if rows:
            with torch.no_grad():
                table[torch.tensor([i for i, _ in rows])] = torch.from_numpy(np.stack([v for _, v in rows]))
        found += len(rows)
    return Coverage(len(targets), found, sum(len(m.featurizer.tokens) for m in targets))
