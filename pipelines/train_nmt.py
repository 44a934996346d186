"""`paranmt train-nmt`: run the NMT training recipe (sentencepiece + fairseq-preprocess + fairseq-train) from a
YAML config; rerunning resumes (finished steps are skipped, fairseq-train restarts from checkpoint_last.pt).
`--objective mrt` adds a minimum-risk stage (SIMILE / BLEU costs, thesis ch. 7) on top of the maximum-likelihood
model (models/nmt/recipe.py, step `mrt`), e.g. on the shipped model: `--config configs/nmt/mrt-demo.yaml`."""
from __future__ import annotations

from paranmt.models.nmt.recipe import STEPS, NMTRecipe, load_recipe_config
from paranmt.schemas.config import check_choice, parse_assignments


def run(args) -> int:
    overrides = {"work_dir": args.work_dir, "threads": args.threads, "objective": args.objective,
                 "init_from": args.init_from, "mrt.cost": args.mrt_cost, "mrt.gamma": args.mrt_gamma,
                 "mrt.nbest": args.mrt_nbest, "mrt.simile_encoder": args.mrt_encoder, **parse_assignments(args.set)}
    config = load_recipe_config(args.config, overrides)
    steps = tuple(args.steps.split(",")) if args.steps else None
    for step in steps or ():
        check_choice("--steps", step, STEPS)
    NMTRecipe(config).run(steps, force=args.force)
    return 0


def register(subparsers) -> None:
    parser = subparsers.add_parser("train-nmt", help="train a fairseq NMT model with the project's recipe",
                                   description=__doc__)
    parser.add_argument("--config", required=True, help="recipe YAML, e.g. configs/nmt/cs-en-small.yaml")
    parser.add_argument("--work-dir", help="override work_dir (data, sentencepiece, binarized data, checkpoints)")
    parser.add_argument("--threads", type=int, help="override threads of the fairseq subprocesses")
    parser.add_argument("--steps", help=f"comma-separated subset of {','.join(STEPS)} (default: data, spm, "
                        "preprocess, train (not with init_from), mrt (with --objective mrt))")
    parser.add_argument("--objective", choices=["mle", "mrt"], help="mrt: add the minimum-risk stage")
    parser.add_argument("--init-from", help="start from an existing model directory (e.g. assets/nmt-cs-en)")
    parser.add_argument("--mrt-cost", choices=["simile", "bleu", "both"], help="1-SIMILE, 1-BLEU+1, or their mean")
    parser.add_argument("--mrt-gamma", type=float, help="weight of the token-level loss (default 0.3)")
    parser.add_argument("--mrt-nbest", type=int, help="n-best list size (default 8)")
    parser.add_argument("--mrt-encoder", help="SIMILE's encoder (default assets/encoder-sp)")
    parser.add_argument("--set", action="append", metavar="KEY=VALUE",
                        help="override a config key, e.g. --set train.stop_time_hours=2 (repeatable)")
    parser.add_argument("--force", action="store_true", help="rerun steps even when marked done")
    parser.set_defaults(func=run)
