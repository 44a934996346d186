"""`paranmt export`: shards (or a filtered corpus) -> ParaNMT text, SCPN training TSV, or a Hugging Face dataset.

    paranmt export --format paranmt-txt --input SHARDS --output para-nmt.txt [--lowercase | --no-lowercase]
    paranmt export --format scpn        --input SHARDS --output scpn-train.tsv
    paranmt export --format hf          --input SHARDS --output DATASET_DIR

Text formats are written as one file (shards in name order); `hf` writes DATASET_DIR/data/<shard>.parquet and a
dataset card DATASET_DIR/README.md. Lowercasing defaults to on for paranmt-txt and scpn (as the released data)
and off for hf. Formats are described in paranmt.transforms.export and docs/filtering.md. An earlier export at
--output is refused unless `--overwrite`; an --output that is, holds or lies inside the input is refused
(docs/reliability.md, "Every command that writes").
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import logging
from typing import ClassVar

import apache_beam as beam
from apache_beam.io.filesystems import FileSystems

from paranmt.pipelines.runtime.arguments import add_config_command, load_command_config
from paranmt.pipelines.runtime.options import pipeline_options
from paranmt.pipelines.runtime.shard_job import ShardJob, found, sum_counts
from paranmt.schemas.config import Config, check_choice, choice, setting
from paranmt.schemas.records import SCHEMA_VERSION
from paranmt.transforms.export import FORMATS, HEADERS, HF_SCHEMA, ExportShardFn
from paranmt.transforms.shards import (concatenate_files, read_shard_metadata, shard_files, unique_shard_names,
                                       write_json, write_text_atomically)

LOG = logging.getLogger(__name__)
PARTS = "_export_parts"
COLUMN_DOCS = {
    "id": "stable id `<corpus>:<file>:<line>` or the corpus's own sentence id",
    "corpus": "corpus / section name",
    "cs": "source sentence (Czech)",
    "ref": "English reference",
    "bt": "back-translation of `cs` (English)",
    "bt_score": "length-normalized log-probability of `bt` given `cs`",
    "trigram_overlap": "word-trigram overlap of ref and bt",
    "para_score": "cosine of the paraphrastic encoder's embeddings of ref and bt",
    "ref_len": "tokens in ref (Moses tokenizer)",
    "bt_len": "tokens in bt (Moses tokenizer)",
    "ref_parse": "linearized constituency parse of ref, leaves removed",
    "bt_parse": "linearized constituency parse of bt, leaves removed",
    "ref_template": "top two levels of ref_parse",
    "bt_template": "top two levels of bt_parse",
    "bt_nbest": "n-best back-translations with scores (when built with n-best)",
    "source_scores": "the bitext's own per-pair scores, as a JSON object string",
}


def dataset_card(rows: int, shards: int, metadata: dict[str, str]) -> str:
    """README.md of the `hf` export: YAML header (data_files for `datasets`), columns, provenance."""
    columns = "\n".join(f"| `{f.name}` | {f.type} | {COLUMN_DOCS.get(f.name, '')} |" for f in HF_SCHEMA)
    provenance = "\n".join(f"- `{key}`: `{value}`" for key, value in sorted(metadata.items()))
    return f"""---
