"""The one Beam adapter of every pair stage: `RunStage` maps ShardWork -> ShardWork with any `PairStage`.

Per shard element it runs `paranmt.models.stage.run_stage` (consecutive batches of the shard's rows, split-and-retry,
error rejects), moves the stage's rejects to the shard's rejects and reports counters in the stage's namespace:
`rows_in`, `rows_out`, `batches`, `batch_splits`, `reject_<reason>`, the stage's own counts (`last_counts`),
`cpu_ms` (CPU time of the worker process, all its threads, while it ran the stage on shards; model loading is
`setup_ms`'s, not counted; exact when a worker process runs one shard at a time, as the local runners do), and
the distributions `setup_ms`, `shard_ms`; after each batch it reports a heartbeat (transforms/heartbeat.py: stage,
shard, rows done, memory) to the launcher's watchdog. `build_stage(name, config)` builds a stage's transform from the stage
table (`paranmt.schemas.stages.STAGES`): its factory makes the PairStage from the stage's config section
(validating the model: ConfigError before any work).

Fusion: on a local runner every stage runs fused with the reader and the writer (one shard in memory per worker).
With `isolate` (a remote runner) the stage is wrapped in Reshuffles of shard elements, so that it runs on its own
workers, e.g. translate on GPU workers through its `accelerator` resource hint.
"""
from __future__ import annotations

import contextvars
import dataclasses
import importlib
import time
from typing import Callable

import apache_beam as beam
from apache_beam.metrics import Metrics

from paranmt.models.stage import PairStage, run_stage
from paranmt.models.text.clean import CleanStage
from paranmt.schemas.build_config import BuildConfig, CleanConfig
from paranmt.schemas.errors import ConfigError
from paranmt.schemas.paths import asset_path, is_remote
from paranmt.schemas.records import is_reject
from paranmt.schemas.stages import STAGE_SPECS
from paranmt.transforms.heartbeat import report_batch, report_setup
from paranmt.transforms.io.model_cache import local_model_path

# False only while `paranmt check-dataflow` plans a job without --verify-remote: models on remote filesystems are
# then taken as given (nothing is listed, copied or loaded), so the check needs no credentials and no network.
VERIFY_REMOTE_MODELS = contextvars.ContextVar("verify_remote_models", default=True)


class _StageFn(beam.DoFn):
    def __init__(self, stage: PairStage, batch_rows: int):
        self.stage, self.batch_rows = stage, batch_rows
        self.rows_in = Metrics.counter(stage.name, "rows_in")
        self.rows_out = Metrics.counter(stage.name, "rows_out")
        self.setup_ms = Metrics.distribution(stage.name, "setup_ms")
        self.shard_ms = Metrics.distribution(stage.name, "shard_ms")
        self.cpu_ms = Metrics.counter(stage.name, "cpu_ms")

    def setup(self):
        start = time.perf_counter()
        report_setup(self.stage.name)
        self.stage.setup()
        self.setup_ms.update(int(1000 * (time.perf_counter() - start)))

    def process(self, work):
        start, cpu_start = time.perf_counter(), time.process_time()
        report_batch(self.stage.name, work.name, len(work.rows), 0, 0)
        outputs, counts = run_stage(self.stage, work.rows, self.batch_rows, lambda done, batch: report_batch(
            self.stage.name, work.name, len(work.rows), done, batch))
        self.shard_ms.update(int(1000 * (time.perf_counter() - start)))
        self.cpu_ms.inc(int(1000 * (time.process_time() - cpu_start)))
        rows, rejects = [], []
        for output in outputs:
            (rejects if is_reject(output) else rows).append(output)
        for output in rejects:
            counts[f"reject_{output['reason']}"] += 1
        for key, value in counts.items():
            Metrics.counter(self.stage.name, key).inc(value)
        self.rows_in.inc(len(work.rows))
        self.rows_out.inc(len(rows))
        yield dataclasses.replace(work, rows=rows, rejects=work.rejects + rejects)


class RunStage(beam.PTransform):
    """ShardWork -> ShardWork: `stage` over each shard's rows in batches of `batch_rows` (see the module
    docstring); `resource_hints` go to the step running the stage."""

    def __init__(self, stage: PairStage, batch_rows: int, resource_hints: dict | None = None, isolate: bool = False,
                 label: str | None = None):
        super().__init__(label=label or stage.name.capitalize() or None)
        self.stage, self.batch_rows = stage, batch_rows
        self.resource_hints, self.isolate = resource_hints or {}, isolate

    def expand(self, shards):
        if self.isolate:
            shards = shards | "Spread" >> beam.Reshuffle()
        step = beam.ParDo(_StageFn(self.stage, self.batch_rows))
        if self.resource_hints:
            step = step.with_resource_hints(**self.resource_hints)
        shards = shards | "Apply" >> step
        if self.isolate:
            shards = shards | "Release" >> beam.Reshuffle()
        return shards


def checked_model(key: str, path: str, check: Callable[[str], object], errors: tuple) -> str:
    """`path` resolved (asset_path), after `check(local copy)` passed; ConfigError `key: <problem>` when it raises
    one of `errors` (every stage factory validates its model this way, before any work). A remote model is not
    checked while VERIFY_REMOTE_MODELS is False."""
    model = asset_path(path)
    if is_remote(model) and not VERIFY_REMOTE_MODELS.get():
        return model
    try:
        check(local_model_path(model))
    except errors as error:
        raise ConfigError(f"{key}: {error}") from None
    return model


def clean_stage(config: CleanConfig, source_lang: str, target_lang: str) -> CleanStage:
    """The clean stage of `config` for the language pair (factory of the stage table)."""
    return CleanStage(config, source_lang, target_lang)


def make_stage(name: str, config: BuildConfig) -> PairStage:
    """The PairStage of stage `name`, made by its factory in the stage table from its config section (validated
    first: ConfigError)."""
    spec, section = STAGE_SPECS[name], config.section(name)
    section.validate()
    also = {key: getattr(config, key) for key in spec.also}
    module, function = spec.factory.split(":")
    return getattr(importlib.import_module(module), function)(section, **also)


def build_stage(name: str, config: BuildConfig, remote: bool = False) -> RunStage:
    """The transform of stage `name` (validates its config and model first: ConfigError before any work). A
    section with a non-empty `accelerator` setting gives the stage that Beam resource hint and, on a `remote`
    runner, its own workers (isolated by Reshuffles; a local runner ignores hints and stays fused)."""
    spec, section = STAGE_SPECS[name], config.section(name)
    accelerator = getattr(section, "accelerator", "")
    return RunStage(make_stage(name, config), getattr(section, spec.batch_field),
                    {"accelerator": accelerator} if accelerator else None, isolate=remote and bool(accelerator))
