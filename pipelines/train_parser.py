"""`paranmt train-parser`: train the project's English POS tagger + constituency parser (stanza) on the Penn
Treebank sample and package them with a MANIFEST (recipe: paranmt.models.parsing.train)."""
from __future__ import annotations

import json
import logging
from pathlib import Path

from paranmt.models.parsing.train import STEPS, load_train_config, run
from paranmt.schemas.config import check_choice


def train_parser(args) -> int:
    config = load_train_config(args.config)
    steps = tuple(args.steps.split(","))
    for step in steps:
        check_choice("--steps", step, STEPS)
    manifest = run(config, Path(args.work_dir), Path(args.output), steps=steps, config_path=args.config)
    if manifest:
        logging.getLogger(__name__).info("quality on held-out files: %s", json.dumps(manifest["quality_on_test"]))
    return 0


def register(subparsers) -> None:
    parser = subparsers.add_parser("train-parser", help="train the English parser (stanza) on the PTB sample",
                                   description=__doc__)
    parser.add_argument("--config", default=None, help="recipe YAML (e.g. configs/parser/ptb-sample.yaml)")
    parser.add_argument("--work-dir", default="work/parser-en", help="training work directory (resumable)")
    parser.add_argument("--output", default="assets/parser-en", help="where the packaged models go")
    parser.add_argument("--steps", default=",".join(STEPS), help=f"comma-separated subset of {','.join(STEPS)}")
    parser.set_defaults(func=train_parser)