configs:
- config_name: default
  data_files:
  - split: train
    path: data/*.parquet
language:
- en
- cs
task_categories:
- sentence-similarity
- text2text-generation
pretty_name: ParaNMT-style paraphrase corpus
size_categories:
- {size_category(rows)}
---

# ParaNMT-style paraphrase corpus

English paraphrase pairs (`ref`, `bt`) made by back-translating the Czech side (`cs`) of Czech-English bitext,
with per-pair scores and constituency parses, exported by `paranmt export --format hf` (schema version
{SCHEMA_VERSION}). {rows} rows in {shards} Parquet files under `data/`.

```python
import datasets
corpus = datasets.load_dataset("parquet", data_files="data/*.parquet", split="train")
```

## Columns

| column | type | meaning |
|---|---|---|
{columns}

## Provenance (Parquet metadata of the first shard)

{provenance or "- (no paranmt metadata found)"}

## Licence

The pairs inherit the terms of the bitext they were built from; check the licence of your input corpus
(e.g. CzEng is for non-commercial research use) before redistributing.
"""


def size_category(rows: int) -> str:
    for limit, label in ((1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K"),
                         (1_000_000, "100K<n<1M"), (10_000_000, "1M<n<10M"), (100_000_000, "10M<n<100M")):
        if rows < limit:
            return label
    return "n>100M"


def earlier_export(fmt: str, output: str) -> list[str]:
    """What an earlier export left at `output`: the file (text formats), or the dataset's card and data files."""
    if fmt != "hf":
        return [output] if FileSystems.exists(output) else []
    return shard_files(FileSystems.join(output, "data")) + found(output, "README.md")


def run_export(config: "ExportConfig", beam_args: list[str] | None = None, overwrite: bool = False,
               argv: list[str] | None = None) -> dict:
    """Check the output (a shard job, pipelines/runtime/shard_job.py: apart from the input; an earlier export needs
    `overwrite`), convert every shard (one Beam element per shard), assemble the output; returns the totals.
    `argv` makes the command a stop prints."""
    fmt, input_path, output, lowercase = config.format, config.input, config.output, config.lowercase
    needed = {"paranmt-txt": ["ref", "bt", "para_score"], "scpn": ["ref", "bt", "ref_parse", "bt_parse"],
              "hf": ["id", "ref"]}[fmt]
    job = ShardJob("export", input_path, output, columns=needed, check=f"export --format {fmt}",
                   what="an earlier export", earlier=lambda out: earlier_export(fmt, out), argv=argv,
                   overwrite=overwrite, named_after_shards=True, output_file=fmt != "hf")
    if lowercase is None:
        lowercase = fmt != "hf"
    output = job.output
    if fmt == "hf":
        target_dir = FileSystems.join(output, "data")
    else:
        if "/" not in output:
            output = f"./{output}"
        target_dir = FileSystems.join(output.rsplit("/", 1)[0], f"{PARTS}-{output.rsplit('/', 1)[1]}")
    job.work_dirs = [target_dir]
    LOG.info("exporting %d shards as %s -> %s", len(job.files), fmt, output)
    with job:
        if not FileSystems.exists(target_dir):
            FileSystems.mkdirs(target_dir)
        with job.pipeline(pipeline_options(beam_args or [])) as pipeline:
            (pipeline
             | "ShardFiles" >> beam.Create(job.files)
             | "Spread" >> beam.Reshuffle()
             | "Export" >> beam.ParDo(ExportShardFn(fmt, target_dir, lowercase))
             | "AllCounts" >> beam.combiners.ToList()
             | "WriteCounts" >> beam.Map(lambda counts: write_json(FileSystems.join(target_dir, "_counts.json"),
                                                                   counts)))
        with FileSystems.open(FileSystems.join(target_dir, "_counts.json")) as handle:
            totals = sum_counts(json.loads(handle.read()))
        FileSystems.delete([FileSystems.join(target_dir, "_counts.json")])
        if fmt == "hf":
            write_text_atomically(FileSystems.join(output, "README.md"), dataset_card(
                totals.get("written", 0), len(job.files), read_shard_metadata(job.files[0])))
        else:
            parts = [FileSystems.join(target_dir, f"{name}.txt") for name in sorted(unique_shard_names(job.files))]
            concatenate_files(parts, output, HEADERS[fmt])
            FileSystems.delete([target_dir])
    return {"format": fmt, "output": output, "lowercase": lowercase, **totals}


@dataclasses.dataclass
class ExportConfig(Config):
    """The settings of `paranmt export`: flags (one per field), `--config` YAML keys and `--set`."""
    RUN_FIELDS: ClassVar[tuple[str, ...]] = ("input", "output")
    format: str = choice("", FORMATS, help="paranmt-txt, scpn or hf")
    input: str = setting("", help="shard directory (top-level *.parquet) or glob")
    output: str = setting("", help="output file (paranmt-txt, scpn) or directory (hf)")
    lowercase: bool | None = setting(None, flag={"action": argparse.BooleanOptionalAction}, help="lowercase sentences "
                                     "(default: on for paranmt-txt and scpn, off for hf)")

    def validate(self) -> "ExportConfig":
        check_choice("format", self.format, FORMATS)
        return self


def register(subparsers) -> None:
    add_config_command(subparsers, "export", ExportConfig, run, example="lowercase=false",
                       help="export shards as ParaNMT text, SCPN training data or a Hugging Face dataset",
                       description=__doc__.split("\n\n")[0], accepts_beam_options=True,
                       overwrite="replace an earlier export at --output (without it, an --output holding one is "
                                 "refused)")


def run(args) -> int:
    config = load_command_config(ExportConfig, args, "export config",
                                 required=("format", "input", "output"))
    totals = run_export(config, args.beam_args, args.overwrite, getattr(args, "argv", None))
    print(json.dumps(totals, sort_keys=True))
    return 0
