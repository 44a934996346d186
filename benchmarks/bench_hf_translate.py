"""transformers vs CTranslate2 int8, without and with the vocabulary map, on a Marian model of OPUS-MT cs-en's
published size (issues 12 and 25).

The model is randomly initialized (nothing is downloaded) with the architecture of Helsinki-NLP/opus-mt-cs-en's
config.json: transformer-base, 6 encoder + 6 decoder layers, d_model 512, 8 attention heads, FFN 2048, swish,
shared vocabulary of 62,509 tokens (sentencepiece models trained here on real Czech/English text, the vocabulary
padded with filler tokens to the published size), sinusoidal positions, 512 max positions. It is saved in the
published layout and converted with `paranmt convert-nmt --transformers ... --quantization int8`; with `--vmap`
the conversion also writes its vocabulary map (`--vmap-source/--vmap-target`: the files given, in the model's
pieces) and a third system, CTranslate2 int8 with `use_vmap`, runs in the same alternation.

Random weights produce arbitrary outputs of arbitrary lengths, so both systems are forced to the same output
length: every sentence is translated to exactly `--target-ratio` x its source length (in subword tokens, at least
4) by setting the minimum and maximum target length of each length-sorted batch to the same value (both backends'
`min_length` / `max_target_tokens`). Both run through paranmt's Translator classes (what `paranmt build` calls):
`TransformersTranslator` (the model's tokenizer, `generate`, one rescoring pass for bt_score) and
`CTranslate2Translator` (sentencepiece + ctranslate2 int8, and the same with `use_vmap`), one thread each, on the
same real sentences in the same batches, alternating between the systems batch by batch. Throughput is sentences per CPU second (user +
system time of this process, resource.getrusage, which on a machine shared with other jobs is robust where wall
time is not); wall-clock rates are printed too.

    python benchmarks/bench_hf_translate.py --sentences 500 --beams 4 12 --threads 1 \
        --output benchmarks/results/hf_translate.json
    python benchmarks/bench_hf_translate.py --sentences 200 --beam-sentences 12=120 --beams 4 12 --threads 1 \
        --vmap --vmap-source train.cs --vmap-target train.en --output hf_translate_vmap.json

A random model's outputs under the map say nothing about its quality; the agreement of the map with unrestricted
decoding is measured on the shipped model (benchmarks/bench_ct2_settings.py).
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

from paranmt.models.files import read_text
from paranmt.pipelines.cli import CommandLineParser, exit_code

REPO = Path(__file__).resolve().parents[1]
BITEXT = REPO.parent / "shared" / "data" / "bitext" / "cs-en"
# Helsinki-NLP/opus-mt-cs-en config.json (as mirrored at huggingface.co/Xenova/opus-mt-cs-en, "_name_or_path":
# "Helsinki-NLP/opus-mt-cs-en"): d_model 512, encoder/decoder_layers 6, attention_heads 8, ffn_dim 2048,
# vocab_size 62509, activation swish
OPUS_MT_CS_EN = {"d_model": 512, "layers": 6, "heads": 8, "ffn": 2048, "vocab_total": 62509}


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def write_results(path: str | None, results: dict) -> None:
    """`results` as indented JSON at `path` (nothing when None)."""
    if path:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        Path(path).write_text(json.dumps(results, indent=2) + "\n")


def length_batches(lengths: list[int], batch_tokens: int) -> list[list[int]]:
    from paranmt.models.nmt.stage import token_budget_batches

    return token_budget_batches(lengths, batch_tokens)


def build_models(work: Path, vmap_files: tuple[str, str] | None = None) -> tuple[Path, Path]:
    from paranmt.models.nmt.hf_build import build_hf_model
    from paranmt.pipelines.cli import main

    cs = (BITEXT / "newstest2012.ces").read_text(encoding="utf-8").splitlines()
    en = (BITEXT / "newstest2012.eng").read_text(encoding="utf-8").splitlines()
    hf_dir, ct2_dir = work / "opus-mt-cs-en-random", work / "opus-mt-cs-en-random-ct2-int8"
    size = OPUS_MT_CS_EN
    build_hf_model("marian", str(hf_dir), cs, en, vocab_size=8000, d_model=size["d_model"], layers=size["layers"],
                   heads=size["heads"], ffn=size["ffn"], init_std=0.02, marian_vocab_total=size["vocab_total"])
    vmap = ["--vmap-source", vmap_files[0], "--vmap-target", vmap_files[1]] if vmap_files else []
    assert main(["convert-nmt", "--transformers", str(hf_dir), "--output", str(ct2_dir),
                 "--quantization", "int8", *vmap]) == 0
    return hf_dir, ct2_dir


def run(hf_dir: Path, ct2_dir: Path, sentences: list[str], beams: list[int], threads: int, batch_tokens: int,
        target_ratio: float, vmap: bool = False, beam_sentences: dict[int, int] | None = None) -> dict:
    """Per beam: each system's CPU and wall seconds over the same batches of the first `beam_sentences[beam]`
    sentences (default all), and each CTranslate2 system's speed ratio to transformers."""
    from paranmt.models.nmt.translator import open_translator

    systems = {"transformers": open_translator(str(hf_dir), "transformers", "cpu", threads),
               "ctranslate2-int8": open_translator(str(ct2_dir), "ctranslate2", "cpu", threads)}
    if vmap:
        systems["ctranslate2-int8-vmap"] = open_translator(str(ct2_dir), "ctranslate2", "cpu", threads,
                                                           use_vmap=True)
    results = {}
    for beam in beams:
        used = sentences[: (beam_sentences or {}).get(beam, len(sentences))]
        lengths = systems["ctranslate2-int8"].count_tokens(used)
        assert lengths == systems["transformers"].count_tokens(used), "the two systems tokenize differently"
        batches = length_batches(lengths, batch_tokens)
        totals = {name: {"cpu_s": 0.0, "wall_s": 0.0, "target_tokens": 0} for name in systems}
        for number, batch in enumerate(batches, 1):
            if number % 5 == 0:
                print(f"beam {beam}: batch {number}/{len(batches)}, CPU s so far "
                      f"{ {n: round(t['cpu_s']) for n, t in totals.items()} }", file=sys.stderr, flush=True)
            target = max(4, round(target_ratio * max(lengths[i] for i in batch)))
            for name, translator in systems.items():             # alternate the systems batch by batch
                translator.min_length = translator.max_target_tokens = target
                cpu, wall = cpu_seconds(), time.perf_counter()
                outputs = translator.translate([used[i] for i in batch], beam)
                totals[name]["cpu_s"] += cpu_seconds() - cpu
                totals[name]["wall_s"] += time.perf_counter() - wall
                assert all(o.length == target for o in outputs), (name, [o.length for o in outputs], target)
                totals[name]["target_tokens"] += target * len(batch)
        for name, total in totals.items():
            total["sentences_per_cpu_s"] = len(used) / total["cpu_s"]
            total["sentences_per_wall_s"] = len(used) / total["wall_s"]
        baseline = dict(totals["transformers"])
        for name in systems:
            if name != "transformers":
                totals[name]["ratio_cpu"] = totals[name]["sentences_per_cpu_s"] / baseline["sentences_per_cpu_s"]
                totals[name]["ratio_wall"] = totals[name]["sentences_per_wall_s"] / baseline["sentences_per_wall_s"]
        totals["sentences"] = len(used)
        totals["load_average"] = list(os.getloadavg())
        results[f"beam{beam}"] = totals
        print(json.dumps({f"beam{beam}": totals}, indent=2), flush=True)
    return results


