"""`paranmt train-paraphraser`: train an SCPN, parse-generator or plain paraphraser (docs/paraphrase.md, Training).

    paranmt train-paraphraser --input SHARDS_OR_TSV [...] --output DIR --task scpn|parse-generator|plain
                              [--arch scpn|transformers] [--from-sentences] [--config YAML] [--resume] [flags]

Inputs (models/generation/data.py): `paranmt build` shard directories / Parquet files (ref, bt and their parses),
`paranmt export --format scpn` TSV, pair TSV (`s1 TAB s2`, or a header naming ref, bt[, ref_parse, bt_parse]);
with `--from-sentences`, text files of English sentences (SynPG-style training without paraphrase pairs).
Sentences without a parse are parsed with `--parser` (default assets/parser-en); parses are cached in
`--parse-cache` (default DIR/parses.tsv). `--dev` takes held-out inputs of the same kind (held-out loss at each
checkpoint). Settings: ParaphraserTrainConfig defaults <- `--config YAML` <- flags. Rerun with `--resume` to
continue from DIR/checkpoint.
"""
from __future__ import annotations

import json
import logging

from paranmt.schemas.config import ConfigError, asset_path, load_config, make_output_dir

log = logging.getLogger(__name__)


def load_instances(paths: list[str], config, from_sentences: bool, cache, parser_dir: str):
    from paranmt.models.generation.data import (fill_parses, pair_instances, read_pairs, read_sentences,
                                                sentence_instances)

    if from_sentences:
        sentences = read_sentences(paths)
        parses = cache.parse(sentences, parser_dir) if config.task == "scpn" else {}
        instances, counts = sentence_instances(config.task, sentences, parses, config.max_words)
        return instances, counts, [parses.get(s) for s in sentences if parses.get(s)]
    pairs = read_pairs(paths)
    fill_parses(pairs, cache, parser_dir, config.task)
    instances, counts = pair_instances(config.task, pairs, config.require_different, config.max_words)
    return instances, counts, [p for pair in pairs for p in (pair.p1, pair.p2) if p]


def run(args) -> int:
    from paranmt.models.generation.data import GenerationDataError, ParseCache, top_templates
    from paranmt.models.generation.train import ParaphraserTrainConfig, ParaphraserTrainer
    from paranmt.models.parsing.parser import ParserModelError, model_files
    from paranmt.models.training.trainer import TrainConfigError

    overrides = {name: getattr(args, name) for name in FLAG_FIELDS + ("copy",)}
    config = load_config(ParaphraserTrainConfig, args.config, overrides, what="paraphraser training config")
    try:
        config.validate()
    except TrainConfigError as error:
        raise ConfigError(str(error)) from None
    output = make_output_dir(args.output)
    parser_dir = asset_path(args.parser)
    cache = ParseCache(args.parse_cache or output / "parses.tsv")
    try:
        if config.task != "plain":
            model_files(parser_dir)
        instances, counts, parses = load_instances(args.input, config, args.from_sentences, cache, parser_dir)
        dev = load_instances(args.dev, config, args.from_sentences, cache, parser_dir)[0] if args.dev else []
    except (GenerationDataError, ParserModelError, OSError) as error:
        raise ConfigError(str(error)) from None
    if not instances:
        raise ConfigError(f"no training instances in {', '.join(args.input)} ({counts.as_dict()})")
    log.info("training instances: %d from %d inputs read; skipped %s", counts.instances, counts.read,
             dict(counts.skipped))
    templates = top_templates(parses, 20)
    info = {"inputs": args.input, "from_sentences": args.from_sentences, "data": counts.as_dict(),
            "dev_instances": len(dev), "parser": parser_dir if config.task != "plain" else None}
    (output / "train_data.json").write_text(json.dumps(info, indent=2) + "\n")
    try:
        ParaphraserTrainer(config, output).fit(instances, templates, dev, resume=args.resume, training_info=info)
    except (TrainConfigError, ValueError) as error:
        if isinstance(error, TrainConfigError) or "device" in str(error):
            raise ConfigError(str(error)) from None
        raise
    log.info("paraphraser saved to %s", output)
    return 0


