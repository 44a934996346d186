"""`paranmt check-dataflow`: the Dataflow job that `paranmt build ... --runner DataflowRunner ...` would submit,
made offline by Beam's own DataflowRunner code, written to a directory and summarized. No cloud account needed.

    paranmt check-dataflow --config configs/dataflow-gpu.yaml --input 'data/sample/*' --format moses \\
        --output gs://BUCKET/paranmt/out --job-dir out/dataflow-job \\
        --runner DataflowRunner --project PROJECT --region REGION --temp_location gs://BUCKET/tmp \\
        --sdk_container_image REGION-docker.pkg.dev/PROJECT/REPO/paranmt-worker:0.1.0

It takes exactly the arguments of `paranmt build` (plus --job-dir). How it works:
1. the pipeline is planned by `plan_build` and composed by `build_pipeline` (pipelines/runtime/building/), as `paranmt
   build` plans and composes it, and run with Beam's `--dry_run=True` test option: the DataflowRunner applies its
   transform overrides, translates the graph to the portable pipeline proto, resolves the environments (container
   image, the resource hints of each transform, the staged dependencies, e.g. the sdist built from --setup_file) and
   creates the Dataflow `Job` message, then stops before any API call;
2. Beam's `DataflowApplicationClient.create_job_description` (credentials off, `--no_auth`) stages the artifacts
   and `pipeline.pb` into JOB_DIR/staging instead of the gs:// staging location and fills in the job's
   environment: worker pool, SDK container image per environment, experiments, service options, pipeline options.
Nothing reaches the network. Paths on remote filesystems (a gs:// input glob, gs:// models) are taken as given:
not listed, copied or hashed, and the summary says which were not verified. With --verify-remote (credentials
needed) the input glob is listed and each remote model copied and checked as `paranmt build` would; local inputs
and models are always checked. Invalid launch options (Beam's validation: project id, bucket names, ...) are
configuration errors.

JOB_DIR gets: job.json (the Dataflow API `Job` message, i.e. the body of the create-job request, with local
staging paths), staging/pipeline.pb (the portable pipeline Dataflow runs, where resource hints live) and the staged
files, summary.json (what is printed: steps per stage, the resource hints of each step, images, staged files,
warnings about a GPU launch that would not work).
"""
from __future__ import annotations

import json
import os
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from paranmt.pipelines.runtime.building.arguments import BUILD_ARGUMENTS
from paranmt.pipelines.runtime.building.graph import build_pipeline
from paranmt.pipelines.runtime.building.plan import plan_build
from paranmt.pipelines.runtime.command import Command
from paranmt.pipelines.runtime.extras import require_extra, stage_extras
from paranmt.pipelines.runtime.options import pipeline_options
from paranmt.schemas.build_config import BuildConfig
from paranmt.schemas.errors import ConfigError

STAGED_PIPELINE = "pipeline.pb"
WORKER_IMAGE_ROOT = "/opt/paranmt/"               # where the Dockerfile installs the project and its assets
# Beam's own worker images (Docker Hub, or Dataflow's copy of them): no CUDA torch, no paranmt
DEFAULT_IMAGE = re.compile(r"(^apache/|/cloud-dataflow/v1beta3/)beam_python")


