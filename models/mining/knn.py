"""k nearest neighbours by cosine (inner product of L2-normalized rows) with faiss, memory bounded.

- `exact`: the queries are searched in blocks of `block_size` rows against the base in blocks of `block_size`
  rows (`faiss.knn`, inner product); the per-block top-k lists are merged in a `faiss.ResultHeap`. Memory is
  O(block_size * (dim + k)) whatever the corpus sizes, so the vectors may be disk-backed `np.memmap` arrays.
- `hnsw`: an approximate graph index (`IndexHNSWFlat`, inner product, `hnsw_m` links per node, built with
  efConstruction 80, searched with `ef_search`), filled and searched in blocks. The index holds the base vectors
  plus the graph (n_base * (dim * 4 + hnsw_m * 8) bytes). HNSW rather than IVF: on the bilingual encoder's
  (assets/encoder-xling) real embeddings IVF-Flat reached only 0.67-0.83 recall@4 at nprobe 16-64 (mean-of-pieces
  vectors are weakly clustered) and its scan was slower than the BLAS exact search; HNSW reached 0.95-0.99 on them (benchmarks/RESULTS.md, "Mining (issue 14)").
- `auto`: `exact` when n_query * n_base <= `approx_above`, else `hnsw` (the crossover was measured, docs/mining.md).

Every search returns `(sims [n_query, k], ids [n_query, k])`, best first; k is clamped to the base size.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from paranmt.schemas.config import Config, bounded, check_ranges, choice

INDEXES = ("auto", "exact", "hnsw")


@dataclass
class SearchConfig(Config):
    """How neighbours are searched (see the module docstring); a typed config, the base of the mining commands'
    settings (models/mining/settings.py MiningSettings)."""
    index: str = choice("auto", INDEXES, help="k-NN search: exact (blocked), hnsw (approximate), auto (exact up to "
                        "4e9 = ~63k x 63k sentence pairs, hnsw above)")
    block_size: int = bounded(65_536, 1, help="sentences per encode/search block")
    approx_above: float = bounded(4e9, 0, help="index auto: hnsw above this many query x base sentence pairs")
    ef_search: int = bounded(64, 1, help="hnsw: search candidate list size")
    hnsw_m: int = bounded(16, 2, help="hnsw: links per node")
    threads: int = bounded(1, 1, help="torch and faiss threads")

    def validate(self) -> "SearchConfig":
        """ConfigError (a ValueError) naming the key of a value out of its range or choices."""
        check_ranges(self)
        return self

    def resolve(self, n_query: int, n_base: int) -> str:
        """The index kind actually used for these sizes."""
        if self.index != "auto":
            return self.index
        return "hnsw" if n_query * n_base > self.approx_above else "exact"


def knn(queries: np.ndarray, base: np.ndarray, k: int, config: SearchConfig | None = None
        ) -> tuple[np.ndarray, np.ndarray]:
    """The k most similar base rows (inner product) of every query row, best first."""
    import faiss

    config = (config or SearchConfig()).validate()
    faiss.omp_set_num_threads(config.threads)
    k = min(k, len(base))
    if k == 0 or len(queries) == 0:
        return np.zeros((len(queries), k), np.float32), np.zeros((len(queries), k), np.int64)
    if config.resolve(len(queries), len(base)) == "hnsw":
        return _hnsw_knn(queries, base, k, config)
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


def _hnsw_knn(queries: np.ndarray, base: np.ndarray, k: int, config: SearchConfig
              ) -> tuple[np.ndarray, np.ndarray]:
    import faiss

    index = faiss.IndexHNSWFlat(base.shape[1], config.hnsw_m, faiss.METRIC_INNER_PRODUCT)
    index.hnsw.efConstruction = 80
    for b0 in range(0, len(base), config.block_size):
        index.add(_rows(base, b0, b0 + config.block_size))
    index.hnsw.efSearch = max(config.ef_search, k)
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
