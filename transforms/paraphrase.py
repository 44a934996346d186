"""The Beam adapter of paraphrase generation: `ParaphraseShards` maps shard files to paraphrase shards.

One element per input shard (a `paranmt build` / `paranmt filter` Parquet file): the DoFn reads the shard's `id` and
sentence column (`ref` or `bt`) in batches of `batch_rows` rows, runs the pure ParaphrasePipeline
(models/generation/pipeline.py) on each batch and streams the rows (schemas/paraphrases.py; `source_id` = the pair
id) into OUT/<shard>.parquet, written under a temporary name and renamed when complete (so `--resume`-style reruns
can skip finished shards). The shard's counts (`sources`, `candidates`, `kept`, and the reasons of the rows not kept)
go into its footer (`paranmt.counts`, transforms/shards.py `read_shard_counts`) and are yielded. Rows whose sentence
is null count as `source_null` (nothing is generated for them).

Models (generators, parser, encoder) are loaded once per worker process (`models.stage.process_model`), from a
local copy when they live on gs:// (`local_model_path`). The generation step carries the `accelerator` resource
hint when one is given; on a remote runner it then runs on its own workers, between Reshuffles, the way the
build's translate stage does (transforms/stage.py), so that GPU machines only generate. Counters (namespace
`paraphrase`): sources, candidates, kept, `dropped_<reason>`, shards; distribution shard_ms.
"""
from __future__ import annotations

import dataclasses
import json
import time
from collections import Counter

import apache_beam as beam
from apache_beam.io.filesystems import FileSystems
from apache_beam.metrics import Metrics

from paranmt.models.stage import process_model
from paranmt.schemas.paraphrases import PARAPHRASE_SCHEMA, paraphrases_to_table
from paranmt.transforms.io.model_cache import local_model_path
from paranmt.transforms.shards import ParquetShardWriter, iter_row_batches, shard_name


def load_pipeline(config):
    """A pipeline of `config` (the settings of a ParaphraseRun) over local copies of its models, which are loaded once
    per process and shared; the pipeline (parse cache, counts) is the caller's own."""
    from paranmt.models.generation.pipeline import load_models, open_pipeline

    local = dataclasses.replace(
        config, model=local_model_path(config.model), parser=local_model_path(config.parser),
        encoder=local_model_path(config.encoder),
        parse_generator=local_model_path(config.parse_generator) if config.parse_generator else None,
        fusion_model=local_model_path(config.fusion_model) if config.fusion_model else None)
    key = json.dumps(dataclasses.asdict(local), sort_keys=True)
    return open_pipeline(local, process_model(("paraphrase", key), lambda: load_models(local)))


class ParaphraseShardFn(beam.DoFn):
    """shard path -> writes OUT/<shard>.parquet; yields {"shard": name, <count>: n, ...}."""

    def __init__(self, run, output: str, column: str, write_all: bool, batch_rows: int = 256):
        self.run, self.output, self.column = run, output, column
        self.write_all, self.batch_rows = write_all, batch_rows
        self.shard_ms = Metrics.distribution("paraphrase", "shard_ms")
        self.pipeline = None

    def setup(self):
        self.pipeline = load_pipeline(self.run.settings)

    def process(self, path):
        start = time.perf_counter()
        name = shard_name(path)
        counts: Counter = Counter()
        with ParquetShardWriter(FileSystems.join(self.output, f"{name}.parquet"), PARAPHRASE_SCHEMA) as writer:
            for batch in iter_row_batches(path, ["id", self.column], self.batch_rows):
                present = [row for row in batch if row[self.column] is not None]
                counts["source_null"] += len(batch) - len(present)
                counts["sources"] += len(present)
                self.pipeline.counts = Counter()
                suffix = "#bt" if self.column == "bt" else ""
                rows = self.pipeline.paraphrase([row[self.column] for row in present],
                                                self.run.templates or None,
                                                [f"{row['id']}{suffix}" for row in present])
                counts.update(self.pipeline.counts)
                writer.write_table(paraphrases_to_table(rows if self.write_all else [r for r in rows if r["kept"]]))
            writer.close(dict(counts))
        for key, value in counts.items():
            Metrics.counter("paraphrase", key if key in ("sources", "candidates", "kept") else f"dropped_{key}"
                            ).inc(value)
        Metrics.counter("paraphrase", "shards").inc()
        self.shard_ms.update(int(1000 * (time.perf_counter() - start)))
        yield {"shard": name, **counts}


class ParaphraseShards(beam.PTransform):
    """shard paths -> per-shard counts (module docstring) of a ParaphraseRun `run`; `accelerator`: Beam resource
    hint of the generation step, `isolate`: run it on its own workers (remote runners)."""

    def __init__(self, run, output: str, column: str = "ref", write_all: bool = False, accelerator: str = "",
                 isolate: bool = False, batch_rows: int = 256):
        super().__init__()
        self.fn = ParaphraseShardFn(run, output, column, write_all, batch_rows)
        self.accelerator, self.isolate = accelerator, isolate

    def expand(self, paths):
        if self.isolate:
            paths = paths | "Spread" >> beam.Reshuffle()
        step = beam.ParDo(self.fn)
        if self.accelerator:
            step = step.with_resource_hints(accelerator=self.accelerator)
        counts = paths | "Generate" >> step
        if self.isolate:
            counts = counts | "Release" >> beam.Reshuffle()
        return counts
