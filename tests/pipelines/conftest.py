"""Fixtures of the command tests."""
from pathlib import Path

import pytest


@pytest.fixture
def one_line(capsys):
    """one_line(command) -> the line a command ended with on stderr: its last line and the only one starting
    `paranmt COMMAND:`, with no traceback before it (what every refusal, stop and error of a command must be)."""
    def get(command: str) -> str:
        err = capsys.readouterr().err.strip()
        assert "Traceback" not in err, err
        lines = [line for line in err.splitlines() if line.startswith(f"paranmt {command}:")]
        assert len(lines) == 1 and err.splitlines()[-1] == lines[0], err
        return lines[0]
    return get


@pytest.fixture
def pairs(tmp_path, paraphrase_pairs) -> Path:
    """A pair TSV (`side1 TAB side2`) of 64 real paraphrase pairs, for the trainers' command tests."""
    path = tmp_path / "pairs.tsv"
    path.write_text("".join("\t".join(line.split("\t")[:2]) + "\n"
                            for line in paraphrase_pairs.read_text().splitlines()[1:65]))
    return path


@pytest.fixture
def nmt_recipe(bitext, tmp_path) -> list[str]:
    """train-nmt's arguments for a recipe over 60 real sentence pairs (a `train` and a held-out `news` stem) whose
    work directory is tmp/work, running its `data` step."""
    import yaml

    data = tmp_path / "data"
    data.mkdir()
    for side in ("ces", "eng"):
        lines = (bitext / f"newstest2017.{side}").read_text(encoding="utf-8").splitlines()
        (data / f"news.{side}").write_text("\n".join(lines[:30]) + "\n", encoding="utf-8")
        (data / f"train.{side}").write_text("\n".join(lines[30:60]) + "\n", encoding="utf-8")
    config = tmp_path / "nmt.yaml"
    config.write_text(yaml.safe_dump({"work_dir": str(tmp_path / "work"), "nice": 0, "data": {
        "inputs": [str(data)], "suffixes": ["ces", "eng"], "heldout": ["news"], "valid": "news", "valid_lines": 5}}))
    return ["train-nmt", "--config", str(config), "--steps", "data"]
