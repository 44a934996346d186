"""Factories of the encoder stages for the stage table: `score_stage(config.score)` -> a `ScoreStage`,
`xsim_stage(config.xsim, source_lang)` -> an `XsimStage`.

Rows gain `trigram_overlap` and `para_score` (see `paranmt.models.scoring.stage.ScoreStage`); rows without a
back-translation pass with null scores. The encoder is loaded once per worker process, from a local copy of the
model when it lives on gs:// (`local_model_path`).
"""
from __future__ import annotations

from paranmt.models.encoders import EncoderError, load_encoder
from paranmt.models.scoring.stage import ScoreStage
from paranmt.models.scoring.xsim import XsimStage
from paranmt.schemas.build_config import ScoreConfig, XsimConfig
from paranmt.schemas.metadata import covers, manifest_languages
from paranmt.transforms.io.model_cache import local_model_path
from paranmt.transforms.stage import checked_model


class _LocalEncoderCopy:
    """Mixin: the stage's encoder may live on any Beam filesystem (gs://...): copied once per worker machine."""

    def setup(self) -> None:
        self.encoder_dir = local_model_path(self.encoder_dir)
        super().setup()


class CachedModelScoreStage(_LocalEncoderCopy, ScoreStage):
    pass


class CachedModelXsimStage(_LocalEncoderCopy, XsimStage):
    pass


def score_stage(config: ScoreConfig) -> ScoreStage:
    """The score stage of `config`; ConfigError (one message) for a missing or invalid encoder."""
    encoder_dir = checked_model("score.encoder", config.encoder, load_encoder, (EncoderError,))
    return CachedModelScoreStage(encoder_dir, config)


def xsim_stage(config: XsimConfig, source_lang: str) -> XsimStage:
    """The xsim stage of `config` (its threshold `xsim.min_xsim` included) for sources in `source_lang`;
    ConfigError for a bad encoder, or for one whose MANIFEST.json `languages` lack `source_lang` (one line that
    says how to build without xsim)."""
    languages = []

    def check(path: str) -> None:
        languages.extend(manifest_languages(path) or [])
        if languages and not covers(languages, source_lang):
            raise EncoderError(
                f"{config.encoder} encodes {', '.join(languages)} (its MANIFEST.json), not source_lang {source_lang}: "
                f"leave xsim out (e.g. --stages read,clean,translate,score,parse) or give an encoder for "
                f"{source_lang} (--set xsim.encoder=DIR)")
        load_encoder(path)

    encoder_dir = checked_model("xsim.encoder", config.encoder, check, (EncoderError,))
    return CachedModelXsimStage(encoder_dir, config, languages or None)