@dataclass
class DataflowJobPlan:
    """A Dataflow job description made offline: `job` is the API `Job` message as a dict, `pipeline` the portable
    pipeline proto staged beside it (`staging/pipeline.pb`), `staging_dir` the directory holding staged files,
    `unverified` the remote paths taken as given (what -> path)."""
    job: dict
    pipeline: beam_runner_api_pb2.Pipeline
    staging_dir: Path
    unverified: dict[str, str] = field(default_factory=dict)

    def step_hints(self) -> dict[str, dict[str, str]]:
        """Every leaf transform (unique name) -> its environment's resource hints, short names (`accelerator`,
        `min_ram`, ...) -> decoded values; {} for a step without hints."""
        components = self.pipeline.components
        hints = {}
        for transform in components.transforms.values():
            if transform.subtransforms or not transform.environment_id:
                continue
            environment = components.environments[transform.environment_id]
            hints[transform.unique_name] = {urn.split(":")[2]: value.decode()
                                            for urn, value in environment.resource_hints.items()}
        return hints

    def top_level_steps(self) -> list[str]:
        """The names of the pipeline's top-level transforms, in graph order."""
        transforms = self.pipeline.components.transforms
        roots = list(self.pipeline.root_transform_ids)
        if len(roots) == 1 and transforms[roots[0]].subtransforms:     # Beam wraps the graph in one root
            roots = list(transforms[roots[0]].subtransforms)
        return [transforms[t].unique_name for t in roots]

    def worker_pool(self) -> dict:
        return self.job["environment"]["workerPools"][0]

    def container_images(self) -> dict[str, str]:
        """Environment id -> SDK container image, as the worker pool would start them."""
        return {image["environmentId"]: image["containerImage"]
                for image in self.worker_pool().get("sdkHarnessContainerImages", [])}

    def staged_files(self) -> list[str]:
        return sorted(package["name"] for package in self.worker_pool().get("packages", []))

    def pipeline_options(self) -> dict:
        return self.job["environment"]["sdkPipelineOptions"]["options"]

    def service_options(self) -> list[str]:
        return list(self.job["environment"].get("serviceOptions", []))

    def warnings(self, config: BuildConfig) -> list[str]:
        """Launch settings with which the job would start, then fail or waste its workers or GPUs."""
        problems = []
        gpu = any("accelerator" in hints for hints in self.step_hints().values()) or any(
            option.startswith("worker_accelerator=") for option in self.service_options())
        if gpu and any(DEFAULT_IMAGE.search(image) for image in self.container_images().values()):
            problems.append("GPUs requested but the workers run Beam's default image (no CUDA torch, no paranmt): "
                            "build the project's Dockerfile and pass --sdk_container_image")
        default_image = all(DEFAULT_IMAGE.search(image) for image in self.container_images().values())
        if default_image and not self.pipeline_options().get("setup_file"):
            problems.append("the workers run Beam's default image and nothing installs paranmt on them: pass "
                            "--setup_file ./setup.py or --sdk_container_image (docs/dataflow.md)")
        if gpu and config.translate.device == "cpu":
            problems.append("GPUs requested but translate.device=cpu: the GPU would sit idle")
        if gpu and "install-nvidia-driver" not in json.dumps(self.step_hints()) + " ".join(self.service_options()):
            problems.append("GPU requested without `install-nvidia-driver`: CUDA will not find a driver")
        for stage, path in config.model_paths().items():
            if "://" not in path and not path.startswith(WORKER_IMAGE_ROOT):
                problems.append(f"stage {stage!r} reads its model from {path} on this machine, which Dataflow "
                                f"workers cannot see: copy it to gs:// and pass the URL, or launch from the worker "
                                f"image (docs/dataflow.md)")
        if "translate" in config.stages and not self.pipeline_options().get("number_of_worker_harness_threads") \
                and gpu:
            problems.append("no --number_of_worker_harness_threads: many threads will contend for one GPU "
                            "(docs/dataflow.md suggests 1-4)")
        return problems

    def summary(self, config: BuildConfig) -> dict:
        hints = self.step_hints()
        stages = {}
        for step in self.top_level_steps():
            inside = {name: h for name, h in hints.items() if name == step or name.startswith(step + "/")}
            with_hints = {name: h for name, h in inside.items() if h}
            stages[step] = {"steps": len(inside), "steps_with_resource_hints": with_hints}
        return {
            "job_name": self.job["name"], "job_type": self.job["type"],
            "stages": stages,
            "container_images": sorted(set(self.container_images().values())),
            "environments": len(self.container_images()),
            "staged_files": self.staged_files(),
            "service_options": self.service_options(),
            "experiments": list(self.job["environment"].get("experiments", [])),
            "machine_type": self.worker_pool().get("machineType"),
            "max_num_workers": self.worker_pool().get("autoscalingSettings", {}).get("maxNumWorkers"),
            "worker_extras": stage_extras(config.stages, config.translate.backend),
            "unverified_remote_paths": self.unverified,
            "warnings": self.warnings(config),
        }


def check_locations(options) -> None:
    """ConfigError when both --temp_location and --staging_location are invalid: Beam would then look for or
    create a default bucket on the account (network and credentials), which the offline check does not do."""
    from apache_beam.options.pipeline_options import GoogleCloudOptions
    from apache_beam.options.pipeline_options_validator import PipelineOptionsValidator

    cloud = options.view_as(GoogleCloudOptions)
    validator = PipelineOptionsValidator(options, None)
    temp, staging = (validator.validate_gcs_path(cloud, name) for name in ("temp_location", "staging_location"))
    if temp and staging:
        raise ConfigError(f"{(temp if cloud.temp_location else staging)[0]} Beam would create a default bucket on "
                          f"the account instead, which check-dataflow does only with --verify-remote")


