"""CTranslate2 decoding settings on one model (issue 25, "decoding at the limit"), each part side by side in one run.

Parts (`--parts`):
- `agreement`: unrestricted decoding vs the vocabulary map (`use_vmap`), per map source (`--maps`):
  `bitext` (convert-nmt's map from `--vmap-source/--vmap-target`), `self` (from the model's own translations of
  `--self-source`, convert-nmt with `--vmap-source` alone), `existing` (the model's own ct2/vmap.txt). Reported per
  beam: the share of identical best hypotheses, BLEU and chrF against `--reference` (when given) and their
  difference to unrestricted decoding, sentences per CPU-second, and the restricted output layer's mean size per
  batch (the map's candidates for the batch's source pieces plus the always-candidates; CTranslate2 adds the
  special tokens).
- `batching`: who cuts the batches, unrestricted: the translate stage (`token_budget_batches`: rows x longest
  source <= `--batch-tokens`, one `translate_batch` call per batch: "stage"), or CTranslate2 from one call per
  `--group` sentences with `max_batch_size=--batch-tokens, batch_type="tokens"` ("ct2-tokens") or
  `max_batch_size=--batch-examples, batch_type="examples"` ("ct2-examples"); whether outputs stay identical.
- `threads`: intra_threads 1 / inter 1, intra 2 / inter 1, intra 1 / inter 2 (CTranslate2 runs the sub-batches of
  one ct2-tokens call in parallel), CPU and wall seconds.
Systems alternate chunk by chunk (`--group` sentences); throughput is sentences per CPU-second of this process
(resource.getrusage: robust to other jobs on the machine); wall time is printed too. Nothing is downloaded.

    python benchmarks/bench_ct2_settings.py --model assets/nmt-cs-en --parts agreement batching threads \\
        --maps bitext self --vmap-source train.cs --vmap-target train.en --self-source mono.cs \\
        --source newstest2017.ces --reference newstest2017.eng --skip 500 --sentences 1000 --beams 4 12 \\
        --work work/ct2-settings --output ct2_settings.json
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time
from pathlib import Path

from bench_hf_translate import BITEXT, REPO, cpu_seconds, write_results

from paranmt.models.files import read_text
from paranmt.pipelines.cli import CommandLineParser, exit_code


def chunks(items: list, size: int) -> list[list]:
    return [items[start: start + size] for start in range(0, len(items), size)]


def model_copy(model: Path, destination: Path) -> Path:
    """The model directory without its fairseq checkpoint (the ct2 backend does not read it)."""
    if not destination.exists():
        shutil.copytree(model, destination, ignore=shutil.ignore_patterns("fairseq", "vmap.txt"))
    return destination


def read_map(ct2_dir: Path) -> tuple[set[str], dict[str, list[str]]]:
    lines = (ct2_dir / "vmap.txt").read_text(encoding="utf-8").splitlines()
    mapping = {}
    always: set[str] = set()
    for line in lines:
        key, _, targets = line.partition("\t")
        if key:
            mapping[key] = targets.split()
        else:
            always = set(targets.split())
    return always, mapping


def restricted_size(translator, sentences: list[str], always: set[str], mapping: dict[str, list[str]]) -> int:
    """Target tokens the map allows for one batch (before CTranslate2 adds the special tokens)."""
    allowed = set(always)
    for pieces in translator.pieces(sentences):
        for piece in pieces:
            allowed.update(mapping.get(piece, ()))
    return len(allowed)


def timed(call):
    cpu, wall = cpu_seconds(), time.perf_counter()
    result = call()
    return result, cpu_seconds() - cpu, time.perf_counter() - wall


def agreement(args, sentences: list[str], references: list[str] | None, work: Path) -> dict:
    import sacrebleu

    from paranmt.models.nmt.stage import token_budget_batches
    from paranmt.models.nmt.translator import open_translator
    from paranmt.models.nmt.vmap import make_vmap

    model = Path(args.model)
    systems = {"unrestricted": open_translator(str(model), device="cpu", threads=1,
                                               max_target_tokens=args.max_target_tokens)}
    maps = {}
    for name in args.maps:
        if name == "existing":
            directory = model
        else:
            directory = model_copy(model, work / f"model-vmap-{name}")
            if not (directory / "ct2" / "vmap.txt").exists():
                cpu = cpu_seconds()
                sizes = {"per_source": args.vmap_per_source, "common": args.vmap_common}
                if name == "bitext":
                    make_vmap(str(directory), Path(args.vmap_source), Path(args.vmap_target), args.vmap_pairs,
                              **sizes)
                else:
                    make_vmap(str(directory), Path(args.self_source), None, args.vmap_pairs, threads=1, **sizes)
                print(f"map {name}: built in {cpu_seconds() - cpu:.0f} CPU s", file=sys.stderr, flush=True)
        translator = open_translator(str(directory), device="cpu", threads=1, use_vmap=True,
                                     max_target_tokens=args.max_target_tokens)
        systems[f"vmap-{name}"] = translator
        always, mapping = read_map(translator.model.ct2_dir)
        maps[name] = {"always": len(always), "source_pieces": len(mapping),
                      "candidates_per_piece": round(sum(map(len, mapping.values())) / max(1, len(mapping)), 1),
                      "bytes": (translator.model.ct2_dir / "vmap.txt").stat().st_size, "table": (always, mapping)}
    vocabulary = len(json.loads((systems["unrestricted"].model.ct2_dir / "shared_vocabulary.json").read_text())
                     ) if (systems["unrestricted"].model.ct2_dir / "shared_vocabulary.json").exists() else None
    lengths = systems["unrestricted"].count_tokens(sentences)
    batches = token_budget_batches(lengths, args.batch_tokens)
    results = {"maps": {n: {k: v for k, v in m.items() if k != "table"} for n, m in maps.items()},
               "target_vocabulary": vocabulary}
    for beam in args.beams:
        outputs = {name: [""] * len(sentences) for name in systems}
        totals = {name: {"cpu_s": 0.0, "wall_s": 0.0} for name in systems}
        sizes = {name: [] for name in maps}
        for number, batch in enumerate(batches, 1):
            texts = [sentences[i] for i in batch]
            for name, translator in systems.items():
                translations, cpu, wall = timed(lambda: translator.translate(texts, beam))
                totals[name]["cpu_s"] += cpu
                totals[name]["wall_s"] += wall
                for index, translation in zip(batch, translations):
                    outputs[name][index] = translation.text
            for name, table in maps.items():
                sizes[name].append(restricted_size(systems["unrestricted"], texts, *table["table"]))
            if number % 10 == 0:
                print(f"agreement beam {beam}: batch {number}/{len(batches)}", file=sys.stderr, flush=True)
        row = {}
        for name, total in totals.items():
            entry = {"cpu_s": round(total["cpu_s"], 2), "wall_s": round(total["wall_s"], 2),
                     "sentences_per_cpu_s": round(len(sentences) / total["cpu_s"], 2)}
            if name != "unrestricted":
                entry["identical_best"] = round(sum(a == b for a, b in zip(outputs[name], outputs["unrestricted"]))
                                                / len(sentences), 4)
                entry["speed_ratio_cpu"] = round(totals["unrestricted"]["cpu_s"] / total["cpu_s"], 3)
                entry["mean_restricted_vocabulary"] = round(sum(sizes[name[5:]]) / len(sizes[name[5:]]))
            if references:
                entry["bleu"] = round(sacrebleu.corpus_bleu(outputs[name], [references]).score, 2)
                entry["chrf"] = round(sacrebleu.corpus_chrf(outputs[name], [references]).score, 2)
            row[name] = entry
        if references:
            for name, entry in row.items():
                entry["bleu_diff"] = round(entry["bleu"] - row["unrestricted"]["bleu"], 2)
                entry["chrf_diff"] = round(entry["chrf"] - row["unrestricted"]["chrf"], 2)
        row["load_average"] = list(os.getloadavg())
        results[f"beam{beam}"] = row
        print(json.dumps({f"agreement beam{beam}": row}, indent=2), flush=True)
    return results


def ct2_call(translator, sentences: list[str], beam: int, **batching) -> list[str]:
    """Best hypotheses of one translate_batch call with the decoding options of CTranslate2Translator.translate
    (no forced target prefix: the models measured here have none)."""
    outputs = translator.ct2.translate_batch(translator.source_tokens(sentences), beam_size=beam, length_penalty=1.0,
                                             max_decoding_length=translator.max_target_tokens,
                                             min_decoding_length=translator.min_length, **batching)
    return [translator.detokenize(output.hypotheses[0]) for output in outputs]


def stage_batches(translator, sentences: list[str], beam: int, batch_tokens: int) -> list[str]:
    """The translate stage's batching: token_budget_batches, one call each (what TranslateStage does)."""
    from paranmt.models.nmt.stage import token_budget_batches

    outputs = [""] * len(sentences)
    for batch in token_budget_batches(translator.count_tokens(sentences), batch_tokens):
        for index, text in zip(batch, ct2_call(translator, [sentences[i] for i in batch], beam)):
            outputs[index] = text
    return outputs


