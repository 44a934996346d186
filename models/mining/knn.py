"""k nearest neighbours by cosine (inner product of L2-normalized rows) with faiss, memory bounded.

- `exact`: the queries are searched in blocks of `block_size` rows against the base in blocks of `block_size`
  rows (`faiss.knn`, inner product); the per-block top-k lists are merged in a `faiss.ResultHeap`. Memory is
  O(block_size * (dim + k)) whatever the corpus sizes, so the vectors may be disk-backed `np.memmap` arrays.
- `ivf`: an approximate inverted-file index (`IndexIVFFlat`, inner product) with `nlist` = 4 * sqrt(n_base)
  lists (at least 1), trained on at most 256 vectors per list sampled evenly from the base, filled and searched
  in blocks, `nprobe` lists visited per query. The index holds the base vectors (n_base * dim * 4 bytes).
- `auto`: `exact` when n_query * n_base <= `approx_above`, else `ivf` (the size was measured, docs/mining.md).

Every search returns `(sims [n_query, k], ids [n_query, k])`, best first; k is clamped to the base size.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

INDEXES = ("auto", "exact", "ivf")


@dataclass
class SearchConfig:
    """How neighbours are searched (see the module docstring)."""
    index: str = "auto"
    block_size: int = 65_536          # rows of queries / base per block
    approx_above: float = 4e10        # `auto` switches to ivf above n_query * n_base = this (200k x 200k)
    nprobe: int = 16                  # ivf: inverted lists visited per query
    threads: int = 1                  # faiss OpenMP threads

    def __post_init__(self):
        if self.index not in INDEXES:
            raise ValueError(f"index must be one of {', '.join(INDEXES)}, not {self.index!r}")
        if self.block_size < 1 or self.nprobe < 1:
            raise ValueError("block_size and nprobe must be >= 1")

    def resolve(self, n_query: int, n_base: int) -> str:
        """The index kind actually used for these sizes."""
        if self.index != "auto":
            return self.index
        return "ivf" if n_query * n_base > self.approx_above else "exact"


def knn(queries: np.ndarray, base: np.ndarray, k: int, config: SearchConfig | None = None
        ) -> tuple[np.ndarray, np.ndarray]:
    """The k most similar base rows (inner product) of every query row, best first."""
    import faiss

    config = config or SearchConfig()
    faiss.omp_set_num_threads(config.threads)
    k = min(k, len(base))
    if k == 0 or len(queries) == 0:
        return np.zeros((len(queries), k), np.float32), np.zeros((len(queries), k), np.int64)
    if config.resolve(len(queries), len(base)) == "ivf":
        return _ivf_knn(queries, base, k, config)
    return _exact_knn(queries, base, k, config.block_size)


def _rows(array: np.ndarray, start: int, stop: int) -> np.ndarray:
    return np.ascontiguousarray(array[start:stop], dtype=np.float32)


def _exact_knn(queries: np.ndarray, base: np.ndarray, k: int, block: int) -> tuple[np.ndarray, np.ndarray]:
    import faiss

    sims = np.empty((len(queries), k), np.float32)
    ids = np.empty((len(queries), k), np.int64)
    for q0 in range(0, len(queries), block):
        q = _rows(queries, q0, q0 + block)
        heap = faiss.ResultHeap(len(q), k, keep_max=True)
        for b0 in range(0, len(base), block):
            d, i = faiss.knn(q, _rows(base, b0, b0 + block), k, metric=faiss.METRIC_INNER_PRODUCT)
            heap.add_result(d, np.where(i >= 0, i + b0, -1))
        heap.finalize()
        sims[q0:q0 + len(q)], ids[q0:q0 + len(q)] = heap.D, heap.I
    return sims, ids


def ivf_lists(n_base: int) -> int:
    """Number of inverted lists for a base of n_base vectors: 4 * sqrt(n), at least 1, at most n / 39 (faiss
    wants >= 39 training points per list)."""
    return max(1, min(int(4 * math.sqrt(n_base)), n_base // 39))


def _ivf_knn(queries: np.ndarray, base: np.ndarray, k: int, config: SearchConfig) -> tuple[np.ndarray, np.ndarray]:
    import faiss

    dim = base.shape[1]
    nlist = ivf_lists(len(base))
    quantizer = faiss.IndexFlatIP(dim)
    index = faiss.IndexIVFFlat(quantizer, dim, nlist, faiss.METRIC_INNER_PRODUCT)
    sample = np.linspace(0, len(base) - 1, min(len(base), 256 * nlist)).astype(np.int64)
    index.train(np.ascontiguousarray(base[sample], dtype=np.float32))
    for b0 in range(0, len(base), config.block_size):
        index.add(_rows(base, b0, b0 + config.block_size))
    index.nprobe = min(config.nprobe, nlist)
    sims = np.empty((len(queries), k), np.float32)
    ids = np.empty((len(queries), k), np.int64)
    for q0 in range(0, len(queries), config.block_size):
        q = _rows(queries, q0, q0 + config.block_size)
        sims[q0:q0 + len(q)], ids[q0:q0 + len(q)] = index.search(q, k)
    return sims, ids


def recall_at_k(approx_ids: np.ndarray, exact_ids: np.ndarray) -> float:
    """Share of the exact top-k neighbours that the approximate search also returned (mean over queries)."""
    if approx_ids.size == 0:
        return 1.0
    hits = sum(len(set(a) & set(e)) for a, e in zip(approx_ids.tolist(), exact_ids.tolist()))
    return hits / exact_ids.size
