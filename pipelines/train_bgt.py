"""`paranmt train-bgt`: train the bilingual generative transformer (BGT) or one of its Table 48 baselines on
bitext, and save its semantic encoder as a paranmt encoder (so `paranmt eval`, `encode`, `eval-xling` and
`export-encoder` work on `--output`).

Why its own command and not `paranmt train --encoder bgt`: BGT is trained by maximizing a likelihood (an ELBO
with a translation loss), not by the contrastive mega-batch objective, so none of `train`'s negatives, margin or
mega-batch settings apply (models/bgt/trainer.py).

Inputs (`--train`, one or more): bitext as a Moses two-file prefix (`PREFIX.en` + `PREFIX.cs`, or `.eng`/`.ces`;
English first), a TSV `english TAB other`, or a `paranmt build` shard directory / Parquet file (its `ref` and `cs`
columns). Settings: BGTConfig defaults <- `--config YAML` <- flags <- `--set KEY=VALUE` (any key, e.g. `--set
dev_sts_dir=../shared/data/sts`). `--output` is held to the contract of `paranmt train` (docs/reliability.md): an
earlier run's model or checkpoint there needs `--resume` (with the settings saved in OUTPUT/bgt_config.json, which the
flags, `--config` and `--set` given override) or `--overwrite`; Ctrl-C, SIGTERM or a full disk stop it
with one line naming the `--resume` command.
"""
from __future__ import annotations

from pathlib import Path

from paranmt.models.bgt.trainer import BGTConfig, BGTTrainer
from paranmt.models.pairs import FORMATS, TRAIN_DATA, load_training_pairs
from paranmt.pipelines.runtime.command import Command, ModelDirectory
from paranmt.pipelines.runtime.rejects import EXIT_REJECTS, over_reject_rate, report_rejects


def run(config: BGTConfig, args) -> int:
    output = Path(args.output)
    pairs, counts = load_training_pairs(args.train, args.format, output, max_words=args.max_words,
                                        shard_columns=("ref", "cs"))
    report_rejects("train-bgt", counts.rejects, counts.read, str(output / TRAIN_DATA))
    if over_reject_rate("train-bgt", counts.read - counts.kept, counts.read, args.max_reject_rate):
        return EXIT_REJECTS
    BGTTrainer(config, output).fit(pairs, resume=args.resume)
    print(f"paranmt train-bgt: {config.variant} trained on {len(pairs)} pairs; its semantic encoder is {output} "
          f"(paranmt eval --model {output} ...)")
    return 0


def own_flags(parser) -> None:
    """The bitext, output and pair selection of train-bgt, which no config holds."""
    parser.add_argument("--train", nargs="+", required=True, help="bitext: Moses prefix(es), TSV, or shards")
    parser.add_argument("--output", required=True, help="output directory (encoder, checkpoint/, metrics.jsonl)")
    parser.add_argument("--format", choices=FORMATS, default="auto")
    parser.add_argument("--max-words", dest="max_words", type=int, default=100,
                        help="skip pairs with a side longer than this many words")


COMMAND = Command("train-bgt", BGTConfig, run, help="train the bilingual generative transformer (BGT) or a translation "
                  "baseline on bitext; its semantic encoder is a paranmt encoder", description=__doc__,
                  raw_description=True, inputs=("train", "sp_model", "dev_sts_dir"), flags=own_flags, rejects=True,
                  output=ModelDirectory("OUTPUT", "checkpoint/ (or the checkpoint.pt of an older train-bgt)",
                                        selection=("max_words",)),
                  what="bgt config", example="dev_sts_dir=../shared/data/sts")
