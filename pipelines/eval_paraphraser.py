"""`paranmt eval-paraphraser`: template match, BLEU, para_score and SIMILE of the paraphrasers on held-out shards,
with the baselines in the same table (thesis Table 60; models/generation/evaluate.py defines every column).

    paranmt eval-paraphraser --model DIR --input HELD_OUT_SHARDS [--output DIR] [--max-pairs 500]

HELD_OUT_SHARDS: a `paranmt build` output (or a glob of its files) with ref, bt and both parses (the parse stage
run), from data the models were not trained on. Pairs are taken in shard order, the first --max-pairs that have
all four columns (the others are counted as skipped). The SCPN model with its parse generator is required; the
plain model's row appears when --model also holds a plain paraphraser. Prints the table; with --output writes
DIR/results.csv, DIR/results.md and DIR/outputs.jsonl (every system's output per pair).
"""
from __future__ import annotations

import csv
import io
import json
import logging
from pathlib import Path

from paranmt.pipelines.paraphrase import DEFAULT_MODELS, add_model_arguments
from paranmt.schemas.config import ConfigError, asset_path

LOG = logging.getLogger(__name__)
NEEDED = ["id", "ref", "bt", "ref_parse", "bt_parse"]


def read_pairs(input_path: str, max_pairs: int):
    """The first `max_pairs` shard rows with ref, bt and both parses, as EvalPairs; and the rows skipped."""
    from paranmt.models.generation.evaluate import EvalPair
    from paranmt.transforms.shards import check_columns, iter_row_batches, list_shards

    files = list_shards(input_path)
    check_columns(files, NEEDED, "eval-paraphraser")
    pairs, skipped = [], 0
    for path in files:
        for batch in iter_row_batches(path, NEEDED):
            for row in batch:
                if any(row[c] is None for c in NEEDED):
                    skipped += 1
                elif len(pairs) < max_pairs:
                    pairs.append(EvalPair(row["id"], row["ref"], row["bt"], row["ref_parse"], row["bt_parse"]))
    if not pairs:
        raise ConfigError(f"{input_path} has no pair with ref, bt and both parses")
    return pairs, skipped


def markdown_table(results: list[dict]) -> str:
    from paranmt.models.generation.evaluate import METRICS

    def cell(column: str, value) -> str:
        if value is None:
            return ""
        if isinstance(value, float):
            return f"{value:.3f}" if column in ("para_score", "simile") else f"{value:.1f}"
        return str(value)

    lines = ["| system | pairs | " + " | ".join(METRICS) + " |", "|---" * (len(METRICS) + 2) + "|"]
    lines += ["| " + " | ".join(cell(c, row.get(c)) for c in ("system", "pairs", *METRICS)) + " |" for row in results]
    return "\n".join(lines)


def evaluate(config, pairs, plain_dir: str | None) -> tuple[list[dict], list[dict]]:
    """(metric rows, per-pair outputs) for the systems of models/generation/evaluate.py."""
    from paranmt.models.generation.evaluate import parse_generator_row, score_system
    from paranmt.models.generation.paraphraser import load_generator
    from paranmt.models.generation.pipeline import Job, ParaphrasePipeline
    from paranmt.models.scoring.simile import SimileScorer
    from paranmt.pipelines.encode import open_encoder
    from paranmt.pipelines.paraphrase import open_pipeline

    scpn = open_pipeline(config)
    scpn.post_filter = None                      # Table 60 scores every output, before any post-filter
    scorer = SimileScorer(open_encoder(config.encoder, config.threads or 1))
    sources = [pair.s1 for pair in pairs]

    def best(rows):
        return [row.get("paraphrase") or "" for row in rows], [row.get("paraphrase_parse") for row in rows]

    def reparsed(texts):
        parsed, _ = scpn.parser.parse_texts(texts)
        return [parsed[text][0] for text in texts]

    LOG.info("SCPN with gold target parses on %d pairs", len(pairs))
    gold = scpn.run_jobs(sources, [Job(i, None, pair.p2) for i, pair in enumerate(pairs)])
    LOG.info("parse generator + SCPN on %d pairs", len(pairs))
    generated = scpn.run_jobs(sources, [Job(i, pair.t2) for i, pair in enumerate(pairs)])
    systems = {"scpn-gold-parse": best(gold), "scpn-generated-parse": best(generated)}
    if plain_dir:
        LOG.info("plain paraphraser on %d pairs", len(pairs))
        plain = ParaphrasePipeline(load_generator(plain_dir, config.device, config.threads), scpn.parser,
                                   beam=config.beam, batch_size=config.batch_size)
        systems["plain"] = best(plain.run_jobs(sources, [Job(i) for i in range(len(pairs))]))
    systems["copy-input"] = (sources, reparsed(sources))
    systems["back-translation"] = ([pair.s2 for pair in pairs], reparsed([pair.s2 for pair in pairs]))
    results = [score_system(name, pairs, outputs, parses, scorer) for name, (outputs, parses) in systems.items()]
    results.insert(2, parse_generator_row(pairs, [row["target_parse"] for row in generated]))
    outputs = [{"id": pair.id, "s1": pair.s1, "s2": pair.s2, "t1": pair.t1, "t2": pair.t2,
                "generated_parse": generated[i]["target_parse"],
                **{name: texts[i] for name, (texts, _) in systems.items()}} for i, pair in enumerate(pairs)]
    return results, outputs


