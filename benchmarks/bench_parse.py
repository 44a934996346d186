"""Parse stage benchmark: throughput of the stage vs stanza called directly, and the gain from sentence dedup.

Measurements (all in one process, same model, CPU, `--threads` torch threads). Times are CPU seconds of this
process (`time.process_time`), not wall time: the machine is shared, and wall-clock ratios of back-to-back runs
swung by +-30% with other jobs' load, while CPU time does not count time spent waiting for a core. With one torch
thread, CPU time is the work done. Times exclude model loading unless said otherwise:
1. overhead:  N distinct news sentences (newstest2013, English side). Baseline: the stanza Pipeline the stage uses,
              called directly on the PTB-tokenized sentences in batches of `--batch` (tokenization done before the
              clock starts). Stage: `ParseStage.process_batch` on pair rows (ref only) in batches of `--batch`,
              including tokenization, dedup bookkeeping, linearization and templates. Ratio = stage / direct
              sentences per second (1.0 = no overhead).
2. dedup:     a corpus with real repeats, from the Tatoeba test set (English side): half of the rows are the first
              lines (in file order) of sentences that occur more than once there, half are sentences that occur
              once; `--dedup-rows` rows, shuffled (seed 1); the distinct count is reported. Baseline: stanza
              directly on every row. Stage: the parse stage (batch dedup + per-worker cache). Ratio = rows per
              second of the stage / of the direct call.
3. beam:      the stage as `paranmt build` runs it (`transforms.stage.build_stage("parse")`, FnApiRunner, in-process
              worker), CPU time including Beam setup and model loading, for the overhead corpus.

Each of 1 and 2 is run `--repeat` times, baseline and stage alternating; the fastest run of each counts.

    python benchmarks/bench_parse.py [--sentences 400] [--dedup-rows 1200] [--batch 64] [--threads 1] [--repeat 2]
"""
from __future__ import annotations

import json
import random
import sys
import time
from collections import Counter
from pathlib import Path

import torch

from paranmt.models.parsing.parser import StanzaParser
from paranmt.models.parsing.stage import ParseStage
from paranmt.models.parsing.tokenize import ptb_tokenize
from paranmt.pipelines.cli import CommandLineParser, exit_code
from paranmt.schemas.build_config import BuildConfig, ParseConfig
from paranmt.schemas.paths import asset_path
from paranmt.schemas.records import empty_row

BITEXT = Path(__file__).resolve().parents[2] / "shared" / "data" / "bitext" / "cs-en"


def direct_stanza(parser: StanzaParser, texts: list[str], batch: int) -> float:
    """Seconds for stanza's pipeline on the pre-tokenized texts, `batch` sentences per call."""
    tokens = [ptb_tokenize(text) for text in texts]
    start = time.process_time()
    for i in range(0, len(tokens), batch):
        parser.pipeline(tokens[i:i + batch])
    return time.process_time() - start


def stage_seconds(parser: StanzaParser, texts: list[str], batch: int, cache_size: int) -> tuple[float, Counter]:
    stage = ParseStage(lambda: parser, ParseConfig(max_tokens=10_000, cache_size=cache_size),
                       keep_parsed=False)
    rows = [empty_row(f"bench:{i}", "bench", "", text) for i, text in enumerate(texts)]
    counts: Counter = Counter()
    start = time.process_time()
    for i in range(0, len(rows), batch):
        stage.process_batch(rows[i:i + batch])
        counts += stage.last_counts
    return time.process_time() - start, counts


def beam_seconds(texts: list[str], batch: int) -> float:
    import apache_beam as beam
    from apache_beam.runners.portability.fn_api_runner import FnApiRunner

    from paranmt.transforms.io.readers import ShardWork
    from paranmt.transforms.stage import build_stage

    config = BuildConfig()
    config.parse.batch_size = batch
    rows = [empty_row(f"bench:{i}", "bench", "", text) for i, text in enumerate(texts)]
    start = time.process_time()
    with beam.Pipeline(runner=FnApiRunner()) as pipeline:
        parsed = pipeline | beam.Create([ShardWork("bench", rows, [], len(rows))]) | build_stage("parse", config)
        parsed | beam.combiners.Count.Globally()
    return time.process_time() - start


