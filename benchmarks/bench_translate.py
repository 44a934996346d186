"""Translate-stage benchmarks (issue 3). Every number is measured in this process on this machine.

1. cli_vs_stage: `fairseq-interactive` (beam 12, the model's fairseq checkpoint) vs the Beam translate stage
   (the build's translate stage, RunStage on the in-process FnApiRunner, one worker) with each backend, on the same N real sentences,
   same thread count; wall time including model loading and process start, sentences/s and the ratio to the
   CLI, and the same per CPU second (user + system time of the process; on a machine shared with other jobs the
   CPU-time ratio is the meaningful one).
2. backends: ctranslate2 vs fairseq Translator on the same sentences (model already loaded), sentences per
   second of wall time and of CPU time.
3. dedup_bucketing: a corpus with repeats (N rows drawn with replacement from U unique real sentences, Zipf-like
   weights) through the ctranslate2 Translator: naive (input order, fixed batches of `naive_batch` rows, every
   row translated) vs dedup only vs length bucketing only vs both (TranslateStage); CPU seconds of each.

    python benchmarks/bench_translate.py --model assets/nmt-cs-en --sentences 2000 --threads 1 \
        --output benchmarks/results/translate.json
"""
from __future__ import annotations

import json
import os
import random
import resource
import subprocess
import sys
import time
from pathlib import Path

from paranmt.models.files import read_text
from paranmt.pipelines.cli import CommandLineParser, exit_code

REPO = Path(__file__).resolve().parents[1]
DEFAULT_SOURCE = REPO.parent / "shared" / "data" / "bitext" / "cs-en" / "newstest2017.ces"


def cpu_seconds(who: int) -> float:
    """User + system CPU seconds of this process (RUSAGE_SELF, all threads) or of its finished children."""
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


def load_sentences(path: Path, count: int, skip: int) -> list[str]:
    from sacremoses import MosesPunctNormalizer

    normalizer = MosesPunctNormalizer(lang="cs")
    lines = [normalizer.normalize(line.strip()) for line in read_text(path, "--source").splitlines()]
    lines = [line for line in lines[skip:] if line]
    if len(lines) < count:
        raise SystemExit(f"{path} has only {len(lines)} usable lines after skipping {skip}")
    return lines[:count]


def bench_cli(model_dir: Path, sentences: list[str], beam: int, threads: int, batch_tokens: int) -> dict:
    """fairseq-interactive over stdin; returns wall seconds and the best hypotheses (detokenized)."""
    from paranmt.models.nmt.model_dir import ModelDir

    model = ModelDir.open(str(model_dir))
    env = dict(os.environ, OMP_NUM_THREADS=str(threads), MKL_NUM_THREADS=str(threads),
               TORCH_FORCE_WEIGHTS_ONLY_LOAD="1")          # weights-only, fairseq's Namespace allowed (recipe.py)
    env.pop("TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD", None)
    command = [sys.executable, "-m", "paranmt.models.nmt.recipe", "fairseq_cli.interactive",
               str(model.fairseq_checkpoint.parent),
               "--path", str(model.fairseq_checkpoint), "--source-lang", model.source_lang,
               "--target-lang", model.target_lang, "--beam", str(beam), "--nbest", "1",
               "--buffer-size", "1024", "--max-tokens", str(batch_tokens), "--bpe", "sentencepiece",
               "--sentencepiece-model", str(model.spm), "--cpu"]
    start, cpu_start = time.perf_counter(), cpu_seconds(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command, input="".join(s + "\n" for s in sentences), capture_output=True, text=True,
                          env=env)
    seconds, cpu = time.perf_counter() - start, cpu_seconds(resource.RUSAGE_CHILDREN) - cpu_start
    if done.returncode:
        raise RuntimeError(done.stderr[-2000:])
    hypotheses = {}
    for line in done.stdout.splitlines():
        if line.startswith("D-"):
            index, _, text = line[2:].split("\t", 2)
            hypotheses[int(index)] = text
    return {"seconds": seconds, "cpu_seconds": cpu,
            "hypotheses": [hypotheses.get(i, "") for i in range(len(sentences))], "command": " ".join(command)}


