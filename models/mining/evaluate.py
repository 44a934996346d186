"""Cross-lingual evaluation of an encoder on a bitext (`paranmt eval-xling`).

(a) Retrieval P@1: every source sentence against all target sentences (and the reverse); a hit when the top
    target (by cosine, or by the ratio margin of `margin.py` = forward-strategy best candidate) has the gold
    target's text (so a repeated sentence counts as found wherever it is).
(b) BUCC-style mining: from the bitext's pairs (those whose two sides are both non-empty and unique in it), a
    random `gold_fraction` keep both sides (the gold pairs); the other pairs are split in two halves, one giving
    only its source sentence, the other only its target sentence (distractors without a translation on the other
    side; extra distractor sentences may be added). Both sides are shuffled, mined with `mine_vectors` and
    compared with the gold pairs:
        precision = |mined & gold| / |mined|,  recall = |mined & gold| / |gold|,  F1 = 2PR / (P + R)
    at a given threshold, and at the threshold that maximizes F1 over all candidate margins ("best").
"""
from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from paranmt.models.evaluation.tables import write_result_file
from paranmt.models.mining.corpus import normalize_rows
from paranmt.models.mining.knn import SearchConfig, knn
from paranmt.models.mining.margin import MinedPairs, mine_vectors
from paranmt.models.mining.settings import AUTO, choose_pairs


@dataclass
class MiningTask:
    source: list[str]
    target: list[str]
    gold: set[tuple[int, int]]      # (source index, target index)


def retrieval_p_at_1(x: np.ndarray, y: np.ndarray, x_texts: list[str], y_texts: list[str], k: int = 4,
                     search: SearchConfig | None = None, languages: tuple[str, str] = ("cs", "en")
                     ) -> dict[str, float]:
    """P@1 of line-aligned unit vectors x[i] (in languages[0]) <-> y[i] (in languages[1]): for cs, en
    {'cs->en cosine', 'cs->en margin', 'en->cs cosine', 'en->cs margin'}."""
    search = search or SearchConfig()
    x_texts, y_texts = np.asarray(x_texts, dtype=object), np.asarray(y_texts, dtype=object)
    source, target = languages
    results = {}
    for name, queries, base, gold, found_texts in ((f"{source}->{target}", x, y, y_texts, y_texts),
                                                   (f"{target}->{source}", y, x, x_texts, x_texts)):
        top = knn(queries, base, 1, search)[1][:, 0]
        results[f"{name} cosine"] = float(np.mean(found_texts[top] == gold))
        forward = mine_vectors(queries, base, k, "forward", search=search)
        best = np.full(len(queries), -1, np.int64)
        best[forward.source] = forward.target
        results[f"{name} margin"] = float(np.mean((best >= 0) & (found_texts[np.maximum(best, 0)] == gold)))
    return results