def compare(systems: dict, sentences: list[str], beams: list[int], group: int, label: str) -> dict:
    """Each system (name -> function(sentences, beam) -> texts) on the same chunks, alternating chunk by chunk."""
    results = {}
    for beam in beams:
        totals = {name: {"cpu_s": 0.0, "wall_s": 0.0} for name in systems}
        outputs = {name: [] for name in systems}
        for chunk in chunks(sentences, group):
            for name, run in systems.items():
                texts, cpu, wall = timed(lambda: run(chunk, beam))
                totals[name]["cpu_s"] += cpu
                totals[name]["wall_s"] += wall
                outputs[name] += texts
        first = next(iter(systems))
        row = {}
        for name, total in totals.items():
            row[name] = {"cpu_s": round(total["cpu_s"], 2), "wall_s": round(total["wall_s"], 2),
                         "sentences_per_cpu_s": round(len(sentences) / total["cpu_s"], 2),
                         "sentences_per_wall_s": round(len(sentences) / total["wall_s"], 2),
                         f"identical_to_{first}": round(sum(a == b for a, b in zip(outputs[name], outputs[first]))
                                                        / len(sentences), 4)}
        row["load_average"] = list(os.getloadavg())
        results[f"beam{beam}"] = row
        print(json.dumps({f"{label} beam{beam}": row}, indent=2), flush=True)
    return results


