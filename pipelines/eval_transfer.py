"""`paranmt eval-transfer`: SentEval-style transfer evaluation of a saved encoder (frozen embeddings, logistic-
regression probes; paranmt.models.evaluation.transfer has the protocol): MR, CR, SUBJ (K-fold cross-validation),
SICK-E (train/trial/test), MRPC (train/val; accuracy and F1). `--data-dir` is a folder laid out like ../shared/data
(`transfer/*.tsv`, `sts/SICK/`). Writes `results.csv` (model,task,metric,value; fractions) and `summary.md` (x100)
into `--output`, with the bag-of-words baseline and a random encoder of the same architecture as further models.
An --output holding the results of an earlier run is refused unless `--overwrite`; one that is, holds or lies
inside an input is refused; Ctrl-C, SIGTERM or a full disk stop it in one line naming the rerun, leaving no
results file.
"""
from __future__ import annotations

import logging
from pathlib import Path

from paranmt.pipelines.runtime.arguments import add_evaluation_arguments, add_overwrite_flag
from paranmt.pipelines.runtime.outputs import claim_results, left_in, rerun_stops
from paranmt.schemas.errors import ConfigError

log = logging.getLogger(__name__)
RESULTS = ("results.csv", "summary.md")
BASELINES = ("bag-of-words", "random")


def run(args) -> int:
    from paranmt.models.encoders import open_encoder
    from paranmt.models.encoders.base import random_copy
    from paranmt.models.evaluation.transfer import (TASKS, ProbeConfig, TransferDataError, evaluate, load_task,
                                                    write_results)

    unknown = sorted(set(args.tasks) - set(TASKS))
    if unknown:
        raise ConfigError(f"unknown task(s) {', '.join(unknown)}; choose from {', '.join(TASKS)}")
    if args.folds < 2 or args.inner_folds < 2:
        raise ConfigError("--folds and --inner-folds must be >= 2")
    if not Path(args.data_dir).is_dir():
        raise ConfigError(f"--data-dir {args.data_dir} is not a directory")
    claim_results(args.output, [args.model, args.data_dir], RESULTS, args.overwrite)
    with rerun_stops(args.output, getattr(args, "argv", None), "eval-transfer", lambda: left_in(args.output, RESULTS)):
        try:
            tasks = [load_task(name, args.data_dir) for name in args.tasks]
        except TransferDataError as error:
            raise ConfigError(str(error)) from None
        encoder = open_encoder(args.model, args.threads)
        name = args.name or Path(args.model).name
        models = {name: lambda s: encoder.encode(s, args.batch_size)}
        if "random" in args.baselines:
            randomized = random_copy(encoder, args.seed)
            models[f"random {name}"] = lambda s: randomized.encode(s, args.batch_size)
        if "bag-of-words" in args.baselines:
            models["bag-of-words"] = None
        config = ProbeConfig(folds=args.folds, inner_folds=args.inner_folds, limit=args.limit, seed=args.seed,
                             c_grid=tuple(args.c_grid))
        results = evaluate(models, tasks, config)
        write_results(results, args.output, f"Transfer tasks: {args.model}")
    print(f"wrote {Path(args.output) / 'results.csv'} and summary.md")
    return 0


def register(subparsers) -> None:
    from paranmt.models.evaluation.transfer import C_GRID, TASKS

    parser = subparsers.add_parser("eval-transfer", help="SentEval-style transfer tasks (MR, CR, SUBJ, SICK-E, "
                                   "MRPC) with logistic-regression probes on frozen embeddings", description=__doc__)
    add_evaluation_arguments(parser, "transfer/, sts/SICK/", "directory for results.csv and summary.md")
    add_overwrite_flag(parser, "the results.csv and summary.md")
    parser.add_argument("--tasks", nargs="+", default=list(TASKS), metavar="TASK", help=f"default: {' '.join(TASKS)}")
    parser.add_argument("--baselines", nargs="*", default=list(BASELINES), choices=BASELINES,
                        help="baseline models added as rows (default: both; none: --baselines)")
    parser.add_argument("--name", help="the model's name in the table (default: the directory name)")
    parser.add_argument("--folds", type=int, default=10, help="cross-validation folds of mr/cr/subj (default 10)")
    parser.add_argument("--inner-folds", type=int, default=5, help="inner folds that choose C (default 5)")
    parser.add_argument("--c-grid", type=float, nargs="+", default=list(C_GRID),
                        help=f"inverse L2 strengths tried (default {' '.join(map(str, C_GRID))})")
    parser.add_argument("--limit", type=int, default=0,
                        help="at most N examples per split, stratified (0 = all; for quick checks)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--batch-size", type=int, default=1024)
    parser.set_defaults(func=run)
