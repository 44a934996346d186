"""`paranmt cluster-config` offline: the Slurm/PBS/SGE job scripts (dask-jobqueue's job_script()) and the Kubernetes
DaskCluster spec that would be submitted, their worker resources, the documented example, and one-line errors."""
import os
import re
import signal
import socket
import subprocess
import sys

import pytest
import warm
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
    # the scheduler listens on the host of scheduler_address only, its dashboard on localhost
    assert "dask_scheduler --host login1 --port 8786 --protocol tcp --dashboard-address 127.0.0.1:8787\n" in \
        (tmp_path / "start-scheduler.sh").read_text()
    out = capsys.readouterr().out
    assert "--dask-address tcp://login1:8786" in out and "no TLS: anyone who can reach" in out


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
    (["--config", "nope"], "cluster config 'nope' is neither a file nor a preset; presets: kubernetes, pbs, sge, "
                           "slurm"),
    (["--scheduler", "slurm", "--set", "cpu.cores=6", "--set", "cpu.processes=4"], "multiple of cpu.processes"),
    (["--scheduler", "slurm", "--set", "gpu.jobs=2", "--set", "gpu.gpus=0"], "gpu.gpus must be >= 1"),
    (["--scheduler", "slurm", "--set", "gpu.gpus=3", "--set", "gpu.processes=2", "--set", "gpu.cores=2"],
     "gpu.gpus (3) must be a multiple of gpu.processes (2)"),
    (["--scheduler", "slurm", "--set", "cpu.jobs=-1"], "cpu.jobs must be >= 0, not -1"),
    (["--scheduler", "slurm", "--set", "cpu.walltime=12h"], "cpu.walltime must be HH:MM:SS"),
    (["--scheduler", "slurm", "--set", "scheduler_address=login1"], "scheduler_address must look like"),
    (["--scheduler", "slurm", "--set", "cpu.gpu=1"], "unknown cluster config key 'cpu.gpu' (did you mean 'cpu.gpus'?)"),
    (["--scheduler", "kubernetes", "--set", "image="], "kubernetes: give the worker image"),
    (["--scheduler", "slurm", "--set", "scheduler_address=tcp://$(id):8786"], "scheduler_address must look like"),
    (["--scheduler", "slurm", "--set", "scheduler_listen=a b"], "scheduler_listen must be a host name"),
    (["--scheduler", "slurm", "--set", "account=x\nrm -rf ~"], "account must be one line"),
    (["--scheduler", "slurm", "--set", "account=my account"],
     "account goes into the job scripts' #SBATCH lines, which slurm splits at spaces: give it without spaces, "
     "quotes, '#' or backslashes, got 'my account'"),
    (["--scheduler", "slurm", "--set", "cpu.queue=gpu --uid=0"], "cpu.queue goes into the job scripts' #SBATCH lines"),
    (["--scheduler", "pbs", "--set", "gpu.queue=\"a b\""], "gpu.queue goes into the job scripts' #PBS lines"),
    (["--scheduler", "sge", "--set", "log_directory=/x/my logs"], "log_directory goes into the job scripts' #$ lines"),
    (["--scheduler", "slurm", "--set", "scheduler_address=tls://h:8786"], "got tls://h:8786 without tls files"),
    (["--scheduler", "slurm", "--set", "tls.ca_file=ca.pem", "--set", "tls.cert=c.pem"],
     "got tcp://LOGIN-NODE:8786 with tls files"),
    (["--scheduler", "slurm", "--set", "scheduler_address=tls://h:1", "--set", "tls.cert=c.pem"],
     "tls needs tls.ca_file and tls.cert"),
])
def test_a_bad_cluster_config_is_one_line_and_exit_2(tmp_path, capsys, args, message):
    assert cluster_config(*args, "--output", tmp_path) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err


ODD = "$(touch RAN) `touch RAN`"             # what a shell would run if a value were pasted unquoted


