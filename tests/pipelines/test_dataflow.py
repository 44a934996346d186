"""The offline Dataflow check: `paranmt check-dataflow` builds the real `paranmt build` pipeline for the
DataflowRunner (Beam's --dry_run, then Beam's own job-description code with local staging) and we assert on what
would be submitted. The network is cut off (every socket connect / DNS lookup raises) and no GCP credentials exist.

Two launches from docs/dataflow.md:
- GPU_LAUNCH: all stages in one job on the project's worker image, a GPU requested for the translate step only
  (the `translate.accelerator` resource hint);
- CPU_LAUNCH: the first job of a split run, `--stages read,clean`, shipping the project as the sdist of
  --setup_file on Beam's default image;
and launches that `check-dataflow` must flag.
"""
import json
import socket
import subprocess
import sys
import tarfile
import time
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from paranmt.pipelines.cli import main
from paranmt.pipelines.dataflow import plan_dataflow_job
from paranmt.pipelines.runtime.extras import stage_extras
from paranmt.schemas.build_config import load_build_config
from paranmt.schemas.errors import ConfigError
from paranmt.schemas.paths import asset_path
from paranmt.schemas.records import empty_row, pairs_to_table

REPO = Path(__file__).resolve().parents[2]
IMAGE = "europe-west4-docker.pkg.dev/paranmt-demo/paranmt/paranmt-worker:0.1.0"
T4 = "type:nvidia-tesla-t4;count:1;install-nvidia-driver"
LAUNCH = ["--runner", "DataflowRunner", "--project", "paranmt-demo", "--region", "europe-west4",
          "--temp_location", "gs://paranmt-demo-bucket/tmp"]
ALL_STAGES = ["ReadBitext", "Clean", "Translate", "Score", "Parse", "Write"]
NMT_TINY = REPO / "tests" / "fixtures" / "nmt-tiny"      # the translate model (score, parse: the shipped assets)


@pytest.fixture(scope="module")
def offline():
    """No network, no credentials, for everything in this module."""
    def refuse(*args, **kwargs):
        raise OSError("network access attempted during the offline Dataflow check")

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(socket.socket, "connect", refuse)
        patch.setattr(socket, "getaddrinfo", refuse)
        patch.setattr(socket, "create_connection", refuse)
        patch.setenv("GOOGLE_APPLICATION_CREDENTIALS", "/nonexistent/credentials.json")
        patch.setenv("CLOUDSDK_CONFIG", "/nonexistent/gcloud")
        yield


def check_dataflow(job_dir: Path, args: list[str], capsys) -> tuple[int, dict, dict, str]:
    code = main(["check-dataflow", "--job-dir", str(job_dir), *args])
    printed = capsys.readouterr().out
    return code, json.loads((job_dir / "job.json").read_text()), json.loads(
        (job_dir / "summary.json").read_text()), printed


@pytest.fixture(scope="module")
def gpu_launch(offline, tmp_path_factory, sample_dir):
    job_dir = tmp_path_factory.mktemp("gpu-job")
    config = load_build_config(None, {"input": f"{sample_dir}/*", "format": "moses",
                                      "output": "gs://paranmt-demo-bucket/out", "translate.accelerator": T4,
                                      "translate.model": str(NMT_TINY),
                                      "stages": ["read", "clean", "translate", "score", "parse"]})
    plan = plan_dataflow_job(config, LAUNCH + ["--sdk_container_image", IMAGE, "--machine_type", "n1-standard-8",
                                               "--max_num_workers", "50", "--number_of_worker_harness_threads",
                                               "2", "--experiments", "use_runner_v2"], job_dir)
    return plan, config, job_dir


def test_the_graph_is_the_build_pipeline(gpu_launch):
    plan, _, _ = gpu_launch
    assert plan.top_level_steps() == ALL_STAGES
    assert plan.job["type"] == "JOB_TYPE_BATCH"
    assert "use_runner_v2" in plan.job["environment"]["experiments"]