def batching(args, sentences: list[str]) -> dict:
    from paranmt.models.nmt.translator import open_translator

    translator = open_translator(args.model, device="cpu", threads=1)
    systems = {"stage": lambda s, b: stage_batches(translator, s, b, args.batch_tokens),
               "ct2-tokens": lambda s, b: ct2_call(translator, s, b, max_batch_size=args.batch_tokens,
                                                   batch_type="tokens"),
               "ct2-examples": lambda s, b: ct2_call(translator, s, b, max_batch_size=args.batch_examples,
                                                     batch_type="examples")}
    return compare(systems, sentences, args.beams, args.group, "batching")


def threads(args, sentences: list[str]) -> dict:
    import ctranslate2

    from paranmt.models.nmt.translator import open_translator

    settings = {"intra1-inter1": (1, 1), "intra2-inter1": (2, 1), "intra1-inter2": (1, 2)}
    systems = {}
    for name, (intra, inter) in settings.items():
        translator = open_translator(args.model, device="cpu", threads=1)
        translator.ct2 = ctranslate2.Translator(str(translator.model.ct2_dir), device="cpu",
                                                compute_type=translator.compute_type, intra_threads=intra,
                                                inter_threads=inter)
        systems[name] = (lambda t: lambda s, b: ct2_call(t, s, b, max_batch_size=args.batch_tokens,
                                                         batch_type="tokens"))(translator)
    return compare(systems, sentences, args.beams, args.group, "threads")


def main() -> int:
    parser = CommandLineParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", default=str(REPO / "assets" / "nmt-cs-en"))
    parser.add_argument("--parts", nargs="+", default=["agreement", "batching", "threads"],
                        choices=("agreement", "batching", "threads"))
    parser.add_argument("--maps", nargs="+", default=["bitext"], choices=("bitext", "self", "existing"))
    parser.add_argument("--vmap-source", help="bitext source side for the `bitext` map")
    parser.add_argument("--vmap-target", help="bitext target side for the `bitext` map")
    parser.add_argument("--self-source", help="monolingual source text for the `self` map")
    parser.add_argument("--vmap-pairs", type=int, default=100_000)
    parser.add_argument("--vmap-per-source", type=int, default=20, help="map candidates per source piece")
    parser.add_argument("--vmap-common", type=int, default=300, help="the map's always-candidates")
    parser.add_argument("--source", default=str(BITEXT / "newstest2017.ces"))
    parser.add_argument("--reference", help="references aligned with --source (BLEU/chrF)")
    parser.add_argument("--skip", type=int, default=500, help="lines of --source to skip (the shipped model's "
                        "validation lines of newstest2017)")
    parser.add_argument("--sentences", type=int, default=1000)
    parser.add_argument("--batching-sentences", type=int, default=1000, help="sentences of the batching part")
    parser.add_argument("--thread-sentences", type=int, default=300, help="sentences of the threads part")
    parser.add_argument("--max-target-tokens", type=int, default=200, help="the agreement part's output limit "
                        "(the translate stage's is 200; lower it for a random model, whose outputs run to it)")
    parser.add_argument("--beams", type=int, nargs="+", default=[4, 12])
    parser.add_argument("--batch-tokens", type=int, default=2048, help="the translate stage's default budget")
    parser.add_argument("--batch-examples", type=int, default=64)
    parser.add_argument("--group", type=int, default=256, help="sentences per alternation chunk / ct2 call")
    parser.add_argument("--work", required=True, help="where to write the model copies with their maps")
    parser.add_argument("--output", help="write the results as JSON here")
    args = parser.parse_args()
    from sacremoses import MosesPunctNormalizer

    normalizer = MosesPunctNormalizer(lang="cs")
    sources = read_text(args.source, "--source").splitlines()[args.skip: args.skip + args.sentences]
    sentences = [normalizer.normalize(s) for s in sources]
    references = (read_text(args.reference, "--reference").splitlines()[args.skip: args.skip + args.sentences]
                  if args.reference else None)
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    results = {"command": "python " + " ".join(sys.argv), "model": args.model, "sentences": len(sentences),
               "started": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
               "load_average_at_start": list(os.getloadavg())}
    if "agreement" in args.parts:
        results["agreement"] = agreement(args, sentences, references, work)
    if "batching" in args.parts:
        results["batching"] = batching(args, sentences[: args.batching_sentences])
    if "threads" in args.parts:
        results["threads"] = threads(args, sentences[: args.thread_sentences])
    write_results(args.output, results)
    return 0


if __name__ == "__main__":
    sys.exit(exit_code(main))
