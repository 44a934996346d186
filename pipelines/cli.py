"""The `paranmt` command line: one subcommand per module listed in COMMAND_MODULES.

Each module `paranmt.pipelines.<name>` defines `register(subparsers)`, which adds its subparser(s) and sets
`func=<callable taking the parsed args, returning an exit code>` on them.
"""
from __future__ import annotations

import argparse
import importlib
import logging
import sys

from paranmt.schemas.config import ConfigError

COMMAND_MODULES = [
    "build",
    "train_parser",
    "train", "evaluate", "encode",
    "train_nmt",
    "convert_nmt",
]


def make_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="paranmt", description=__doc__.splitlines()[0])
    parser.add_argument("-v", "--verbose", action="store_true", help="debug logging")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(f"paranmt.pipelines.{name}").register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = make_parser()
    args, extra = parser.parse_known_args(argv)
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if not args.verbose:
        for noisy in ("apache_beam", "fairseq", "stanza", "root"):
            logging.getLogger(noisy).setLevel(logging.WARNING)
    if extra and not getattr(args, "accepts_beam_options", False):
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    args.beam_args = extra
    try:
        return args.func(args) or 0
    except ConfigError as error:
        print(f"paranmt {args.command}: configuration error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
