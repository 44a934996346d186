"""Parser speed and choice (issue 25): where a parse's CPU time goes, what the stanza settings buy, and how parsers
compare on speed and held-out template accuracy.

All times are CPU seconds of this process (`time.process_time`; the machine is shared, see bench_parse.py), models
loaded before the clock starts, on N distinct newstest2013 sentences (English side), CPU, `--threads` torch threads
unless a measurement says otherwise. Each timing is the fastest of `--repeat` runs, alternated across the variants.

1. components (`--models`, each): one stage-sized stanza call per `--batch` rows' sentences, split into
   - `ptb_tokenize` (the project's PTB tokenizer, done by the parse stage before stanza),
   - stanza `tokenize` (pretokenized: builds the Document, no model),
   - stanza `pos` (the tagger: char LSTM + word BiLSTM + classifiers),
   - stanza `constituency`, itself split into `word encoding` (embeddings + word BiLSTM, `initial_word_queues`)
     and `transitions` (the rest: one batched step per transition, stack LSTMs, output layers, tree building),
   - `linearize + template` (the stage's own work on the trees),
   - `other` (the pipeline call minus its processors).
2. settings (the first model): sentences per stanza call and per pos/constituency batch (`--batch-sizes`); calls
   bounded by tokens instead (`--batch-tokens`: all sentences sorted by length, cut at that many tokens, one model
   batch per call); torch threads 1 vs 2 (wall and CPU seconds: a second thread only pays with a free core).
3. comparison (`--models`, each): sentences/s and CPU seconds on the news sentences at `--batch`, and held-out
   quality on wsj_0160..0179 (the split of assets/parser-en's MANIFEST: gold tokens, predicted tags): exact
   top-two-level template match, labeled bracket F1, POS accuracy (models/parsing/evaluate.py). With
   `--gold-tags`, the first model is also scored on gold tags (stanza's pretagged path, no tagger): the accuracy a
   perfect tagger would give, and the time of the constituency model alone.

    python benchmarks/bench_parser_choice.py --models assets/parser-en OTHER_MODEL_DIR [--sentences 400]
        [--batch 64] [--batch-sizes 16 64 256] [--batch-tokens 1024 4096] [--threads 1] [--repeat 2] [--gold-tags] [--output results.json]
"""
from __future__ import annotations

import json
import sys
import time
from collections import Counter
from pathlib import Path

import torch

from paranmt.models.parsing import ptb
from paranmt.models.parsing.evaluate import score_parses
from paranmt.models.parsing.parser import StanzaParser
from paranmt.models.parsing.tokenize import ptb_tokenize
from paranmt.models.parsing.trees import linearize, parse_one, template
from paranmt.pipelines.cli import CommandLineParser, exit_code

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
HELD_OUT = (160, 179)


def news_sentences(count: int) -> list[str]:
    lines = (DATA / "bitext" / "cs-en" / "newstest2013.eng").read_text(encoding="utf-8").splitlines()
    return list(dict.fromkeys(line for line in lines if line.strip()))[:count]


def held_out_trees() -> list:
    files = sorted((DATA / "treebank" / "ptb-sample").glob("wsj_*.mrg"))
    test = ptb.split_files(files, dev=range(0), test=range(HELD_OUT[0], HELD_OUT[1] + 1))["test"]
    return [tree for path in test for tree in ptb.read_mrg(path)]


