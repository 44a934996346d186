"""Model paths mean what they mean in a shell (schemas/paths.py `asset_path`): relative to the working directory; a
shipped model's asset name (`assets/...`) reaches the project's assets/ only when the working directory has no such
path. Regression (issue 47): a relative `--model` that also existed inside the project was read from the project."""
import numpy as np

from paranmt.pipelines.cli import main
from paranmt.schemas.paths import PROJECT_ROOT, asset_path


def test_a_relative_path_is_relative_to_the_working_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert (PROJECT_ROOT / "models").is_dir() and (PROJECT_ROOT / "configs" / "demo.yaml").is_file()
    assert asset_path("models") == "models", "not the project's models/ (it is no asset)"
    assert asset_path("configs/demo.yaml") == "configs/demo.yaml"
    (tmp_path / "models").mkdir()
    assert asset_path("models") == "models"
    assert asset_path(str(tmp_path / "models")) == str(tmp_path / "models")
    assert asset_path("gs://bucket/assets/encoder-sp") == "gs://bucket/assets/encoder-sp"


def test_an_asset_name_is_the_shipped_model_unless_the_working_directory_has_that_path(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert asset_path("assets/encoder-sp") == str(PROJECT_ROOT / "assets" / "encoder-sp")
    assert asset_path("assets") == str(PROJECT_ROOT / "assets"), "the directory of the shipped demo models"
    assert asset_path("assets/no-such-model") == "assets/no-such-model", "a missing one is named as given"
    (tmp_path / "assets" / "encoder-sp").mkdir(parents=True)
    assert asset_path("assets/encoder-sp") == "assets/encoder-sp", "the user's own assets/ wins"


def test_encode_reads_the_model_where_the_user_stands(tmp_path, monkeypatch, capsys):
    """`--model assets/encoder-sp` run from a directory that holds its own assets/encoder-sp (here: the bilingual
    encoder under that name) encodes with that one, not with the project's."""
    (tmp_path / "assets").mkdir()
    (tmp_path / "assets" / "encoder-sp").symlink_to(PROJECT_ROOT / "assets" / "encoder-xling")
    (tmp_path / "in.txt").write_text("A man is playing a guitar.\n")
    monkeypatch.chdir(tmp_path)

    def encode(model: str, output: str) -> np.ndarray:
        assert main(["encode", "--model", model, "--input", "in.txt", "--output", output]) == 0
        return np.load(output)

    mine = encode("assets/encoder-sp", "mine.npy")
    assert np.array_equal(mine, encode(str(PROJECT_ROOT / "assets" / "encoder-xling"), "xling.npy"))
    assert not np.array_equal(mine, encode(str(PROJECT_ROOT / "assets" / "encoder-sp"), "sp.npy"))
