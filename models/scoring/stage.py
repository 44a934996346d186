"""The score stage of `paranmt build` (pure; `paranmt.transforms.score` adapts it to Beam).

For every row with a back-translation (`bt` not null) it fills
- `trigram_overlap` (paranmt.models.scoring.overlap: sacremoses tokens, lowercased, set of word trigrams,
  |T(ref) & T(bt)| / min(|T(ref)|, |T(bt)|); under 3 tokens the token tuple is the only trigram; no tokens -> null),
- `para_score` = cos(f(ref), f(bt)) of the configured encoder (paranmt.models.scoring.para_score), one vectorized
  op per batch; undefined cosine -> null.
- the pair signals of schema v2 (paranmt.models.scoring.signals.SignalsStage, with the same encoder: `simile`,
  `bt_repetition`, `unigram_f1`, `kendall_tau`, and the language label and confidence of cs, ref and bt).
Rows whose `bt` is null (translate not run, or failed) are passed on with the bt scores null, never rejected: the
build pipeline scores, `paranmt filter` decides (score once, decide later).
"""
from __future__ import annotations

import math
import os
from pathlib import Path

from paranmt.models.encoders import SentenceEncoder, load_encoder
from paranmt.models.scoring.overlap import trigram_overlap
from paranmt.models.scoring.para_score import ParaScorer
from paranmt.models.stage import PairStage, process_model
from paranmt.schemas.metadata import file_sha256


def shared_encoder(directory: str) -> SentenceEncoder:
    """One loaded encoder per directory per process (the project's one cache, models.stage.process_model)."""
    return process_model(("encoder", directory), lambda: load_encoder(directory))


def directory_sha256(directory: str | Path) -> dict[str, str]:
    """sha256 of every file under `directory`, keyed by relative path."""
    directory = Path(directory)
    return {str(path.relative_to(directory)): file_sha256(path)
            for path in sorted(p for p in directory.rglob("*") if p.is_file())}


class ScoreStage(PairStage):
    name = "score"
    requires = ("ref",)

    def __init__(self, encoder_dir: str, batch_size: int = 1024, threads: int = 1):
        self.encoder_dir, self.batch_size, self.threads = encoder_dir, batch_size, threads
        self.scorer: ParaScorer | None = None
        self.signals = None

    def setup(self) -> None:
        if self.scorer is None:
            import torch

            from paranmt.models.scoring.signals import SignalsStage

            torch.set_num_threads(self.threads)
            self.scorer = ParaScorer(shared_encoder(self.encoder_dir), self.batch_size)
            self.signals = SignalsStage(self.encoder_dir)
            self.signals.setup()

    def process_batch(self, rows: list[dict]) -> list[dict]:
        self.setup()
        translated = [i for i, row in enumerate(rows) if row.get("bt") is not None]
        cosines = self.scorer.score([rows[i]["ref"] for i in translated], [rows[i]["bt"] for i in translated])
        outputs = [dict(row, trigram_overlap=None, para_score=None) for row in rows]
        for i, cosine in zip(translated, cosines):
            outputs[i]["trigram_overlap"] = trigram_overlap(rows[i]["ref"], rows[i]["bt"])
            outputs[i]["para_score"] = None if math.isnan(cosine) else float(cosine)
        return self.signals.process_batch(outputs)

    def identity(self) -> dict:
        return {"scorer_encoder": os.path.abspath(self.encoder_dir),
                "scorer_files": directory_sha256(self.encoder_dir)}
