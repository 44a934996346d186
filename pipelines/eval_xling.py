"""`paranmt eval-xling`: cross-lingual evaluation of a bilingual encoder on a line-aligned bitext (`--source`
Czech, `--target` English): (a) retrieval P@1 in both directions (every sentence against all sentences of the other
side; by cosine and by ratio margin), (b) a BUCC-style mining task built from the bitext plus distractors
(docs/mining.md): precision, recall and F1 of `paranmt mine`'s selection at its threshold (calibrated on the data,
or `--threshold`) and at the best threshold. Writes `results.csv` (task,setting,metric,value,n) and `summary.md`.
An --output holding the results of an earlier run is refused unless `--overwrite`; one that is, holds or lies
inside an input is refused; Ctrl-C, SIGTERM or a full disk stop it in one line naming the rerun, leaving no
results file.
"""
from __future__ import annotations

import csv
import io
import logging
from pathlib import Path

from paranmt.models.evaluation.tables import write_result_file
from paranmt.models.mining.corpus import normalize_rows
from paranmt.models.mining.evaluate import best_threshold, make_mining_task, prf, retrieval_p_at_1
from paranmt.models.mining.knn import SearchConfig
from paranmt.models.mining.margin import mine_vectors
from paranmt.pipelines.mine import AUTO, add_search_arguments, choose_pairs, read_sentences
from paranmt.pipelines.runtime.arguments import add_overwrite_flag
from paranmt.pipelines.runtime.outputs import claim_results, left_in, rerun_stops
from paranmt.schemas.errors import ConfigError

log = logging.getLogger(__name__)
FIELDS = ("task", "setting", "metric", "value", "n")
RESULTS = ("results.csv", "summary.md")


def read_bitext(source: str, target: str) -> tuple[list[str], list[str]]:
    """Line-aligned pairs with both sides non-empty; different line counts are a ConfigError."""
    for path in (source, target):
        if "://" not in path and not Path(path).is_file():
            raise ConfigError(f"input {path} is not a file")
    sources, targets = list(read_sentences(source)), list(read_sentences(target))
    if len(sources) != len(targets):
        raise ConfigError(f"{source} has {len(sources)} lines but {target} has {len(targets)}")
    pairs = [(s.strip(), t.strip()) for s, t in zip(sources, targets) if s.strip() and t.strip()]
    return [s for s, _ in pairs], [t for _, t in pairs]


def evaluate(encoder, sources: list[str], targets: list[str], *, k: int, strategy: str, threshold,
             gold_fraction: float, seed: int, search: SearchConfig, batch_size: int,
             extra_sources=(), extra_targets=()) -> list[dict]:
    """Result rows (FIELDS) of both tasks."""
    def encode(texts):
        return normalize_rows(encoder.encode(texts, batch_size))

    rows = []
    x, y = encode(sources), encode(targets)
    for setting, value in retrieval_p_at_1(x, y, sources, targets, k, search).items():
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
    lines += [f"| {r['task']} | {r['setting']} | {r['metric']} | {_fmt(r['value'])} | {r['n']} |" for r in rows]
    write_result_file(output / "summary.md", "\n".join(lines) + "\n")


def _fmt(value) -> str:
    return f"{value:.4f}" if isinstance(value, float) else str(value)


def run(args) -> int:
    from paranmt.models.encoders import open_encoder

    if not 0 < args.gold_fraction <= 1:
        raise ConfigError(f"--gold-fraction must be in (0, 1], not {args.gold_fraction}")
    if args.k < 1:
        raise ConfigError(f"--k must be >= 1, not {args.k}")
    claim_results(args.output, [args.encoder, args.source, args.target, args.distractors_source,
                                args.distractors_target], RESULTS, args.overwrite)
    with rerun_stops(args.output, getattr(args, "argv", None), "eval-xling", lambda: left_in(args.output, RESULTS)):
        sources, targets = read_bitext(args.source, args.target)
        if not sources:
            raise ConfigError(f"{args.source} / {args.target}: no pair with two non-empty sides")
        extra_sources = list(read_sentences(args.distractors_source)) if args.distractors_source else []
        extra_targets = list(read_sentences(args.distractors_target)) if args.distractors_target else []
        encoder = open_encoder(args.encoder, args.threads)
        search = SearchConfig(index=args.index, block_size=args.block_size, ef_search=args.ef_search,
                              threads=args.threads)
        rows = evaluate(encoder, sources, targets, k=args.k, strategy=args.strategy, threshold=args.threshold,
                        gold_fraction=args.gold_fraction, seed=args.seed, search=search, batch_size=args.batch_size,
                        extra_sources=extra_sources, extra_targets=extra_targets)
        write_results(rows, Path(args.output),
                      f"Cross-lingual evaluation: {args.encoder} on {args.source} / {args.target}")
    for row in rows:
        print(f"{row['task']}\t{row['setting']}\t{row['metric']}\t{_fmt(row['value'])}\t{row['n']}")
    return 0


def register(subparsers) -> None:
    parser = subparsers.add_parser("eval-xling", help="cross-lingual retrieval and mining evaluation of an encoder",
                                   description=__doc__)
    parser.add_argument("--source", required=True, help="Czech side of the bitext, one sentence a line")
    parser.add_argument("--target", required=True, help="English side, line-aligned with --source")
    parser.add_argument("--output", required=True, help="directory for results.csv and summary.md")
    add_overwrite_flag(parser, "the results.csv and summary.md")
    parser.add_argument("--gold-fraction", type=float, default=0.2,
                        help="share of the usable pairs kept as gold pairs in the mining task (default 0.2)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the mining task's split and shuffle")
    parser.add_argument("--distractors-source", help="extra Czech distractor sentences (one a line)")
    parser.add_argument("--distractors-target", help="extra English distractor sentences (one a line)")
    add_search_arguments(parser)
    parser.set_defaults(func=run)