def make_mining_task(sources: list[str], targets: list[str], gold_fraction: float = 0.2, seed: int = 1,
                     extra_sources: list[str] = (), extra_targets: list[str] = ()) -> MiningTask:
    """The BUCC-style task of the module docstring (deterministic for a seed)."""
    if len(sources) != len(targets):
        raise ValueError(f"{len(sources)} source lines but {len(targets)} target lines")
    if not 0 < gold_fraction <= 1:
        raise ValueError("gold_fraction must be in (0, 1]")
    src_count, trg_count = _counts(sources), _counts(targets)
    usable = [i for i, (s, t) in enumerate(zip(sources, targets))
              if s.strip() and t.strip() and src_count[s] == 1 and trg_count[t] == 1]
    rng = np.random.default_rng(seed)
    order = [usable[i] for i in rng.permutation(len(usable))]
    n_gold = max(1, round(gold_fraction * len(order)))
    gold_ids, rest = order[:n_gold], order[n_gold:]
    source_only, target_only = rest[: len(rest) // 2], rest[len(rest) // 2:]
    src_known, trg_known = set(sources), set(targets)
    source_texts = ([sources[i] for i in gold_ids + source_only]
                    + [s for s in dict.fromkeys(extra_sources) if s.strip() and s not in src_known])
    target_texts = ([targets[i] for i in gold_ids + target_only]
                    + [t for t in dict.fromkeys(extra_targets) if t.strip() and t not in trg_known])
    src_perm, trg_perm = rng.permutation(len(source_texts)), rng.permutation(len(target_texts))
    src_pos, trg_pos = np.argsort(src_perm), np.argsort(trg_perm)
    gold = {(int(src_pos[g]), int(trg_pos[g])) for g in range(n_gold)}
    return MiningTask([source_texts[i] for i in src_perm], [target_texts[i] for i in trg_perm], gold)


def _counts(texts: list[str]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for text in texts:
        counts[text] = counts.get(text, 0) + 1
    return counts


def prf(mined: MinedPairs, gold: set[tuple[int, int]], threshold: float) -> dict[str, float]:
    """Precision, recall, F1 (and the counts) of the mined pairs with margin >= threshold."""
    keep = mined.margin >= threshold
    pairs = set(zip(mined.source[keep].tolist(), mined.target[keep].tolist()))
    hits = len(pairs & gold)
    precision = hits / len(pairs) if pairs else 0.0
    recall = hits / len(gold) if gold else 0.0
    f1 = 2 * precision * recall / (precision + recall) if hits else 0.0
    return {"threshold": float(threshold), "precision": precision, "recall": recall, "f1": f1,
            "mined": len(pairs), "correct": hits, "gold": len(gold)}


def best_threshold(mined: MinedPairs, gold: set[tuple[int, int]]) -> dict[str, float]:
    """`prf` at the candidate margin that maximizes F1 (pairs are best first, so the sweep is one cumulative
    count; ties in margin are cut together)."""
    if len(mined) == 0:
        return prf(mined, gold, float("inf"))
    correct = np.fromiter(((s, t) in gold for s, t in zip(mined.source.tolist(), mined.target.tolist())),
                          dtype=bool, count=len(mined))
    hits = np.cumsum(correct)
    last_of_tie = np.r_[mined.margin[1:] != mined.margin[:-1], True]
    n = np.arange(1, len(mined) + 1)
    f1 = np.where(last_of_tie, 2 * hits / (n + len(gold)), -1.0)
    return prf(mined, gold, float(mined.margin[int(np.argmax(f1))]))


FIELDS = ("task", "setting", "metric", "value", "n")     # a result row of `evaluate`


def evaluate(encoder, sources: list[str], targets: list[str], *, k: int, strategy: str, threshold,
             gold_fraction: float, seed: int, search: SearchConfig, batch_size: int,
             extra_sources=(), extra_targets=(), languages: tuple[str, str] = ("cs", "en")) -> list[dict]:
    """`paranmt eval-xling`'s result rows (FIELDS) of both tasks, (a) and (b) of the module docstring, for the
    bilingual `encoder` on the line-aligned `sources` / `targets` (the mining task's distractors `extra_sources`,
    `extra_targets` added); the retrieval directions named by `languages` (source, target)."""
    def encode(texts):
        return normalize_rows(encoder.encode(texts, batch_size))

    rows = []
    x, y = encode(sources), encode(targets)
    for setting, value in retrieval_p_at_1(x, y, sources, targets, k, search, languages).items():
        rows.append({"task": "retrieval", "setting": setting, "metric": "p_at_1", "value": value, "n": len(sources)})
    task = make_mining_task(sources, targets, gold_fraction, seed, extra_sources, extra_targets)
    mined = mine_vectors(encode(task.source), encode(task.target), k, strategy, search=search)
    n = f"{len(task.source)}x{len(task.target)}"
    chosen = choose_pairs(mined, threshold)[1].threshold
    mode = "auto" if threshold == AUTO else "given"
    for setting, result in ((f"{strategy} {mode} threshold", prf(mined, task.gold, chosen)),
                            (f"{strategy} best threshold", best_threshold(mined, task.gold))):
        for metric in ("precision", "recall", "f1", "threshold", "mined", "gold"):
            rows.append({"task": "mining", "setting": setting, "metric": metric, "value": result[metric], "n": n})
    return rows


def write_results(rows: list[dict], output: Path, title: str) -> None:
    """results.csv and summary.md in `output`, each written whole (models/evaluation/tables.py)."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=FIELDS)
    writer.writeheader()
    writer.writerows(rows)
    write_result_file(output / "results.csv", buffer.getvalue())
    lines = [f"# {title}", "", "| task | setting | metric | value | n |", "|---|---|---|---:|---|"]
    lines += [f"| {r['task']} | {r['setting']} | {r['metric']} | {result_value(r['value'])} | {r['n']} |" for r in rows]
    write_result_file(output / "summary.md", "\n".join(lines) + "\n")


def result_value(value) -> str:
    """A value of a result row as summary.md and the printed lines show it."""
    return f"{value:.4f}" if isinstance(value, float) else str(value)
