"""Negative selection inside a mega-batch (SPEC §3), computed without gradients on the current model.

For anchor i and candidate j of the pool, `forbidden[i, j]` is true when j belongs to i's own pair or its text
equals one of the texts of i's pair (so a duplicate of the pair inside the mega-batch is never its negative), and,
with `siblings=False` (the default), when j belongs to a sibling pair: one that shares a text with i's pair. A
corpus with several translations of one reference (wmt-bt: 5-19 systems' outputs beside each reference) holds
pairs (ref, bt_a), (ref, bt_b): bt_b is a paraphrase of the anchor bt_a, not a negative (with siblings allowed,
43% of the M = 40 negatives of wmt-bt were such translations; benchmarks/megabatch_negatives.py). ParaNMT has one
back-translation per reference, where both rules choose the same negatives.
Strategies over the allowed candidates:
- MAX: argmax_j sim(anchor_i, pool_j) (the hardest negative; sim = cosine, or minus the squared Euclidean distance
  when the objective uses `distance="euclidean"`);
- RAND: uniformly random;
- MIX: MAX with probability 1/2, else RAND (drawn per anchor).
Pools: monolingual mode draws from both sides of the other pairs; bilingual mode draws the negative of a side-1
sentence from side 2 and vice versa ("negatives only from the other language").
"""
from __future__ import annotations

import numpy as np

STRATEGIES = ("max", "mix", "rand")