def components(parser: StanzaParser, texts: list[str], batch: int) -> Counter:
    """CPU seconds by component (see the module docstring) for `texts` in stage batches of `batch` rows."""
    seconds: Counter = Counter()
    pipeline = parser.pipeline
    model = pipeline.processors["constituency"]._model
    originals = {name: processor.process for name, processor in pipeline.processors.items()}
    original_queues = model.initial_word_queues

    def timed(name, function):
        def wrapper(*args, **kwargs):
            start = time.process_time()
            try:
                return function(*args, **kwargs)
            finally:
                seconds[name] += time.process_time() - start
        return wrapper

    for name, process in originals.items():
        pipeline.processors[name].process = timed(name, process)
    model.initial_word_queues = timed("word encoding", original_queues)
    try:
        for i in range(0, len(texts), batch):
            start = time.process_time()
            tokens = [ptb_tokenize(text) for text in texts[i:i + batch]]
            seconds["ptb_tokenize"] += time.process_time() - start
            start = time.process_time()
            document = pipeline(tokens)
            seconds["pipeline"] += time.process_time() - start
            start = time.process_time()
            for sentence in document.sentences:
                tree = parse_one("{}".format(sentence.constituency))
                linearize(tree), template(tree)
            seconds["linearize + template"] += time.process_time() - start
    finally:
        for name, process in originals.items():
            pipeline.processors[name].process = process
        del model.initial_word_queues
    seconds["transitions"] = seconds["constituency"] - seconds["word encoding"]
    seconds["other"] = seconds.pop("pipeline") - sum(seconds[name] for name in originals)
    return seconds


def stanza_seconds(parser: StanzaParser, tokens: list[list[str]], batch: int) -> tuple[float, float]:
    """(CPU, wall) seconds for stanza on pre-tokenized sentences, `batch` sentences per call."""
    return calls_seconds(parser, [tokens[i:i + batch] for i in range(0, len(tokens), batch)])


def calls_seconds(parser: StanzaParser, calls: list[list[list[str]]]) -> tuple[float, float]:
    """(CPU, wall) seconds for one stanza call per element of `calls`."""
    cpu, wall = time.process_time(), time.perf_counter()
    for call in calls:
        parser.pipeline(call)
    return time.process_time() - cpu, time.perf_counter() - wall


def token_bounded_calls(tokens: list[list[str]], max_tokens: int) -> list[list[list[str]]]:
    """The sentences sorted by length (longest first), cut into calls of at most `max_tokens` tokens (a longer
    sentence alone): batches by tokens instead of by sentences."""
    calls: list[list[list[str]]] = [[]]
    size = 0
    for sentence in sorted(tokens, key=len, reverse=True):
        if calls[-1] and size + len(sentence) > max_tokens:
            calls.append([])
            size = 0
        calls[-1].append(sentence)
        size += len(sentence)
    return calls


def held_out_quality(parser: StanzaParser, gold: list, gold_tags: bool = False) -> dict:
    """Scores on the held-out trees; `gold_tags` feeds the gold POS tags (stanza's pretagged path, no tagger)."""
    start = time.process_time()
    if gold_tags:
        from stanza.models.common.doc import Document
        document = Document([[{"id": i + 1, "text": word, "xpos": tag, "upos": tag}
                              for i, (word, tag) in enumerate(zip(tree.leaves(), tree.tags()))] for tree in gold])
        document = parser.pipeline.processors["constituency"].process(document)
        predicted = [parse_one("{}".format(sentence.constituency)) for sentence in document.sentences]
    else:
        predicted = parser.parse([tree.leaves() for tree in gold])
    seconds = time.process_time() - start
    scores = score_parses(gold, predicted)
    return {"exact_template_match": round(scores.exact_template_match, 4), "bracket_f1": round(scores.bracket_f1, 4),
            "pos_accuracy": round(scores.pos_accuracy, 4), "sentences": scores.sentences,
            "cpu_s": round(seconds, 2)}


