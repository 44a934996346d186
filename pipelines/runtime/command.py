"""One declaration per command (issue 45 item 2): a `Command` names the command, its config class, its run
function, the inputs its output must stay apart from and its output kind, and pipelines/cli.py builds the rest from
it: the parser (`--help` line and description, a flag per setting, `--config` YAML of the command's keys, `--set`,
the output kind's `--resume` / `--overwrite`, the hatch of flags no config holds), the loaded config, the output
checks and claim, and the one-line stops.

    COMMAND = Command("eval", EvalConfig, run, help="STS evaluation of a sentence encoder", description=__doc__,
                      inputs=("model", "sts_dir"), output=ResultsFolder(RESULTS), required=("model", "sts_dir", ...))

`paranmt --help` reads each `help=` from the module's source (pipelines/cli.py `command_help`): the declaration is a
module-level call with literal `name` and `help`. `run(config, args)` is called with the output claimed and stops
in one line (its exit code; None is 0); `check(config, args)` checks the inputs before the output is claimed.

The output kinds (what a run leaves, and what a rerun does with it: pipelines/runtime/outputs.py has the contract):
`NoOutput` (prints only), `OutputFile` (one file, written whole), `ResultsFolder` (files written whole into a
directory; `--overwrite` replaces them), `ModelDirectory` (a trainer's model and checkpoint: `--resume` goes on with
the settings the stopped run saved there, `--overwrite` starts again), `Shards` (a shard job's, which claims it) and
`ClaimedInRun` (a directory whose layout only its command knows, claimed in `run`).
"""
from __future__ import annotations

import argparse
import os
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable

from paranmt.pipelines.runtime import outputs
from paranmt.pipelines.runtime.arguments import (add_config_arguments, add_output_flags, add_rerun_flags,
                                                 load_command_config)
from paranmt.pipelines.runtime.rejects import add_reject_rate_flag, check_reject_rate
from paranmt.schemas.errors import ConfigError
from paranmt.schemas.paths import asset_path


def given(config, args: argparse.Namespace, name: str):
    """The value of the setting `name` of a command (dotted for a field of a section, `paraphrase.model`): its
    config's field, else its own flag (the hatch)."""
    *sections, field_name = name.split(".")
    for section in sections:
        config = getattr(config, section)
    return getattr(config, field_name) if hasattr(config, field_name) else getattr(args, name, None)


def values(config, args: argparse.Namespace, names: Iterable[str]) -> list:
    """The values of the settings `names`, a list-valued setting giving each of its values."""
    found: list = []
    for name in names:
        value = given(config, args, name)
        found += list(value) if isinstance(value, (list, tuple)) else [value]
    return found


def paths(config, args: argparse.Namespace, names: Iterable[str]) -> list[str | None]:
    """The paths the settings `names` give (`values`), asset names resolved as the models' readers do
    (schemas/paths.py `asset_path`)."""
    return [asset_path(str(path)) if path else None for path in values(config, args, names)]


class Output:
    """What a command writes and what a rerun does with it; this base writes nothing: no --resume or --overwrite, no
    config saved for a --resume to take up, and a stop is one line saying nothing was written."""

    def add_flags(self, parser, command: "Command") -> None:
        """The output's flags (none)."""

    def saved_in(self, args: argparse.Namespace) -> Callable | None:
        """The directory, given the config loaded so far, that holds the config a stopped run saved, which
        `--resume` takes up (pipelines/runtime/arguments.py `load_command_config`); None: there is none."""
        return None

    @contextmanager
    def claimed(self, command: "Command", config, args):
        with outputs.stops_in_one_line(lambda: "nothing was written", lambda: "run the same command again"):
            yield


@dataclass(frozen=True)
class NoOutput(Output):
    """A command that writes nothing (it prints)."""


