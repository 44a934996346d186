"""`paranmt probe`: judge paraphrase corpora by the encoder each trains (ParaNMT-50M Tables 4-5).

    paranmt probe --input CORPUS [CORPUS ...] --output DIR --sts-dir DIR [--by COLUMN [--folds 10]]
                  [--pairs 100000] [--models KIND [KIND ...]] [--resume] [--config YAML] [--set KEY=VALUE ...]

A CORPUS is anything `paranmt train` reads (a shard directory, a Parquet corpus, a TSV of pairs, a Moses prefix).
For each corpus, or each fold of its ranking by COLUMN (`--by para_score --folds 10`: tenths, fold 0 lowest),
`--pairs` pairs are drawn (seeded) and one encoder of each `--models` kind is trained on them for one epoch of the
mega-batch trainer; each is scored on STS2017 en-en (`--datasets`). Writes DIR/results.csv
(corpus,fold,model,pairs,dataset,pearson), DIR/probe.png and DIR/probe_config.yaml; one line per run on stderr.
Settings: ProbeConfig defaults <- `--config YAML` <- flags <- `--set KEY=VALUE` (training settings as `--set
train.epochs=2`). models/training/probe.py has the details; docs/encoders.md the measured cost.
"""
from __future__ import annotations

from paranmt.models.encoders import BASE_KINDS
from paranmt.models.training.data import FORMATS
from paranmt.models.training.probe import ProbeConfig, run_probe
from paranmt.schemas.config import load_config, parse_assignments

# ProbeConfig field -> help of its flag (--field-name; the default is appended)
FLAG_HELP = {
    "input": "corpora: shard directories, Parquet corpora, TSV pair files, Moses prefixes (as `paranmt train`)",
    "output": "output directory (results.csv, probe.png, probe_config.yaml, runs/)",
    "format": f"format of the inputs, one of {', '.join(FORMATS)}",
    "suffixes": "Moses suffixes SIDE1 SIDE2",
    "by": "rank each corpus by this column (e.g. para_score, trigram_overlap, simile) and probe each fold",
    "folds": "folds of the ranking, fold 0 = lowest (default 10 with --by: tenths)",
    "pairs": "training pairs per run (all of a corpus or fold when it has fewer)",
    "models": f"encoder kinds, each trained on every corpus/fold: {', '.join(BASE_KINDS)} (lstm = LSTMavg) or a "
              "sum/concatenation of them",
    "seed": "seed of the draw of the training pairs",
    "sts_dir": "STS root folder (as `paranmt eval --sts-dir`)",
    "datasets": "STS datasets scored, by name or part of it",
}
FLAGS = tuple(FLAG_HELP) + ("resume", "keep_encoders")


def run(args) -> int:
    overrides = {name: getattr(args, name) for name in FLAGS}
    overrides.update(parse_assignments(args.set))
    config = load_config(ProbeConfig, args.config, overrides, what="probe config").validate()
    run_probe(config)
    return 0


def register(subparsers) -> None:
    from paranmt.pipelines.runtime.arguments import add_config_flags

    parser = subparsers.add_parser("probe", help="train small encoders on each corpus (or fold) and compare STS",
                                   description=__doc__)
    add_config_flags(parser, ProbeConfig, FLAG_HELP, {"format": FORMATS})
    parser.add_argument("--resume", action="store_true", default=None, help="skip the runs results.csv holds")
    parser.add_argument("--keep-encoders", action="store_true", default=None,
                        help="keep each run's encoder under DIR/runs/ (default: its logs only)")
    parser.add_argument("--config", help="probe YAML (keys = ProbeConfig fields, training settings under train:)")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        help="override any config key, e.g. --set train.epochs=2 --set train.dim=100")
    parser.set_defaults(func=run)