def main() -> None:
    arguments = CommandLineParser(description=__doc__.splitlines()[0])
    arguments.add_argument("--models", nargs="+", default=["assets/parser-en"])
    arguments.add_argument("--sentences", type=int, default=400)
    arguments.add_argument("--batch", type=int, default=64, help="stage batch: rows (= sentences here) per call")
    arguments.add_argument("--batch-sizes", type=int, nargs="*", default=[16, 64, 256])
    arguments.add_argument("--batch-tokens", type=int, nargs="*", default=[1024, 4096],
                           help="token-bounded calls: sentences sorted by length, at most this many tokens a call")
    arguments.add_argument("--threads", type=int, default=1)
    arguments.add_argument("--repeat", type=int, default=2)
    arguments.add_argument("--gold-tags", action="store_true")
    arguments.add_argument("--skip", nargs="*", default=[], choices=["components", "settings", "comparison"])
    arguments.add_argument("--output", default=None, help="also write the results here (JSON)")
    args = arguments.parse_args()
    torch.set_num_threads(args.threads)
    texts = news_sentences(args.sentences)
    tokens = [ptb_tokenize(text) for text in texts]
    results: dict = {"sentences": len(texts), "words": sum(map(len, tokens)), "torch_threads": args.threads,
                     "batch": args.batch}
    parsers = {model: StanzaParser(model, device="cpu", batch_size=args.batch) for model in args.models}
    for parser in parsers.values():
        parser.pipeline(tokens[:8])  # warm-up

    if "components" not in args.skip:
        results["components"] = {}
        for model, parser in parsers.items():
            runs = [components(parser, texts, args.batch) for _ in range(args.repeat)]
            fastest = min(runs, key=lambda counts: sum(counts[k] for k in ("ptb_tokenize", "tokenize", "pos",
                                                                           "constituency", "linearize + template",
                                                                           "other")))
            results["components"][model] = {name: round(value, 3) for name, value in fastest.items()}

    if "settings" not in args.skip:
        first = args.models[0]
        sized = {size: StanzaParser(first, device="cpu", batch_size=size) for size in args.batch_sizes}
        runs: dict = {size: [] for size in args.batch_sizes}
        for _ in range(args.repeat):
            for size, parser in sized.items():
                runs[size].append(stanza_seconds(parser, tokens, size))
        results["batch_sizes"] = {size: {"cpu_s": round(min(r)[0], 2), "sent_per_cpu_s": round(len(tokens) / min(r)[0], 1)}
                                  for size, r in runs.items()}
        token_runs: dict = {limit: [] for limit in args.batch_tokens}
        for _ in range(args.repeat):
            for limit in args.batch_tokens:
                calls = token_bounded_calls(tokens, limit)
                # constituency/pos batch = the largest call's sentence count: one model batch per call
                parser = StanzaParser(first, device="cpu", batch_size=max(map(len, calls)))
                token_runs[limit].append(calls_seconds(parser, calls))
        results["batch_tokens"] = {limit: {"cpu_s": round(min(r)[0], 2),
                                           "sent_per_cpu_s": round(len(tokens) / min(r)[0], 1)}
                                   for limit, r in token_runs.items()}
        thread_runs: dict = {1: [], 2: []}
        for _ in range(args.repeat):
            for threads in thread_runs:
                torch.set_num_threads(threads)
                thread_runs[threads].append(stanza_seconds(parsers[first], tokens, args.batch))
        torch.set_num_threads(args.threads)
        results["threads"] = {threads: {"cpu_s": round(min(c for c, _ in r), 2), "wall_s": round(min(w for _, w in r), 2)}
                              for threads, r in thread_runs.items()}

    if "comparison" not in args.skip:
        gold = held_out_trees()
        runs = {model: [] for model in args.models}
        for _ in range(args.repeat):
            for model, parser in parsers.items():
                runs[model].append(stanza_seconds(parser, tokens, args.batch))
        results["comparison"] = {}
        for model, parser in parsers.items():
            cpu = min(c for c, _ in runs[model])
            results["comparison"][model] = {"cpu_s": round(cpu, 2), "sent_per_cpu_s": round(len(tokens) / cpu, 1),
                                            "held_out": held_out_quality(parser, gold)}
        if args.gold_tags:
            results["comparison"][args.models[0] + " (gold tags)"] = {
                "held_out": held_out_quality(parsers[args.models[0]], gold, gold_tags=True)}
    text = json.dumps(results, indent=1)
    print(text)
    if args.output:
        Path(args.output).write_text(text + "\n")


if __name__ == "__main__":
    sys.exit(exit_code(main))
