"""Test shards for `paranmt filter / stats / export / lexicon`, written in the layout of `paranmt build`.

Until the demo shards of the full build exist, the tests build their own from REAL English sentence pairs in
../shared/data (see each folder's SOURCE.txt):
- sts/stsbenchmark/sts-train.csv (first STSB_ROWS pairs; corpus = the STS genre: captions / news / forums) and
  sts/SICK/SICK_train.txt (first SICK_ROWS pairs; corpus `sick`): ref = sentence 1, bt = sentence 2, cs = a marker
  (these pairs have no Czech source);
- sow-reap-samples: 12 ParaNMT-like pairs with real Stanford CoreNLP parses (corpus `sowreap`).

Columns, and what is real:
- ref_len / bt_len: real (the project's Moses tokenizer, paranmt.models.text.tokenize).
- trigram_overlap: real, computed here by the formula of the schema docstring (schemas/records.py).
- para_score: the pair's HUMAN similarity rescaled to [0, 1] (STS gold / 5; SICK (relatedness - 1) / 4) as a
  stand-in for the encoder cosine: real judgements, not an encoder's output.
- bt_score: SYNTHETIC, -0.2 - 1.5 * (1 - para_score) + a hash-derived jitter in [-0.25, 0.25], capped at 0.
- ref/bt parse and template: real for `sowreap` (CoreNLP trees, de-leafed by paranmt.models.parsing.trees);
  for the STS/SICK rows the templates are SYNTHETIC: drawn by id hash from the SCPN authors' 10 frequent templates
  (scpn/scpn_top10_templates.txt) with Zipf weights, bt keeping ref's template for about half the rows; their
  parses are null.
- the schema v2 pair signals bt_repetition, unigram_f1, kendall_tau and the ref/bt language labels: real, by the
  build's own functions (models/scoring: repetition, diversity, langid; no torch, so the core-install test shares
  this fixture); simile and xsim stay null (the encoder needs torch; no Czech side).
"""
from __future__ import annotations

import csv
import hashlib
import json
from pathlib import Path

import pytest

from paranmt.models.parsing.trees import from_scpn, linearize, parse_one, template
from paranmt.models.scoring.diversity import kendall_tau, unigram_f1
from paranmt.models.scoring.langid import LanguageIdentifier
from paranmt.models.scoring.repetition import repetition
from paranmt.models.text.tokenize import tokenize
from paranmt.schemas.records import SCHEMA_VERSION, empty_row
from paranmt.transforms.shards import ParquetShardWriter

STSB_ROWS = 3000
SICK_ROWS = 1000
FIXTURE_NOTE = "test fixture: real STS/SICK/SOW-REAP pairs; see tests/pipelines/corpus_tools/conftest.py"