def bench_stage(model_dir: Path, sentences: list[str], backend: str, beam: int, threads: int,
                batch_tokens: int) -> dict:
    import apache_beam as beam_sdk
    from apache_beam.runners.portability.fn_api_runner import FnApiRunner

    from paranmt.schemas.build_config import BuildConfig, TranslateConfig
    from paranmt.schemas.records import empty_row
    from paranmt.transforms.io.readers import ShardWork
    from paranmt.transforms.stage import build_stage

    rows = [empty_row(f"bench:{i}", "bench", s, "") for i, s in enumerate(sentences)]
    config = TranslateConfig(backend=backend, model=str(model_dir), beam=beam, device="cpu", threads=threads,
                             batch_tokens=batch_tokens, group_size=1024)
    output = Path(os.environ.get("TMPDIR", "/tmp")) / f"bench_translate_{backend}_{os.getpid()}.jsonl"
    start, cpu_start = time.perf_counter(), cpu_seconds(resource.RUSAGE_SELF)
    pipeline = beam_sdk.Pipeline(runner=FnApiRunner())
    translated = (pipeline | beam_sdk.Create([ShardWork("bench", rows, [], len(rows))], reshuffle=False)
                  | build_stage("translate", BuildConfig(translate=config)))
    (translated
     | beam_sdk.FlatMap(lambda work: [json.dumps([r["id"], r["bt"]], ensure_ascii=False) for r in work.rows])
     | beam_sdk.io.WriteToText(str(output), shard_name_template=""))
    pipeline.run().wait_until_finish()
    seconds, cpu = time.perf_counter() - start, cpu_seconds(resource.RUSAGE_SELF) - cpu_start
    by_id = dict(json.loads(line) for line in output.read_text(encoding="utf-8").splitlines())
    output.unlink()
    return {"seconds": seconds, "cpu_seconds": cpu,
            "hypotheses": [by_id.get(f"bench:{i}", "") for i in range(len(sentences))]}


def bench_backends(model_dir: Path, sentences: list[str], beam: int, threads: int, batch_tokens: int) -> dict:
    from paranmt.models.nmt.evaluate import translate_corpus
    from paranmt.models.nmt.translator import open_translator

    results = {}
    for backend in ("fairseq", "ctranslate2"):
        start = time.perf_counter()
        translator = open_translator(str(model_dir), backend, "cpu", threads)
        load = time.perf_counter() - start
        start, cpu_start = time.perf_counter(), cpu_seconds(resource.RUSAGE_SELF)
        hypotheses = translate_corpus(translator, sentences, beam, batch_tokens, progress=False)
        results[backend] = {"load_seconds": load, "seconds": time.perf_counter() - start,
                            "cpu_seconds": cpu_seconds(resource.RUSAGE_SELF) - cpu_start, "hypotheses": hypotheses}
    return results


def bench_dedup(model_dir: Path, unique: list[str], rows: int, beam: int, threads: int, batch_tokens: int,
                naive_batch: int) -> dict:
    from paranmt.models.nmt.stage import TranslateStage, token_budget_batches
    from paranmt.models.nmt.translator import open_translator
    from paranmt.schemas.build_config import TranslateConfig
    from paranmt.schemas.records import empty_row

    rng = random.Random(13)
    weights = [1.0 / (rank + 1) for rank in range(len(unique))]
    corpus = rng.choices(unique, weights=weights, k=rows)
    translator = open_translator(str(model_dir), "ctranslate2", "cpu", threads)

    def timed(batches: list[list[str]]) -> float:
        """CPU seconds (user + system) of translating the batches in order."""
        start = cpu_seconds(resource.RUSAGE_SELF)
        for batch in batches:
            translator.translate(batch, beam)
        return cpu_seconds(resource.RUSAGE_SELF) - start

    distinct = list(dict.fromkeys(corpus))
    in_order = [corpus[i:i + naive_batch] for i in range(0, len(corpus), naive_batch)]
    dedup_only = [distinct[i:i + naive_batch] for i in range(0, len(distinct), naive_batch)]
    lengths = translator.count_tokens(corpus)
    bucketed = [[corpus[i] for i in batch] for batch in token_budget_batches(lengths, batch_tokens)]
    stage = TranslateStage(str(model_dir), TranslateConfig(beam=beam, batch_tokens=batch_tokens), "cs", "en",
                           translator=translator)
    start = cpu_seconds(resource.RUSAGE_SELF)
    stage.process_batch([empty_row(f"r{i}", "bench", s, "") for i, s in enumerate(corpus)])
    both = cpu_seconds(resource.RUSAGE_SELF) - start
    return {"rows": rows, "unique": len(distinct), "naive_batch_rows": naive_batch,
            "naive_cpu_seconds": timed(in_order), "dedup_only_cpu_seconds": timed(dedup_only),
            "bucketing_only_cpu_seconds": timed(bucketed), "dedup_and_bucketing_cpu_seconds": both}