def best_of(repeat: int, baseline, candidate) -> tuple[float, float]:
    """Minimum seconds of `repeat` runs of each, alternating baseline and candidate (the machine is shared, so
    the minimum is the least disturbed run)."""
    times: tuple[list[float], list[float]] = ([], [])
    for _ in range(repeat):
        times[0].append(baseline())
        times[1].append(candidate())
    return min(times[0]), min(times[1])


def repeat_corpus(rows: int) -> list[str]:
    lines = [line for line in (BITEXT / "tatoeba-test-v2021-08-07.eng").read_text(encoding="utf-8").splitlines()
             if line.strip()]
    counts = Counter(lines)
    repeated = [line for line in lines if counts[line] > 1]
    distinct = [line for line in lines if counts[line] == 1]
    corpus = repeated[:rows // 2] + distinct[:rows - min(rows // 2, len(repeated))]
    random.Random(1).shuffle(corpus)
    return corpus


def main() -> None:
    parser_ = CommandLineParser(description=__doc__.splitlines()[0])
    parser_.add_argument("--sentences", type=int, default=400)
    parser_.add_argument("--dedup-rows", type=int, default=1200)
    parser_.add_argument("--batch", type=int, default=64)
    parser_.add_argument("--threads", type=int, default=1)
    parser_.add_argument("--repeat", type=int, default=2, help="runs of each measurement; the fastest counts")
    parser_.add_argument("--skip-beam", action="store_true")
    args = parser_.parse_args()
    torch.set_num_threads(args.threads)
    parser = StanzaParser(asset_path(BuildConfig().parse.model_dir), device="cpu", batch_size=args.batch)
    results = {}

    news = list(dict.fromkeys(line for line in (BITEXT / "newstest2013.eng").read_text(encoding="utf-8")
                              .splitlines() if line.strip()))[:args.sentences]
    parser.pipeline([ptb_tokenize(t) for t in news[:8]])  # warm-up
    direct, staged = best_of(args.repeat, lambda: direct_stanza(parser, news, args.batch),
                             lambda: stage_seconds(parser, news, args.batch, cache_size=0)[0])
    results["overhead"] = {"sentences": len(news), "direct_stanza_sent_per_s": round(len(news) / direct, 2),
                           "stage_sent_per_s": round(len(news) / staged, 2),
                           "stage_over_direct": round(direct / staged, 3)}

    corpus = repeat_corpus(args.dedup_rows)
    counts: Counter = Counter()

    def staged_run() -> float:
        seconds, counts_ = stage_seconds(parser, corpus, args.batch, cache_size=100_000)
        counts.clear()
        counts.update(counts_)
        return seconds

    direct, staged = best_of(args.repeat, lambda: direct_stanza(parser, corpus, args.batch), staged_run)
    results["dedup"] = {"rows": len(corpus), "distinct": len(set(corpus)),
                        "dedup_hits": counts["dedup_hits"], "parsed": counts["parsed"],
                        "direct_stanza_rows_per_s": round(len(corpus) / direct, 2),
                        "stage_rows_per_s": round(len(corpus) / staged, 2),
                        "stage_over_direct": round(direct / staged, 3)}

    if not args.skip_beam:
        seconds = beam_seconds(news, args.batch)
        results["beam"] = {"sentences": len(news), "cpu_s_incl_setup": round(seconds, 1),
                           "sent_per_s_incl_setup": round(len(news) / seconds, 2),
                           "over_direct": round(len(news) / seconds / results["overhead"]["direct_stanza_sent_per_s"], 3)}
    print(json.dumps(results, indent=1))


if __name__ == "__main__":
    sys.exit(exit_code(main))