# ParaphraserTrainConfig field -> help of its flag (--field-name; the default is appended)
FLAG_HELP = {
    "task": "scpn: (sentence, target parse) -> paraphrase; parse-generator: (parse, target template) -> parse; "
            "plain: sentence -> paraphrase",
    "arch": "scpn: BiLSTM encoder, parse encoder, 2-layer LSTM decoder with attention and copy; transformers: a "
            "Hugging Face encoder-decoder (--hf-model to fine-tune, else a small Marian from scratch)",
    "require_different": "keep only pairs whose sides differ at this level (template / full parse / none)",
    "max_words": "skip pairs or sentences with a longer side (whitespace words)",
    "vocab_size": "sentencepiece vocabulary trained on the data",
    "embed_dim": "unit embedding size (arch scpn)",
    "hidden": "encoder output and decoder size (arch scpn)",
    "parse_embed_dim": "parse token embedding size (arch scpn)",
    "parse_hidden": "parse encoder output size (arch scpn)",
    "decoder_layers": "decoder LSTM layers (arch scpn, >= 2)",
    "dropout": "dropout (arch scpn)",
    "max_source_units": "cut longer inputs (units / tokens)",
    "max_target_units": "cut longer targets; also the generation limit",
    "hf_model": "local Hugging Face seq2seq checkpoint directory to fine-tune (arch transformers)",
    "hf_d_model": "from-scratch Marian model size (arch transformers without --hf-model)",
    "hf_layers": "from-scratch Marian encoder and decoder layers",
    "hf_heads": "from-scratch Marian attention heads",
    "hf_ffn": "from-scratch Marian feed-forward size",
    "separator": "token between sentence and condition in the transformers input",
    "batch_size": "instances per update",
    "lr": "Adam learning rate",
    "epochs": "passes over the training instances",
    "max_steps": "stop after this many updates in total (0: no limit)",
    "time_budget_minutes": "stop after this much training time in total (0: no limit)",
    "clip_norm": "gradient norm clipping",
    "checkpoint_every": "write DIR/checkpoint every N updates (and at the end)",
    "log_every": "log loss and instances/s to DIR/metrics.jsonl every N updates",
    "seed": "random seed (data order, shuffles, initialization)",
    "threads": "CPU threads of torch",
    "device": "training device: auto = CUDA when available",
    "fp16": "half-precision training: auto = on CUDA",
    "weights_dtype": "dtype of the saved weights (arch scpn; float16 halves the size)",
}
FLAG_FIELDS = tuple(FLAG_HELP)
FLAG_CHOICES = {"task": ("scpn", "parse-generator", "plain"), "arch": ("scpn", "transformers"),
                "require_different": ("template", "parse", "none"), "device": ("auto", "cpu", "cuda"),
                "fp16": ("auto", "on", "off"), "weights_dtype": ("float32", "float16")}


def register(subparsers) -> None:
    from paranmt.models.generation.train import ParaphraserTrainConfig
    from paranmt.pipelines.train import add_config_flags

    parser = subparsers.add_parser("train-paraphraser", help="train an SCPN / parse-generator / plain paraphraser "
                                   "on shards, SCPN TSV, pair TSV or single sentences", description=__doc__)
    parser.add_argument("--input", nargs="+", required=True, metavar="PATH", help="training inputs")
    parser.add_argument("--output", required=True, help="model directory (also checkpoint/, metrics.jsonl)")
    parser.add_argument("--from-sentences", action="store_true",
                        help="inputs are English sentences, one a line: (shuffled words, own parse) -> sentence")
    parser.add_argument("--dev", nargs="+", metavar="PATH", help="held-out inputs (loss at each checkpoint)")
    parser.add_argument("--parser", default="assets/parser-en", help="parser model directory (default %(default)s)")
    parser.add_argument("--parse-cache", help="parse cache TSV to reuse and extend (default DIR/parses.tsv)")
    parser.add_argument("--config", help="YAML with ParaphraserTrainConfig keys")
    parser.add_argument("--resume", action="store_true", help="continue from DIR/checkpoint")
    add_config_flags(parser, ParaphraserTrainConfig, FLAG_HELP, FLAG_CHOICES)
    parser.add_argument("--no-copy", dest="copy", action="store_false", default=None,
                        help="no copy mechanism (arch scpn)")
    parser.set_defaults(func=run, **{name: None for name in FLAG_FIELDS})
