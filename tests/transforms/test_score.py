"""The score stage through the stage table and the one adapter: config validation and a real Beam run."""
import pytest

from paranmt.models.encoders import create_encoder
from paranmt.schemas.build_config import BuildConfig
from paranmt.schemas.errors import ConfigError
from paranmt.schemas.records import empty_row
from paranmt.transforms.stage import build_stage


def test_missing_encoder_is_a_config_error(tmp_path):
    config = BuildConfig()
    config.score.encoder = str(tmp_path / "no-such-encoder")
    with pytest.raises(ConfigError, match="score.encoder"):
        build_stage("score", config)
    config.score.encoder, config.score.batch_size = "assets/encoder-sp", 0
    with pytest.raises(ConfigError, match="batch_size"):
        build_stage("score", config)


def test_the_score_stage_scores_rows_on_beam(bitext, tmp_path, stage_on_beam):
    sentences = (bitext / "newstest2014.eng").read_text(encoding="utf-8").splitlines()
    create_encoder("trigram", sentences, dim=16).save(tmp_path / "enc")
    config = BuildConfig()
    config.score.encoder, config.score.batch_size = str(tmp_path / "enc"), 2
    rows = [dict(empty_row(f"t:f:{i}", "t", "x", ref), bt=bt)
            for i, (ref, bt) in enumerate([("The cat sat down.", "The cat sat up."), ("Yes.", None),
                                           ("I know.", "I know."), ("Go home now.", "Go home.")])]
    outputs, counters = stage_on_beam("score", config, {"shard-0": rows})
    work = outputs["shard-0"]
    assert work.rejects == [] and counters["rows_in"] == 4 and counters["batches"] == 2
    summary = [(r["id"], r["trigram_overlap"], None if r["para_score"] is None else round(r["para_score"], 4))
               for r in work.rows]
    assert summary == [("t:f:0", pytest.approx(1 / 3), pytest.approx(
        _cos(tmp_path / "enc", "The cat sat down.", "The cat sat up."), abs=1e-4)),
        ("t:f:1", None, None), ("t:f:2", 1.0, 1.0), ("t:f:3", 0.0,
        pytest.approx(_cos(tmp_path / "enc", "Go home now.", "Go home."), abs=1e-4))]


def _cos(directory, a, b):
    from paranmt.models.encoders import load_encoder

    x, y = load_encoder(directory).encode([a, b])
    return float(x @ y / ((x @ x) ** 0.5 * (y @ y) ** 0.5))
