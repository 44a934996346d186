"""`paranmt train`: train a paraphrastic sentence encoder with the mega-batch contrastive trainer.

Inputs (`--train`, one or more; format detected or given by `--format`): a shard directory of `paranmt build`
(top-level *.parquet, pairs ref/bt), a filtered corpus (Parquet, same schema), a TSV of pairs (`side1 TAB side2`),
or bitext as a Moses two-file prefix (`PREFIX.en` + `PREFIX.cs`, or `.eng`/`.ces`; English first). Settings come
from TrainConfig defaults <- `--config YAML` (e.g. configs/train/sp-bitext.yaml) <- flags <- `--set KEY=VALUE`.

Output (docs/reliability.md, "Every command that writes"): an `--output` holding a model or a checkpoint of an earlier
run is refused unless `--resume` (continue from its checkpoint with the settings saved in <output>/train_config.json,
which the flags, `--config` and `--set` given override; refused when there is no checkpoint) or `--overwrite` (start
again) says what to do; an `--output` that is or holds an input is refused. Ctrl-C, SIGTERM or a full disk stop training
with one line naming what is kept and the `--resume` command (exit 130 / 143 / 1).
"""
from __future__ import annotations

import logging
from pathlib import Path

from paranmt.models.encoders import BASE_KINDS
from paranmt.models.training.data import FORMATS, TRAIN_DATA, load_training_pairs
from paranmt.models.training.loss import DISTANCES
from paranmt.models.training.negatives import STRATEGIES
from paranmt.models.training.trainer import DEV_AT, MODES, OBJECTIVES, TrainConfig, Trainer
from paranmt.pipelines.runtime.arguments import add_config_arguments, add_output_flags, load_command_config
from paranmt.pipelines.runtime.outputs import training_output
from paranmt.pipelines.runtime.rejects import (EXIT_REJECTS, add_reject_rate_flag, check_reject_rate, over_reject_rate,
                                               report_rejects)
from paranmt.schemas.config import DEVICES, WEIGHTS_DTYPES
from paranmt.schemas.errors import ConfigError

log = logging.getLogger(__name__)


def run(args) -> int:
    config = load_command_config(TrainConfig, args, FLAG_HELP, "training config", saved_in=lambda _: args.output)
    suffixes = tuple(args.suffixes.split(",")) if args.suffixes else None
    if suffixes is not None and len(suffixes) != 2:
        raise ConfigError("--suffixes needs exactly two suffixes, e.g. en,cs")
    check_reject_rate(args.max_reject_rate)
    output = Path(args.output)
    with training_output(args.output, [*args.train, config.sp_model, config.init_embeddings, config.dev_sts_dir],
                         args.resume, args.overwrite, getattr(args, "argv", None), "train", config, args.train):
        pairs, counts = load_training_pairs(args.train, args.format, output, suffixes, config.max_words)
        report_rejects("train", counts.rejects, counts.read, str(output / TRAIN_DATA))
        if over_reject_rate("train", counts.read - counts.kept, counts.read, args.max_reject_rate):
            return EXIT_REJECTS
        Trainer(config, output).fit(pairs, resume=args.resume)
    log.info("encoder saved to %s", output)
    return 0