def normalize_rows(x: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(x, axis=1, keepdims=True)
    return x / np.where(norms > 0, norms, 1.0)


def similarity_matrix(anchors: np.ndarray, pool: np.ndarray, distance: str = "cosine") -> np.ndarray:
    """[n_anchors, n_pool]: cosines, or minus squared Euclidean distances (`distance="euclidean"`)."""
    if distance == "cosine":
        return normalize_rows(anchors) @ normalize_rows(pool).T
    return 2 * anchors @ pool.T - (anchors ** 2).sum(1)[:, None] - (pool ** 2).sum(1)[None, :]


def select_negatives(anchors: np.ndarray, pool: np.ndarray, forbidden: np.ndarray, strategy: str,
                     rng: np.random.Generator, distance: str = "cosine") -> tuple[np.ndarray, np.ndarray]:
    """Index into `pool` of each anchor's negative, and whether it has one (some candidate is allowed)."""
    if strategy not in STRATEGIES:
        raise ValueError(f"unknown negative strategy {strategy!r}; choose one of {', '.join(STRATEGIES)}")
    allowed = ~forbidden
    valid = allowed.any(axis=1)
    hardest = random = None
    if strategy in ("max", "mix"):
        similarity = similarity_matrix(anchors, pool, distance)
        similarity[forbidden] = -np.inf
        hardest = similarity.argmax(axis=1)
    if strategy in ("rand", "mix"):
        keys = rng.random(forbidden.shape)
        keys[forbidden] = -1.0
        random = keys.argmax(axis=1)
    if strategy == "max":
        chosen = hardest
    elif strategy == "rand":
        chosen = random
    else:
        chosen = np.where(rng.random(len(anchors)) < 0.5, hardest, random)
    return chosen, valid


def forbidden_mask(anchor_pair: np.ndarray, anchor_texts: np.ndarray, pool_pair: np.ndarray,
                   pool_text: np.ndarray) -> np.ndarray:
    """[n_anchors, n_pool] bool: candidate j is in anchor i's pair (`pool_pair[j] == anchor_pair[i]`) or its text id
    equals any of anchor i's pair's text ids (`anchor_texts[i]` is a [k] row of text ids)."""
    forbidden = pool_pair[None, :] == anchor_pair[:, None]
    for column in anchor_texts.T:                   # one [n_anchors, n_pool] comparison per text of the pair
        forbidden |= pool_text[None, :] == column[:, None]
    return forbidden


def sibling_pairs(t1: np.ndarray, t2: np.ndarray) -> np.ndarray:
    """[n, n] bool: pairs i and j share a text id (either side of i equals either side of j; i with itself too)."""
    shared = np.zeros((len(t1), len(t1)), dtype=bool)
    for a in (t1, t2):
        for b in (t1, t2):
            shared |= a[:, None] == b[None, :]
    return shared


def _forbidden_pools(text1: list[str], text2: list[str], bilingual: bool,
                     siblings: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """forbidden masks of side-1 and side-2 anchors over their pools: bilingual [n, n] each (pool = the other
    side), monolingual [n, 2n] each (pool = side 1 rows then side 2 rows). Without `siblings`, every row of a pair
    that shares a text with the anchor's pair is forbidden: `sibling_pairs`, which holds the own pair and every
    candidate whose text is one of the pair's, so `forbidden_mask` is needed only with `siblings`."""
    n = len(text1)
    ids: dict[str, int] = {}
    t1 = np.array([ids.setdefault(t, len(ids)) for t in text1])
    t2 = np.array([ids.setdefault(t, len(ids)) for t in text2])
    if not siblings:
        shared = sibling_pairs(t1, t2)
        return (shared, shared) if bilingual else (np.concatenate([shared, shared], axis=1),) * 2
    pair = np.arange(n)
    own_texts = np.stack([t1, t2], axis=1)
    if bilingual:
        return forbidden_mask(pair, own_texts, pair, t2), forbidden_mask(pair, own_texts, pair, t1)
    forbidden = forbidden_mask(pair, own_texts, np.concatenate([pair, pair]), np.concatenate([t1, t2]))
    return forbidden, forbidden


def _sides(index: np.ndarray, n: int, bilingual: bool, anchor_side: int) -> tuple[np.ndarray, np.ndarray]:
    """(side 1|2, row) of pool indices."""
    if bilingual:
        return np.full(index.shape, 3 - anchor_side), index
    return np.where(index < n, 1, 2), index % n


def mine_megabatch(g1: np.ndarray, g2: np.ndarray, text1: list[str], text2: list[str], bilingual: bool,
                   strategy: str, rng: np.random.Generator, distance: str = "cosine", siblings: bool = False):
    """Negatives for every pair of a mega-batch. Returns (n1_side, n1_index, valid1, n2_side, n2_index, valid2):
    the negative of g1[i] is side `n1_side[i]` (1 or 2), row `n1_index[i]`; likewise for g2[i]. `siblings`: pairs
    sharing a text with the anchor's pair may give its negative."""
    n = len(text1)
    forbidden1, forbidden2 = _forbidden_pools(text1, text2, bilingual, siblings)
    pool1, pool2 = (g2, g1) if bilingual else (np.concatenate([g1, g2]),) * 2
    i1, v1 = select_negatives(g1, pool1, forbidden1, strategy, rng, distance)
    i2, v2 = select_negatives(g2, pool2, forbidden2, strategy, rng, distance)
    return (*_sides(i1, n, bilingual, 1), v1, *_sides(i2, n, bilingual, 2), v2)


def mine_noise(text1: list[str], text2: list[str], bilingual: bool, k: int, rng: np.random.Generator,
               siblings: bool = False):
    """BiCVM noise: k random allowed candidates per sentence. Returns (n1_side, n1_index, valid1, n2_side, n2_index,
    valid2), each [n, k]."""
    n = len(text1)
    out = []
    for anchor_side, forbidden in zip((1, 2), _forbidden_pools(text1, text2, bilingual, siblings)):
        keys = rng.random(forbidden.shape)
        keys[forbidden] = -1.0
        take = min(k, forbidden.shape[1])
        index = np.argpartition(-keys, take - 1, axis=1)[:, :take]
        if take < k:
            index = np.concatenate([index, np.repeat(index[:, :1], k - take, axis=1)], axis=1)
        valid = ~np.take_along_axis(forbidden, index, axis=1)
        valid[:, take:] = False
        out += [*_sides(index, n, bilingual, anchor_side), valid]
    return tuple(out)