def plan_dataflow_job(config: BuildConfig, beam_args: list[str], job_dir: str | os.PathLike,
                      verify_remote: bool = False) -> DataflowJobPlan:
    """Build `config`'s pipeline for the DataflowRunner named in `beam_args` and write the job it would submit to
    `job_dir` (see the module docstring). ConfigError if `beam_args` does not name the DataflowRunner. Remote
    paths are verified only with `verify_remote` (which needs credentials)."""
    import apache_beam as beam
    from apache_beam.options.pipeline_options import StandardOptions

    apiclient = require_extra("dataflow", "apache_beam.runners.dataflow.internal.apiclient")   # GCP client libraries
    options = pipeline_options(list(beam_args) + ["--dry_run=True", "--no_auth"])
    if options.view_as(StandardOptions).runner not in ("DataflowRunner", "dataflow"):
        raise ConfigError("check-dataflow needs the launch options: --runner DataflowRunner --project P "
                          "--region R --temp_location gs://BUCKET/tmp ...")
    if not verify_remote:
        check_locations(options)
    try:
        pipeline = beam.Pipeline(options=options)
    except ValueError as error:         # Beam's option validation: invalid project id, job name, ...
        raise ConfigError(" ".join(str(error).split())) from None
    plan = plan_build(config, options, verify_remote)
    build_pipeline(pipeline, plan, set())
    job = pipeline.run().job            # DataflowRunner under --dry_run: the Job, nothing submitted
    return write_job(job, apiclient.DataflowApplicationClient, options, Path(job_dir), plan.unverified)


def write_job(job, client, options, job_dir: Path, unverified: dict) -> DataflowJobPlan:
    """Stage the dry-run `job` in `job_dir`/staging (a fresh folder) through Dataflow's application `client` and
    write its description to `job_dir`/job.json; the plan of what was written."""
    from apache_beam.portability.api import beam_runner_api_pb2

    staging = job_dir / "staging"
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    job.google_cloud_options.staging_location = str(staging)
    client(options, str(staging)).create_job_description(job)
    description = json.loads(job.json())
    (job_dir / "job.json").write_text(json.dumps(description, indent=1, sort_keys=True))
    staged = beam_runner_api_pb2.Pipeline.FromString((staging / STAGED_PIPELINE).read_bytes())
    return DataflowJobPlan(job=description, pipeline=staged, staging_dir=staging, unverified=unverified)


def print_summary(summary: dict, job_dir: Path) -> None:
    print(f"Dataflow job {summary['job_name']} ({summary['job_type']}), written offline to {job_dir}/job.json")
    for stage, info in summary["stages"].items():
        hinted = info["steps_with_resource_hints"]
        text = "; ".join(f"{name}: {', '.join(f'{k}={v}' for k, v in hints.items())}"
                         for name, hints in hinted.items()) or "no resource hints"
        print(f"  {stage:<12} {info['steps']:>3} step(s)  {text}")
    print(f"  container image(s): {', '.join(summary['container_images'])} "
          f"({summary['environments']} environment(s))")
    print(f"  staged files: {', '.join(summary['staged_files']) or 'none'}")
    extras = ",".join(summary["worker_extras"])
    print(f"  the workers need paranmt[{extras}] (worker image: docker build --build-arg PARANMT_EXTRAS={extras})"
          if extras else "  the workers need the core install of paranmt only (no extras)")
    if summary["service_options"]:
        print(f"  service options: {', '.join(summary['service_options'])}")
    if summary["unverified_remote_paths"]:
        print(f"  not verified (remote, not listed or read; --verify-remote checks them with your credentials): "
              + ", ".join(f"{what} {path}" for what, path in summary["unverified_remote_paths"].items()))
    for warning in summary["warnings"]:
        print(f"  WARNING: {warning}")


def job_flags(parser) -> None:
    """Where the job goes and how far its paths are checked, which no config holds."""
    parser.add_argument("--job-dir", required=True, help="directory for job.json, summary.json and staging/")
    parser.add_argument("--verify-remote", action="store_true",
                        help="also list the remote (gs://) input and copy and check remote models, as `paranmt "
                             "build` does (needs credentials and network); default: taken as given")


def run(config: BuildConfig, args) -> int:
    """The job of the build `config` written to --job-dir and summarized; exit 1 when it has warnings."""
    plan = plan_dataflow_job(config, args.beam_args, args.job_dir, args.verify_remote)
    summary = plan.summary(config)
    Path(args.job_dir, "summary.json").write_text(json.dumps(summary, indent=1))
    print_summary(summary, Path(args.job_dir))
    return 1 if summary["warnings"] else 0


# the build's arguments and output kind (the build's output, which the job would write; check-dataflow writes only
# --job-dir, replacing the job an earlier check left there)
COMMAND = Command("check-dataflow", BuildConfig, run, help="write the Dataflow job a `paranmt build` launch would "
                  "submit, offline, and check it", description=__doc__, flags=job_flags, **BUILD_ARGUMENTS)
