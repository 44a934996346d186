"""`paranmt finetune-sts`: supervised tasks on a trained encoder (Tai et al. 2015, as in the GRAN paper and the
thesis' §3.2.4; paranmt.models.training.sts_finetune has the heads, the targets and the losses). Starts from a
trained encoder (`--model`), trains a head on it (and fine-tunes the encoder unless `--freeze-encoder`;
`--l2-to-init` pulls its weights toward the starting ones, the papers' "universal" setting; `--projection N`
projects the embeddings to N dimensions first) on `--task sick-r` (SICK relatedness), `stsb` (STS Benchmark) or `sts12-15`
(P17's 40/10/50% split of the SemEval STS 2012-2015 test sets), Pearson, or `sick-e` (SICK entailment) or `sst2` (SST-2 sentiment), accuracy, from `--data-dir` (a folder laid out
like ../shared/data: `sts/SICK/`, `sts/stsbenchmark/`, `transfer/sst2/`). Writes into `--output`: `results.csv`
(model,dataset,pearson: `unsupervised` = the starting encoder's cosine, `supervised` = the head's expected score;
or model,dataset,accuracy: `majority` = the training set's most frequent class, `supervised` = the head's class;
on the dev and the test set), `report.json` (with the data's rejects: lines that are not UTF-8, said on stderr
too; `--max-reject-rate` as in `paranmt build`), `metrics.jsonl` (per epoch: KL or NLL, the dev metric; drawn as `metrics.png`),
`encoder/` (the fine-tuned encoder, a paranmt encoder directory) and `head/` (head.json + head.npz). sst2 without
`transfer/sst2/test.tsv` tests on dev.tsv and says so. Settings: FinetuneConfig defaults <- `--config YAML` <- flags
<- `--set KEY=VALUE`.

Output (docs/reliability.md, "Every command that writes"): an `--output` holding these files of an earlier run is
refused unless `--overwrite` (fine-tuning cannot resume); one that is, holds or lies inside `--model` or
`--data-dir` is refused. Ctrl-C, SIGTERM or a full disk stop it with one line (exit 130 / 143 / 1) after
removing what it wrote.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from paranmt.models.evaluation.tables import write_results_csv
from paranmt.models.training.sts_finetune import FinetuneConfig, task_folder
from paranmt.pipelines.runtime.arguments import add_evaluation_arguments
from paranmt.pipelines.runtime.command import Command, ResultsFolder
from paranmt.pipelines.runtime.rejects import EXIT_REJECTS, over_reject_rate, report_rejects
from paranmt.schemas.errors import ConfigError

WRITES = ("results.csv", "report.json", "metrics.jsonl", "metrics.png", "encoder", "head")  # what a run writes


def check(config: FinetuneConfig, args) -> None:
    folder = task_folder(config.task)
    if not (Path(args.data_dir) / folder).is_dir():
        raise ConfigError(f"--data-dir {args.data_dir} has no {folder}/ folder")


def run(config: FinetuneConfig, args) -> int:
    """Open the encoder, fine-tune it on the task's splits and write everything into --output."""
    from paranmt.models.encoders import open_encoder
    from paranmt.models.encoding import LineRejects
    from paranmt.models.training.sts_finetune import (FinetuneDataError, finetune_into, limit_dataset, result_lines,
                                                      split_sizes, task_splits)

    data_dir, output = Path(args.data_dir), Path(args.output)
    encoder = open_encoder(args.model, config.threads)
    rejects = LineRejects()
    try:
        splits = task_splits(data_dir, config, rejects)
    except FinetuneDataError as error:
        raise ConfigError(str(error)) from None
    read = rejects.total + sum(split_sizes(splits).values())
    report_rejects("finetune-sts", rejects, read, str(output / "report.json"))
    if over_reject_rate("finetune-sts", rejects.total, read, args.max_reject_rate):
        return EXIT_REJECTS
    splits = {name: limit_dataset(d, config.limit, config.seed) for name, d in splits.items()}
    size = split_sizes(splits)
    report = finetune_into(encoder, splits, config, output)
    report.update({"model": args.model, "command": "paranmt " + " ".join(getattr(args, "argv", sys.argv[1:])),
                   "datasets": {name: {"name": d.name, "pairs": size[name]} for name, d in splits.items()},
                   "rejected": rejects.by_reason, "not_utf8": rejects.advice()})
    (output / "report.json").write_text(json.dumps(report, indent=2) + "\n")
    write_results_csv(output, ["model", "dataset", report["metric"]], (
        [model, splits[split].name, report[model][split]] for split in ("dev", "test")
        for model in (report["baseline"], "supervised")))
    print("\n".join(result_lines(report, splits, config, data_dir)))
    return 0


def own_flags(parser) -> None:
    """The model, data and output of finetune-sts, which no config holds."""
    add_evaluation_arguments(parser, "its sts/ folder (sst2: transfer/sst2/)",
                             "directory for results.csv, report.json, encoder/, head/")


COMMAND = Command("finetune-sts", FinetuneConfig, run, help="supervised tasks: Tai et al.'s heads on a trained "
                  "encoder (SICK-R, STS-B: Pearson beside the unsupervised cosine; SICK-E, SST-2: accuracy)",
                  description=__doc__, inputs=("model", "data_dir"), check=check, rejects=True, flags=own_flags,
                  example="epochs=5", output=ResultsFolder(WRITES, held="a fine-tuning run's files", overwrite_help=(
                      "replace the files an earlier run wrote into --output (without it, an --output holding them "
                      "is refused)")))
