"""Beam options of every paranmt pipeline: the user's, with local defaults for what they did not say.

Kept apart from pipelines/build.py so that `paranmt filter` does not import the build's stages (~0.5 s).
"""
from __future__ import annotations

import os

# Runners that run the pipeline in processes of this machine (the watchdog supervises them: pipelines/watchdog.py).
LOCAL_RUNNERS = {None, "DirectRunner", "direct", "FnApiRunner", "BundleBasedDirectRunner", "SwitchingDirectRunner",
                 "PrismRunner", "prism"}


def is_local(options: PipelineOptions) -> bool:
    from apache_beam.options.pipeline_options import StandardOptions

    return options.view_as(StandardOptions).runner in LOCAL_RUNNERS


def pipeline_options(beam_args: list[str], running_mode: str = "multi_processing") -> PipelineOptions:
    """Beam options as given, with local defaults for what the user did not say: `--runner DirectRunner` (never
    tries to download a runner binary), and for it `--direct_running_mode running_mode` (build: multi_processing,
    benchmarks/RESULTS.md, Scale: one shard per element uses every core this way; filter: in_memory, whose Arrow
    work is threaded, "Filter speed (issue 16)") with `--direct_num_workers` = cores (1 in_memory); with an
    explicit `--runner`, Beam's own defaults (in_memory for the DirectRunner). Every option the user gives wins, alone or together (e.g. `--direct_running_mode in_memory` alone runs in one
    process). Shared by build, filter, stats, export and lexicon."""
    from apache_beam.options.pipeline_options import PipelineOptions

    args = list(beam_args)

    def given(name: str) -> bool:
        return any(a == f"--{name}" or a.startswith(f"--{name}=") for a in args)

    def value(name: str, default: str) -> str:
        return next((a.split("=", 1)[1] if "=" in a else args[i + 1] for i, a in enumerate(args)
                     if a == f"--{name}" or a.startswith(f"--{name}=")), default)

    if not given("runner"):         # an explicit --runner gets Beam's own defaults for what is not given
        args.append("--runner=DirectRunner")
        if not given("direct_running_mode"):
            args.append(f"--direct_running_mode={running_mode}")
        if not given("direct_num_workers"):
            in_memory = value("direct_running_mode", running_mode) == "in_memory"
            args.append(f"--direct_num_workers={1 if in_memory else os.cpu_count() or 1}")
    if not given("default_sdk_harness_log_level"):
        args.append("--default_sdk_harness_log_level=WARNING")
    return PipelineOptions(args)
