"""Beam adapter of the score stage: `stage_transform(config)` for `paranmt build --stages ...,score`.

`(shard, row)` -> `(rows, rejects)`: rows gain `trigram_overlap` and `para_score`
(see `paranmt.models.scoring.stage.ScoreStage`); rows without a back-translation pass with null scores. The
encoder is loaded once per worker process.
"""
from __future__ import annotations

import apache_beam as beam

from paranmt.models.encoders import EncoderError, load_encoder
from paranmt.models.scoring.stage import ScoreStage
from paranmt.schemas.config import BuildConfig, ConfigError, ScoreConfig, asset_path
from paranmt.transforms.io.model_cache import local_model_path
from paranmt.transforms.stage import ApplyStage


class CachedModelScoreStage(ScoreStage):
    """ScoreStage whose encoder may live on any Beam filesystem (gs://...): copied once per worker machine."""

    def setup(self) -> None:
        self.encoder_dir = local_model_path(self.encoder_dir)
        super().setup()


def make_score_stage(config: ScoreConfig) -> ScoreStage:
    """A ScoreStage for `config`; ConfigError (one message) for a missing/invalid encoder or a bad batch size."""
    encoder_dir = asset_path(config.encoder)
    if config.batch_size < 1:
        raise ConfigError("score.batch_size must be >= 1")
    try:
        load_encoder(local_model_path(encoder_dir))
    except EncoderError as error:
        raise ConfigError(f"score.encoder: {error}") from None
    return CachedModelScoreStage(encoder_dir, batch_size=config.batch_size)


def stage_transform(config: BuildConfig) -> beam.PTransform:
    """The score stage of `paranmt build` (validates `config.score` first; ConfigError before any work)."""
    return ApplyStage(make_score_stage(config.score), max_batch=config.score.batch_size)
