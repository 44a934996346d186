"""`paranmt train-parser`: train the project's English POS tagger + constituency parser (stanza) on the Penn
Treebank sample and package them with a MANIFEST (recipe: paranmt.models.parsing.train). Settings:
ParserTrainConfig defaults <- `--config YAML` <- flags <- `--set KEY=VALUE`.

Output (docs/reliability.md, "Every command that writes"): a `--work-dir` or `--output` that is, holds or lies inside
the treebank or the bitext is refused. A work directory holding an earlier run needs `--resume` (the steps done are
skipped; the constituency trainer continues from its checkpoint) or `--overwrite` (delete what the recipe wrote
there first); an `--output` holding a packaged parser (the shipped assets/parser-en, by default) is replaced by the
package step only with `--overwrite`, or when `--resume` finishes the run that writes it. Ctrl-C, SIGTERM or a full
disk stop it with one line naming the steps done and the `--resume` command (exit 130 / 143 / 1); a stanza trainer
that fails is one line naming its log (exit 1).
"""
from __future__ import annotations

import json
import logging
from pathlib import Path

from paranmt.models.parsing.train import (DONE_FILES, PACKAGE_FILES, STEPS, WORK_WRITES, ParserTrainConfig,
                                          done_steps, packaged_here, run)
from paranmt.pipelines.runtime.command import Command, RunFolder, RunLayout
from paranmt.pipelines.runtime.outputs import claim, remove_paths
from paranmt.schemas.config import check_choice
from paranmt.schemas.errors import ConfigError


def steps_given(args) -> tuple[str, ...]:
    """The steps `--steps` names."""
    steps = tuple(args.steps.split(","))
    for step in steps:
        check_choice("--steps", step, STEPS)
    return steps


def train_parser(config: ParserTrainConfig, args) -> int:
    manifest = run(config, Path(args.work_dir), Path(args.output), steps=steps_given(args), config_path=args.config)
    if manifest:
        logging.getLogger(__name__).info("quality on held-out files: %s", json.dumps(manifest["quality_on_test"]))
    return 0


class ParserLayout(RunLayout):
    """The recipe's two outputs (module docstring): the work directory, whose steps done --resume skips, and
    `--output`, where the package step writes the packaged parser."""
    flag = "--work-dir"

    def __init__(self, config: ParserTrainConfig, args):
        self.directory, self.output, self.steps = args.work_dir, args.output, steps_given(args)
        self.work = Path(args.work_dir)

    def folders(self) -> list[tuple[str, str]]:
        return [(self.directory, self.flag), (self.output, "--output")]

    def locks(self, command: str) -> list:
        return super().locks(command)[:None if "package" in self.steps else 1]

    def claim(self, resume: bool, overwrite: bool) -> None:
        work, output, steps = self.work, Path(self.output), self.steps
        earlier = [work / name for name in WORK_WRITES if (work / name).exists()]
        done = [step for step in done_steps(work, output) if step != "package"]
        held = f"an earlier recipe run (steps done: {', '.join(done) or 'none'})" if earlier else None
        complete = set(steps) <= set(done_steps(work, output))
        claim(self.directory, held, resume, overwrite, self.flag, unfinished=not complete)
        packaged = [output / name for name in PACKAGE_FILES if (output / name).is_file()]
        foreign = (output / DONE_FILES["package"]).is_file() and not packaged_here(work, output)
        if "package" in steps and resume and foreign:
            raise ConfigError(f"--output {output} holds a packaged parser that the run in {work} did not write (the "
                              f"shipped one, or another run's): --resume would replace it; choose another --output, "
                              f"or give --overwrite without --resume to run the recipe again into it")
        if "package" in steps and not resume:
            claim(self.output, "a packaged parser" if (output / DONE_FILES["package"]).is_file() else None, False,
                  overwrite, resumable=False)
        if overwrite:
            remove_paths([*earlier, *(packaged if "package" in steps else [])])

    def status(self) -> str:
        return f"steps done: {', '.join(done_steps(self.work, Path(self.output))) or 'none'}"

    def resumable(self) -> bool:
        return any((self.work / name).exists() for name in WORK_WRITES)


def own_flags(parser) -> None:
    """The work directory, the output and the steps of the recipe, which no config holds."""
    parser.add_argument("--work-dir", default="work/parser-en", help="training work directory (resumable)")
    parser.add_argument("--output", default="assets/parser-en", help="where the packaged models go")
    parser.add_argument("--steps", default=",".join(STEPS), help=f"comma-separated subset of {','.join(STEPS)}")


COMMAND = Command("train-parser", ParserTrainConfig, train_parser, help="train the English parser (stanza) on the PTB "
                  "sample", description=__doc__, flags=own_flags, what="parser recipe config",
                  example="vector_dim=100", inputs=("treebank", "bitext"), output=RunFolder(
                      ParserLayout, "delete what an earlier run wrote into --work-dir, and the packaged parser in "
                      "--output, first (without --resume or --overwrite, either is refused)",
                      "continue the run in --work-dir (the steps done are skipped) and package it into --output; "
                      "refused when there is none"))