def test_the_accelerator_is_requested_for_the_translate_step_only(gpu_launch):
    plan, _, _ = gpu_launch
    hints = plan.step_hints()
    with_gpu = {step for step, h in hints.items() if "accelerator" in h}
    assert with_gpu and all(step.startswith("Translate/") for step in with_gpu)
    assert {hints[step]["accelerator"] for step in with_gpu} == {T4}
    others = {step: h for step, h in hints.items() if not step.startswith("Translate/")}
    assert any(step.startswith("Score/") for step in others) and any(step.startswith("Parse/") for step in others)
    assert all(h == {} for h in others.values())
    # two environments (GPU, CPU), both on the project's image; no job-wide accelerator
    assert sorted(plan.container_images().values()) == [IMAGE, IMAGE]
    assert not any(option.startswith("worker_accelerator") for option in plan.service_options())


def test_the_worker_pool_and_options_are_what_the_launch_said(gpu_launch):
    plan, _, job_dir = gpu_launch
    pool = plan.worker_pool()
    assert pool["machineType"] == "n1-standard-8"
    assert pool["autoscalingSettings"]["maxNumWorkers"] == 50
    assert pool["numThreadsPerWorker"] == 2
    options = plan.pipeline_options()
    assert options["sdk_container_image"] == IMAGE and options["project"] == "paranmt-demo"
    assert options["pipelineUrl"] == str(job_dir / "staging" / "pipeline.pb")
    assert "setup_file" not in options and "workflow.tar.gz" not in plan.staged_files()


def test_models_on_the_launching_machine_are_flagged(gpu_launch):
    """The models are files of this checkout, which Dataflow workers cannot read; every other setting of this
    launch is right, so these are the only warnings."""
    plan, config, _ = gpu_launch
    warnings = plan.warnings(config)
    assert sorted(warnings) == sorted(
        f"stage {stage!r} reads its model from {path} on this machine, which Dataflow workers cannot see: copy it "
        f"to gs:// and pass the URL, or launch from the worker image (docs/dataflow.md)"
        for stage, path in [("translate", str(NMT_TINY)), ("score", asset_path("assets/encoder-sp")),
                            ("parse", asset_path("assets/parser-en"))])     # as a shell reads them (e0a0093)


@pytest.fixture(scope="module")
def shards_dir(tmp_path_factory, sample_dir):
    """A build output holding one schema-v1 shard of 20 real pairs (what `--stages read,clean` would write)."""
    directory = tmp_path_factory.mktemp("shards")
    cs = (sample_dir / "tatoeba-every13th.cs").read_text().splitlines()[:20]
    en = (sample_dir / "tatoeba-every13th.en").read_text().splitlines()[:20]
    rows = [empty_row(f"tatoeba:{i + 1}", "tatoeba", c, e) for i, (c, e) in enumerate(zip(cs, en))]
    pq.write_table(pairs_to_table(rows), directory / "tatoeba-every13th-00000.parquet")
    return directory


def test_a_cpu_job_ships_an_installable_sdist(offline, sample_dir, tmp_path, capsys):
    job_dir = tmp_path / "cpu-job"
    code, job, summary, printed = check_dataflow(
        job_dir, ["--input", f"{sample_dir}/*", "--format", "moses", "--stages", "read,clean",
                  "--output", "gs://paranmt-demo-bucket/clean", "--set", f"translate.accelerator={T4}",
                  *LAUNCH, "--setup_file", str(REPO / "setup.py")], capsys)
    assert code == 0, printed
    assert summary["warnings"] == []
    assert list(summary["stages"]) == ["ReadBitext", "Clean", "Write"]
    # translate is not in this job, so its accelerator setting requests nothing
    assert all(not info["steps_with_resource_hints"] for info in summary["stages"].values())
    assert "workflow.tar.gz" in summary["staged_files"]
    assert "Clean" in printed and "no resource hints" in printed
    assert "the workers need the core install of paranmt only (no extras)" in printed
    sdist = job_dir / "staging" / "workflow.tar.gz"
    with tarfile.open(sdist) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    assert {"setup.py", "requirements/lock.txt", "transforms/io/model_cache.py", "pipelines/build.py",
            "transforms/translate.py", "transforms/parse.py", "transforms/score.py"} <= names
    # the worker runs `pip install workflow.tar.gz`: its metadata must build (setup.py reads requirements/)
    pip = subprocess.run([sys.executable, "-m", "pip", "install", "--dry-run", "--no-deps", "--no-build-isolation",
                          "--no-index", "--quiet", str(sdist)], capture_output=True, text=True, timeout=300)
    assert pip.returncode == 0, pip.stderr[-2000:]