def _unit(*parts: str) -> float:
    """A deterministic number in [0, 1) from the given strings."""
    digest = hashlib.blake2b(":".join(parts).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") / 2 ** 64


def trigram_overlap(ref_tokens: list[str], bt_tokens: list[str]) -> float | None:
    """|T(ref) & T(bt)| / min(|T(ref)|, |T(bt)|), T = set of lowercased word trigrams, or {whole sequence} for a
    side with < 3 tokens; None for an empty side (schemas/records.py)."""
    if not ref_tokens or not bt_tokens:
        return None

    def trigrams(tokens):
        tokens = [t.lower() for t in tokens]
        return {tuple(tokens)} if len(tokens) < 3 else {tuple(tokens[i:i + 3]) for i in range(len(tokens) - 2)}

    a, b = trigrams(ref_tokens), trigrams(bt_tokens)
    return len(a & b) / min(len(a), len(b))


def scored_row(row_id: str, corpus: str, ref: str, bt: str, para: float) -> dict:
    ref_tokens, bt_tokens = tokenize(ref), tokenize(bt)
    row = empty_row(row_id, corpus, f"[no Czech source: {corpus} fixture pair]", ref)
    jitter = 0.5 * _unit(row_id, "bt_score") - 0.25
    row.update(bt=bt, ref_len=len(ref_tokens), bt_len=len(bt_tokens), para_score=para,
               trigram_overlap=trigram_overlap(ref_tokens, bt_tokens),
               bt_score=min(0.0, -0.2 - 1.5 * (1.0 - para) + jitter))
    return row


def scpn_templates(shared_data: Path) -> list[str]:
    lines = (shared_data / "scpn" / "scpn_top10_templates.txt").read_text().splitlines()
    return [from_scpn(line) for line in lines if line.strip()]


def synthetic_templates(row: dict, templates: list[str]) -> None:
    weights = [1.0 / (rank + 1) for rank in range(len(templates))]
    total = sum(weights)

    def draw(*parts):
        target, acc = _unit(*parts) * total, 0.0
        for template_string, weight in zip(templates, weights):
            acc += weight
            if target < acc:
                return template_string
        return templates[-1]

    row["ref_template"] = draw(row["id"], "ref")
    row["bt_template"] = row["ref_template"] if _unit(row["id"], "same") < 0.5 else draw(row["id"], "bt")


def stsb_rows(shared_data: Path, limit: int) -> list[dict]:
    rows = []
    with open(shared_data / "sts" / "stsbenchmark" / "sts-train.csv", encoding="utf-8") as handle:
        for line_number, line in enumerate(handle, 1):
            fields = line.rstrip("\n").split("\t")
            if len(fields) < 7:
                continue
            genre = fields[0].replace("main-", "")
            rows.append(scored_row(f"stsb:sts-train.csv:{line_number}", genre, fields[5], fields[6],
                                   float(fields[4]) / 5.0))
            if len(rows) == limit:
                break
    return rows


def sick_rows(shared_data: Path, limit: int) -> list[dict]:
    rows = []
    with open(shared_data / "sts" / "SICK" / "SICK_train.txt", encoding="utf-8") as handle:
        reader = csv.DictReader(handle, delimiter="\t")
        for record in reader:
            para = (float(record["relatedness_score"]) - 1.0) / 4.0
            rows.append(scored_row(f"sick:SICK_train.txt:{record['pair_ID']}", "sick", record["sentence_A"],
                                   record["sentence_B"], para))
            if len(rows) == limit:
                break
    return rows


def coreNLP_parses(path: Path) -> list[str]:
    """The `Constituency parse:` blocks of a CoreNLP text output file, one bracketed tree string each."""
    parses, current = [], None
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("Constituency parse:"):
            current = []
        elif current is not None:
            if not line.strip():
                parses.append(" ".join(current))
                current = None
            else:
                current.append(line.strip())
    return parses


def sow_reap_rows(shared_data: Path) -> list[dict]:
    folder = shared_data / "sow-reap-samples"
    sentences = (folder / "sample_test_baseline.txt").read_text(encoding="utf-8").splitlines()
    trees = [parse_one(p) for p in coreNLP_parses(folder / "sample_test_sow_reap.txt")]
    rows = []
    for index in range(0, len(sentences) - 1, 2):
        ref, bt = sentences[index], sentences[index + 1]
        row_id = f"sowreap:sample_test_baseline.txt:{index + 1}"
        row = scored_row(row_id, "sowreap", ref, bt, 0.55 + 0.4 * _unit(row_id, "para"))
        row.update(ref_parse=linearize(trees[index]), bt_parse=linearize(trees[index + 1]),
                   ref_template=template(trees[index]), bt_template=template(trees[index + 1]))
        rows.append(row)
    return rows


def add_signals(rows: list[dict]) -> None:
    identifier = LanguageIdentifier()
    identifier.setup()
    for side in ("ref", "bt"):
        for row, (label, conf) in zip(rows, identifier.identify([row[side] for row in rows])):
            row[f"{side}_lang"], row[f"{side}_lang_conf"] = label, conf
    for row in rows:
        row.update(bt_repetition=repetition(row["bt"]), unigram_f1=unigram_f1(row["ref"], row["bt"]),
                   kendall_tau=kendall_tau(row["ref"], row["bt"]))


def fixture_rows(shared_data: Path) -> list[dict]:
    templates = scpn_templates(shared_data)
    rows = stsb_rows(shared_data, STSB_ROWS) + sick_rows(shared_data, SICK_ROWS)
    for row in rows:
        synthetic_templates(row, templates)
    rows += sow_reap_rows(shared_data)
    add_signals(rows)
    return rows


def write_shards(rows: list[dict], directory: Path, rows_per_shard: int = 1000) -> list[Path]:
    """Rows grouped by corpus, `rows_per_shard` per file, named `<corpus>-<nnnnn>.parquet`, with the build's
    metadata keys (values say this is a fixture)."""
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "rejects").mkdir(exist_ok=True)
    metadata = {"paranmt.schema_version": SCHEMA_VERSION, "paranmt.package_version": "0.1.0",
                "paranmt.config_hash": "fixture", "paranmt.models": '{"note": "%s"}' % FIXTURE_NOTE}
    by_corpus: dict[str, list[dict]] = {}
    for row in rows:
        by_corpus.setdefault(row["corpus"], []).append(row)
    paths = []
    for corpus, corpus_rows in sorted(by_corpus.items()):
        for number, start in enumerate(range(0, len(corpus_rows), rows_per_shard)):
            path = directory / f"{corpus}-{number:05d}.parquet"
            writer = ParquetShardWriter(str(path), metadata=metadata)
            writer.write_rows(corpus_rows[start:start + rows_per_shard])
            writer.close()
            paths.append(path)
    return paths


@pytest.fixture(scope="session")
def corpus_rows(built_once, shared_data) -> list[dict]:
    """`fixture_rows`, computed once per test session (the xdist workers share it as rows.json; a JSON float reads
    back as the same float)."""
    def build(root: Path) -> None:
        (root / "rows.json").write_text(json.dumps(fixture_rows(shared_data)), encoding="utf-8")

    return json.loads((built_once("corpus-rows", build) / "rows.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="session")
def corpus_shards(corpus_rows, tmp_path_factory) -> Path:
    directory = tmp_path_factory.mktemp("shards")
    write_shards(corpus_rows, directory)
    return directory


@pytest.fixture(scope="session")
def write_fixture_shards():
    """`write_shards(rows, directory)` for tests that need shards of their own (e.g. with a column left null)."""
    return write_shards


@pytest.fixture(scope="session")
def report_build(built_once, sample_dir):
    """A real build for `paranmt report`: 40 pairs of the bundled sample through every stage with the shipped
    models, one reference blanked (a clean/empty_side reject) and two surplus Czech lines (read/line_count_mismatch
    rejects); the input files are in ../in beside the output."""
    from paranmt.pipelines.cli import main

    def build(root: Path) -> None:
        (root / "in").mkdir()
        cs = (sample_dir / "tatoeba-every13th.cs").read_text(encoding="utf-8").splitlines()[:42]
        en = (sample_dir / "tatoeba-every13th.en").read_text(encoding="utf-8").splitlines()[:40]
        en[7] = ""
        (root / "in" / "tatoeba.cs").write_text("\n".join(cs) + "\n", encoding="utf-8")
        (root / "in" / "tatoeba.en").write_text("\n".join(en) + "\n", encoding="utf-8")
        assert main(["build", "--input", str(root / "in" / "*"), "--format", "moses", "--output", str(root / "shards"),
                     "--set", "translate.threads=1", "--direct_running_mode=in_memory",
                     "--direct_num_workers=1"]) == 0

    return built_once("report-build", build) / "shards"
