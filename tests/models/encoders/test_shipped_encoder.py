"""The shipped default scorer assets/encoder-sp: files match its MANIFEST, and its quality holds on real STS."""
import hashlib
import re

from paranmt.models.encoders import load_encoder
from paranmt.models.evaluation.sts import evaluate
from paranmt.schemas.build_config import ScoreConfig
from paranmt.schemas.paths import asset_path


def test_shipped_encoder_matches_manifest_and_scores_sts2017(repo, shared_data):
    directory = repo / "assets" / "encoder-sp"
    assert asset_path(ScoreConfig().encoder) == str(directory), "the score stage's default is the shipped model"
    manifest = (directory / "MANIFEST.md").read_text()
    for name, digest in re.findall(r"\| (\S+) \| [\d,]+ \| ([0-9a-f]{64}) \|", manifest):
        assert hashlib.sha256((directory / name).read_bytes()).hexdigest() == digest, name
    encoder = load_encoder(directory)
    [result], _ = evaluate(encoder.encode, shared_data / "sts", ["STS2017/track5.en-en"])
    assert round(100 * result.pearson, 1) == 83.3, "the number in MANIFEST.md"
    a, b, c = encoder.encode(["A man is playing a guitar.", "A man plays the guitar.", "The stock market fell."])
    cos = lambda x, y: float(x @ y / ((x @ x) * (y @ y)) ** 0.5)  # noqa: E731
    assert cos(a, b) > cos(a, c) + 0.3
