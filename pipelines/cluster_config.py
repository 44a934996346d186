"""`paranmt cluster-config`: the worker job scripts (Slurm, PBS, SGE; through dask-jobqueue) or the Kubernetes
DaskCluster spec (through dask-kubernetes) of a Dask cluster for `paranmt build --runner dask --dask-address ...`.

    paranmt cluster-config --scheduler slurm --output cluster/                     the preset configs/dask/slurm.yaml
    paranmt cluster-config --config configs/dask/slurm-czeng.yaml --output cluster/ \
        --set scheduler_address=tcp://login1:8786 --set account=OPEN-12-34

Offline, like `check-dataflow`: it writes what would be submitted and prints how to submit it; nothing is
submitted. Two pools of workers (schemas/cluster.py): CPU workers advertise the Dask resource `CPU=<threads>`, GPU
workers `GPU=<n>`, so that a build with `translate.accelerator` set runs translate on the GPU workers only and
every other step on the CPU workers (pipelines/runtime/dask_runner.py). Written into `--output`:

    slurm, pbs, sge   cpu-workers.sh, gpu-workers.sh (dask-jobqueue's job_script(), one batch job each: submit
                      as many as `jobs`), start-scheduler.sh, submit.sh (the scheduler and every job in order);
                      with `tls`, dask-client.yaml: Dask's TLS settings for the client (DASK_CONFIG=... paranmt build)
    kubernetes        dask-cluster.yaml: a DaskCluster (scheduler + CPU workers) and a DaskWorkerGroup (GPU workers)
                      for the Dask Kubernetes operator (`kubectl apply -f`)

The scheduler listens on `scheduler_listen` (default: the host of `scheduler_address`, never every interface
unless configured) and its dashboard on 127.0.0.1; with `tls` the scheduler, the workers and the client use Dask's
TLS settings (schemas/cluster.py TLSFiles; docs/cluster.md "Securing a shared cluster"). Every config value pasted
into a script is shell-quoted (`shlex.quote`); `environment` lines are shell lines by design.
"""
from __future__ import annotations

import os
import re
import shlex

import yaml

from paranmt.pipelines.runtime.command import Command, ResultsFolder
from paranmt.pipelines.runtime.extras import require_extra
from paranmt.schemas.cluster import PRESETS_DIR, ClusterConfig, WorkerPool
from paranmt.schemas.errors import ConfigError

# the batch scheduler's job id variable, so that every job's workers get unique Dask names
JOB_ID = {"slurm": "${SLURM_JOB_ID}", "pbs": "${PBS_JOBID}", "sge": "${JOB_ID}"}
SUBMIT = {"slurm": "sbatch", "pbs": "qsub", "sge": "qsub"}


def job_script(config: ClusterConfig, pool_name: str) -> str:
    """The batch script of one job of pool `pool_name` (dask-jobqueue's `Job.job_script()`: the text that
    `sbatch`/`qsub` would get), its workers joining `config.scheduler_address` with the pool's resources."""
    from dask_jobqueue.pbs import PBSJob
    from dask_jobqueue.sge import SGEJob
    from dask_jobqueue.slurm import SLURMJob

    pool: WorkerPool = getattr(config, pool_name)
    directives = list(pool.directives)
    if config.scheduler == "slurm" and pool.gpus and not any("gres" in d or "gpus" in d for d in directives):
        directives.append(f"--gres=gpu:{pool.gpus}")
    resources = ",".join(f"{k}={v}" for k, v in pool.resources().items())
    quote = shlex.quote         # dask-jobqueue joins the worker command unquoted
    kwargs = dict(scheduler=quote(config.scheduler_address),
                  name=f"paranmt-{pool_name}-{JOB_ID[config.scheduler]}",
                  job_name=f"paranmt-{pool_name}", cores=pool.cores, processes=pool.processes, memory=pool.memory,
                  walltime=pool.walltime, queue=pool.queue or None, job_extra_directives=directives,
                  job_script_prologue=list(config.environment), python=quote(config.python),
                  worker_extra_args=["--resources", resources, *tls_flags(config, "worker")],
                  local_directory=quote(config.local_directory) if config.local_directory else None,
                  log_directory=config.log_directory or None, death_timeout=120)
    job_class = {"slurm": SLURMJob, "pbs": PBSJob, "sge": SGEJob}[config.scheduler]
    if config.scheduler == "slurm":
        kwargs["account"] = config.account or None
    else:
        kwargs["project"] = config.account or None
    return job_class(**kwargs).job_script()


