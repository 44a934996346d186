"""Paraphrase generation benchmark (CPU): sentences per second per template for each architecture, the time of each
step, peak memory, and the post-filter's keep rate.

For every model set given (`--models NAME=DIR`, a directory holding an scpn model, its parse generator and a plain
model of one architecture), on the same `--sentences` English sentences (the held-out sentences file of
`paranmt paraphrase-data`, or any one-sentence-a-line file) and `--templates` templates (the model's most frequent):
  parse      the parser on the sources (once per sentence; shared by every template)
  pg         the parse generator: (p1, t2) -> p2^, one per sentence x template
  scpn       SCPN: (s1, p2^) -> paraphrase (beam `--beam`, best hypothesis)
  reparse    the parser on the paraphrases
  filter     the post-filter (trigram overlap, para_score with assets/encoder-sp)
  plain      the baseline run side by side: the plain model on the same sentences (one output per sentence)
Times are CPU seconds of this process (`time.process_time`: the machine is shared; with one torch thread CPU time
is the work done), models loaded before the clock starts. sentences/s per template = sentences / (pg + scpn time
per template); the full pipeline rate adds parse, reparse and filter. Ratio = full pipeline per template / plain.
Peak memory = the process's maximum resident set (ru_maxrss) after all runs of a model set, in a fresh process per
model set (`--one` internally). Output: one JSON line per model set, and a Markdown table.

    python benchmarks/bench_paraphrase.py --models scpn=assets --sentences held-out.txt [--limit 100]
        [--templates 3] [--beam 4] [--threads 1]
"""
from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time

from paranmt.models.files import read_text
from paranmt.pipelines.cli import CommandLineParser, exit_code


