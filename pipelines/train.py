"""`paranmt train`: train a paraphrastic sentence encoder with the mega-batch contrastive trainer.

Inputs (`--train`, one or more; format detected or given by `--format`): a shard directory of `paranmt build`
(top-level *.parquet, pairs ref/bt), a filtered corpus (Parquet, same schema), a TSV of pairs (`side1 TAB side2`),
or bitext as a Moses two-file prefix (`PREFIX.en` + `PREFIX.cs`, or `.eng`/`.ces`; English first). Settings come
from TrainConfig defaults <- `--config YAML` <- flags. Rerun with `--resume` to continue from the checkpoint.
"""
from __future__ import annotations

import json
import logging
from pathlib import Path

from paranmt.models.encoders import ENCODER_KINDS
from paranmt.models.training.data import FORMATS, TrainingDataError, read_pairs
from paranmt.models.training.trainer import TrainConfig, TrainConfigError, Trainer
from paranmt.schemas.config import ConfigError, load_config

log = logging.getLogger(__name__)

# flag name -> TrainConfig field (flags left at None keep the YAML/default value)
FLAG_FIELDS = ("encoder", "mode", "dim", "hidden", "recurrent_units", "vocab_size", "sp_vocab_size", "sp_model",
               "batch_size", "margin", "epochs", "lr", "megabatch_size", "anneal_every", "negatives", "dropout",
               "word_dropout", "scramble", "max_words", "seed", "max_steps", "time_budget_minutes",
               "checkpoint_every", "log_every", "dev_sts_dir", "weights_dtype", "threads", "device")


def load_train_config(path: str | None, overrides: dict) -> TrainConfig:
    """TrainConfig defaults <- YAML mapping (yaml.safe_load) <- non-None overrides; validated."""
    config = load_config(TrainConfig, path, overrides, what="training config")
    try:
        return config.validate()
    except TrainConfigError as error:
        raise ConfigError(str(error)) from None


def run(args) -> int:
    config = load_train_config(args.config, {name: getattr(args, name) for name in FLAG_FIELDS})
    suffixes = tuple(args.suffixes.split(",")) if args.suffixes else None
    if suffixes is not None and len(suffixes) != 2:
        raise ConfigError("--suffixes needs exactly two suffixes, e.g. en,cs")
    try:
        pairs, counts = read_pairs(args.train, args.format, suffixes, config.max_words)
    except (TrainingDataError, OSError) as error:
        raise ConfigError(str(error)) from None
    if not pairs:
        raise ConfigError(f"no usable training pairs in {args.train} ({counts})")
    log.info("training pairs: %d kept of %d read; skipped %s", counts.kept, counts.read, counts.skipped)
    output = Path(args.output)
    output.mkdir(parents=True, exist_ok=True)
    (output / "train_data.json").write_text(json.dumps(
        {"inputs": args.train, "format": args.format, "read": counts.read, "kept": counts.kept,
         "skipped": counts.skipped}, indent=2) + "\n")
    Trainer(config, output).fit(pairs, resume=args.resume)
    log.info("encoder saved to %s", output)
    return 0


def register(subparsers) -> None:
    parser = subparsers.add_parser("train", help="train a paraphrastic sentence encoder", description=__doc__)
    parser.add_argument("--train", nargs="+", required=True, metavar="PATH", help="training input(s)")
    parser.add_argument("--format", choices=FORMATS, default="auto")
    parser.add_argument("--suffixes", help="Moses suffixes SIDE1,SIDE2 (default: en,cs or eng,ces)")
    parser.add_argument("--output", required=True, help="output directory (encoder, metrics.jsonl, checkpoint/)")
    parser.add_argument("--config", help="training YAML (keys = TrainConfig fields), e.g. configs/train/sp-bitext.yaml")
    parser.add_argument("--resume", action="store_true", help="continue from <output>/checkpoint")
    parser.add_argument("--encoder", choices=ENCODER_KINDS)
    parser.add_argument("--mode", choices=("monolingual", "bilingual"))
    parser.add_argument("--negatives", choices=("max", "mix", "rand"))
    parser.add_argument("--recurrent-units", dest="recurrent_units", choices=("word", "sp"))
    parser.add_argument("--weights-dtype", dest="weights_dtype", choices=("float32", "float16"))
    parser.add_argument("--sp-model", dest="sp_model", help="existing sentencepiece model for sp encoders")
    parser.add_argument("--device", choices=("auto", "cpu", "cuda"), help="training device (default auto)")
    parser.add_argument("--dev-sts-dir", dest="dev_sts_dir", help="STS root; STS2017 en-en is scored each epoch")
    for name, kind in (("dim", int), ("hidden", int), ("vocab_size", int), ("sp_vocab_size", int),
                       ("batch_size", int), ("margin", float), ("epochs", int), ("lr", float),
                       ("megabatch_size", int), ("anneal_every", int), ("dropout", float), ("word_dropout", float),
                       ("scramble", float), ("max_words", int), ("seed", int), ("max_steps", int),
                       ("time_budget_minutes", float), ("checkpoint_every", int), ("log_every", int),
                       ("threads", int)):
        parser.add_argument("--" + name.replace("_", "-"), dest=name, type=kind)
    parser.set_defaults(func=run, **{name: None for name in FLAG_FIELDS})
