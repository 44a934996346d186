"""`paranmt train-nmt`: run the NMT training recipe (sentencepiece + fairseq-preprocess + fairseq-train) from a
YAML config; `--resume` continues an earlier run in the work directory (finished steps are skipped, fairseq-train
restarts from checkpoint_last.pt). `--objective mrt` adds a minimum-risk stage (SIMILE / BLEU costs, thesis ch. 7)
on top of the maximum-likelihood model (models/nmt/recipe.py, step `mrt`), e.g. on the shipped model:
`--config configs/nmt/mrt-demo.yaml`.

Output (docs/reliability.md, "Every command that writes"): a work directory that is, holds or lies inside an input
(the bitext, `init_from`, the MRT encoder) is refused; one holding an earlier run needs `--resume` (continue it) or
`--overwrite` (delete what the recipe wrote there first); `--resume` with nothing there is refused. Ctrl-C, SIGTERM
or a full disk stop it with one line naming the steps done, the last checkpoint and the `--resume` command (exit
130 / 143 / 1); a fairseq tool that fails is one line naming its log (exit 1)."""
from __future__ import annotations

from paranmt.models.nmt.recipe import STEPS, NMTRecipe, load_recipe_config, resolve
from paranmt.pipelines.runtime.outputs import check_apart, claim, remove_paths, resume_command, stops_in_one_line
from paranmt.schemas.config import check_choice, parse_assignments
from paranmt.schemas.paths import asset_path


def run(args) -> int:
    overrides = {"work_dir": args.work_dir, "threads": args.threads, "objective": args.objective,
                 "init_from": args.init_from, "mrt.cost": args.mrt_cost, "mrt.gamma": args.mrt_gamma,
                 "mrt.nbest": args.mrt_nbest, "mrt.simile_encoder": args.mrt_encoder, **parse_assignments(args.set)}
    config = load_recipe_config(args.config, overrides)
    steps = tuple(args.steps.split(",")) if args.steps else None
    for step in steps or ():
        check_choice("--steps", step, STEPS)
    recipe = NMTRecipe(config)
    work = str(recipe.work)
    check_apart(work, [*map(resolve, config.data.inputs), config.init_from and resolve(config.init_from),
                       asset_path(config.mrt.simile_encoder)], "--work-dir")
    earlier = recipe.written()
    held = f"an earlier recipe run (steps done: {', '.join(recipe.done_steps()) or 'none'})" if kept(recipe) else None
    if claim(work, held, args.resume, args.overwrite, "--work-dir") == "overwrite":
        remove_paths(earlier)

    def status() -> str:
        checkpoint = recipe.last_checkpoint()
        return f"steps done: {', '.join(recipe.done_steps()) or 'none'}" + (
            f", the last checkpoint is kept in {checkpoint}" if checkpoint else "")

    def advice() -> str:
        argv = getattr(args, "argv", None)
        return resume_command(argv, "train-nmt") if kept(recipe) else "run the same command again"

    with stops_in_one_line(status, advice, work):
        recipe.run(steps, force=args.force)
    return 0



def kept(recipe: NMTRecipe) -> list:
    """What an earlier run wrote into the work directory that --resume continues from: all it wrote but the
    recipe_config.json of a run that failed before any step began."""
    return [path for path in recipe.written() if path.name != "recipe_config.json"]

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
    parser.add_argument("--resume", action="store_true", help="continue the run in the work directory: skip the "
                        "steps marked done, fairseq-train restarts from checkpoint_last.pt (refused when there is "
                        "none)")
    parser.add_argument("--overwrite", action="store_true", help="delete what an earlier run wrote into the work "
                        "directory first (without --resume or --overwrite, a work directory holding it is refused)")
    parser.set_defaults(func=run)
