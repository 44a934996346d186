"""Margin-based bitext mining (Artetxe & Schwenk 2019, ratio margin; SPEC §6).

For L2-normalized source vectors x and target vectors y (cos = inner product) and k neighbours,

    margin(x, y) = cos(x, y) / ( sum_{z in NN_k(x)} cos(x, z) / 2k  +  sum_{z in NN_k(y)} cos(y, z) / 2k )

where NN_k(x) are the k nearest targets of x and NN_k(y) the k nearest sources of y (k is clamped to the size of
the other side; a neighbour an approximate index could not return is left out of its mean). The candidates of
a source are its k nearest targets, those of a target its k nearest sources; the strategies
(A&S 2019 §3.2, as in LASER's mine_bitexts.py):

- `forward`: every source with its best-margin candidate target (a target may be used several times);
- `backward`: every target with its best-margin candidate source;
- `intersection`: the forward pairs that are also backward pairs (mutual best);
- `max`: forward and backward pairs together, taken best margin first, a pair kept only if neither its source
  nor its target is already used (one-to-one).

Pairs whose margin is below `threshold` are dropped; the result is sorted by margin, best first.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from paranmt.models.mining.knn import SearchConfig, knn

STRATEGIES = ("forward", "backward", "intersection", "max")


@dataclass
class MinedPairs:
    """Mined pairs as parallel arrays (indices into the source / target vectors), best margin first."""
    source: np.ndarray    # int64 [n]
    target: np.ndarray    # int64 [n]
    margin: np.ndarray    # float32 [n]
    cos: np.ndarray       # float32 [n]

    def __len__(self) -> int:
        return len(self.source)

    def at_least(self, threshold: float) -> "MinedPairs":
        """The pairs with margin >= threshold (still best first)."""
        keep = self.margin >= threshold
        return MinedPairs(self.source[keep], self.target[keep], self.margin[keep], self.cos[keep])


def neighbour_means(sims: np.ndarray, ids: np.ndarray) -> np.ndarray:
    """Mean cosine of each row's k neighbours (entries with id -1, i.e. not found, left out; NaN if none)."""
    valid = ids >= 0
    counts = valid.sum(axis=1)
    totals = np.where(valid, sims, 0.0).sum(axis=1, dtype=np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(counts > 0, totals / np.maximum(counts, 1), np.nan)


def candidate_margins(sims: np.ndarray, ids: np.ndarray, own_means: np.ndarray,
                      other_means: np.ndarray) -> np.ndarray:
    """Ratio margin of each (row, neighbour) candidate: cos / ((mean_own + mean_other) / 2); -inf for a missing
    neighbour."""
    safe = np.where(ids >= 0, ids, 0)
    denominator = (own_means[:, None] + other_means[safe]) / 2.0
    with np.errstate(invalid="ignore", divide="ignore"):
        margins = sims / denominator
    return np.where((ids >= 0) & np.isfinite(margins), margins, -np.inf)


def margins_from_neighbours(x2y: tuple[np.ndarray, np.ndarray], y2x: tuple[np.ndarray, np.ndarray]
                            ) -> tuple[np.ndarray, np.ndarray]:
    """(forward margins [n_x, k], backward margins [n_y, k]) of the candidates, from both k-NN results."""
    x_means, y_means = neighbour_means(*x2y), neighbour_means(*y2x)
    return (candidate_margins(*x2y, x_means, y_means), candidate_margins(*y2x, y_means, x_means))


def select(x2y: tuple[np.ndarray, np.ndarray], y2x: tuple[np.ndarray, np.ndarray], strategy: str = "max",
           threshold: float = -np.inf) -> MinedPairs:
    """Pairs chosen by `strategy` from the two k-NN results, margin >= threshold, best first."""
    if strategy not in STRATEGIES:
        raise ValueError(f"strategy must be one of {', '.join(STRATEGIES)}, not {strategy!r}")
    forward, backward = margins_from_neighbours(x2y, y2x)
    n_x, n_y = len(forward), len(backward)
    if forward.shape[1] == 0 or backward.shape[1] == 0:
        empty = np.zeros(0, np.int64)
        return MinedPairs(empty, empty, np.zeros(0, np.float32), np.zeros(0, np.float32))
    f_col, b_col = forward.argmax(axis=1), backward.argmax(axis=1)
    f_rows, b_rows = np.arange(n_x), np.arange(n_y)
    f_best, b_best = x2y[1][f_rows, f_col], y2x[1][b_rows, b_col]
    f_score, b_score = forward[f_rows, f_col], backward[b_rows, b_col]
    f_cos, b_cos = x2y[0][f_rows, f_col], y2x[0][b_rows, b_col]
    if strategy == "forward":
        src, trg, score, cos = f_rows, f_best, f_score, f_cos
    elif strategy == "backward":
        src, trg, score, cos = b_best, b_rows, b_score, b_cos
    elif strategy == "intersection":
        mutual = (f_best >= 0) & (b_best[np.where(f_best >= 0, f_best, 0)] == f_rows)
        src, trg, score, cos = f_rows[mutual], f_best[mutual], f_score[mutual], f_cos[mutual]
    else:
        src, trg, score, cos = _one_to_one(np.concatenate([f_rows, b_best]), np.concatenate([f_best, b_rows]),
                                           np.concatenate([f_score, b_score]), np.concatenate([f_cos, b_cos]))
    keep = np.isfinite(score) & (score >= threshold) & (src >= 0) & (trg >= 0)
    src, trg, score, cos = src[keep], trg[keep], score[keep], cos[keep]
    order = np.lexsort((trg, src, -score))
    return MinedPairs(src[order].astype(np.int64), trg[order].astype(np.int64),
                      score[order].astype(np.float32), cos[order].astype(np.float32))


def _one_to_one(src, trg, score, cos):
    """Greedy: best score first, keep a pair only if its source and target are both unused."""
    order = np.lexsort((trg, src, -score))
    used_src, used_trg, keep = set(), set(), []
    for i in order.tolist():
        s, t = int(src[i]), int(trg[i])
        if s in used_src or t in used_trg:
            continue
        used_src.add(s)
        used_trg.add(t)
        keep.append(i)
    keep = np.asarray(keep, dtype=np.int64)
    return src[keep], trg[keep], score[keep], cos[keep]


def mine_vectors(x: np.ndarray, y: np.ndarray, k: int = 4, strategy: str = "max", threshold: float = -np.inf,
                 search: SearchConfig | None = None) -> MinedPairs:
    """Mine pairs between L2-normalized source rows `x` and target rows `y` (arrays or memmaps)."""
    search = search or SearchConfig()
    return select(knn(x, y, k, search), knn(y, x, k, search), strategy, threshold)