def measure(name: str, models: str, sentences_file: str, limit: int, template_count: int, beam: int,
            threads: int) -> dict:
    import torch

    from paranmt.models.encoders import open_encoder
    from paranmt.models.generation.models import find_models
    from paranmt.models.generation.paraphraser import load_generator
    from paranmt.models.generation.pipeline import ParaphrasePipeline
    from paranmt.models.generation.postfilter import PostFilter
    from paranmt.models.generation.templates import matches_template
    from paranmt.models.parsing.parser import StanzaParser
    from paranmt.models.parsing.stage import ParseStage
    from paranmt.schemas.build_config import ParseConfig
    from paranmt.schemas.paths import asset_path

    torch.set_num_threads(threads)
    sentences = [line.strip() for line in read_text(sentences_file, "--sentences").splitlines()
                 if line.strip()][:limit]
    found = find_models(asset_path(models), "scpn")
    scpn = load_generator(found.paraphraser.path, "cpu", threads)
    parse_generator = load_generator(found.parse_generator.path, "cpu", threads)
    plain = load_generator(find_models(asset_path(models), "plain", found.paraphraser.arch).paraphraser.path,
                           "cpu", threads)
    parser = StanzaParser(asset_path("assets/parser-en"), device="cpu")
    post_filter = PostFilter(open_encoder("assets/encoder-sp", threads))
    templates = scpn.templates[:template_count]
    times = {key: 0.0 for key in ("parse", "pg", "scpn", "reparse", "filter", "plain")}

    def clock(key, work):
        start = time.process_time()
        result = work()
        times[key] += time.process_time() - start
        return result

    stage = ParseStage(lambda: parser, ParseConfig(cache_size=0), keep_parsed=False)
    stage.setup()
    pipeline = ParaphrasePipeline(scpn, stage, post_filter, parse_generator, beam=beam)
    parsed, _ = clock("parse", lambda: stage.parse_texts(sentences))
    usable = [s for s in sentences if parsed[s][0]]
    candidates = kept = matched = 0
    for template in templates:
        targets = clock("pg", lambda: pipeline.target_parses([parsed[s][0] for s in usable], [template] * len(usable)))
        jobs = [(s, t) for s, t in zip(usable, targets) if t]
        outputs = clock("scpn", lambda: pipeline.generate(scpn, [s for s, _ in jobs], [t for _, t in jobs], 1, beam))
        pairs = [(s, o[0][0]) for (s, _), o in zip(jobs, outputs) if o]
        reparsed, _ = clock("reparse", lambda: stage.parse_texts([p for _, p in pairs if p.strip()]))
        scores = clock("filter", lambda: post_filter.score([s for s, _ in pairs], [p for _, p in pairs]))
        candidates += len(pairs)
        kept += sum(scores.kept)
        matched += sum(matches_template(reparsed.get(p, (None,))[0], template) for _, p in pairs)
    clock("plain", lambda: pipeline.generate(plain, sentences, [None] * len(sentences), 1, beam))
    per_template = {key: value / len(templates) for key, value in times.items() if key in ("pg", "scpn", "reparse",
                                                                                          "filter")}
    generate_rate = len(usable) / (per_template["pg"] + per_template["scpn"])
    full_seconds = times["parse"] / len(templates) + sum(per_template.values())
    return {"name": name, "arch": found.paraphraser.arch, "models": str(found.paraphraser.path.parent),
            "sentences": len(sentences), "parsed": len(usable), "templates": len(templates), "beam": beam,
            "threads": threads, "cpu_seconds": {k: round(v, 2) for k, v in times.items()},
            "sentences_per_s_per_template_generation": round(generate_rate, 2),
            "sentences_per_s_per_template_full": round(len(usable) / full_seconds, 2),
            "plain_sentences_per_s": round(len(sentences) / times["plain"], 2),
            "full_vs_plain": round((len(usable) / full_seconds) / (len(sentences) / times["plain"]), 3),
            "keep_rate": round(kept / candidates, 4) if candidates else None,
            "template_match": round(matched / candidates, 4) if candidates else None,
            "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)}


def table(results: list[dict]) -> str:
    lines = ["| model set | arch | sentences x templates | sent/s per template (pg+scpn) | sent/s per template "
             "(full pipeline) | plain sent/s | full / plain | keep rate | template match | peak RSS MB |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for r in results:
        lines.append(f"| {r['name']} | {r['arch']} | {r['parsed']} x {r['templates']} | "
                     f"{r['sentences_per_s_per_template_generation']} | {r['sentences_per_s_per_template_full']} | "
                     f"{r['plain_sentences_per_s']} | {r['full_vs_plain']} | {r['keep_rate']} | "
                     f"{r['template_match']} | {r['peak_rss_mb']} |")
    return "\n".join(lines)


def main() -> int | None:
    parser = CommandLineParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--models", action="append", required=True, help="NAME=DIR (repeat for each model set)")
    parser.add_argument("--sentences", required=True, help="one English sentence a line")
    parser.add_argument("--limit", type=int, default=100)
    parser.add_argument("--templates", type=int, default=3)
    parser.add_argument("--beam", type=int, default=4)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--one", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        name, models = args.models[0].split("=", 1)
        print(json.dumps(measure(name, models, args.sentences, args.limit, args.templates, args.beam, args.threads)))
        return
    results = []
    for spec in args.models:       # a fresh process per model set: its peak memory is its own
        command = [sys.executable, __file__, "--one", "--models", spec, "--sentences", args.sentences,
                   "--limit", str(args.limit), "--templates", str(args.templates), "--beam", str(args.beam),
                   "--threads", str(args.threads)]
        child = subprocess.run(command, capture_output=True, text=True)
        if child.returncode:        # its last line on stderr: the one line of a mistake (exit 2), or the error
            print((child.stderr.strip().splitlines() or [f"{spec}: exit {child.returncode}"])[-1], file=sys.stderr)
            return child.returncode
        line = child.stdout.strip().splitlines()[-1]
        print(line, flush=True)
        results.append(json.loads(line))
    print(table(results))


if __name__ == "__main__":
    sys.exit(exit_code(main))
