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

import logging
from collections import Counter

import apache_beam as beam
from apache_beam.io.filesystems import FileSystems

from paranmt.pipelines.runtime.options import pipeline_options, runs_remotely
from paranmt.pipelines.runtime.shard_job import ShardJob, sum_counts
from paranmt.schemas import layout
from paranmt.transforms.paraphrase import ParaphraseShards
from paranmt.transforms.shards import read_shard_counts, shard_files, shard_name, write_json

LOG = logging.getLogger(__name__)


def run_paraphrase_corpus(run, input_path: str, output: str, column: str = "ref", write_all: bool = False,
                          accelerator: str = "", beam_args: list[str] | None = None, resume: bool = False,
                          overwrite: bool = False, argv: list[str] | None = None,
                          models: list[str] = ()) -> Counter:
    """Paraphrase every shard (`run`: a ParaphraseRun) as a shard job (pipelines/runtime/shard_job.py): DIR holding
    shards of an earlier run needs `resume` (the shards not yet there) or `overwrite` (deleted first); DIR apart from
    the input and the `models`. Returns the total counts over every shard of DIR (their footers: those of earlier
    runs too). `argv` makes the --resume command a stop prints."""
    job = ShardJob("paraphrase", input_path, output, columns=["id", column], what="paraphrase", earlier=shard_files,
                   argv=argv, resume=resume, overwrite=overwrite, resumable=True, named_after_shards=True,
                   side_dir=True, inputs=models)
    options = pipeline_options(beam_args or [])
    remote = runs_remotely(options)
    with job:
        LOG.info("paraphrasing %d of %d shards (%s column) -> %s", len(job.todo), len(job.files), column, job.output)
        if job.todo:
            with job.pipeline(options) as pipeline:
                _ = (pipeline
                     | "ShardFiles" >> beam.Create(job.todo)
                     | "Paraphrase" >> ParaphraseShards(run, job.output, column, write_all, accelerator,
                                                        isolate=remote and bool(accelerator)))
        per_shard = [{"shard": shard_name(path), **read_shard_counts(job.shard_output(path))} for path in job.files]
        totals = sum_counts(per_shard)
        write_json(FileSystems.join(job.output, layout.PARAPHRASE_SUMMARY),
                   {"input": input_path, "column": column, "settings": run.record(),
                    "skipped_done_shards": len(job.files) - len(job.todo), "shards": per_shard,
                    "totals": dict(totals)})
    return totals
