"""The shipped encoders: assets/encoder-sp (the English paraphrase encoder, default of the score stage) and
assets/encoder-xling (the bilingual one, default of xsim, `mine` and `eval-xling`): files match their MANIFEST,
and their quality holds on real STS."""
import hashlib
import re
from pathlib import Path

import pytest

from paranmt.models.encoders import load_encoder
from paranmt.models.evaluation.sts import evaluate
from paranmt.models.mining.settings import MiningSettings
from paranmt.schemas.build_config import ScoreConfig, XsimConfig
from paranmt.schemas.paths import asset_path


@pytest.mark.parametrize("name, defaults, sts2017", [
    ("encoder-sp", [ScoreConfig().encoder], 83.4),
    ("encoder-xling", [XsimConfig().encoder, MiningSettings().encoder], 83.3),
])
def test_shipped_encoder_matches_manifest_and_scores_sts2017(repo, shared_data, name, defaults, sts2017):
    directory = repo / "assets" / name
    assert [Path(asset_path(default)).resolve() for default in defaults] == [directory.resolve()] * len(defaults), \
        "its defaults"
    manifest = (directory / "MANIFEST.md").read_text()
    listed = re.findall(r"\| (\S+) \| [\d,]+ \| ([0-9a-f]{64}) \|", manifest)
    assert len(listed) == 3
    for file, digest in listed:
        assert hashlib.sha256((directory / file).read_bytes()).hexdigest() == digest, file
    encoder = load_encoder(directory)
    [result], _ = evaluate(encoder.encode, shared_data / "sts", ["STS2017/track5.en-en"])
    assert round(100 * result.pearson, 1) == sts2017, "the number in MANIFEST.md"
    a, b, c = encoder.encode(["A man is playing a guitar.", "A man plays the guitar.", "The stock market fell."])
    cos = lambda x, y: float(x @ y / ((x @ x) * (y @ y)) ** 0.5)  # noqa: E731
    assert cos(a, b) > cos(a, c) + 0.3