def tls_flags(config: ClusterConfig, role: str) -> list[str]:
    """`--tls-ca-file F --tls-cert F [--tls-key F]` of the scheduler or a worker (Dask's TLS settings of `role`,
    values shell-quoted); [] without TLS."""
    if not config.tls.enabled:
        return []
    return [part for key, path in config.tls.role(role).items()
            for part in (f"--tls-{key.replace('_', '-')}", shlex.quote(path))]


def scheduler_script(config: ClusterConfig) -> str:
    """start-scheduler.sh: the Dask scheduler on `scheduler_listen` (default: the host of `scheduler_address`) and
    its port, with the address's protocol (tcp or tls, with the TLS files), the dashboard on 127.0.0.1 only."""
    protocol, host, port = re.fullmatch(r"(\w+)://(.+):(\d+)", config.scheduler_address).groups()
    listen = config.scheduler_listen or host
    command = [shlex.quote(config.python), "-m", "distributed.cli.dask_scheduler", "--host", shlex.quote(listen),
               "--port", port, "--protocol", protocol, "--dashboard-address", "127.0.0.1:8787",
               *tls_flags(config, "scheduler")]
    where = "every interface of this host" if listen == "0.0.0.0" else listen
    return "\n".join(["#!/usr/bin/env bash",
                      f"# the Dask scheduler every worker joins; run it on {host} (e.g. the login node, inside tmux)",
                      f"# it listens on {where}, port {port} ({protocol}); the dashboard on 127.0.0.1:8787 only",
                      *config.environment, "exec " + " ".join(command), ""])


def client_settings(config: ClusterConfig) -> str:
    """dask-client.yaml: Dask's TLS settings of the client (`distributed.comm.tls.*`, encryption required), for
    `DASK_CONFIG=dask-client.yaml paranmt build --runner dask --dask-address tls://...`."""
    tls = config.tls.role("client")
    client = {k: tls[k] for k in ("cert", "key") if k in tls}
    return yaml.safe_dump({"distributed": {"comm": {"require-encryption": True,
                                                    "tls": {"ca-file": tls["ca_file"], "client": client}}}},
                          sort_keys=False)


def container_resources(pool: WorkerPool) -> dict:
    """The Kubernetes resources (limits = requests) of a worker pod of `pool`."""
    limits = {"cpu": str(pool.cores), "memory": pool.memory.replace("GB", "G").replace("iB", "i")}
    if pool.gpus:
        limits["nvidia.com/gpu"] = str(pool.gpus)
    return {"limits": limits, "requests": dict(limits)}


def worker_args(pool: WorkerPool) -> list[str]:
    """The command line of a worker pod of `pool`."""
    resources = ",".join(f"{k}={v}" for k, v in pool.resources().items())
    return ["dask-worker", "--name", "$(DASK_WORKER_NAME)", "--nworkers", str(pool.processes), "--nthreads",
            str(pool.threads), "--memory-limit", "auto", "--resources", resources]


def cluster_spec(config: ClusterConfig) -> list[dict]:
    """The Kubernetes manifests (Dask operator): a DaskCluster with the scheduler and the CPU pool, and a
    DaskWorkerGroup with the GPU pool (when it has jobs). Each worker pod is one job of its pool."""
    from dask_kubernetes.operator import make_cluster_spec, make_worker_spec

    env = {"OMP_NUM_THREADS": "1"}
    spec = make_cluster_spec("paranmt", image=config.image, n_workers=config.cpu.jobs,
                             resources=container_resources(config.cpu), env=env)
    scheduler = spec["spec"]["scheduler"]["spec"]["containers"][0]
    scheduler["resources"] = {"limits": {"cpu": "1", "memory": "4G"}, "requests": {"cpu": "1", "memory": "4G"}}
    spec["spec"]["worker"]["spec"]["containers"][0]["args"] = worker_args(config.cpu)
    manifests = [spec]
    if config.gpu.jobs:
        group = make_worker_spec(image=config.image, n_workers=config.gpu.jobs,
                                 resources=container_resources(config.gpu), env=env)
        group["spec"]["containers"][0]["args"] = worker_args(config.gpu)
        manifests.append({"apiVersion": "kubernetes.dask.org/v1", "kind": "DaskWorkerGroup",
                          "metadata": {"name": "paranmt-gpu"}, "spec": {"cluster": "paranmt", "worker": group}})
    return manifests


CLUSTER_FILES = ("cpu-workers.sh", "gpu-workers.sh", "start-scheduler.sh", "dask-client.yaml", "submit.sh",
                 "dask-cluster.yaml")       # every file write_cluster_files may write