def test_every_value_pasted_into_a_script_is_quoted_and_nothing_in_it_runs(tmp_path):
    """Values with spaces, $( ) and backticks: every script passes `bash -n`, and run with a stand-in python
    (itself at a path with such characters) the scheduler and the worker get each value as one argument,
    unchanged, and nothing in them ran."""
    python = tmp_path / f"py {ODD}"
    python.write_text('#!/bin/sh\nprintf "%s\\n" "$@" > "$ARGS_OUT"\n')
    python.chmod(0o755)
    word = "$(touch${IFS}RAN)`touch${IFS}RAN`"       # the same in a value a directive line holds as one argument
    values = {"python": str(python), "local_directory": f"/scratch/a b/{ODD}", "tls.ca_file": f"/c/ca {ODD}.pem",
              "tls.cert": f"/c/`touch RAN`.pem", "tls.key": "/c/$(touch RAN)", "account": f"acct{word}",
              "cpu.queue": word, "log_directory": str(tmp_path / f"logs{word}")}
    sets = [part for key, value in values.items() for part in ("--set", f"{key}={value}")]
    out = tmp_path / "cluster"
    assert cluster_config("--scheduler", "slurm", "--output", out, "--set", "scheduler_address=tls://login1:8786",
                          "--set", "environment=[]", *sets) == 0
    for script in out.glob("*.sh"):
        assert subprocess.run(["bash", "-n", script]).returncode == 0, script.name
    got = {}
    for script in ("start-scheduler.sh", "cpu-workers.sh"):
        args = tmp_path / f"{script}.args"
        subprocess.run(["bash", out / script], cwd=tmp_path, env={**os.environ, "ARGS_OUT": str(args)}, check=True)
        got[script] = args.read_text().splitlines()
    fake_bin = tmp_path / "bin"
    fake_bin.mkdir()
    (fake_bin / "sbatch").write_text("#!/bin/sh\n")
    (fake_bin / "sbatch").chmod(0o755)
    subprocess.run(["bash", out / "submit.sh"], cwd=tmp_path, check=True,
                   env={**os.environ, "PATH": f"{fake_bin}:{os.environ['PATH']}"})
    assert not (tmp_path / "RAN").exists() and not (out / "RAN").exists()
    assert (tmp_path / f"logs{word}").is_dir()
    script = (out / "cpu-workers.sh").read_text()
    assert f"#SBATCH -A acct{word}\n" in script and f"#SBATCH -p {word}\n" in script

    def after(args, flag):
        return args[args.index(flag) + 1]

    scheduler, worker = got["start-scheduler.sh"], got["cpu-workers.sh"]
    assert scheduler[:2] == ["-m", "distributed.cli.dask_scheduler"] and after(scheduler, "--host") == "login1"
    assert worker[:3] == ["-m", "distributed.cli.dask_worker", "tls://login1:8786"]
    assert after(worker, "--local-directory") == values["local_directory"]
    for args in (scheduler, worker):
        assert [after(args, f"--tls-{flag}") for flag in ("ca-file", "cert", "key")] == \
            [values["tls.ca_file"], values["tls.cert"], values["tls.key"]]
    client = yaml.safe_load((out / "dask-client.yaml").read_text())["distributed"]["comm"]
    assert client == {"require-encryption": True, "tls": {"ca-file": values["tls.ca_file"], "client": {
        "cert": values["tls.cert"], "key": values["tls.key"]}}}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_a_tls_cluster_from_the_written_scripts_serves_only_clients_with_its_certificate(tmp_path):
    """The scheduler and a worker started by the scripts of a tls config, and `paranmt build`'s client with
    DASK_CONFIG=dask-client.yaml, talk TLS; a plain tcp client and a client with another CA's certificate are
    turned away."""
    from distributed import Client
    from distributed.security import Security

    cluster = Security.temporary()            # a self-signed CA + certificate, as PEM text: written to files
    files = {name: tmp_path / f"{name}.pem" for name in ("ca", "cert", "key")}
    files["ca"].write_text(cluster.tls_ca_file)
    files["cert"].write_text(cluster.tls_worker_cert)
    files["key"].write_text(cluster.tls_worker_key)
    address = f"tls://127.0.0.1:{free_port()}"
    out = tmp_path / "cluster"
    assert cluster_config("--scheduler", "slurm", "--output", out, "--set", f"scheduler_address={address}",
                          "--set", f"python={sys.executable}", "--set", "environment=[]", "--set", "cpu.cores=1",
                          "--set", "cpu.processes=1", "--set", "cpu.memory=2GB",
                          *[part for key in ("ca", "cert", "key")
                            for part in ("--set", f"tls.{'ca_file' if key == 'ca' else key}={files[key]}")]) == 0
    started = [subprocess.Popen(["bash", out / name], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                start_new_session=True) for name in ("start-scheduler.sh", "cpu-workers.sh")]
    try:
        client_code = ("from apache_beam.options.pipeline_options import PipelineOptions\n"
                       "from paranmt.pipelines.runtime.dask_runner import close, start_client\n"
                       f"client, _ = start_client(PipelineOptions(['--dask_client_address={address}']))\n"
                       "client.wait_for_workers(1, timeout=60)\n"
                       "print(client.submit(sum, [1, 2]).result(), client.scheduler.address)\n"
                       "close(client, None)\n")
        done = warm.run([sys.executable, "-c", client_code], capture_output=True, text=True, timeout=120,
                        env={**os.environ, "DASK_CONFIG": str(out / "dask-client.yaml")})
        assert done.stdout.split() == ["3", address], done.stderr[-2000:]
        with pytest.raises((OSError, TimeoutError)):
            Client(address.replace("tls://", "tcp://"), timeout=3)
        with pytest.raises((OSError, TimeoutError)):
            Client(address, security=Security.temporary(), timeout=3)
    finally:
        for process in started:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(timeout=30)


def test_scripts_of_an_earlier_run_are_not_overwritten_without_overwrite(tmp_path, capsys):
    """Job scripts are often edited by hand before they are submitted: a second run into the same --output is
    refused in one line unless --overwrite."""
    from paranmt.pipelines.cli import main

    out = tmp_path / "cluster"
    assert main(["cluster-config", "--scheduler", "slurm", "--output", str(out)]) == 0
    (out / "submit.sh").write_text("# edited by hand\n")
    capsys.readouterr()
    assert main(["cluster-config", "--scheduler", "slurm", "--output", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "--overwrite" in err
    assert (out / "submit.sh").read_text() == "# edited by hand\n"
    assert main(["cluster-config", "--scheduler", "slurm", "--output", str(out), "--overwrite"]) == 0
    assert (out / "submit.sh").read_text().startswith("#!/usr/bin/env bash")