@dataclass(frozen=True)
class OutputFile(Output):
    """One file (`flag`, a setting; none given: the command prints instead), written whole at the end: apart from
    the inputs, not a directory, an existing one refused without --overwrite (`held` names what it holds); a stop
    leaves none (`nothing` says so)."""
    held: str
    nothing: str
    overwrite_help: str
    flag: str = "output"

    def add_flags(self, parser, command: "Command") -> None:
        parser.add_argument("--overwrite", action="store_true", help=self.overwrite_help)

    @contextmanager
    def claimed(self, command: "Command", config, args):
        path = given(config, args, self.flag)
        if path:
            option = "--" + self.flag.replace("_", "-")
            outputs.check_apart(path, command.input_paths(config, args), option)
            if os.path.isdir(path):
                raise ConfigError(f"{option} {path} is a directory; give a file")
            outputs.claim(path, self.held if os.path.exists(path) else None, False, args.overwrite, option,
                          resumable=False)
        where = os.path.dirname(os.path.abspath(path)) if path else "."
        with outputs.stops_in_one_line(lambda: self.nothing, lambda: "run the same command again", where):
            yield


@dataclass(frozen=True)
class ResultsFolder(Output):
    """Files `names` written whole into the directory `--output` (an evaluation's results; a run that cannot
    resume): pipelines/runtime/outputs.py `results_output`; no --output given: it prints only (`NoOutput`). An
    earlier run's (`held` names them; `extra`: what else such a run leaves there, or a function of the config giving
    it) are refused without --overwrite, replaced with it."""
    names: tuple[str, ...]
    held: str = "the results of an earlier run"
    extra: tuple[str, ...] | Callable[..., tuple[str, ...]] = ()
    overwrite_help: str | None = None

    def add_flags(self, parser, command: "Command") -> None:
        parser.add_argument("--overwrite", action="store_true", help=self.overwrite_help or (
            f"replace the {' and '.join(self.names)} an earlier run left in --output (without --overwrite, an "
            f"--output holding them is refused)"))

    def claimed(self, command: "Command", config, args):
        output = given(config, args, "output")
        if not output:
            return NoOutput().claimed(command, config, args)
        extra = self.extra(config) if callable(self.extra) else self.extra
        return outputs.results_output(output, command.input_paths(config, args), self.names, args.overwrite,
                                      getattr(args, "argv", None), command.name, extra, self.held)


@dataclass(frozen=True)
class ClaimedInRun(Output):
    """An output whose layout only its command knows (probe's runs, train-nmt's steps, ...), which `run` claims
    through pipelines/runtime/outputs.py (`check_apart`, `claim`, `stops_in_one_line`) and output_lock.py: here its
    flags, `--overwrite` and (`resume_help` given) `--resume`, and `saved`: the directory, given the config, where a
    run saves its config for a `--resume` to take up."""
    overwrite_help: str
    resume_help: str | None = None
    saved: Callable[..., str] | None = None

    def add_flags(self, parser, command: "Command") -> None:
        add_rerun_flags(parser, self.resume_help, self.overwrite_help)

    def saved_in(self, args: argparse.Namespace) -> Callable | None:
        return self.saved

    @contextmanager
    def claimed(self, command: "Command", config, args):
        yield


@dataclass(frozen=True)
class Shards(ClaimedInRun):
    """The output of a Beam pipeline over the shards of a build or a corpus, claimed by its shard job
    (pipelines/runtime/shard_job.py `ShardJob`, which lists the shards, so it checks the output apart from them, in
    `run`; a `--resume` goes on by finished shards); the Beam options given are passed on."""

    def add_flags(self, parser, command: "Command") -> None:
        super().add_flags(parser, command)
        parser.set_defaults(accepts_beam_options=True)


