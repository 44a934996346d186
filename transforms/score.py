"""The score stage's factory for the stage table: `score_stage(config.score)` -> a `ScoreStage`.

Rows gain `trigram_overlap` and `para_score` (see `paranmt.models.scoring.stage.ScoreStage`); rows without a
back-translation pass with null scores. The encoder is loaded once per worker process, from a local copy of the
model when it lives on gs:// (`local_model_path`).
"""
from __future__ import annotations

from paranmt.models.encoders import EncoderError, load_encoder
from paranmt.models.scoring.stage import ScoreStage
from paranmt.schemas.config import ScoreConfig
from paranmt.transforms.io.model_cache import local_model_path
from paranmt.transforms.stage import checked_model


class CachedModelScoreStage(ScoreStage):
    """ScoreStage whose encoder may live on any Beam filesystem (gs://...): copied once per worker machine."""

    def setup(self) -> None:
        self.encoder_dir = local_model_path(self.encoder_dir)
        super().setup()


def score_stage(config: ScoreConfig) -> ScoreStage:
    """The score stage of `config`; ConfigError (one message) for a missing or invalid encoder."""
    encoder_dir = checked_model("score.encoder", config.encoder, load_encoder, (EncoderError,))
    return CachedModelScoreStage(encoder_dir, batch_size=config.batch_size)
