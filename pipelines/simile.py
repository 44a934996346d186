"""`paranmt simile`: the SIMILE score of a system output against references (paranmt.models.scoring.simile:
SIM * LP**0.25, lengths in the encoder's units), printed as one line on stdout, `SIMILE = 0.7123`, the mean of the
sentence scores (a sentence with an empty side counts 0). `--hyp` and `--ref` are line-aligned UTF-8 text files,
one sentence a line; the default encoder is the score stage's (`score.encoder`, assets/encoder-sp). Ctrl-C and
SIGTERM stop it in one line.
"""
from __future__ import annotations

from pathlib import Path

from paranmt.models.encoders import open_encoder
from paranmt.models.files import read_text
from paranmt.models.scoring.simile import SimileScorer, corpus_simile
from paranmt.pipelines.runtime.outputs import stops_in_one_line
from paranmt.schemas.build_config import ScoreConfig
from paranmt.schemas.errors import ConfigError


def read_lines(path: str) -> list[str]:
    """The lines of a UTF-8 text file (without line ends); a missing or undecodable file is a ConfigError."""
    if not Path(path).is_file():
        raise ConfigError(f"{path} is not a file")
    return read_text(path, "text file").splitlines()


def run(args) -> int:
    hyps, refs = read_lines(args.hyp), read_lines(args.ref)
    if len(hyps) != len(refs):
        raise ConfigError(f"{args.hyp} has {len(hyps)} lines but {args.ref} has {len(refs)}")
    if not hyps:
        raise ConfigError(f"{args.hyp} and {args.ref} have no lines")
    with stops_in_one_line(lambda: "nothing was written", lambda: "run the same command again"):
        scorer = SimileScorer(open_encoder(args.encoder, args.threads), args.batch_size)
        score = corpus_simile(scorer.score(refs, hyps))
    print(f"SIMILE = {score:.4f}")
    return 0


def register(subparsers) -> None:
    parser = subparsers.add_parser("simile", help="SIMILE of a system output against references (corpus mean)",
                                   description=__doc__)
    parser.add_argument("--hyp", required=True, help="system output, one sentence a line")
    parser.add_argument("--ref", required=True, help="references, line-aligned with --hyp")
    parser.add_argument("--encoder", default=ScoreConfig.encoder,
                        help=f"encoder directory (default: the score stage's, {ScoreConfig.encoder})")
    parser.add_argument("--batch-size", type=int, default=1024)
    parser.add_argument("--threads", type=int, default=1)
    parser.set_defaults(func=run)
