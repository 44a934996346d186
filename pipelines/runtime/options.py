"""Beam options of every paranmt pipeline: the user's, with local defaults for what they did not say.

Kept apart from pipelines/build.py so that `paranmt filter` does not import the build's stages (~0.5 s).
"""
from __future__ import annotations

import os

from paranmt.pipelines.runtime.extras import require_extra
from paranmt.pipelines.runtime.listening import listen_locally
from paranmt.schemas.errors import ConfigError

# Runners that run the pipeline in processes of this machine (the watchdog supervises them, as it does the Dask
# LocalCluster of `--dask-workers`: pipelines/runtime/watchdog.py; a stage with a resource hint stays fused on them: no GPU
# pool here).
LOCAL_RUNNERS = {None, "DirectRunner", "direct", "FnApiRunner", "BundleBasedDirectRunner", "SwitchingDirectRunner",
                 "PrismRunner", "prism"}
DASK_RUNNER = "paranmt.pipelines.runtime.dask_runner.ParanmtDaskRunner"
# paranmt's Dask flags -> the Beam options of DASK_RUNNER (pipelines/runtime/dask_runner.py)
DASK_FLAGS = {"dask-address": "dask_client_address", "dask-workers": "dask_workers",
              "dask-start-method": "dask_start_method"}
# `--dask-start-method`: how a LocalCluster's nannies start its workers (dask_runner.py, FORKSERVER_PRELOAD)
START_METHODS = ("forkserver", "spawn")


def pipeline_options(beam_args: list[str], running_mode: str = "multi_processing") -> PipelineOptions:
    """Beam options as given, with local defaults for what the user did not say: `--runner DirectRunner` (never
    tries to download a runner binary), and for it `--direct_running_mode running_mode` (build: multi_processing,
    benchmarks/RESULTS.md, Scale: one shard per element uses every core this way; filter: in_memory, whose Arrow
    work is threaded, "Filter speed (issue 16)") with `--direct_num_workers` = cores (1 in_memory); with an
    explicit `--runner`, Beam's own defaults (in_memory for the DirectRunner). Every option the user gives wins, alone or together (e.g. `--direct_running_mode in_memory` alone runs in one
    process). Shared by build, filter, stats, export and lexicon.

    `--runner dask` (or DaskRunner, or any `--dask-address ADDRESS` / `--dask-workers N` alone) runs on Dask
    (pipelines/runtime/dask_runner.py): `--dask-address` joins a running scheduler (Beam's `--dask_client_address`),
    `--dask-workers N` starts a LocalCluster of N worker processes; neither: one worker per core.

    The servers the local runners start in this process listen on loopback only, unless PARANMT_LISTEN_HOST names
    an interface (pipelines/runtime/listening.py)."""
    from apache_beam.options.pipeline_options import PipelineOptions

    listen_locally()
    args = dask_arguments(list(beam_args))

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


def dask_arguments(args: list[str]) -> list[str]:
    """`args` with paranmt's Dask flags as the Beam options of the Dask runner: `--runner dask` (or `DaskRunner`,
    Beam's class path) -> paranmt's runner, `--dask-address A` -> `--dask_client_address=A`, `--dask-workers N` ->
    `--dask_workers=N`, `--dask-start-method M` -> `--dask_start_method=M`; a Dask flag alone implies `--runner
    dask`. ConfigError for a Dask flag beside another runner, for --dask-address with a LocalCluster's flag, for a
    start method not in START_METHODS, and MissingExtra when the `dask` extra is not installed."""
    out, flags, runner, i = [], {}, None, 0
    while i < len(args):
        name, sep, value = args[i].partition("=")
        key = name[2:] if name.startswith("--") else None
        if key in DASK_FLAGS or key in DASK_FLAGS.values() or key == "runner":
            if not sep:
                if i + 1 >= len(args):
                    raise ConfigError(f"{name} needs a value")
                value, i = args[i + 1], i + 1
            if key == "runner":
                runner = value
            else:
                flags[DASK_FLAGS.get(key, key)] = value
        else:
            out.append(args[i])
        i += 1
    dask = runner in ("dask", "DaskRunner", "apache_beam.runners.dask.dask_runner.DaskRunner", DASK_RUNNER)
    if flags and runner is not None and not dask:
        raise ConfigError(f"--{' --'.join(k.replace('_', '-') for k in flags)} need(s) --runner dask, not {runner}")
    if "dask_client_address" in flags and "dask_workers" in flags:
        raise ConfigError("--dask-address joins a running cluster and --dask-workers starts one: give one of them")
    if "dask_client_address" in flags and "dask_start_method" in flags:
        raise ConfigError("--dask-start-method is how a LocalCluster (--dask-workers) starts its workers; a joined "
                          "cluster's (--dask-address) are started by their own nannies: drop it")
    if flags.get("dask_start_method", START_METHODS[0]) not in START_METHODS:
        raise ConfigError(f"--dask-start-method expects one of {', '.join(START_METHODS)}, got "
                          f"{flags['dask_start_method']!r}")
    if "dask_workers" in flags and not (flags["dask_workers"].isdigit() and int(flags["dask_workers"]) > 0):
        raise ConfigError(f"--dask-workers expects a number of worker processes >= 1, got {flags['dask_workers']!r}")
    if not (dask or flags):
        return args
    require_extra("dask", "distributed")
    return out + [f"--runner={DASK_RUNNER}"] + [f"--{key}={value}" for key, value in flags.items()]


def beam_flags() -> set[str]:
    """Every flag that `pipeline_options` takes: those of Beam's pipeline options (as Beam parses them, without
    abbreviations) and paranmt's Dask flags. An argument with another flag Beam discards with a warning."""
    from apache_beam.options.pipeline_options import PipelineOptions

    from paranmt.pipelines.runtime.arguments import parser_flags

    parsers = []        # the parser Beam fills with the options of every PipelineOptions class
    PipelineOptions([]).get_all_options(add_extra_args_fn=parsers.append)
    return parser_flags(parsers[0]) | {f"--{flag}" for pair in DASK_FLAGS.items() for flag in pair}


def runs_remotely(options: PipelineOptions) -> bool:
    """Whether the runner's workers are other machines (Dataflow, a joined Dask cluster), where a stage with a
    resource hint runs on its own workers; False for the local runners and a LocalCluster started for the run."""
    from apache_beam.options.pipeline_options import StandardOptions

    runner = options.view_as(StandardOptions).runner
    if runner == DASK_RUNNER:
        from apache_beam.runners.dask.dask_runner import DaskOptions

        dask = options.view_as(DaskOptions)
        return bool(dask.address or dask.scheduler_file)
    return runner not in LOCAL_RUNNERS
