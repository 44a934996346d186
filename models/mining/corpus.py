"""A monolingual corpus encoded for mining: distinct sentences on disk, their unit-length vectors in a memmap.

`encode_corpus` streams sentences (any iterable), so memory stays bounded by one block of `block_size`
sentences plus a 16-byte hash and an 8-byte offset per distinct sentence:
- a sentence is stripped of surrounding whitespace and its tabs become spaces (mined.tsv stays one pair a line);
  empty sentences and repeats of an earlier sentence (same text) are counted and skipped, so every distinct
  sentence is mined once;
- distinct sentences go to `<name>.txt` (one a line) with their byte offsets kept, vectors to `<name>.f32`
  (float32, row-major), each row divided by its L2 norm (inner product = cosine; a zero vector stays zero).
"""
from __future__ import annotations

import hashlib
from array import array
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np


def normalize_rows(vectors: np.ndarray) -> np.ndarray:
    """Rows divided by their L2 norm (zero rows stay zero), float32."""
    vectors = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors / np.where(norms > 0, norms, 1.0)


@dataclass
class EncodedCorpus:
    text_file: Path
    offsets: np.ndarray                 # int64 byte offset of each distinct sentence in text_file
    vectors: np.ndarray                 # float32 [n, dim] memmap, unit rows
    counts: dict = field(default_factory=dict)   # read / empty / duplicate / kept

    def __len__(self) -> int:
        return len(self.offsets)

    def texts(self, indices) -> list[str]:
        """The sentences at `indices` (any order), read back from disk."""
        out = []
        with open(self.text_file, "rb") as handle:
            for i in np.asarray(indices, dtype=np.int64).tolist():
                handle.seek(int(self.offsets[i]))
                out.append(handle.readline().rstrip(b"\n").decode("utf-8"))
        return out


def encode_corpus(sentences: Iterable[str], encode: Callable[[list[str]], np.ndarray], dim: int,
                  directory: str | Path, name: str, block_size: int = 65_536) -> EncodedCorpus:
    """Encode the distinct non-empty `sentences` in blocks into `directory/<name>.{txt,f32}` (see module doc)."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    text_file, vector_file = directory / f"{name}.txt", directory / f"{name}.f32"
    seen: set[bytes] = set()
    offsets = array("q")
    counts = {"read": 0, "empty": 0, "duplicate": 0, "kept": 0}
    block: list[str] = []
    with open(text_file, "wb") as texts, open(vector_file, "wb") as vectors:
        def flush():
            if block:
                encoded = normalize_rows(encode(block))
                if encoded.shape != (len(block), dim):
                    raise ValueError(f"encoder returned {encoded.shape}, expected {(len(block), dim)}")
                vectors.write(encoded.tobytes())
                block.clear()

        for sentence in sentences:
            counts["read"] += 1
            sentence = sentence.replace("\t", " ").strip()
            if not sentence:
                counts["empty"] += 1
                continue
            data = sentence.encode("utf-8")
            digest = hashlib.blake2b(data, digest_size=16).digest()
            if digest in seen:
                counts["duplicate"] += 1
                continue
            seen.add(digest)
            offsets.append(texts.tell())
            texts.write(data + b"\n")
            block.append(sentence)
            if len(block) >= block_size:
                flush()
        flush()
    counts["kept"] = len(offsets)
    n = len(offsets)
    matrix = (np.memmap(vector_file, dtype=np.float32, mode="r", shape=(n, dim)) if n
              else np.zeros((0, dim), np.float32))
    return EncodedCorpus(text_file, np.frombuffer(offsets, dtype=np.int64).copy(), matrix, counts)
