"""A build's run: with progress and, on a local runner or a Dask LocalCluster, under the watchdog."""
from __future__ import annotations

import logging

from paranmt.pipelines.runtime.building.plan import BuildPlan
from paranmt.pipelines.runtime.building.progress import Progress
from paranmt.pipelines.runtime.outputs import resume_command
from paranmt.schemas import layout
from paranmt.schemas.stages import STAGE_SPECS


def run_supervised(pipeline: beam.Pipeline, plan: BuildPlan, done: set[str], planned: list[str] | None,
                   lock: OutputLock, argv: list[str] | None):
    """Run the pipeline with progress and, on a local runner or a Dask LocalCluster, under the watchdog
    (pipelines/runtime/watchdog.py): a worker that dies (on Dask: that Dask gave up re-running), a stall
    (workers.stall_seconds), a worker over workers.memory_limit_mb, Ctrl-C, SIGTERM or a full disk end the build
    with one line (what stopped, how many shards are complete, the --resume command)."""
    from paranmt.pipelines.runtime.watchdog import Watchdog, worker_matcher
    from paranmt.transforms.shards import completed_shards, join_path

    config = plan.config
    total = len(planned) if planned is not None else None
    stages = [stage for stage in config.stages if stage != "read"]
    progress = Progress(config.output, done, total, config.read.shard_rows if config.format != "shards" else 0,
                        stages)
    match = worker_matcher(plan.options)
    if match is None:
        with progress:
            result = pipeline.run()
            result.wait_until_finish()
        return result

    def status() -> str:
        return f"{len(completed_shards(config.output))} of {total if total is not None else '?'} shards complete"

    settings = {stage: f"{STAGE_SPECS[stage].section}.{STAGE_SPECS[stage].batch_field}" for stage in stages}
    verbose = logging.getLogger().isEnabledFor(logging.DEBUG)
    worker_log = None if verbose or "://" in config.output else join_path(config.output, layout.WORKER_LOG)
    with Watchdog("build", status, resume_command(argv, "build"), config.workers.stall_seconds,
                  config.workers.memory_limit_mb, activity=progress.activity, on_stop=lock.release,
                  stage_settings=settings, worker_match=match, worker_log=worker_log,
                  silence=progress.silence) as watchdog:
        progress.heartbeats = watchdog.heartbeats
        try:
            with progress:
                result = pipeline.run()
                result.wait_until_finish()
        except Exception as error:  # noqa: BLE001 - whatever failed in a worker, the console gets one line
            raise watchdog.failed(error) from error
    return result
