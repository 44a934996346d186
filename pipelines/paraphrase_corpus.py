"""`paranmt paraphrase --input SHARDS --output DIR`: a whole corpus paraphrased as a Beam pipeline.

    ShardFiles -> [Spread] -> Generate (ParaphraseShards: one shard file per element, accelerator hint)

Writes DIR/<shard>.parquet (schemas/paraphrases.py, one file per input shard, same name, its counts in the footer as
`paranmt.counts`) and DIR/__paranmt__/paraphrase_summary.json (the resolved settings, templates and the counts of
every shard, summed over all of them, those of earlier runs included). Locally it runs on the DirectRunner
(multi-processing, one shard per worker process at a time, like `paranmt build`) under the watchdog; on Dataflow the
models may live on gs:// (copied once per worker machine) and `--accelerator` puts the generation step on GPU
workers. The output contract (pipelines/runtime/outputs.py): DIR holding shards of an earlier run needs `--resume`
(do the shards not yet there) or `--overwrite` (delete them first); DIR that is, holds or lies inside an input is
refused; a stop (Ctrl-C, SIGTERM, a failed worker, a full disk) is one line naming the `--resume` command, and the
temporaries of the shards cut short are removed (then, and by the next run).
"""
from __future__ import annotations

import dataclasses
import logging
import os
from collections import Counter

import apache_beam as beam
from apache_beam.io.filesystems import FileSystems

from paranmt.pipelines.runtime.options import pipeline_options, runs_remotely
from paranmt.pipelines.runtime.outputs import check_apart, claim, remove_temporaries, resume_command
from paranmt.pipelines.runtime.watchdog import supervised
from paranmt.schemas import layout
from paranmt.schemas.config import ConfigError
from paranmt.transforms.paraphrase import ParaphraseShards
from paranmt.transforms.shards import (check_columns, list_shards, read_shard_counts, shard_name,
                                       unique_shard_names, write_json)

LOG = logging.getLogger(__name__)
SUMMARY = "paraphrase_summary.json"


def prepare_output(output: str, files: list[str], resume: bool, overwrite: bool) -> list[str]:
    """Refuse a file, or an earlier run's shards without --resume / --overwrite (`claim`); create DIR (and
    DIR/__paranmt__), delete the shards first with --overwrite, and the temporaries of writes cut short. Returns
    the shards still to do."""
    if "://" not in output and os.path.exists(output) and not os.path.isdir(output):
        raise ConfigError(f"output {output} is a file; shard input writes a directory of Parquet shards")
    written = [m.path for m in FileSystems.match([FileSystems.join(output, "*.parquet")])[0].metadata_list] \
        if FileSystems.exists(output) else []
    started = FileSystems.exists(FileSystems.join(output, layout.SIDE_DIR))
    held = (f"{len(written)} paraphrase shard(s) of an earlier run" if written else
            "a run that stopped before its first shard" if started and resume else None)
    mode = claim(output, held, resume, overwrite)
    try:
        for directory in (output, FileSystems.join(output, layout.SIDE_DIR)):
            if not FileSystems.exists(directory):
                FileSystems.mkdirs(directory)
        if mode == "overwrite":
            FileSystems.delete(written)
        remove_temporaries(output)
    except OSError as error:
        raise ConfigError(f"cannot write the output directory {output}: {error}") from None
    return [path for path in files
            if not FileSystems.exists(FileSystems.join(output, f"{shard_name(path)}.parquet"))]


def run_paraphrase_corpus(config, input_path: str, output: str, column: str = "ref", write_all: bool = False,
                          accelerator: str = "", beam_args: list[str] | None = None, resume: bool = False,
                          overwrite: bool = False, argv: list[str] | None = None) -> Counter:
    """Paraphrase every shard (config: a resolved ParaphraseConfig); returns the total counts over every shard of
    DIR. `argv` makes the --resume command a stop prints."""
    files = list_shards(input_path)
    unique_shard_names(files)
    check_columns(files, ["id", column], "paraphrase")
    output = output.rstrip("/")
    check_apart(output, [input_path, *files])
    todo = prepare_output(output, files, resume, overwrite)
    LOG.info("paraphrasing %d of %d shards (%s column) -> %s", len(todo), len(files), column, output)
    options = pipeline_options(beam_args or [])
    remote = runs_remotely(options)
    outputs = {path: FileSystems.join(output, f"{shard_name(path)}.parquet") for path in files}

    def status() -> str:
        return f"{sum(FileSystems.exists(path) for path in outputs.values())} of {len(files)} shards complete"

    if todo:
        with supervised("paraphrase", options, status, resume_command(argv, "paraphrase"),
                        on_stop=lambda: remove_temporaries(output)), beam.Pipeline(options=options) as pipeline:
            _ = (pipeline
                 | "ShardFiles" >> beam.Create(todo)
                 | "Paraphrase" >> ParaphraseShards(config, output, column, write_all, accelerator,
                                                    isolate=remote and bool(accelerator)))
        remove_temporaries(output)
    per_shard = [{"shard": shard_name(path), **read_shard_counts(outputs[path])} for path in files]
    totals: Counter = Counter()
    for counts in per_shard:
        totals.update({k: v for k, v in counts.items() if k != "shard"})
    write_json(FileSystems.join(output, layout.SIDE_DIR, SUMMARY),
               {"input": input_path, "column": column, "settings": dataclasses.asdict(config),
                "skipped_done_shards": len(files) - len(todo), "shards": per_shard, "totals": dict(totals)})
    return totals
