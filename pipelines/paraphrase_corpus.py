"""`paranmt paraphrase --input SHARDS --output DIR`: a whole corpus paraphrased as a Beam pipeline.

    ShardFiles -> [Spread] -> Generate (ParaphraseShards: one shard file per element, accelerator hint) -> counts

Writes DIR/<shard>.parquet (schemas/paraphrases.py, one file per input shard, same name) and
DIR/__paranmt__/paraphrase_summary.json (the resolved settings, templates and per-shard counts). Locally it runs on
the DirectRunner (multi-processing, one shard per worker process at a time, like `paranmt build`); on Dataflow the
models may live on gs:// (copied once per worker machine) and `--accelerator` puts the generation step on GPU
workers. Shards whose output file exists are skipped (a rerun after a crash does the rest); an output directory
that is a file, or the input directory itself, is a configuration error.
"""
from __future__ import annotations

import dataclasses
import json
import logging
import os
from collections import Counter

import apache_beam as beam
from apache_beam.io.filesystems import FileSystems

from paranmt.pipelines.options import pipeline_options, runs_remotely
from paranmt.pipelines.watchdog import supervised
from paranmt.schemas import layout
from paranmt.schemas.config import ConfigError
from paranmt.transforms.paraphrase import ParaphraseShards
from paranmt.transforms.shards import check_columns, list_shards, shard_name, unique_shard_names, write_json

LOG = logging.getLogger(__name__)


def prepare_output(output: str, files: list[str]) -> list[str]:
    """Create DIR (and DIR/__paranmt__); refuse a file or the input directory. Returns the shards still to do."""
    def absolute(path: str) -> str:
        return path if "://" in path else os.path.abspath(path)

    output = output.rstrip("/")
    if any(absolute(path.rsplit("/", 1)[0]) == absolute(output) for path in files):
        raise ConfigError(f"output {output} is the input directory; choose another output directory")
    if "://" not in output and os.path.exists(output) and not os.path.isdir(output):
        raise ConfigError(f"output {output} is a file; shard input writes a directory of Parquet shards")
    try:
        for directory in (output, FileSystems.join(output, layout.SIDE_DIR)):
            if not FileSystems.exists(directory):
                FileSystems.mkdirs(directory)
    except OSError as error:
        raise ConfigError(f"cannot create the output directory {output}: {error}") from None
    return [path for path in files
            if not FileSystems.exists(FileSystems.join(output, f"{shard_name(path)}.parquet"))]


def run_paraphrase_corpus(config, input_path: str, output: str, column: str = "ref", write_all: bool = False,
                          accelerator: str = "", beam_args: list[str] | None = None) -> Counter:
    """Paraphrase every shard (config: a resolved ParaphraseConfig); returns the total counts."""
    files = list_shards(input_path)
    unique_shard_names(files)
    check_columns(files, ["id", column], "paraphrase")
    todo = prepare_output(output, files)
    LOG.info("paraphrasing %d of %d shards (%s column) -> %s", len(todo), len(files), column, output)
    options = pipeline_options(beam_args or [])
    remote = runs_remotely(options)
    per_shard: list[dict] = []
    if todo:
        counts_dir = FileSystems.join(output, layout.SIDE_DIR)
        with supervised("paraphrase", options), beam.Pipeline(options=options) as pipeline:
            (pipeline
             | "ShardFiles" >> beam.Create(todo)
             | "Paraphrase" >> ParaphraseShards(config, output, column, write_all, accelerator,
                                                isolate=remote and bool(accelerator))
             | "AllCounts" >> beam.combiners.ToList()
             | "WriteCounts" >> beam.Map(lambda counts: write_json(FileSystems.join(counts_dir, "_counts.json"),
                                                                   counts)))
        with FileSystems.open(FileSystems.join(counts_dir, "_counts.json")) as handle:
            per_shard = json.loads(handle.read())
        FileSystems.delete([FileSystems.join(counts_dir, "_counts.json")])
    totals: Counter = Counter()
    for counts in per_shard:
        totals.update({k: v for k, v in counts.items() if k != "shard"})
    write_json(FileSystems.join(output, layout.SIDE_DIR, "paraphrase_summary.json"),
               {"input": input_path, "column": column, "settings": dataclasses.asdict(config),
                "skipped_done_shards": len(files) - len(todo), "shards": sorted(per_shard, key=lambda c: c["shard"]),
                "totals": dict(totals)})
    return totals
