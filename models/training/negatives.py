"""Negative selection inside a mega-batch (SPEC §3), computed without gradients on the current model.

For anchor i and candidate j of the pool, `forbidden[i, j]` is true when j belongs to i's own pair or its text
equals one of the texts of i's pair (so a duplicate of the pair inside the mega-batch is never its negative).
Strategies over the allowed candidates:
- MAX: argmax_j cos(anchor_i, pool_j) (the hardest negative);
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


def select_negatives(anchors: np.ndarray, pool: np.ndarray, forbidden: np.ndarray, strategy: str,
                     rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Index into `pool` of each anchor's negative, and whether it has one (some candidate is allowed)."""
    if strategy not in STRATEGIES:
        raise ValueError(f"unknown negative strategy {strategy!r}; choose one of {', '.join(STRATEGIES)}")
    allowed = ~forbidden
    valid = allowed.any(axis=1)
    hardest = random = None
    if strategy in ("max", "mix"):
        similarity = normalize_rows(anchors) @ normalize_rows(pool).T
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
    same_pair = pool_pair[None, :] == anchor_pair[:, None]
    same_text = (pool_text[None, :, None] == anchor_texts[:, None, :]).any(axis=2)
    return same_pair | same_text


def mine_megabatch(g1: np.ndarray, g2: np.ndarray, text1: list[str], text2: list[str], bilingual: bool,
                   strategy: str, rng: np.random.Generator):
    """Negatives for every pair of a mega-batch. Returns (n1_side, n1_index, valid1, n2_side, n2_index, valid2):
    the negative of g1[i] is side `n1_side[i]` (1 or 2), row `n1_index[i]`; likewise for g2[i]."""
    n = len(text1)
    ids: dict[str, int] = {}
    t1 = np.array([ids.setdefault(t, len(ids)) for t in text1])
    t2 = np.array([ids.setdefault(t, len(ids)) for t in text2])
    pair = np.arange(n)
    own_texts = np.stack([t1, t2], axis=1)
    if bilingual:
        forbidden_for_1 = forbidden_mask(pair, own_texts, pair, t2)
        forbidden_for_2 = forbidden_mask(pair, own_texts, pair, t1)
        i1, v1 = select_negatives(g1, g2, forbidden_for_1, strategy, rng)
        i2, v2 = select_negatives(g2, g1, forbidden_for_2, strategy, rng)
        return np.full(n, 2), i1, v1, np.full(n, 1), i2, v2
    pool = np.concatenate([g1, g2])
    forbidden = forbidden_mask(pair, own_texts, np.concatenate([pair, pair]), np.concatenate([t1, t2]))
    i1, v1 = select_negatives(g1, pool, forbidden, strategy, rng)
    i2, v2 = select_negatives(g2, pool, forbidden, strategy, rng)
    side = lambda idx: np.where(idx < n, 1, 2)  # noqa: E731 - pool = side 1 rows then side 2 rows
    return side(i1), i1 % n, v1, side(i2), i2 % n, v2