def main(argv=None) -> int:
    parser = CommandLineParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default=str(REPO / "assets" / "nmt-cs-en"))
    parser.add_argument("--source", default=str(DEFAULT_SOURCE), help="Czech sentences, one per line")
    parser.add_argument("--skip", type=int, default=500, help="skip the first N lines (the model's valid set)")
    parser.add_argument("--sentences", type=int, default=2000)
    parser.add_argument("--beam", type=int, default=12)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--batch-tokens", type=int, default=4096)
    parser.add_argument("--repeat-rows", type=int, default=2000, help="rows of the corpus with repeats")
    parser.add_argument("--repeat-unique", type=int, default=600, help="unique sentences it is drawn from")
    parser.add_argument("--naive-batch", type=int, default=64)
    parser.add_argument("--parts", default="cli_vs_stage,backends,dedup_bucketing")
    parser.add_argument("--output", help="write all results as JSON here")
    args = parser.parse_args(argv)
    import torch
    torch.set_num_threads(args.threads)

    model_dir = Path(args.model)
    sentences = load_sentences(Path(args.source), args.sentences, args.skip)
    parts = args.parts.split(",")
    report: dict = {"model": str(model_dir), "sentences": len(sentences), "beam": args.beam,
                    "threads": args.threads, "batch_tokens": args.batch_tokens, "cpu_count": os.cpu_count(),
                    "command": "python " + " ".join([sys.argv[0], *(argv or sys.argv[1:])])}
    n = len(sentences)
    if "cli_vs_stage" in parts:
        cli = bench_cli(model_dir, sentences, args.beam, args.threads, args.batch_tokens)
        part = {"fairseq_interactive": {"seconds": round(cli["seconds"], 1),
                                        "sentences_per_s": round(n / cli["seconds"], 2),
                                        "cpu_seconds": round(cli["cpu_seconds"], 1),
                                        "sentences_per_cpu_s": round(n / cli["cpu_seconds"], 2),
                                        "command": cli["command"]}}
        for backend in ("fairseq", "ctranslate2"):
            stage = bench_stage(model_dir, sentences, backend, args.beam, args.threads, args.batch_tokens)
            same = sum(a == b for a, b in zip(stage["hypotheses"], cli["hypotheses"]))
            part[f"beam_stage_{backend}"] = {
                "seconds": round(stage["seconds"], 1), "sentences_per_s": round(n / stage["seconds"], 2),
                "speedup_vs_cli": round(cli["seconds"] / stage["seconds"], 2),
                "cpu_seconds": round(stage["cpu_seconds"], 1),
                "sentences_per_cpu_s": round(n / stage["cpu_seconds"], 2),
                "cpu_speedup_vs_cli": round(cli["cpu_seconds"] / stage["cpu_seconds"], 2),
                "same_best_hypothesis_as_cli": f"{same}/{n}"}
        report["cli_vs_stage"] = part
        print(json.dumps(part, indent=2), flush=True)
    if "backends" in parts:
        results = bench_backends(model_dir, sentences, args.beam, args.threads, args.batch_tokens)
        same = sum(a == b for a, b in zip(results["fairseq"]["hypotheses"], results["ctranslate2"]["hypotheses"]))
        part = {backend: {"load_seconds": round(r["load_seconds"], 2), "seconds": round(r["seconds"], 1),
                          "sentences_per_s": round(n / r["seconds"], 2), "cpu_seconds": round(r["cpu_seconds"], 1),
                          "sentences_per_cpu_s": round(n / r["cpu_seconds"], 2)} for backend, r in results.items()}
        part["ctranslate2_speedup"] = round(results["fairseq"]["seconds"] / results["ctranslate2"]["seconds"], 2)
        part["ctranslate2_cpu_speedup"] = round(results["fairseq"]["cpu_seconds"]
                                                / results["ctranslate2"]["cpu_seconds"], 2)
        part["same_best_hypothesis"] = f"{same}/{n}"
        report["backends"] = part
        print(json.dumps(part, indent=2), flush=True)
    if "dedup_bucketing" in parts:
        unique = load_sentences(Path(args.source), args.repeat_unique, args.skip)
        part = bench_dedup(model_dir, unique, args.repeat_rows, args.beam, args.threads, args.batch_tokens,
                           args.naive_batch)
        for key in ("dedup_only", "bucketing_only", "dedup_and_bucketing"):
            part[f"{key}_speedup"] = round(part["naive_cpu_seconds"] / part[f"{key}_cpu_seconds"], 2)
        part = {k: round(v, 1) if isinstance(v, float) and not k.endswith("speedup") else v for k, v in part.items()}
        report["dedup_bucketing"] = part
        print(json.dumps(part, indent=2), flush=True)
    if args.output:
        Path(args.output).parent.mkdir(parents=True, exist_ok=True)
        Path(args.output).write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(exit_code(main))
