"""Every shipped model in assets/ is what its MANIFEST says (each listed file with its size and sha256), says how
it was made (a recipe in MANIFEST.json, or MANIFEST.md), and stays within the 40 MB a shipped model may take."""
import hashlib
import json
from pathlib import Path

import pytest

ASSETS = sorted(p.parent for p in (Path(__file__).resolve().parents[1] / "assets").glob("*/MANIFEST.json"))
LIMIT_BYTES = 40 * 1024 * 1024


def test_the_shipped_models_are_all_there():
    assert {"encoder-sp", "encoder-xling", "encoder-multi", "nmt-cs-en", "parser-en", "paraphraser-scpn", "parse-generator",
            "paraphraser-plain"} <= {asset.name for asset in ASSETS}


@pytest.mark.parametrize("asset", ASSETS, ids=lambda asset: asset.name)
def test_files_match_the_manifest(asset):
    manifest = json.loads((asset / "MANIFEST.json").read_text())
    assert manifest["files"], "a MANIFEST lists the model's files"
    for entry in manifest["files"]:
        path = asset / entry["path"]
        assert path.is_file(), f"{entry['path']} is listed but missing"
        assert path.stat().st_size == entry["bytes"], entry["path"]
        assert hashlib.sha256(path.read_bytes()).hexdigest() == entry["sha256"], entry["path"]
    assert "recipe" in manifest or (asset / "MANIFEST.md").is_file()
    size = sum(p.stat().st_size for p in asset.rglob("*") if p.is_file())
    assert size <= LIMIT_BYTES, f"{asset.name} takes {size / 2**20:.1f} MB"
