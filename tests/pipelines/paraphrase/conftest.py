"""Fixtures of the paraphrase commands: real held-out shards and tiny real generators.

held_out_shards: 40 SICK trial pairs labeled ENTAILMENT (../shared/data/sts/SICK/SICK_trial.txt; the demo
paraphrasers' training data leaves the SICK trial pairs with relatedness < 4 and the test set out), written as one
shard in the build's layout: ref = sentence A, bt = sentence B, both parsed by the shipped parser (assets/parser-en),
as `paranmt build --stages parse` would.
tiny_models: a directory of models in the layout of `paranmt train-paraphraser` (scpn/, parse-generator/,
plain/), each a small scpn-architecture network trained for a few steps on those sentences (scpn: (s, parse(s)) -> s;
parse generator: (parse, template) -> parse; plain: s -> s): real models, weak on purpose, for the plumbing.
"""
from __future__ import annotations

import csv
from collections import Counter
from pathlib import Path

import pytest

from paranmt.models.parsing.parser import StanzaParser
from paranmt.models.parsing.tokenize import ptb_tokenize
from paranmt.models.parsing.trees import linearize, template
from paranmt.schemas.records import empty_row
from paranmt.transforms.shards import ParquetShardWriter

PAIRS = 40
TRAIN_STEPS = 40


@pytest.fixture(scope="session")
def sick_pairs(shared_data, repo) -> list[dict]:
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
def held_out_shards(sick_pairs, tmp_path_factory) -> Path:
    directory = tmp_path_factory.mktemp("held-out")
    writer = ParquetShardWriter(str(directory / "sick-00000.parquet"))
    writer.write_rows([{**empty_row(p["id"], "sick", "-", p["ref"]), **p} for p in sick_pairs])
    writer.close()
    return directory


@pytest.fixture(scope="session")
def tiny_models(sick_pairs, tmp_path_factory) -> Path:
    import torch

    from paranmt.models.generation.data import Instance
    from paranmt.models.generation.scpn import SCPNParaphraser

    sentences = [(p[side], p[f"{side}_parse"], p[f"{side}_template"]) for p in sick_pairs for side in ("ref", "bt")]
    templates = Counter(t for _, _, t in sentences).most_common(20)
    data = {"scpn": [Instance(s, p, s) for s, p, _ in sentences],
            "parse-generator": [Instance(p, t, p) for _, p, t in sentences],
            "plain": [Instance(s, None, s) for s, _, _ in sentences]}
    directory = tmp_path_factory.mktemp("tiny-paraphrasers")
    for task, instances in data.items():
        torch.manual_seed(0)
        model = SCPNParaphraser.create(task, instances, templates, vocab_size=150, embed_dim=24, hidden=24,
                                       parse_embed_dim=12, parse_hidden=12)
        optimizer = torch.optim.Adam(model.module.parameters(), lr=3e-3)
        model.module.train()
        for step in range(TRAIN_STEPS):
            loss = model.loss(instances[(step * 16) % len(instances):][:16])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        model.save(directory / task)
    return directory


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
