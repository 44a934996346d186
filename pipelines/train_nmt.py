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
from paranmt.pipelines.runtime.command import Command, RunFolder, RunLayout
from paranmt.schemas.config import check_choice
from paranmt.schemas.paths import asset_path


def steps_given(args) -> tuple[str, ...] | None:
    """The steps `--steps` names (None: the recipe's default steps)."""
    steps = tuple(args.steps.split(",")) if args.steps else None
    for step in steps or ():
        check_choice("--steps", step, STEPS)
    return steps


def run(config: RecipeConfig, args) -> int:
    NMTRecipe(config).run(steps_given(args), force=args.force)
    return 0


class RecipeLayout(RunLayout):
    """The recipe's work directory: the steps done (marked there) are skipped by --resume, fairseq-train restarts
    from its last checkpoint."""
    flag = "--work-dir"

    def __init__(self, config: RecipeConfig, args):
        self.recipe = NMTRecipe(config)
        self.directory = str(self.recipe.work)
        self.config = config

    def inputs(self) -> list[str | None]:
        config = self.config
        return [*map(resolve, config.data.inputs), config.init_from and resolve(config.init_from),
                asset_path(config.mrt.simile_encoder)]

    def held(self) -> tuple[str | None, bool]:
        if not self.kept():
            return None, False
        return f"an earlier recipe run (steps done: {', '.join(self.recipe.done_steps()) or 'none'})", True

    def replaced(self) -> list:
        return self.recipe.written()

    def status(self) -> str:
        checkpoint = self.recipe.last_checkpoint()
        return f"steps done: {', '.join(self.recipe.done_steps()) or 'none'}" + (
            f", the last checkpoint is kept in {checkpoint}" if checkpoint else "")

    def resumable(self) -> bool:
        return bool(self.kept())

    def kept(self) -> list:
        """What an earlier run wrote into the work directory that --resume continues from: all it wrote but the
        recipe_config.json of a run that failed before any step began."""
        return [path for path in self.recipe.written() if path.name != self.config.SAVED_AS]


def own_flags(parser) -> None:
    """The steps to run, which no config holds."""
    parser.add_argument("--steps", help=f"comma-separated subset of {','.join(STEPS)} (default: data, spm, "
                        "preprocess, train (not with init_from), mrt (with --objective mrt))")
    parser.add_argument("--force", action="store_true", help="rerun steps even when marked done")


COMMAND = Command("train-nmt", RecipeConfig, run, help="train a fairseq NMT model with the project's recipe",
                  description=__doc__, sections=("mrt",), flags=own_flags, what="nmt recipe config",
                  example="train.stop_time_hours=2", check=lambda config, args: steps_given(args),
                  output=RunFolder(
                      RecipeLayout, "delete what an earlier run wrote into the work directory first (without --resume "
                      "or --overwrite, a work directory holding it is refused)",
                      "continue the run in the work directory: skip the steps marked done, fairseq-train restarts "
                      "from checkpoint_last.pt (refused when there is none); with the settings the run saved in "
                      f"{RecipeConfig.SAVED_AS} there, which the --config, flags and --set given override",
                      saved=lambda loaded: NMTRecipe(loaded).work))
