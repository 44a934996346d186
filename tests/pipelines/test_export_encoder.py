"""`paranmt export-encoder --format sentence-transformers`, run as a user would: a fresh Python process loads the
output with plain `SentenceTransformer(OUT)` (offline, no trust_remote_code) and gets `paranmt encode`'s vectors."""
import json
import os
import subprocess
import sys

import numpy as np
import pytest
import warm

from paranmt.models.evaluation.sts import discover_datasets
from paranmt.pipelines.cli import main

LOAD_AND_ENCODE = """
import sys, warnings
import numpy as np
warnings.simplefilter("error", FutureWarning)
from sentence_transformers import SentenceTransformer
model = SentenceTransformer(sys.argv[1])
sentences = open(sys.argv[2], encoding="utf-8").read().splitlines()
np.save(sys.argv[3], model.encode(sentences))
"""


@pytest.fixture(scope="module")
def sentence_file(shared_data, tmp_path_factory):
    [dataset], _ = discover_datasets(shared_data / "sts", ["stsbenchmark/sts-dev"])
    path = tmp_path_factory.mktemp("sts") / "sentences.txt"
    path.write_text("\n".join(dataset.s1[:50] + dataset.s2[:50]) + "\n", encoding="utf-8")
    return path


def test_exported_shipped_encoder_gives_paranmt_encode_vectors(repo, sentence_file, tmp_path, capsys):
    model = repo / "assets" / "encoder-sp"
    out = tmp_path / "encoder-sp-st"
    assert main(["export-encoder", "--format", "sentence-transformers", "--model", str(model),
                 "--output", str(out)]) == 0
    assert "SentenceTransformer(" in capsys.readouterr().out
    [module] = json.loads((out / "modules.json").read_text())
    assert module["type"] == "paranmt.models.encoders.sentence_transformers.EncoderModule"
    assert json.loads((out / "config_sentence_transformers.json").read_text())["similarity_fn_name"] == "cosine"
    assert "pip install 'paranmt[sentence-transformers]'" in (out / "README.md").read_text()

    assert main(["encode", "--model", str(model), "--input", str(sentence_file),
                 "--output", str(tmp_path / "paranmt.npy")]) == 0
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    warm.run([sys.executable, "-c", LOAD_AND_ENCODE, str(out), str(sentence_file), str(tmp_path / "st.npy")],
             check=True, env=env, cwd=tmp_path)
    st, paranmt = np.load(tmp_path / "st.npy"), np.load(tmp_path / "paranmt.npy")
    assert st.shape == paranmt.shape == (100, 300)
    assert np.abs(st - paranmt).max() < 1e-5


def _error(argv, capsys) -> str:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1, err
    return err


def test_a_directory_that_is_not_an_encoder_is_a_configuration_error(repo, tmp_path, capsys):
    err = _error(["export-encoder", "--model", str(repo / "configs"), "--output", str(tmp_path / "out")], capsys)
    assert "not an encoder directory" in err and not (tmp_path / "out").exists()


def test_a_non_empty_output_is_a_configuration_error(repo, tmp_path, capsys):
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "keep.txt").write_text("mine")
    err = _error(["export-encoder", "--model", str(repo / "assets" / "encoder-sp"),
                  "--output", str(tmp_path / "out")], capsys)
    assert "not an empty directory" in err


def test_missing_sentence_transformers_is_a_configuration_error(repo, tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "sentence_transformers", None)
    monkeypatch.delitem(sys.modules, "paranmt.models.encoders.sentence_transformers", raising=False)
    err = _error(["export-encoder", "--model", str(repo / "assets" / "encoder-sp"),
                  "--output", str(tmp_path / "out")], capsys)
    assert "pip install 'paranmt[sentence-transformers]'" in err