@dataclass(frozen=True)
class ModelDirectory(Output):
    """A trainer's model directory `--output`, resumable: pipelines/runtime/outputs.py `training_output`, the
    config saved there (`SAVED_AS`) taken up again by --resume. `directory` and `checkpoint`: how the help names
    them; `data`: the setting naming the training inputs, and `selection` those that choose the pairs kept, which
    --resume compares with the stopped run's."""
    directory: str = "<output>"
    checkpoint: str = "checkpoint"
    data: tuple[str, ...] = ("train",)
    selection: tuple[str, ...] = ()

    def add_flags(self, parser, command: "Command") -> None:
        add_output_flags(parser, f"{self.directory}/{self.checkpoint}",
                         f"{self.directory}/{command.config.SAVED_AS}")

    def saved_in(self, args: argparse.Namespace) -> Callable | None:
        return lambda config: given(config, args, "output")

    def claimed(self, command: "Command", config, args):
        return outputs.training_output(
            given(config, args, "output"), command.input_paths(config, args), args.resume, args.overwrite,
            getattr(args, "argv", None), command.name, config, values(config, args, self.data),
            {name: given(config, args, name) for name in self.selection} or None)


@dataclass(frozen=True)
class Command:
    """A command of `paranmt` (module docstring): `name`, its `config` class (the settings), `run(config, args)`,
    `help` (its line of `paranmt --help`) and `description`; `inputs`: the settings (config fields, or flags of the
    hatch) naming what it reads, which its output must stay apart from; `output`: its output kind; `required`: the
    settings it cannot run without; `check(config, args)`: input checks before the output is claimed; `flags(parser)`:
    the hatch, flags no config holds; `rejects`: it takes --max-reject-rate; `what`: the config's name in errors;
    `example` of --set; `sections` whose fields have flags; `presets`: the folder of the named YAMLs `--config`
    may name (`config_help` then says so), and `preset_setting` the setting whose value names the preset when no
    `--config` is given (cluster-config's `--scheduler slurm`: configs/dask/slurm.yaml); `prepare(args)`: the
    arguments adjusted before the config is loaded (convert-nmt reads a recipe YAML given as --config, its old
    form, as --recipe); `raw_description`: the description's lines kept; `epilog` of its help; `defaults`: further
    parser defaults."""
    name: str
    config: type
    run: Callable[..., int | None]
    help: str
    description: str
    inputs: tuple[str, ...] = ()
    output: Output = NoOutput()
    required: tuple[str, ...] = ()
    check: Callable[..., None] | None = None
    flags: Callable[[argparse.ArgumentParser], None] | None = None
    rejects: bool = False
    what: str = ""
    example: str = ""
    sections: tuple[str, ...] | dict = ()
    presets: Path | None = None
    preset_setting: str | None = None
    config_help: str | None = None
    prepare: Callable[[argparse.Namespace], None] | None = None
    raw_description: bool = False
    epilog: str | None = None
    defaults: dict = field(default_factory=dict)

    def register(self, subparsers) -> argparse.ArgumentParser:
        """The command's parser, added to `subparsers` (pipelines/cli.py)."""
        parser = subparsers.add_parser(self.name, help=self.help, description=self.description, epilog=self.epilog,
                                       **({"formatter_class": argparse.RawDescriptionHelpFormatter}
                                          if self.raw_description else {}))
        if self.flags is not None:
            self.flags(parser)
        add_config_arguments(parser, self.config, self.example, sections=self.sections, config_help=self.config_help)
        self.output.add_flags(parser, self)
        if self.rejects:
            add_reject_rate_flag(parser)
        parser.set_defaults(func=self.execute, **self.defaults)
        return parser

    def input_paths(self, config, args) -> list[str | None]:
        return paths(config, args, self.inputs)

    def execute(self, args: argparse.Namespace) -> int:
        """Run the command line parsed into `args`: its config loaded (the one a stopped run saved, with --resume
        of a resumable output), the inputs checked, the output claimed, `run` under the one-line stops."""
        if self.preset_setting and not args.config:
            args.config = getattr(args, self.preset_setting)
        if self.prepare is not None:
            self.prepare(args)
        config = load_command_config(self.config, args, self.what or f"{self.name} config", self.required,
                                     saved_in=self.output.saved_in(args), presets=self.presets)
        if self.rejects:
            check_reject_rate(args.max_reject_rate)
        if self.check is not None:
            self.check(config, args)
        with self.output.claimed(self, config, args):
            return self.run(config, args) or 0