def test_a_gpu_launch_on_the_default_image_is_flagged(offline, shards_dir, tmp_path, capsys):
    code, job, summary, printed = check_dataflow(
        tmp_path / "job", ["--input", str(shards_dir), "--format", "shards", "--stages", "score,parse",
                           "--output", "gs://paranmt-demo-bucket/parsed", *LAUNCH,
                           "--dataflow_service_options", "worker_accelerator=type:nvidia-l4;count:1"], capsys)
    assert code == 1
    assert list(summary["stages"]) == ["ReadShards", "Score", "Parse", "Write"]
    assert all(not info["steps_with_resource_hints"] for info in summary["stages"].values())
    assert job["environment"]["serviceOptions"] == ["worker_accelerator=type:nvidia-l4;count:1"]
    assert any("default image" in w for w in summary["warnings"])
    assert any("install-nvidia-driver" in w for w in summary["warnings"])
    assert any("nothing installs paranmt" in w for w in summary["warnings"])     # no --setup_file either
    assert "WARNING: GPUs requested but the workers run Beam's default image" in printed


def test_a_launch_without_the_dataflow_runner_is_refused(offline, sample_dir, tmp_path):
    config = load_build_config(None, {"input": f"{sample_dir}/*", "format": "moses", "output": str(tmp_path)})
    with pytest.raises(ConfigError, match="--runner DataflowRunner"):
        plan_dataflow_job(config, ["--project", "paranmt-demo"], tmp_path / "job")


# The README's Dataflow example, with its placeholders (PROJECT, BUCKET, REGION) given valid values.
README_EXAMPLE = [
    "--config", str(REPO / "configs" / "dataflow-gpu.yaml"),
    "--input", "gs://paranmt-demo-bucket/czeng16/*.gz", "--format", "czeng16",
    "--output", "gs://paranmt-demo-bucket/paranmt/czeng",
    "--set", "translate.model=gs://paranmt-demo-bucket/models/nmt-cs-en",
    "--set", "score.encoder=gs://paranmt-demo-bucket/models/encoder-sp",
    "--set", "parse.model_dir=gs://paranmt-demo-bucket/models/parser-en",
    "--runner", "DataflowRunner", "--project", "paranmt-demo", "--region", "europe-west4",
    "--temp_location", "gs://paranmt-demo-bucket/tmp", "--sdk_container_image", IMAGE,
    "--experiments", "use_runner_v2"]


@pytest.fixture
def gcs_calls(offline, monkeypatch):
    """Every use of Google Cloud Storage or of Google credentials is recorded and refused at once (no retries)."""
    from apache_beam.io.gcp import gcsfilesystem, gcsio
    import google.auth

    calls = []

    def refuse(what):
        def call(*args, **kwargs):
            calls.append(what)
            raise OSError(f"{what} used during the offline check")
        return call

    monkeypatch.setattr(gcsfilesystem.GCSFileSystem, "_gcsIO", refuse("GCSFileSystem"))
    monkeypatch.setattr(gcsio.GcsIO, "__init__", refuse("GcsIO"))
    monkeypatch.setattr(google.auth, "default", refuse("google.auth.default"))
    return calls


def test_the_readme_example_is_checked_offline_in_seconds_without_touching_gcs(gcs_calls, tmp_path, capsys):
    start = time.monotonic()
    code = main(["check-dataflow", "--job-dir", str(tmp_path / "job"), *README_EXAMPLE])
    elapsed = time.monotonic() - start
    printed = capsys.readouterr().out
    assert gcs_calls == [] and code in (0, 1), printed
    assert elapsed < 60            # was 150 s: 30 s of credential retries, 120 s listing gs://
    summary = json.loads((tmp_path / "job" / "summary.json").read_text())
    assert summary["unverified_remote_paths"] == {
        "input": "gs://paranmt-demo-bucket/czeng16/*.gz",
        "translate model": "gs://paranmt-demo-bucket/models/nmt-cs-en",
        "score model": "gs://paranmt-demo-bucket/models/encoder-sp",
        "parse model": "gs://paranmt-demo-bucket/models/parser-en"}
    line = next(line for line in printed.splitlines() if "not verified" in line)
    assert "--verify-remote" in line and "input gs://paranmt-demo-bucket/czeng16/*.gz" in line
    assert {"ReadBitext", "Translate", "Score", "Parse", "Write"} <= set(summary["stages"])
    assert (tmp_path / "job" / "job.json").is_file()