# TrainConfig field -> help of its flag (--field-name; the field's default is appended); flags left at None keep the
# YAML/default value
FLAG_HELP = {
    "encoder": f"encoder architecture, one of {', '.join(BASE_KINDS)} (docs/encoders.md), or a sum "
               "(word+trigram+lstm) or concatenation (word,trigram) of any of them",
    "mode": "monolingual: English paraphrase pairs; bilingual: cs-en bitext (negatives from the other side)",
    "negatives": "negative per sentence in each mega-batch: the most similar (max), max or random half of the "
                 "time (mix), random (rand)",
    "recurrent_units": "units of the recurrent encoders and of add/proj/dan: words or sentencepiece pieces",
    "activation": "activation of dan and rnn (tanh, relu) and of charagram (tanh, linear)",
    "layers": "layers of dan",
    "peepholes": "peephole connections of lstm-og / lstm-nog (true/false)",
    "bidirectional_combine": "bigran: sum the directions (sum) or one tanh layer over both (ff)",
    "ngram_orders": "character n-gram orders of charagram",
    "ngram_min_count": "charagram keeps the n-grams seen at least this often in the training data",
    "weights_dtype": "dtype of the saved final weights (float16 halves the size)",
    "sp_model": "an existing sentencepiece model for sp encoders (else one is trained on the training data)",
    "device": "training device: auto = CUDA when available",
    "dev_sts_dir": "STS root folder; its STS2017 en-en (dev_datasets) is scored at each --dev-at and the best "
                   "model kept in <output>/best/",
    "dev_at": "score the dev STS at each epoch end (epoch) or at each checkpoint and the end (checkpoint)",
    "patience": "stop after N dev evaluations in a row without a new best (needs --dev-sts-dir; 0: off)",
    "dim": "embedding size",
    "hidden": "hidden size of the recurrent encoders (default: dim)",
    "vocab_size": "word / trigram vocabulary: the most frequent units of the training data",
    "sp_vocab_size": "vocabulary of the sentencepiece model trained on the data",
    "batch_size": "pairs per mini-batch (one Adam step)",
    "margin": "margin of the contrastive loss (delta; Elgohary & Carpuat tuned 1/10/100 for squared Euclidean)",
    "objective": "margin: the papers' two-sided hinge against mined negatives; bicvm: BiCVM's squared-Euclidean "
                 "hinge against --noise-samples random sentences (use with --encoder add)",
    "distance": "similarity of the margin objective: cosine, or minus the squared Euclidean distance (euclidean)",
    "noise_samples": "bicvm: random noise sentences per side (k)",
    "lambda_w": "L2 of the used embedding rows toward their initial values (lambda_w)",
    "lambda_c": "L2 of the composition parameters, toward 0 (iRNN: toward its identity initialization) (lambda_c)",
    "lambda_frobenius": "L2 of the used embedding rows toward 0 (BiCVM's (lambda/2)||W||_F^2 = this value)",
    "init_embeddings": "initial embeddings, matched row by unit: an encoder directory (e.g. assets/encoder-sp: its "
                       "word/trigram/sp tables; with its sp.model as --sp-model the sp table is copied whole) or a "
                       "word2vec/GloVe text file (words; sp pieces for an encoder without word units); dim must match",
    "epochs": "passes over the training pairs (0 saves the randomly initialized encoder)",
    "lr": "Adam learning rate",
    "megabatch_size": "mega-batch size M, in mini-batches: negatives are chosen among M x batch-size pairs",
    "anneal_every": "grow M by 1 every N mini-batches up to --megabatch-size (0: M fixed)",
    "dropout": "dropout on the embeddings",
    "word_dropout": "probability of dropping each word (unit) of a training sentence",
    "scramble": "probability of shuffling a pair's word order (default 0.3 for recurrent encoders, else 0)",
    "max_words": "skip training pairs with a longer side (whitespace words)",
    "seed": "random seed (data order, initialization, dropout)",
    "max_steps": "stop after this many mini-batches in total (0: no limit)",
    "time_budget_minutes": "stop after this much training time in total (0: no limit)",
    "checkpoint_every": "write <output>/checkpoint every N mini-batches (and at the end)",
    "log_every": "log loss, M and pairs/s to <output>/metrics.jsonl every N mini-batches",
    "threads": "CPU threads of torch",
}
FLAG_CHOICES = {"mode": MODES, "objective": OBJECTIVES, "distance": DISTANCES, "negatives": STRATEGIES,
                "recurrent_units": ("word", "sp"),
                "weights_dtype": WEIGHTS_DTYPES, "device": DEVICES, "activation": ("tanh", "relu", "linear"),
                "bidirectional_combine": ("sum", "ff"), "dev_at": DEV_AT}


def register(subparsers) -> None:
    parser = subparsers.add_parser("train", help="train a paraphrastic sentence encoder", description=__doc__)
    parser.add_argument("--train", nargs="+", required=True, metavar="PATH",
                        help="training input(s): shard directories, Parquet corpora, TSV pair files, Moses prefixes")
    parser.add_argument("--format", choices=FORMATS, default="auto",
                        help="format of the inputs (default auto: by what each path is)")
    parser.add_argument("--suffixes", help="Moses suffixes SIDE1,SIDE2 (default: en,cs or eng,ces)")
    parser.add_argument("--output", required=True, help="output directory (encoder, metrics.jsonl, checkpoint/)")
    add_output_flags(parser, "<output>/checkpoint", f"<output>/{TrainConfig.SAVED_AS}")
    add_reject_rate_flag(parser)
    add_config_arguments(parser, TrainConfig, FLAG_HELP, FLAG_CHOICES, example="epochs=2")
    parser.set_defaults(func=run)
