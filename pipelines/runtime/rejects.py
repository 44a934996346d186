"""Input records a command refused: the `--max-reject-rate` flag of `build` and the trainers, and the lines that say
what a trainer's reader rejected (docs/reliability.md, "Bad input -> reject rows with a reason").

A trainer reads its text inputs as the build does (models/encoding.py `LineRejects`): the lines it refuses are
counted by the build's reasons, recorded in the run's record (train_data.json) and said on stderr when reading ends,
one line per file with lines that are not UTF-8 (`encoding_advice`, as the build) and one with the counts. The reject
rate is the fraction of the records read that are not used (rejected, or skipped by a trainer's filters, as the
build's clean rejects); over `--max-reject-rate` the command says so in one line and exits 1.
"""
from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from paranmt.schemas.errors import ConfigError

if TYPE_CHECKING:       # `build --help` imports no models/ module (tests/pipelines/test_build_cli.py)
    from paranmt.models.encoding import LineRejects

EXIT_REJECTS = 1        # the exit code of a run over --max-reject-rate (as an unbalanced build)


def add_reject_rate_flag(parser) -> None:
    parser.add_argument("--max-reject-rate", type=float, metavar="R",
                        help="exit 1 when more than this fraction (0-1) of the input records was rejected")


def check_reject_rate(limit: float | None) -> None:
    """ConfigError for a `--max-reject-rate` outside [0, 1]; checked before any work."""
    if limit is not None and not 0 <= limit <= 1:
        raise ConfigError("--max-reject-rate must be between 0 and 1")


def over_reject_rate(command: str, rejected: int, read: int, limit: float | None) -> bool:
    """Whether `rejected` of `read` records is more than `limit` (`--max-reject-rate`; None: no limit); when it is,
    the line `paranmt <command>: reject rate 12.0% > --max-reject-rate 5.0%` on stderr."""
    rate = rejected / read if read else 0.0
    if limit is None or rate <= limit:
        return False
    print(f"paranmt {command}: reject rate {rate:.1%} > --max-reject-rate {limit:.1%}", file=sys.stderr)
    return True


def report_rejects(command: str, rejects: LineRejects, read: int, record: str) -> None:
    """The lines on stderr about the lines a trainer's reader rejected (nothing when it rejected none): one per
    file with lines that are not UTF-8, then `N of M input records were rejected (read/<reason> n, ...); counted
    in <record>`."""
    for advice in rejects.advice():
        print(f"paranmt {command}: {advice}", file=sys.stderr)
    if rejects.total:
        reasons = ", ".join(f"{reason} {n}" for reason, n in sorted(rejects.by_reason.items()))
        print(f"paranmt {command}: {rejects.total} of {read} input records were rejected ({reasons}); counted in "
              f"{record}", file=sys.stderr)