def main() -> int:
    parser = CommandLineParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sentences", type=int, default=500)
    parser.add_argument("--source", default=str(BITEXT / "newstest2017.ces"))
    parser.add_argument("--beams", type=int, nargs="+", default=[4, 12])
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--batch-tokens", type=int, default=2048, help="the translate stage's default budget")
    parser.add_argument("--target-ratio", type=float, default=1.0)
    parser.add_argument("--beam-sentences", nargs="*", default=[], metavar="BEAM=N",
                        help="translate only the first N sentences at that beam (e.g. 12=120)")
    parser.add_argument("--vmap", action="store_true", help="also run CTranslate2 int8 with its vocabulary map")
    parser.add_argument("--vmap-source", help="source side of the map's bitext (default: newstest2012.ces)")
    parser.add_argument("--vmap-target", help="target side (default: newstest2012.eng)")
    parser.add_argument("--work", help="where to build the models (default: a temporary directory)")
    parser.add_argument("--output", help="write the results as JSON here")
    args = parser.parse_args()
    from sacremoses import MosesPunctNormalizer

    normalizer = MosesPunctNormalizer(lang="cs")
    lines = [normalizer.normalize(s) for s in read_text(args.source, "--source").splitlines() if s.strip()]
    sentences = lines[500: 500 + args.sentences]
    with tempfile.TemporaryDirectory() as scratch:
        work = Path(args.work or scratch)
        start = time.perf_counter()
        vmap_files = ((args.vmap_source or str(BITEXT / "newstest2012.ces"),
                       args.vmap_target or str(BITEXT / "newstest2012.eng")) if args.vmap else None)
        if (work / "opus-mt-cs-en-random-ct2-int8" / "model.bin").exists():      # built by an earlier run
            hf_dir, ct2_dir = work / "opus-mt-cs-en-random", work / "opus-mt-cs-en-random-ct2-int8"
        else:
            hf_dir, ct2_dir = build_models(work, vmap_files)
        print(f"built and converted in {time.perf_counter() - start:.0f} s", file=sys.stderr)
        results = {"model": dict(OPUS_MT_CS_EN, source="Helsinki-NLP/opus-mt-cs-en config.json, random weights"),
                   "sentences": len(sentences), "source": args.source, "threads": args.threads,
                   "batch_tokens": args.batch_tokens, "target_ratio": args.target_ratio, "vmap_files": vmap_files,
                   "command": "python " + " ".join(sys.argv), "started": time.strftime("%Y-%m-%d %H:%M:%S UTC",
                                                                                        time.gmtime()),
                   "load_average_at_start": list(os.getloadavg()),
                   **run(hf_dir, ct2_dir, sentences, args.beams, args.threads, args.batch_tokens,
                         args.target_ratio, args.vmap,
                         {int(b): int(n) for b, n in (item.split("=") for item in args.beam_sentences)})}
    write_results(args.output, results)
    return 0


if __name__ == "__main__":
    sys.exit(exit_code(main))
