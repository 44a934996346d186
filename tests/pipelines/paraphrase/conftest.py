"""Fixtures of the paraphrase commands: real held-out shards and tiny real generators.

held_out_shards: 40 SICK trial pairs labeled ENTAILMENT (../shared/data/sts/SICK/SICK_trial.txt; the tiny models
below are trained on other pairs: tests/fixtures/paraphrase/pairs.tsv), written as one shard in the build's layout: ref = sentence A, bt = sentence B, both parsed by the shipped parser (assets/parser-en),
as `paranmt build --stages parse` would.
tiny_models / tiny_transformers_models: a directory of models (scpn/, parse-generator/, plain/) of each architecture,
the session's tiny paraphrasers (tests/conftest.py `tiny_paraphraser`: real models trained for a few updates on
real pairs, weak on purpose, for the plumbing).
"""
from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from paranmt.models.parsing.parser import StanzaParser
from paranmt.models.parsing.tokenize import ptb_tokenize
from paranmt.models.parsing.trees import linearize, template
from paranmt.schemas.records import empty_row
from paranmt.transforms.shards import ParquetShardWriter

PAIRS = 40


def parsed_sick_pairs(shared_data: Path, repo: Path) -> list[dict]:
    with open(shared_data / "sts" / "SICK" / "SICK_trial.txt", encoding="utf-8", newline="") as handle:
        rows = [r for r in csv.DictReader(handle, delimiter="\t") if r["entailment_judgment"] == "ENTAILMENT"]
    rows = rows[:PAIRS]
    parser = StanzaParser(str(repo / "assets" / "parser-en"), device="cpu")
    sentences = list(dict.fromkeys(s for r in rows for s in (r["sentence_A"], r["sentence_B"])))
    trees = dict(zip(sentences, parser.parse([ptb_tokenize(s) for s in sentences])))
    return [{"id": f"sick:SICK_trial.txt:{r['pair_ID']}", "ref": r["sentence_A"], "bt": r["sentence_B"],
             "ref_parse": linearize(trees[r["sentence_A"]]), "bt_parse": linearize(trees[r["sentence_B"]]),
             "ref_template": template(trees[r["sentence_A"]]), "bt_template": template(trees[r["sentence_B"]])}
            for r in rows]


@pytest.fixture(scope="session")
def sick_pairs(built_once, shared_data, repo) -> list[dict]:
    """`parsed_sick_pairs`, parsed once per test session (the xdist workers share it as pairs.json)."""
    def build(root: Path) -> None:
        (root / "pairs.json").write_text(json.dumps(parsed_sick_pairs(shared_data, repo)), encoding="utf-8")

    return json.loads((built_once("sick-pairs", build) / "pairs.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="session")
def held_out_shards(sick_pairs, tmp_path_factory) -> Path:
    directory = tmp_path_factory.mktemp("held-out")
    writer = ParquetShardWriter(str(directory / "sick-00000.parquet"))
    writer.write_rows([{**empty_row(p["id"], "sick", "-", p["ref"]), **p} for p in sick_pairs])
    writer.close()
    return directory


def model_set(tiny_paraphraser, directory: Path, arch: str) -> Path:
    """A directory of models as `paranmt train-paraphraser` users lay them out: scpn/, parse-generator/, plain/."""
    directory.mkdir(parents=True, exist_ok=True)
    for task in ("scpn", "parse-generator", "plain"):
        (directory / task).symlink_to(tiny_paraphraser(task, arch), target_is_directory=True)
    return directory


@pytest.fixture(scope="session")
def tiny_models(tiny_paraphraser, tmp_path_factory) -> Path:
    return model_set(tiny_paraphraser, tmp_path_factory.mktemp("tiny-models") / "scpn-arch", "scpn")


@pytest.fixture(scope="session")
def tiny_transformers_models(tiny_paraphraser, tmp_path_factory) -> Path:
    return model_set(tiny_paraphraser, tmp_path_factory.mktemp("tiny-models") / "transformers-arch", "transformers")


@pytest.fixture(scope="session")
def write_rows_shard(sick_pairs):
    """`write(directory)`: a shard of the same pairs as they leave `--stages read,clean` (no bt, no parses)."""
    def write(directory: Path) -> Path:
        directory.mkdir(parents=True)
        writer = ParquetShardWriter(str(directory / "sick-00000.parquet"))
        writer.write_rows([empty_row(p["id"], "sick", "-", p["ref"]) for p in sick_pairs])
        writer.close()
        return directory
    return write