def submit_script(config: ClusterConfig) -> str:
    """submit.sh: submits every worker job of every pool to the batch system."""
    submit = SUBMIT[config.scheduler]
    lines = ["#!/usr/bin/env bash", "# submit every worker job (start the scheduler first: start-scheduler.sh)",
             "set -euo pipefail", 'cd "$(dirname "$0")"']
    lines += [f"mkdir -p {shlex.quote(config.log_directory)}"] if config.log_directory else []
    lines += [f"for i in $(seq {pool.jobs}); do {submit} {name}-workers.sh; done"
              for name, pool in config.pools().items()]
    return "\n".join(lines) + "\n"


def write_cluster_files(config: ClusterConfig, output: str) -> dict[str, str]:
    """Write the files of `config` into `output` (module docstring); returns name -> path."""
    try:
        os.makedirs(output, exist_ok=True)
    except OSError as error:
        raise ConfigError(f"output {output} cannot be created: {error}") from None
    files = {}
    if config.scheduler == "kubernetes":
        files["dask-cluster.yaml"] = yaml.safe_dump_all(cluster_spec(config), sort_keys=False)
    else:
        for name in config.pools():
            files[f"{name}-workers.sh"] = job_script(config, name)
        files["start-scheduler.sh"] = scheduler_script(config)
        if config.tls.enabled:
            files["dask-client.yaml"] = client_settings(config)
        files["submit.sh"] = submit_script(config)
    paths = {}
    for name, text in files.items():
        path = os.path.join(output, name)
        with open(path, "w") as handle:
            handle.write(text)
        if name.endswith(".sh"):
            os.chmod(path, 0o755)
        paths[name] = path
    return paths


def run(config: ClusterConfig, args) -> int:
    paths = write_cluster_files(config, args.output)
    for name, path in paths.items():
        print(f"paranmt cluster-config: wrote {path}")
    pools = ", ".join(f"{pool.jobs} {name} job(s) x {pool.processes} worker(s) x {pool.threads} thread(s)"
                      + (f", {pool.gpus} GPU(s)" if pool.gpus else "") for name, pool in config.pools().items())
    print(f"  cluster: {pools}")
    if config.scheduler == "kubernetes":
        print(f"  submit: kubectl apply -f {shlex.quote(paths['dask-cluster.yaml'])}  (needs the Dask operator); "
              f"then build with --runner dask --dask-address tcp://paranmt-scheduler:8786 (from a pod, or through "
              f"`kubectl port-forward svc/paranmt-scheduler 8786`)")
    else:
        client = f"DASK_CONFIG={shlex.quote(paths['dask-client.yaml'])} " if config.tls.enabled else ""
        print(f"  submit: {shlex.quote(paths['start-scheduler.sh'])} (on the scheduler host), then "
              f"{shlex.quote(paths['submit.sh'])}; build with {client}paranmt build ... --runner dask "
              f"--dask-address {config.scheduler_address}")
        if not config.tls.enabled:
            print("  no TLS: anyone who can reach the scheduler or a worker can run code as you; on a shared "
                  "cluster set tls (docs/cluster.md, \"Securing a shared cluster\")")
    return 0


def check(config: ClusterConfig, args) -> None:
    """The extra that runs the cluster, and a scheduler or config named (`--scheduler` names its preset)."""
    require_extra("dask", "distributed")
    if not args.config:
        raise ConfigError("give --scheduler slurm|pbs|sge|kubernetes or --config FILE")


def own_flags(parser) -> None:
    """The output directory, which no config holds."""
    parser.add_argument("--output", required=True, help="directory for the job scripts / the Kubernetes spec")


COMMAND = Command("cluster-config", ClusterConfig, run, help="write the Slurm/PBS/SGE job scripts or the Kubernetes "
                  "spec of a Dask cluster for --runner dask (offline)", description=__doc__, raw_description=True,
                  inputs=("config",), check=check, flags=own_flags, what="cluster config",
                  example="gpu.jobs=4 --set scheduler_address=tcp://h:8786", presets=PRESETS_DIR,
                  preset_setting="scheduler", config_help="a cluster config YAML, or a preset name of configs/dask/ "
                  "(e.g. slurm-czeng); keys: schemas/cluster.py",
                  output=ResultsFolder(CLUSTER_FILES, overwrite_help="replace the scripts an earlier run wrote into "
                                       "--output (refused without it: they may have been edited by hand)"))
