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

from paranmt.models.pairs import FORMATS, TRAIN_DATA, load_training_pairs
from paranmt.models.training.trainer import TrainConfig, Trainer
from paranmt.pipelines.runtime.command import Command, ModelDirectory
from paranmt.pipelines.runtime.rejects import EXIT_REJECTS, over_reject_rate, report_rejects
from paranmt.schemas.errors import ConfigError

log = logging.getLogger(__name__)


def suffixes(args) -> tuple[str, str] | None:
    """The Moses suffixes of --suffixes (None: the defaults); ConfigError unless two are given."""
    given = tuple(args.suffixes.split(",")) if args.suffixes else None
    if given is not None and len(given) != 2:
        raise ConfigError("--suffixes needs exactly two suffixes, e.g. en,cs")
    return given


def run(config: TrainConfig, args) -> int:
    output = Path(args.output)
    pairs, counts = load_training_pairs(args.train, args.format, output, suffixes(args), config.max_words)
    report_rejects("train", counts.rejects, counts.read, str(output / TRAIN_DATA))
    if over_reject_rate("train", counts.read - counts.kept, counts.read, args.max_reject_rate):
        return EXIT_REJECTS
    groups = [i for i, kept in enumerate(counts.kept_per_input) for _ in range(kept)]   # batch_languages: per-pair
    Trainer(config, output).fit(pairs, resume=args.resume, groups=groups)
    log.info("encoder saved to %s", output)
    return 0


def own_flags(parser) -> None:
    """The training inputs and the output of train, which no config holds."""
    parser.add_argument("--train", nargs="+", required=True, metavar="PATH",
                        help="training input(s): shard directories, Parquet corpora, TSV pair files, Moses prefixes")
    parser.add_argument("--format", choices=FORMATS, default="auto",
                        help="format of the inputs (default auto: by what each path is)")
    parser.add_argument("--suffixes", help="Moses suffixes SIDE1,SIDE2 (default: en,cs or eng,ces)")
    parser.add_argument("--output", required=True, help="output directory (encoder, metrics.jsonl, checkpoint/)")


COMMAND = Command("train", TrainConfig, run, help="train a paraphrastic sentence encoder", description=__doc__,
                  inputs=("train", "sp_model", "init_embeddings", "dev_sts_dir"), output=ModelDirectory(),
                  check=lambda config, args: suffixes(args), flags=own_flags, rejects=True, what="training config",
                  example="epochs=2")
