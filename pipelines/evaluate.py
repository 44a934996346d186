"""`paranmt eval`: STS evaluation of a saved encoder over every dataset found under `--sts-dir` (SemEval
STS.input/STS.gs pairs, STS Benchmark sts-*.csv, SICK); writes `results.csv` (dataset,n,pearson,spearman) and
`summary.md` (per-dataset table, STS year means and their mean) into `--output`. `--hard` adds the Hard+ / Hard−
subsets of the STS 2012-2016 test years (thesis §5.6; models/evaluation/hard_sts.py) as datasets `hard/Hard+` and
`hard/Hard-`.
An --output holding the results of an earlier run is refused unless `--overwrite`; one that is, holds or lies
inside an input is refused; Ctrl-C, SIGTERM or a full disk stop it in one line naming the rerun, leaving no results
file (each is written whole, at the end)."""
from __future__ import annotations

import logging
from pathlib import Path

from paranmt.models.evaluation.hard_sts import hard_subsets
from paranmt.models.evaluation.sts import (YEAR_GROUP, describe_mean, discover_datasets, score_dataset,
                                          write_results, year_means)
from paranmt.pipelines.runtime.arguments import add_overwrite_flag
from paranmt.pipelines.runtime.outputs import claim_results, left_in, rerun_stops
from paranmt.schemas.errors import ConfigError

RESULTS = ("results.csv", "summary.md")
log = logging.getLogger(__name__)


def run(args) -> int:
    from paranmt.models.encoders import open_encoder

    if not Path(args.sts_dir).is_dir():
        raise ConfigError(f"--sts-dir {args.sts_dir} is not a directory")
    claim_results(args.output, [args.model, args.sts_dir], RESULTS, args.overwrite)
    with rerun_stops(args.output, getattr(args, "argv", None), "eval", lambda: left_in(args.output, RESULTS)):
        datasets, skipped = discover_datasets(args.sts_dir, args.select)
        if not datasets:
            raise ConfigError(f"no STS datasets found under {args.sts_dir}")
        if args.hard:
            years = [d for d in discover_datasets(args.sts_dir)[0] if YEAR_GROUP.match(d.group)]
            if not years:
                raise ConfigError(f"--hard pools the test-year folders (STS<year>-test, sts<year>-english...); none "
                                  f"found under {args.sts_dir}")
            datasets += hard_subsets(years, args.hard_fraction)
        encoder = open_encoder(args.model, args.threads)
        results = [score_dataset(lambda s: encoder.encode(s, args.batch_size), d) for d in datasets]
        write_results(results, skipped, args.output, title=f"STS: {args.model}")
    for result in results:
        print(f"{result.dataset}\t{result.n}\t{100 * result.pearson:.1f}\t{100 * result.spearman:.1f}")
    means = year_means(results)
    for year, value in means.items():
        print(f"year mean {year}\t{100 * value:.1f}" if year != "mean" else
              f"{describe_mean(means)}\t{100 * value:.1f}")
    for reason in skipped:
        log.warning("skipped %s", reason)
    return 0


def register(subparsers) -> None:
    parser = subparsers.add_parser("eval", help="STS evaluation of a sentence encoder", description=__doc__)
    parser.add_argument("--model", required=True, help="encoder directory (config.json, weights.npz, ...)")
    parser.add_argument("--sts-dir", required=True, help="root folder holding the STS datasets")
    parser.add_argument("--output", required=True, help="directory for results.csv and summary.md")
    add_overwrite_flag(parser, "the results.csv and summary.md")
    parser.add_argument("--select", nargs="+", help="only datasets whose name contains one of these strings")
    parser.add_argument("--hard", action="store_true",
                        help="add the Hard+/Hard- subsets (symmetric WER extremes x gold bands) of STS 2012-2016")
    parser.add_argument("--hard-fraction", type=float, default=0.2,
                        help="share of the SWER distribution at each extreme (default 0.2, as the thesis)")
    parser.add_argument("--batch-size", type=int, default=1024)
    parser.add_argument("--threads", type=int, default=1)
    parser.set_defaults(func=run)
