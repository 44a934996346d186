"""Initial embedding tables of an encoder (`init_embeddings`): from a saved encoder directory or from a word-vector
text file (word2vec text or GloVe format).

Every embedding table of an encoder reads the units of one featurizer (models/encoders/featurizers.py), whose `kind`
is the table's unit kind: word, trigram, charngram (both CHARAGRAM kinds) or sp; each row is a unit string (a
vocabulary entry, or a sentencepiece piece such as "▁the"). A table's rows are matched to the source's by that
string; rows of units the source lacks keep their random initialization. Only embedding tables are initialized
(composition parameters: projections, LSTM, gates, keep theirs), and the vocabulary still comes from the training
data or `sp_model`.

- Encoder directory (what `paranmt train` writes, e.g. assets/encoder-sp; `load_encoder`): each table whose unit
  kind a table of the source has takes, for every unit, the source row of the same string (exact match): with the
  source's own sentencepiece model the new sp table equals the source's; with another model the shared pieces are
  copied. The i-th table of a unit kind in the encoder (`word+lstm` has two word tables) takes the source's i-th of
  that kind, or its first when the source has fewer. The source's other unit kinds are not used; an encoder with
  no unit kind of the source is an error.
- Text file: one `token v_1 ... v_d` per line, separated by single spaces; word2vec's first line `count d` (two
  integers) is skipped; d is taken from the first vector line and every line must have it (a token may contain
  spaces: the last d fields are the vector). Its tokens are words, matched against the encoder's word tables; an
  encoder without word tables matches them against its sentencepiece tables instead (a file keyed by pieces).
  A file token equal to the unit wins; otherwise the first file token whose lowercase form equals it ("The"
  initializes "the" when the file has no "the"). A line that is not UTF-8 is left out (models/encoding.py
  `LineRejects`; a warning names the file and the first such line), never read as a token of U+FFFD characters.
"""
from __future__ import annotations

import logging
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch
from torch import nn

from paranmt.models.encoding import LineRejects
from paranmt.models.files import require_text


log = logging.getLogger(__name__)


class WordVectorsError(ValueError):
    """A word-vector file or encoder directory that cannot be read or does not fit the encoder."""


@dataclass
class Coverage:
    tables: int          # embedding tables initialized
    found: int           # vocabulary rows set from the source (over all tables)
    vocabulary: int      # vocabulary rows in those tables
    units: list[str]     # their unit kinds (word, trigram, charngram, sp)


def read_word_vectors(path: str | Path, wanted: set[str]) -> tuple[dict[str, np.ndarray], int]:
    """Vectors of the tokens in `wanted`, matched as the module docstring says, and the file's d. A file that is
    not text (models/files.py `require_text`: binary, compressed) is a DataFileError naming it; a line that is not
    UTF-8 in a text file is left out, with a warning."""
    require_text(path, "word-vector file")
    exact: dict[str, np.ndarray] = {}
    folded: dict[str, np.ndarray] = {}
    dim = None
    rejects = LineRejects()
    for number, line in enumerate(rejects.lines(path), 1):
        if line is None:
            continue
        fields = line.rstrip(" ").split(" ")
        if number == 1 and len(fields) == 2 and all(f.isdigit() for f in fields):
            continue                                             # word2vec header "count dim"
        if dim is None:
            dim = len(fields) - 1
            if dim < 1:
                raise WordVectorsError(f"{path}:{number}: expected 'token v1 ... vd', got {line[:60]!r}")
        if len(fields) < dim + 1:
            raise WordVectorsError(f"{path}:{number}: {len(fields) - 1} values, expected {dim}")
        token = " ".join(fields[:-dim])
        if token in wanted:
            key, found = token, exact
        else:
            key, found = token.lower(), folded
        if key not in wanted or key in exact or key in found:
            continue
        try:
            vector = np.asarray(fields[-dim:], dtype=np.float32)
        except ValueError:
            raise WordVectorsError(f"{path}:{number}: non-numeric vector values") from None
        found[key] = vector
    for advice in rejects.advice():
        log.warning("word-vector file: %s", advice)
    if dim is None:
        raise WordVectorsError(f"{path}: no word vectors")
    return {**folded, **exact}, dim


