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
`RunFolder` (a folder a run fills piece by piece, resumable: its `RunLayout`, a small class of the command, says
what an earlier run left, what `--overwrite` removes and what a stop keeps; the kind does the checks, the claim and
the stops):

    class ProbeLayout(RunLayout):            # held(), replaced(), status(), resumable(), cleanup()
        ...
    COMMAND = Command("probe", ProbeConfig, run, ..., inputs=("input", "sts_dir"),
                      output=RunFolder(ProbeLayout, "delete an earlier probe in --output first ..."))

A `ResultsFolder` or `RunFolder` output is claimed before `run` is called: `run` holds no output check, claim, lock
or stop of its own, but where the layout is `claimed_in_run` (a shard job's output; convert-nmt's for now).
"""
from __future__ import annotations

import argparse
import os
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable

from paranmt.pipelines.runtime import outputs
from paranmt.pipelines.runtime.arguments import (add_config_arguments, add_output_flags, add_rerun_flags,
                                                 load_command_config)
from paranmt.pipelines.runtime.output_lock import output_locked
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
    """Files `names` (or a function of the config giving them) written whole into the directory `--output` (an
    evaluation's results; a run that cannot resume): pipelines/runtime/outputs.py `results_output`; no --output
    given: it prints only (`NoOutput`). An earlier run's (`held` names them; `extra`: what else such a run leaves
    there, or a function of the config giving it) are refused without --overwrite, replaced with it. `names` None:
    the run writes the whole directory (export-encoder), which holds an earlier run's when it holds `marker`.
    A stop removes what the run wrote, or with `kept` leaves it, its line giving the command that replaces it."""
    names: tuple[str, ...] | Callable[..., tuple[str, ...]] | None
    held: str = "the results of an earlier run"
    extra: tuple[str, ...] | Callable[..., tuple[str, ...]] = ()
    overwrite_help: str | None = None
    marker: str | None = None
    kept: bool = False

    def add_flags(self, parser, command: "Command") -> None:
        parser.add_argument("--overwrite", action="store_true", help=self.overwrite_help or (
            f"replace the {' and '.join(self.names)} an earlier run left in --output (without --overwrite, an "
            f"--output holding them is refused)"))

    def claimed(self, command: "Command", config, args):
        output = given(config, args, "output")
        if not output:
            return NoOutput().claimed(command, config, args)
        names = self.names(config) if callable(self.names) else self.names
        extra = self.extra(config) if callable(self.extra) else self.extra
        return outputs.results_output(output, command.input_paths(config, args), names, args.overwrite,
                                      getattr(args, "argv", None), command.name, extra, self.held, self.marker,
                                      self.kept)


class RunLayout:
    """What a run leaves in the folder it fills piece by piece, which a `--resume` goes on with (`RunFolder`): made
    for each run from its config and arguments by a subclass of its command, which says what differs. `directory`
    (None: the run writes nothing there, so nothing is claimed) and its `flag`; `again`: the advice after a stop
    that left nothing to resume."""
    flag = "--output"
    again = "run the same command again"
    directory: str | None = None

    def folders(self) -> list[tuple[str, str]]:
        """The folders the run writes, each with its flag: each is checked apart from the inputs."""
        return [(self.directory, self.flag)] if self.directory else []

    def locks(self, command: str) -> list:
        """The locks held for the run of `command`, one run at a time on each of its folders (output_lock.py
        `output_locked`)."""
        return [output_locked(folder, command, flag) for folder, flag in self.folders()]

    def inputs(self) -> list[str | None] | None:
        """The inputs the folders must stay apart from; None: the command's (`Command.inputs`)."""
        return None

    def held(self) -> tuple[str | None, bool]:
        """What an earlier run left (a description for pipelines/runtime/outputs.py `claim`; None: nothing), and
        whether a --resume has something to do with it."""
        return None, False

    def replaced(self) -> list:
        """What `--overwrite` removes before the run."""
        return []

    def claim(self, resume: bool, overwrite: bool) -> None:
        """Claim the folder (`outputs.claim` of `held`; with --overwrite, `replaced` removed)."""
        if self.directory is None:
            return
        held, unfinished = self.held()
        if outputs.claim(self.directory, held, resume, overwrite, self.flag, unfinished=unfinished) == "overwrite":
            outputs.remove_paths(self.replaced())

    def status(self) -> str:
        """What a stop keeps, for its one line."""
        return "nothing was written"

    def resumable(self) -> bool:
        """Whether a stop left something that --resume goes on with (its line then gives that command)."""
        return False

    def where(self) -> str:
        """Where a full disk is looked for."""
        return self.directory or "."

    def cleanup(self) -> None:
        """Remove, after a stop, what the write cut short left."""


@dataclass(frozen=True)
class RunFolder(Output):
    """A folder a run fills piece by piece and a `--resume` goes on with, its layout (`RunLayout`) told by the
    command (`layout(config, args)`): probe's runs, train-nmt's steps, train-parser's work directory and package,
    paraphrase-data's parse cache, adversarial's cached paraphrases, paraphrase's parts (a layout of None: the run
    claims the output itself, `claimed_in_run`). Claimed for the whole run: apart from the
    inputs, one run at a time, an earlier run's refused without `--resume` (`resume_help` given: the flag; else the
    config's `resume` field) or `--overwrite`, a stop in one line naming the `--resume` command when there is
    something to resume. `saved`: the directory, given the config, where a run saves its config for a `--resume` to
    take up."""
    layout: Callable[..., RunLayout]
    overwrite_help: str
    resume_help: str | None = None
    saved: Callable[..., str] | None = None

    def add_flags(self, parser, command: "Command") -> None:
        add_rerun_flags(parser, self.resume_help, self.overwrite_help)

    def saved_in(self, args: argparse.Namespace) -> Callable | None:
        return self.saved

    @contextmanager
    def claimed(self, command: "Command", config, args):
        run = self.layout(config, args)
        if run is None:         # claimed by the run (`claimed_in_run`; paraphrase's shard input)
            yield
            return
        inputs = run.inputs()
        inputs = command.input_paths(config, args) if inputs is None else inputs
        for folder, flag in run.folders():
            outputs.check_apart(folder, inputs, flag)
        argv = getattr(args, "argv", None)
        with ExitStack() as held:
            for lock in run.locks(command.name):
                held.enter_context(lock)
            run.claim(bool(given(config, args, "resume")), args.overwrite)
            with outputs.stops_in_one_line(run.status, lambda: outputs.resume_command(argv, command.name)
                                           if run.resumable() else run.again, run.where(), run.cleanup):
                yield


def claimed_in_run(config, args) -> None:
    """No layout: the output is claimed by the run itself, a shard job's by its `ShardJob` (`Shards`), and
    convert-nmt's, whose inputs and layout depend on which of its three sources is given, by its `run`."""
    return None


class Shards(RunFolder):
    """The output of a Beam pipeline over the shards of a build or a corpus, claimed by its shard job
    (pipelines/runtime/shard_job.py `ShardJob`, which lists the shards, so it checks the output apart from them, in
    `run`; a `--resume` goes on by finished shards): a `RunFolder` without a layout (`claimed_in_run`); the Beam
    options given are passed on."""

    def __init__(self, overwrite_help: str, resume_help: str | None = None, saved: Callable[..., str] | None = None):
        super().__init__(claimed_in_run, overwrite_help, resume_help, saved)

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
