"""What a build decides before any work (`plan_build`), shared by `paranmt build` and `paranmt check-dataflow`:
the config validated, models checked and identified, the input matched and planned into work items, the stages
built."""
from __future__ import annotations

import os
from dataclasses import dataclass, field

from paranmt.pipelines.runtime.extras import require_extra
from paranmt.schemas.build_config import BuildConfig
from paranmt.schemas.errors import ConfigError
from paranmt.schemas.paths import is_remote
from paranmt.schemas.stages import STAGE_ORDER, STAGE_SPECS


@dataclass
class BuildPlan:
    """What a build decided before any work, shared by `paranmt build` and `paranmt check-dataflow`: the validated
    config, the Beam options, each enabled model's identity (path + sha256), the transform of every stage after
    read, the work items (`plan_input`; [] when the input is remote and taken as given) and the remote paths not
    verified (what -> path; only check-dataflow leaves any)."""
    config: BuildConfig
    options: PipelineOptions
    models: dict[str, dict]
    stages: list[RunStage]
    inputs: list
    unverified: dict[str, str] = field(default_factory=dict)

    @property
    def metadata(self) -> dict[str, str]:
        """The Parquet key-value metadata of every shard the plan writes."""
        from paranmt.schemas.metadata import shard_metadata

        return shard_metadata(self.config.hash(), self.models)


def plan_build(config: BuildConfig, options: PipelineOptions, verify_remote: bool = True) -> BuildPlan:
    """Validate `config` and plan its build for the runner of `options`, before any work (every problem a
    ConfigError): models checked and identified, stages built (their factories load-check the models), input
    matched and planned (before the models load). Without `verify_remote`, remote inputs and models are taken as
    given (check-dataflow)."""
    from apache_beam.options.pipeline_options import StandardOptions
    from paranmt.pipelines.runtime.options import runs_remotely
    from paranmt.schemas.metadata import model_identity
    from paranmt.transforms.stage import VERIFY_REMOTE_MODELS

    config.validate()
    if options.view_as(StandardOptions).runner in ("DataflowRunner", "dataflow"):
        require_extra("dataflow", "apache_beam.runners.dataflow.internal.apiclient")
    check_models(config)
    unverified = {} if verify_remote else remote_paths(config)
    models = {stage: model_identity(path) for stage, path in config.model_paths().items()}
    inputs = [] if "input" in unverified else plan_input(config)
    if not inputs and "input" not in unverified:     # plain local files are planned by block: none when empty
        raise ConfigError(f"input {config.input!r}: the matched file(s) are empty: nothing to build")
    token = VERIFY_REMOTE_MODELS.set(verify_remote)
    try:
        stages = processing_stages(config, runs_remotely(options))
    finally:
        VERIFY_REMOTE_MODELS.reset(token)
    return BuildPlan(config, options, models, stages, inputs, unverified)


def check_models(config: BuildConfig) -> None:
    """ConfigError for an enabled stage whose local model is missing (with how to give one) or fails its
    MANIFEST.json check (models/files.py, the check every loader runs); remote models are checked by the
    stage factories."""
    from paranmt.models.files import model_directory

    for stage, path in config.model_paths().items():
        if "://" in path:
            continue
        if not os.path.exists(path):
            spec = STAGE_SPECS[stage]
            hint = (f"; the shipped models are in a source checkout's assets/, not in the pip package: give a model "
                    f"(--set {spec.section}.{spec.model_field}=DIR) or fewer stages (--stages read,clean)"
                    if path.startswith("assets/") else "")
            raise ConfigError(f"stage {stage!r}: model {path} does not exist{hint}")
        model_directory(path, f"stage {stage!r}: model")


def remote_paths(config: BuildConfig) -> dict[str, str]:
    """What -> path of every path of `config` on a remote filesystem: the input glob (`input`), models
    (`<stage> model`)."""
    paths = {f"{stage} model": path for stage, path in config.model_paths().items() if is_remote(path)}
    if any(is_remote(part) for part in config.input.split(",")):
        paths = {"input": config.input, **paths}
    return paths


def processing_stages(config: BuildConfig, remote: bool = False) -> list[RunStage]:
    """The transform of every configured stage after `read`, in pipeline order (validates their configs and
    models: ConfigError before any work)."""
    from paranmt.transforms.stage import build_stage

    return [build_stage(name, config, remote) for name in STAGE_ORDER if name in config.stages and name != "read"]


def read_options(config: BuildConfig) -> ReadOptions:
    """The reader's settings: the `read` section and the input format."""
    from paranmt.transforms.io.read_plan import ReadOptions

    return ReadOptions(**vars(config.read), format=config.format, source_lang=config.source_lang)


def plan_input(config: BuildConfig) -> list:
    """The work items, matched and checked before any work: ReadTasks for bitext (one per shard of a plain
    local file, one per other file), shard paths for `shards`."""
    from paranmt.transforms.io.read_plan import plan_reads
    from paranmt.transforms.io.readers import plan_bitext
    from paranmt.transforms.shards import list_shards

    if config.format == "shards":
        return list_shards(config.input)
    return plan_reads(plan_bitext(config.input, read_options(config)), read_options(config))


def planned_shards(config: BuildConfig, inputs: list) -> list[str] | None:
    """The names of every shard the inputs make, when known before reading (None for whole-file tasks)."""
    from paranmt.transforms.shards import shard_name

    if config.format == "shards":
        return [shard_name(p) for p in inputs]
    names = [task.shard_names() for task in inputs]
    return None if any(n is None for n in names) else [name for group in names for name in group]
