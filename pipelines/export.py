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

from paranmt.pipelines.runtime.command import Command, Shards
from paranmt.pipelines.runtime.options import pipeline_options
from paranmt.pipelines.runtime.shard_job import ShardJob, found, sum_counts
from paranmt.schemas.config import Config, check_ranges, choice, setting
from paranmt.transforms.export import FORMATS, HEADERS, ExportShardFn, dataset_card
from paranmt.transforms.shards import (concatenate_files, read_shard_metadata, shard_files, unique_shard_names,
                                       write_json, write_text_atomically)

LOG = logging.getLogger(__name__)
PARTS = "_export_parts"
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
    output, target_dir = export_target(fmt, job.output)
    job.work_dirs = [target_dir]
    LOG.info("exporting %d shards as %s -> %s", len(job.files), fmt, output)
    with job:
        totals = export_shards(job, fmt, target_dir, lowercase, beam_args)
        if fmt == "hf":
            write_text_atomically(FileSystems.join(output, "README.md"), dataset_card(
                totals.get("written", 0), len(job.files), read_shard_metadata(job.files[0])))
        else:
            parts = [FileSystems.join(target_dir, f"{name}.txt") for name in sorted(unique_shard_names(job.files))]
            concatenate_files(parts, output, HEADERS[fmt])
            FileSystems.delete([target_dir])
    return {"format": fmt, "output": output, "lowercase": lowercase, **totals}


def export_target(fmt: str, output: str) -> tuple[str, str]:
    """The output and the folder the shards are converted into: DATASET_DIR/data for `hf`, else a parts folder
    beside the output file (`./` put before a bare file name)."""
    if fmt == "hf":
        return output, FileSystems.join(output, "data")
    if "/" not in output:
        output = f"./{output}"
    return output, FileSystems.join(output.rsplit("/", 1)[0], f"{PARTS}-{output.rsplit('/', 1)[1]}")


def export_shards(job: ShardJob, fmt: str, target_dir: str, lowercase: bool, beam_args: list[str] | None) -> dict:
    """Convert every shard of `job` into `target_dir` (one Beam element per shard); returns the summed counts."""
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
    return totals


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
        check_ranges(self)
        return self


def run(config: ExportConfig, args) -> int:
    totals = run_export(config, args.beam_args, args.overwrite, getattr(args, "argv", None))
    print(json.dumps(totals, sort_keys=True))
    return 0


COMMAND = Command("export", ExportConfig, run, help="export shards as ParaNMT text, SCPN training data or a Hugging "
                  "Face dataset", description=__doc__.split("\n\n")[0], required=("format", "input", "output"),
                  example="lowercase=false", output=Shards("replace an earlier export at --output (without it, an "
                                                           "--output holding one is refused)"))
