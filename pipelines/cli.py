"""The `paranmt` command line: one subcommand per entry of COMMANDS (command name -> module name).

Each module `paranmt.pipelines.<module>` declares its command: a module-level `Command(NAME, ...)`
(pipelines/runtime/command.py), from which its parser, config, output contract and stops are built. Only the module
of the command being run is imported, so `paranmt build` does not pay for torch/stanza imports it does not use, and
`paranmt --help` imports none: it lists each command with the `help=` of its declaration, read from the module's
source.
A command that needs a package of an extra the install lacks stops with one line naming the extra (exit 2), and so
does a mistake on the command line (`CommandLineParser`): no usage block, `--help` alone prints it. The scripts of
benchmarks/ parse their arguments with a CommandLineParser and run their `main()` through `exit_code`, so their
mistakes read the same.
"""
from __future__ import annotations

import argparse
import ast
import importlib
import importlib.util
import os
import sys
from typing import Callable

from paranmt.pipelines.runtime.extras import MissingExtra, missing_extra
from paranmt.pipelines.runtime.logs import configure_logging
from paranmt.schemas.errors import ConfigError, PipelineStopped

COMMANDS = {
    "build": "build",
    "train-parser": "train_parser",
    "train": "train",
    "train-bgt": "train_bgt",
    "eval": "evaluate",
    "probe": "probe",
    "encode": "encode",
    "export-encoder": "export_encoder",
    "train-nmt": "train_nmt",
    "convert-nmt": "convert_nmt",
    "eval-nmt": "convert_nmt",
    "filter": "filter", "stats": "stats", "export": "export", "lexicon": "lexicon", "report": "report",
    "check-dataflow": "dataflow",
    "cluster-config": "cluster_config",
    "mine": "mine",
    "eval-xling": "eval_xling",
    "simile": "simile",
    "eval-transfer": "eval_transfer",
    "finetune-sts": "finetune_sts",
    "paraphrase-data": "paraphrase_data",
    "train-paraphraser": "train_paraphraser",
    "eval-words": "eval_words",
    "train-words": "train_words",
    "paraphrase": "paraphrase",
    "eval-paraphraser": "eval_paraphraser",
    "adversarial": "adversarial",
}


def command_help(command: str) -> str | None:
    """The `help=` string of `Command(command, ..., help=...)` (pipelines/runtime/command.py) in the source of the
    command's module, read without importing the module (None when the call has no literal help)."""
    source = importlib.util.find_spec(f"paranmt.pipelines.{COMMANDS[command]}").loader.get_source(
        f"paranmt.pipelines.{COMMANDS[command]}")
    for node in ast.walk(ast.parse(source)):
        if (isinstance(node, ast.Call) and node.args and getattr(node.func, "id", None) == "Command"
                and _literal(node.args[0]) == command):
            return next((keyword.value.value for keyword in node.keywords if keyword.arg == "help"
                         and isinstance(keyword.value, ast.Constant)), None)
    return None


def _literal(node: ast.AST):
    return node.value if isinstance(node, ast.Constant) else None


class CommandLineParser(argparse.ArgumentParser):
    """The parser of `paranmt` and of each command (add_subparsers gives the commands their parser's class): its
    mistakes (a required flag or the command missing, a flag without its value, a value of the wrong type, a bad
    choice) are ConfigErrors, which main() prints as one line, exit 2, instead of argparse's usage block and exit."""

    def error(self, message: str):
        raise ConfigError(message)

    def _check_value(self, action, value):
        """argparse's check of a value against the flag's (or COMMAND's) choices, naming the closest choices
        first: `invalid choice: 'trian' (did you mean 'train' or 'train-bgt'?) (choose from 'build', ...)`
        (argparse has no public hook for the message)."""
        if action.choices is not None and value not in action.choices:
            from paranmt.schemas.config import near_matches

            raise argparse.ArgumentError(action, f"invalid choice: {value!r}"
                                         f"{near_matches(str(value), map(str, action.choices))} "
                                         f"(choose from {', '.join(map(repr, action.choices))})")