def embedding_tables(encoder: nn.Module) -> list[nn.Module]:
    """The modules of `encoder` (itself, or the parts of a combination) that embed one featurizer's units."""
    return [module for module in encoder.modules()
            if getattr(module, "featurizer", None) is not None
            and isinstance(getattr(module, "embedding", None), nn.Embedding)]


def initialize_embeddings(encoder: nn.Module, source: str | Path) -> Coverage:
    """Copy the rows of `source` (an encoder directory or a word-vector text file, module docstring) into the
    embedding tables of `encoder` they match."""
    tables = embedding_tables(encoder)
    pairs = _from_encoder(tables, source) if Path(source).is_dir() else _from_text(tables, source)
    found = 0
    for module, (vectors, dim, what) in pairs:
        table = module.embedding.weight
        if table.shape[1] != dim:
            raise WordVectorsError(f"{source} has {dim}-d {what} but the encoder's {module.featurizer.kind} "
                                   f"embeddings are {table.shape[1]}-d; set dim to {dim}")
        rows = [(i, vectors[t]) for i, t in enumerate(module.featurizer.tokens) if t in vectors]
        if rows:
            with torch.no_grad():
                table[torch.tensor([i for i, _ in rows])] = torch.from_numpy(np.stack([v for _, v in rows]))
        found += len(rows)
    targets = [module for module, _ in pairs]
    return Coverage(len(targets), found, sum(len(m.featurizer.tokens) for m in targets),
                    sorted({m.featurizer.kind for m in targets}))


def _from_text(tables: list[nn.Module], path: str | Path) -> list[tuple[nn.Module, tuple]]:
    """(table, (vectors, d, "vectors")) of the tables a text file initializes: the word tables, else the sp ones."""
    targets = ([m for m in tables if m.featurizer.kind == "word"]
               or [m for m in tables if m.featurizer.kind == "sp"])
    if not targets:
        raise WordVectorsError("the encoder has no word- or sentencepiece-unit embeddings to initialize from a text "
                               "file (a word2vec/GloVe file initializes word, add, proj, dan or a recurrent encoder "
                               "over words, or over sp pieces when keyed by pieces; init_embeddings can also be an "
                               "encoder directory with the encoder's units)")
    vectors, dim = read_word_vectors(path, {token for module in targets for token in module.featurizer.tokens})
    return [(module, (vectors, dim, "vectors")) for module in targets]


def _from_encoder(tables: list[nn.Module], directory: str | Path) -> list[tuple[nn.Module, tuple]]:
    """(table, ({unit: row}, d, "<kind> embeddings")) of the tables the encoder at `directory` initializes (the
    i-th table of a unit kind from the source's i-th of that kind, else its first)."""
    from paranmt.models.encoders import EncoderError, load_encoder

    try:
        source = load_encoder(directory)
    except EncoderError as error:
        raise WordVectorsError(f"init_embeddings: {error}") from None
    by_kind: dict[str, list[nn.Module]] = defaultdict(list)
    for module in embedding_tables(source):
        by_kind[module.featurizer.kind].append(module)
    seen: dict[str, int] = defaultdict(int)
    pairs = []
    for module in tables:
        kind = module.featurizer.kind
        if kind in by_kind:
            parts = by_kind[kind]
            origin = parts[seen[kind]] if seen[kind] < len(parts) else parts[0]
            seen[kind] += 1
            weight = origin.embedding.weight.detach().cpu().numpy()
            pairs.append((module, (dict(zip(origin.featurizer.tokens, weight)), weight.shape[1],
                                   f"{kind} embeddings")))
    if not pairs:
        mine = sorted({m.featurizer.kind for m in tables}) or ["none"]
        raise WordVectorsError(f"{directory} has no embeddings over the encoder's units ({', '.join(mine)}); "
                               f"it has {', '.join(sorted(by_kind)) or 'no embedding tables'}")
    return pairs
