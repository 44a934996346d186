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

from paranmt.models.encoders import shared_encoder
from paranmt.models.scoring.overlap import trigram_overlap
from paranmt.models.scoring.para_score import ParaScorer
from paranmt.models.scoring.signals import SignalsStage
from paranmt.models.stage import PairStage
from paranmt.schemas.build_config import ScoreConfig


class ScoreStage(PairStage):
    name = "score"
    requires = ("ref",)

    def __init__(self, encoder_dir: str, config: ScoreConfig):
        """`encoder_dir`: the resolved encoder location; `config`: the build's `score` section."""
        self.encoder_dir, self.batch_size = encoder_dir, config.batch_size
        self.scorer: ParaScorer | None = None
        self.signals: SignalsStage | None = None

    def setup(self) -> None:
        if self.scorer is None:
            import torch

            torch.set_num_threads(1)      # one thread per worker process: the processes are the parallelism
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