def test_verify_remote_lists_the_input_as_build_does(gcs_calls, tmp_path, capsys):
    assert main(["check-dataflow", "--job-dir", str(tmp_path / "job"), "--verify-remote", *README_EXAMPLE]) == 2
    assert "cannot list input 'gs://paranmt-demo-bucket/czeng16/*.gz'" in capsys.readouterr().err
    assert gcs_calls


def test_verify_remote_copies_remote_models_as_build_does(gcs_calls, sample_dir, tmp_path):
    args = ["--input", f"{sample_dir}/*", "--format", "moses", "--stages", "read,clean,translate",
            "--output", "gs://paranmt-demo-bucket/out", "--set", "translate.model=gs://paranmt-demo-bucket/nmt",
            *LAUNCH, "--sdk_container_image", IMAGE]
    assert main(["check-dataflow", "--job-dir", str(tmp_path / "unverified"), *args]) == 0 and gcs_calls == []
    with pytest.raises(OSError, match="GCSFileSystem used"):
        main(["check-dataflow", "--job-dir", str(tmp_path / "verified"), "--verify-remote", *args])


def test_an_invalid_bucket_is_one_line_without_the_default_bucket_lookup(gcs_calls, tmp_path, capsys):
    """The README's placeholders as they stand: Beam would look for (or create) a default bucket on the account."""
    args = [arg.replace("gs://paranmt-demo-bucket/tmp", "gs://BUCKET/tmp") for arg in README_EXAMPLE]
    assert main(["check-dataflow", "--job-dir", str(tmp_path / "job"), *args]) == 2
    error = capsys.readouterr().err.strip().splitlines()
    assert len(error) == 1 and "Invalid GCS bucket (gs://BUCKET/tmp)" in error[0] and "--verify-remote" in error[0]
    assert gcs_calls == []


def test_an_invalid_project_id_is_one_line(gcs_calls, tmp_path, capsys):
    args = [arg.replace("paranmt-demo", "PROJECT") if arg == "paranmt-demo" else arg for arg in README_EXAMPLE]
    assert main(["check-dataflow", "--job-dir", str(tmp_path / "job"), *args]) == 2
    error = capsys.readouterr().err.strip().splitlines()
    assert len(error) == 1 and "Invalid Project ID (PROJECT)" in error[0]


def test_the_worker_image_installs_the_extras_of_the_default_stages():
    """The Dockerfile's default PARANMT_EXTRAS is what a build with the default stages and backend needs."""
    config = load_build_config(None, {"input": "x", "format": "moses", "output": "y"})
    default = next(line.split("=", 1)[1] for line in (REPO / "Dockerfile").read_text().splitlines()
                   if line.startswith("ARG PARANMT_EXTRAS="))
    assert default.split(",") == stage_extras(config.stages, config.translate.backend) == ["translate", "train",
                                                                                          "parse"]
    assert stage_extras(["read", "clean", "translate"], "fairseq") == ["fairseq"]
    assert stage_extras(["read", "clean"], "ctranslate2") == []


def test_the_check_names_the_extras_the_workers_need(gcs_calls, tmp_path, capsys):
    code = main(["check-dataflow", "--job-dir", str(tmp_path / "job"), *README_EXAMPLE,
                 "--set", "translate.backend=fairseq"])
    printed = capsys.readouterr().out
    assert code in (0, 1)
    summary = json.loads((tmp_path / "job" / "summary.json").read_text())
    assert summary["worker_extras"] == ["train", "fairseq", "parse"]
    assert "docker build --build-arg PARANMT_EXTRAS=train,fairseq,parse" in printed