def run(args) -> int:
    from paranmt.models.generation.models import ModelSetError, find_models
    from paranmt.models.generation.evaluate import METRICS
    from paranmt.pipelines.paraphrase import ParaphraseConfig

    if args.max_pairs < 1:
        raise ConfigError("--max-pairs must be >= 1")
    config = ParaphraseConfig(model=args.model, arch=args.arch, parse_generator=args.parse_generator,
                              parser=args.parser, encoder=args.encoder, beam=args.beam,
                              batch_size=args.batch_size, device=args.device, threads=args.threads).resolve()
    try:
        plain_dir = str(find_models(asset_path(args.model), "plain", args.arch).paraphraser.path)
    except ModelSetError:
        plain_dir = None
    output = Path(args.output) if args.output else None
    if output and output.exists() and not output.is_dir():
        raise ConfigError(f"--output {output} is a file; give a directory")
    pairs, skipped = read_pairs(args.input, args.max_pairs)
    LOG.info("%d evaluation pairs (%d shard rows without ref, bt or a parse skipped)", len(pairs), skipped)
    results, outputs = evaluate(config, pairs, plain_dir)
    table = markdown_table(results)
    if output:
        output.mkdir(parents=True, exist_ok=True)
        buffer = io.StringIO()
        writer = csv.DictWriter(buffer, ["system", "pairs", *METRICS])
        writer.writeheader()
        writer.writerows(results)
        (output / "results.csv").write_text(buffer.getvalue())
        (output / "results.md").write_text(
            f"# eval-paraphraser\n\nmodel {config.model} (parse generator {config.parse_generator}), input "
            f"{args.input}: {len(pairs)} pairs ({skipped} rows skipped), beam {config.beam}\n\n{table}\n")
        (output / "outputs.jsonl").write_text("".join(json.dumps(o, ensure_ascii=False) + "\n" for o in outputs))
    print(table)
    return 0


def register(subparsers) -> None:
    parser = subparsers.add_parser("eval-paraphraser", help="template match, BLEU, para_score and SIMILE of the "
                                   "paraphrasers on held-out shards, with baselines", description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", default=DEFAULT_MODELS,
                        help="model directory or directory of models (default: the shipped demo models in assets/)")
    parser.add_argument("--input", required=True, help="held-out shards (directory or glob) with parses")
    parser.add_argument("--output", help="directory for results.csv, results.md, outputs.jsonl")
    parser.add_argument("--arch", choices=("scpn", "transformers"), help="architecture, when --model has both")
    parser.add_argument("--parse-generator", help="parse generator directory (default: the one beside the model)")
    parser.add_argument("--max-pairs", type=int, default=500, help="pairs evaluated (default 500)")
    add_model_arguments(parser)
    parser.set_defaults(func=run)
