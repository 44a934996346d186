"""The score stage's Beam adapter: config validation and a real DirectRunner run."""
import apache_beam as beam
import pytest
from apache_beam.options.pipeline_options import PipelineOptions
from apache_beam.testing.util import assert_that, equal_to

from paranmt.models.encoders import create_encoder
from paranmt.schemas.config import BuildConfig, ConfigError
from paranmt.schemas.records import empty_row
from paranmt.transforms.score import stage_transform


def test_missing_encoder_is_a_config_error(tmp_path):
    config = BuildConfig()
    config.score.encoder = str(tmp_path / "no-such-encoder")
    with pytest.raises(ConfigError, match="score.encoder"):
        stage_transform(config)
    config.score.encoder, config.score.batch_size = "assets/encoder-sp", 0
    with pytest.raises(ConfigError, match="batch_size"):
        stage_transform(config)


def test_stage_transform_scores_rows_on_beam(bitext, tmp_path):
    sentences = (bitext / "newstest2014.eng").read_text(encoding="utf-8").splitlines()
    create_encoder("trigram", sentences, dim=16).save(tmp_path / "enc")
    config = BuildConfig()
    config.score.encoder, config.score.batch_size = str(tmp_path / "enc"), 2
    rows = [("shard-0", dict(empty_row(f"t:f:{i}", "t", "x", ref), bt=bt))
            for i, (ref, bt) in enumerate([("The cat sat down.", "The cat sat up."), ("Yes.", None),
                                           ("I know.", "I know."), ("Go home now.", "Go home.")])]
    options = PipelineOptions(["--runner=DirectRunner", "--direct_running_mode=in_memory"])  # never fetches Prism
    with beam.Pipeline(options=options) as pipeline:
        scored, rejects = pipeline | beam.Create(rows) | stage_transform(config)
        summary = scored | beam.Map(lambda e: (e[0], e[1]["id"], e[1]["trigram_overlap"],
                                               None if e[1]["para_score"] is None else round(e[1]["para_score"], 4)))
        assert_that(summary, equal_to([("shard-0", "t:f:0", pytest.approx(1 / 3), pytest.approx(
            _cos(tmp_path / "enc", "The cat sat down.", "The cat sat up."), abs=1e-4)),
            ("shard-0", "t:f:1", None, None), ("shard-0", "t:f:2", 1.0, 1.0), ("shard-0", "t:f:3", 0.0,
            pytest.approx(_cos(tmp_path / "enc", "Go home now.", "Go home."), abs=1e-4))]))
        assert_that(rejects, equal_to([]), label="NoRejects")


def _cos(directory, a, b):
    from paranmt.models.encoders import load_encoder

    x, y = load_encoder(directory).encode([a, b])
    return float(x @ y / ((x @ x) ** 0.5 * (y @ y) ** 0.5))