def make_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser with every command listed (one line of help each), and the full arguments of `command`, whose
    module is the only one imported (None: no module imported, for `paranmt --help`)."""
    parser = CommandLineParser(prog="paranmt", description="ParaNMT-style paraphrase corpora on Apache Beam, "
                                     "and paraphrastic sentence encoders trained on them.",
                                     epilog="`paranmt COMMAND --help` gives the options of a command.")
    parser.add_argument("-v", "--verbose", action="store_true", help="debug logging")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")     # none: main() says so
    parser.commands = subparsers.choices        # command -> its parser
    if command is not None:
        register(command, subparsers)
    for name in COMMANDS:
        if name not in subparsers.choices:
            subparsers.add_parser(name, help=command_help(name) if command is None else None)
    return parser


def register(command: str, subparsers) -> None:
    """Add the parser of `command` to `subparsers`: its module's declaration (the `Command` of that name)."""
    from paranmt.pipelines.runtime.command import Command

    module = importlib.import_module(f"paranmt.pipelines.{COMMANDS[command]}")
    next(value for value in vars(module).values()
         if isinstance(value, Command) and value.name == command).register(subparsers)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    configure_logging("-v" in argv or "--verbose" in argv)
    command = next((a for a in argv if not a.startswith("-")), None)
    command = command if command in COMMANDS else None      # another word is an invalid choice of `paranmt`
    return exit_code(lambda: run_command(argv, command), f"paranmt{f' {command}' if command else ''}", command)


def run_command(argv: list[str], command: str | None) -> int:
    """The exit code of the command line `argv` of `paranmt` (`command`: its command, None when it names none)."""
    parser = make_parser(command)
    args, extra = parser.parse_known_args(argv)
    # the unknown arguments before the command are mistakes of `paranmt`'s own flags (argparse lists them first)
    own = parser.parse_known_args(argv[:argv.index(command)])[1] if command else extra
    check_unrecognized(own, parser, None, False, "" if command else " (no command given; `paranmt --help` lists them)")
    if args.command is None:
        raise ConfigError("no command given (`paranmt --help` lists them)")
    extra = extra[len(own):]
    if extra:
        check_unrecognized(extra, parser, args.command, getattr(args, "accepts_beam_options", False))
    args.beam_args, args.argv = extra, argv
    return args.func(args) or 0


def exit_code(run: Callable[[], int | None], program: str | None = None, command: str | None = None) -> int:
    """The exit code of `run()` (None: 0), which stops in one line on stderr `PROGRAM: ...` instead of a
    traceback: a user's mistake (a ConfigError: a command-line mistake of a CommandLineParser, a bad input or
    model a reader of the project found; or a module of an extra the install lacks, `command`'s extra named
    first) exit 2, a stopped pipeline (PipelineStopped) exit 1 (130 / 143 after a signal:
    pipelines/runtime/outputs.py). `paranmt` runs each command line through it, and each script of benchmarks/ its
    `main()` (`sys.exit(exit_code(main))`; `program` None: the script's file name, as argparse's `prog`)."""
    program = os.path.basename(sys.argv[0]) if program is None else program
    try:
        return run() or 0
    except ModuleNotFoundError as error:
        problem = missing_extra(error, command)
        if problem is None:         # not a module of an extra: a broken install, keep the traceback
            raise
        return user_error(program, problem)
    except ConfigError as error:
        return user_error(program, error)
    except PipelineStopped as error:     # a pipeline failed or a command was stopped
        print(f"{program}: {error}", file=sys.stderr)
        return getattr(error, "exit_code", 1)


def check_unrecognized(extra: list[str], parser: argparse.ArgumentParser, command: str | None, beam: bool,
                       note: str = "") -> None:
    """ConfigError naming the arguments argparse left in `extra` that `command` does not take (None: that `paranmt`
    itself does not take, before or without a command), each mistyped flag with the closest of the command's (or
    `paranmt`'s) flags (`unrecognized arguments: --templats top10 (did you mean '--templates'?)`), then `note`:
    all of them, or for a command that passes the rest to Beam as pipeline options (`beam`), those that Beam does
    not take either and that are close to one of the command's flags (a mistyped flag, which Beam would drop with a
    warning; pipelines/runtime/options.py `beam_flags`)."""
    from paranmt.pipelines.runtime.arguments import argument_groups, flag_name, parser_flags, unrecognized_arguments
    from paranmt.schemas.config import near_matches

    flags = parser_flags(parser if command is None else parser.commands[command])
    groups = argument_groups(extra)
    if beam:
        from paranmt.pipelines.runtime.options import beam_flags

        taken = beam_flags()
        groups = [group for group in groups if flag_name(group) and flag_name(group) not in taken
                  and near_matches(flag_name(group), flags)]
    if groups:
        raise ConfigError(unrecognized_arguments(groups, flags) + note)


def user_error(program: str, error: ConfigError) -> int:
    """A user's mistake (or a missing extra): one line on stderr, exit code 2 (`paranmt: ...` for a mistake made
    before the command: none, or an unknown one; `paranmt COMMAND: ...` after it)."""
    kind = "" if isinstance(error, MissingExtra) else "configuration error: "
    print(f"{program}: {kind}{error}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
