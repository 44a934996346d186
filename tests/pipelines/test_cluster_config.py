"""`paranmt cluster-config` offline: the Slurm/PBS/SGE job scripts (dask-jobqueue's job_script()) and the Kubernetes
DaskCluster spec that would be submitted, their worker resources, the documented example, and one-line errors."""
import re

import pytest
import yaml

from paranmt.pipelines.cli import main
from paranmt.schemas.cluster import PRESETS_DIR, SCHEDULERS


def cluster_config(*args):
    return main(["cluster-config", *map(str, args)])


def directives(script: str) -> list[str]:
    return [line for line in script.splitlines() if line.startswith("#SBATCH") or line.startswith("#PBS")
            or line.startswith("#$")]


def worker_command(script: str) -> str:
    return next(line for line in script.splitlines() if "dask_worker" in line)


def test_the_czeng_slurm_config_gives_cpu_and_gpu_jobs_with_their_resources(tmp_path, capsys):
    assert cluster_config("--config", "slurm-czeng", "--output", tmp_path, "--set", "account=OPEN-1-2",
                          "--set", "scheduler_address=tcp://login1:8786") == 0
    cpu, gpu = (tmp_path / "cpu-workers.sh").read_text(), (tmp_path / "gpu-workers.sh").read_text()
    assert {"#SBATCH -p cpu", "#SBATCH -A OPEN-1-2", "#SBATCH --cpus-per-task=32", "#SBATCH -t 12:00:00"} <= \
        set(directives(cpu))
    assert "#SBATCH --gres=gpu:1" in directives(gpu) and not any("gres" in d for d in directives(cpu))
    # CPU workers: 32 processes of 1 thread, resource CPU=1 each; the GPU worker: one process, GPU=1
    assert re.search(r"dask_worker tcp://login1:8786 --name paranmt-cpu-\$\{SLURM_JOB_ID\} --nthreads 1 .*"
                     r"--nworkers 32 .*--resources CPU=1$", worker_command(cpu))
    assert worker_command(gpu).endswith("--resources GPU=1") and "--nthreads 8" in worker_command(gpu)
    assert "source $HOME/paranmt/.venv/bin/activate" in cpu.splitlines()
    submit = (tmp_path / "submit.sh").read_text()
    assert "for i in $(seq 2); do sbatch cpu-workers.sh; done" in submit and "seq 16" in submit
    assert "dask_scheduler --port 8786" in (tmp_path / "start-scheduler.sh").read_text()
    assert "--dask-address tcp://login1:8786" in capsys.readouterr().out


@pytest.mark.parametrize("scheduler, marker, gpu_line", [("pbs", "#PBS", "#PBS -l ngpus=1"),
                                                          ("sge", "#$", "#$ -l gpu=1")])
def test_pbs_and_sge_scripts_carry_the_gpu_directive_of_the_preset(tmp_path, scheduler, marker, gpu_line):
    assert cluster_config("--scheduler", scheduler, "--output", tmp_path, "--set", "gpu.jobs=1") == 0
    gpu = (tmp_path / "gpu-workers.sh").read_text()
    assert gpu_line in directives(gpu) and worker_command(gpu).endswith("--resources GPU=1")
    assert directives((tmp_path / "cpu-workers.sh").read_text())[0].startswith(marker)
    assert f"qsub gpu-workers.sh" in (tmp_path / "submit.sh").read_text()


def test_a_pool_without_jobs_writes_no_script(tmp_path):
    assert cluster_config("--scheduler", "slurm", "--output", tmp_path) == 0      # the preset has gpu.jobs: 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cpu-workers.sh", "start-scheduler.sh", "submit.sh"]


def test_the_kubernetes_spec_has_a_cpu_cluster_and_a_gpu_worker_group(tmp_path):
    assert cluster_config("--scheduler", "kubernetes", "--output", tmp_path, "--set", "image=reg/paranmt:1") == 0
    cluster, group = yaml.safe_load_all((tmp_path / "dask-cluster.yaml").read_text())
    assert cluster["kind"] == "DaskCluster" and cluster["spec"]["worker"]["replicas"] == 4
    worker = cluster["spec"]["worker"]["spec"]["containers"][0]
    assert worker["image"] == "reg/paranmt:1" and worker["args"][-2:] == ["--resources", "CPU=1"]
    assert worker["resources"]["limits"] == {"cpu": "8", "memory": "32G"}
    assert group["kind"] == "DaskWorkerGroup" and group["spec"]["cluster"] == "paranmt"
    gpu = group["spec"]["worker"]["spec"]["containers"][0]
    assert gpu["resources"]["limits"]["nvidia.com/gpu"] == "1" and gpu["args"][-2:] == ["--resources", "GPU=1"]


def test_the_job_script_shown_in_the_docs_is_what_the_command_writes(repo, tmp_path):
    """docs/cluster.md shows the GPU job script of its worked example; it must stay what the command writes."""
    doc = (repo / "docs" / "cluster.md").read_text()
    command = re.search(r"paranmt (cluster-config --config slurm-czeng[^\n]*)", doc).group(1).split()
    output = command.index("--output")
    command[output + 1] = str(tmp_path)
    assert main(command) == 0
    shown = re.search(r"```bash\n(#!/usr/bin/env bash\n\n#SBATCH -J paranmt-gpu.*?)```", doc, re.S).group(1)
    assert shown == (tmp_path / "gpu-workers.sh").read_text()


def test_every_preset_loads(tmp_path):
    assert {p.stem for p in PRESETS_DIR.glob("*.yaml")} >= set(SCHEDULERS)
    for preset in PRESETS_DIR.glob("*.yaml"):
        assert cluster_config("--config", preset.stem, "--output", tmp_path / preset.stem) == 0


@pytest.mark.parametrize("args, message", [
    ([], "give --scheduler"),
    (["--config", "nope"], "cluster config nope does not exist (presets: kubernetes, pbs, sge, slurm"),
    (["--scheduler", "slurm", "--set", "cpu.cores=6", "--set", "cpu.processes=4"], "multiple of cpu.processes"),
    (["--scheduler", "slurm", "--set", "gpu.jobs=2", "--set", "gpu.gpus=0"], "gpu.gpus must be >= 1"),
    (["--scheduler", "slurm", "--set", "cpu.walltime=12h"], "cpu.walltime must be HH:MM:SS"),
    (["--scheduler", "slurm", "--set", "scheduler_address=login1"], "scheduler_address must look like"),
    (["--scheduler", "slurm", "--set", "cpu.gpu=1"], "unknown cluster config key 'cpu.gpu' (did you mean 'cpu.gpus'?)"),
    (["--scheduler", "kubernetes", "--set", "image="], "kubernetes: give the worker image"),
])
def test_a_bad_cluster_config_is_one_line_and_exit_2(tmp_path, capsys, args, message):
    assert cluster_config(*args, "--output", tmp_path) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err
