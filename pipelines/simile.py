"""`paranmt simile`: the SIMILE score of a system output against references (paranmt.models.scoring.simile:
SIM * LP**0.25, lengths in the encoder's units), printed as one line on stdout, `SIMILE = 0.7123`, the mean of the
sentence scores (a sentence with an empty side counts 0). `--hyp` and `--ref` are line-aligned UTF-8 text files,
one sentence a line; the default encoder is the score stage's (`score.encoder`, assets/encoder-sp). Ctrl-C and
SIGTERM stop it in one line. Settings (SimileConfig): defaults <- `--config FILE.yaml` (keys: hyp, ref, encoder,
batch_size, threads) <- flags <- `--set KEY=VALUE`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from paranmt.models.encoders import open_encoder
from paranmt.models.scoring.simile import SimileScorer, corpus_simile
from paranmt.pipelines.runtime.command import Command
from paranmt.schemas.build_config import ScoreConfig
from paranmt.schemas.config import Config, bounded, check_ranges, setting
from paranmt.schemas.errors import ConfigError
from paranmt.transforms.io.streams import read_sentences


@dataclass
class SimileConfig(Config):
    """The settings of `paranmt simile`: the keys of `--config FILE.yaml`, the flags (one per field) and `--set`."""
    RUN_FIELDS: ClassVar[tuple[str, ...]] = ("hyp", "ref")
    hyp: str = setting("", help="system output, one sentence a line")
    ref: str = setting("", help="references, line-aligned with --hyp")
    encoder: str = setting(ScoreConfig.encoder, help="encoder directory (the score stage's)")
    batch_size: int = bounded(1024, 1, help="sentences per encoder call")
    threads: int = bounded(1, 1, help="torch CPU threads")

    def validate(self) -> "SimileConfig":
        check_ranges(self)
        return self


def run(c: SimileConfig, args) -> int:
    hyps, refs = (list(read_sentences(path, what=flag, strict=True)) for flag, path in (("--hyp", c.hyp),
                                                                                        ("--ref", c.ref)))
    if len(hyps) != len(refs):
        raise ConfigError(f"{c.hyp} has {len(hyps)} lines but {c.ref} has {len(refs)}")
    if not hyps:
        raise ConfigError(f"{c.hyp} and {c.ref} have no lines")
    scorer = SimileScorer(open_encoder(c.encoder, c.threads), c.batch_size)
    print(f"SIMILE = {corpus_simile(scorer.score(refs, hyps)):.4f}")
    return 0


COMMAND = Command("simile", SimileConfig, run, help="SIMILE of a system output against references (corpus mean)",
                  description=__doc__, required=("hyp", "ref"), example="batch_size=256")
