"""`paranmt train-nmt`: run the NMT training recipe (sentencepiece + fairseq-preprocess + fairseq-train) from a
YAML config; `--resume` continues an earlier run in the work directory (finished steps are skipped, fairseq-train
restarts from checkpoint_last.pt) with the settings it saved there (recipe_config.json), which the YAML, flags and
`--set` given override. `--objective mrt` adds a minimum-risk stage (SIMILE / BLEU costs, thesis ch. 7)
on top of the maximum-likelihood model (models/nmt/recipe.py, step `mrt`), e.g. on the shipped model:
`--config configs/nmt/mrt-demo.yaml`.

Output (docs/reliability.md, "Every command that writes"): a work directory that is, holds or lies inside an input
(the bitext, `init_from`, the MRT encoder) is refused; one holding an earlier run needs `--resume` (continue it) or
`--overwrite` (delete what the recipe wrote there first); `--resume` with nothing there is refused. Ctrl-C, SIGTERM
or a full disk stop it with one line naming the steps done, the last checkpoint and the `--resume` command (exit
130 / 143 / 1); a fairseq tool that fails is one line naming its log (exit 1)."""
from __future__ import annotations

from paranmt.models.nmt.recipe import STEPS, NMTRecipe, RecipeConfig, resolve
from paranmt.pipelines.runtime.command import ClaimedInRun, Command
from paranmt.pipelines.runtime.output_lock import output_locked
from paranmt.pipelines.runtime.outputs import check_apart, claim, remove_paths, resume_command, stops_in_one_line
from paranmt.schemas.config import check_choice
from paranmt.schemas.paths import asset_path


def run(config: RecipeConfig, args) -> int:
    steps = tuple(args.steps.split(",")) if args.steps else None
    for step in steps or ():
        check_choice("--steps", step, STEPS)
    recipe = NMTRecipe(config)
    work = str(recipe.work)
    check_apart(work, [*map(resolve, config.data.inputs), config.init_from and resolve(config.init_from),
                       asset_path(config.mrt.simile_encoder)], "--work-dir")
    with output_locked(work, "train-nmt", "--work-dir"):
        run_recipe(recipe, args, steps)
    return 0


def run_recipe(recipe: NMTRecipe, args, steps: tuple[str, ...] | None) -> None:
    """Claim the work directory (an earlier run needs --resume or --overwrite) and run the recipe's steps, stopping
    in one line."""
    work = str(recipe.work)
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


def kept(recipe: NMTRecipe) -> list:
    """What an earlier run wrote into the work directory that --resume continues from: all it wrote but the
    recipe_config.json of a run that failed before any step began."""
    return [path for path in recipe.written() if path.name != recipe.config.SAVED_AS]


def own_flags(parser) -> None:
    """The steps to run, which no config holds."""
    parser.add_argument("--steps", help=f"comma-separated subset of {','.join(STEPS)} (default: data, spm, "
                        "preprocess, train (not with init_from), mrt (with --objective mrt))")
    parser.add_argument("--force", action="store_true", help="rerun steps even when marked done")


COMMAND = Command("train-nmt", RecipeConfig, run, help="train a fairseq NMT model with the project's recipe",
                  description=__doc__, sections=("mrt",), flags=own_flags, what="nmt recipe config",
                  example="train.stop_time_hours=2", output=ClaimedInRun(
                      "delete what an earlier run wrote into the work directory first (without --resume or "
                      "--overwrite, a work directory holding it is refused)",
                      "continue the run in the work directory: skip the steps marked done, fairseq-train restarts "
                      "from checkpoint_last.pt (refused when there is none); with the settings the run saved in "
                      f"{RecipeConfig.SAVED_AS} there, which the --config, flags and --set given override",
                      saved=lambda loaded: NMTRecipe(loaded).work))
