"""The Dask cluster config of `paranmt cluster-config` (configs/dask/*.yaml): where workers run, what each kind of
worker job asks the batch scheduler for, and the environment they start in.

Two pools of workers on one Dask scheduler: `cpu` workers (read, clean, xsim, score, parse, write) advertise the
Dask resource `CPU=<threads>`, `gpu` workers (translate) advertise `GPU=<gpus per worker process>`; a build that
joins the cluster with `translate.accelerator` set places each step by those resources
(paranmt/pipelines/dask_runner.py). A pool with `jobs: 0` is not written.
"""
from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from paranmt.schemas.config import PROJECT_ROOT, ConfigError, load_config

SCHEDULERS = ("slurm", "pbs", "sge", "kubernetes")
PRESETS_DIR = PROJECT_ROOT / "configs" / "dask"


@dataclasses.dataclass
class WorkerPool:
    """One kind of worker job (a batch job, or a Kubernetes pod): `jobs` of them, each with `cores` cores shared by
    `processes` Dask worker processes (threads = cores / processes), `memory` for the job (Dask units, e.g. 64GB),
    `gpus` GPUs (0: a CPU pool), `walltime` HH:MM:SS, `queue` (partition / queue; '' = the site's default) and
    `directives`: extra scheduler lines (Slurm `--constraint=...`, PBS `-l ngpus=1`, SGE `-l gpu=1`)."""
    jobs: int = 1
    cores: int = 8
    processes: int = 1
    memory: str = "32GB"
    gpus: int = 0
    walltime: str = "12:00:00"
    queue: str = ""
    directives: list = dataclasses.field(default_factory=list)

    def validate(self, name: str) -> None:
        if not isinstance(self.jobs, int) or self.jobs < 0:
            raise ConfigError(f"{name}.jobs must be an integer >= 0, got {self.jobs!r}")
        for key in ("cores", "processes"):
            if not isinstance(getattr(self, key), int) or getattr(self, key) < 1:
                raise ConfigError(f"{name}.{key} must be an integer >= 1, got {getattr(self, key)!r}")
        if self.cores % self.processes:
            raise ConfigError(f"{name}.cores ({self.cores}) must be a multiple of {name}.processes "
                              f"({self.processes}): each worker process gets cores / processes threads")
        if not isinstance(self.gpus, int) or self.gpus < 0 or self.gpus % self.processes:
            raise ConfigError(f"{name}.gpus must be an integer >= 0 and a multiple of {name}.processes, "
                              f"got {self.gpus!r}")
        if not re.fullmatch(r"\d+(\.\d+)?\s*([KMGT]i?B)?", str(self.memory), re.IGNORECASE):
            raise ConfigError(f"{name}.memory must be an amount such as 64GB or 500MiB, got {self.memory!r}")
        if not re.fullmatch(r"(\d+-)?\d{1,3}:\d{2}(:\d{2})?", str(self.walltime)):
            raise ConfigError(f"{name}.walltime must be HH:MM:SS (or D-HH:MM:SS), got {self.walltime!r}")
        if not isinstance(self.directives, list):
            raise ConfigError(f"{name}.directives must be a list of scheduler lines")

    @property
    def threads(self) -> int:
        return self.cores // self.processes

    def resources(self) -> dict[str, int]:
        """The Dask resources of one worker process of this pool."""
        return {"GPU": self.gpus // self.processes} if self.gpus else {"CPU": self.threads}


@dataclasses.dataclass
class ClusterConfig:
    """`scheduler`: slurm, pbs, sge or kubernetes. `scheduler_address`: the Dask scheduler the workers join (start
    it with `dask scheduler --port 8786` on the login node, or let Kubernetes run it). `account`: the batch
    account / project to charge. `environment`: shell lines run before a worker starts (module load, activate the
    venv with paranmt[dask] and the stage extras installed). `python`: the interpreter that runs the worker.
    `image`: the worker container image for Kubernetes (the repository's Dockerfile). `local_directory`: scratch
    space for a worker (node-local disk). `log_directory`: where batch jobs write their logs."""
    scheduler: str = "slurm"
    scheduler_address: str = "tcp://LOGIN-NODE:8786"
    account: str = ""
    environment: list = dataclasses.field(default_factory=list)
    python: str = "python3"
    image: str = ""
    local_directory: str = ""
    log_directory: str = ""
    cpu: WorkerPool = dataclasses.field(default_factory=WorkerPool)
    gpu: WorkerPool = dataclasses.field(default_factory=lambda: WorkerPool(jobs=0, gpus=1))

    def validate(self) -> "ClusterConfig":
        if self.scheduler not in SCHEDULERS:
            raise ConfigError(f"scheduler must be one of {', '.join(SCHEDULERS)}, got {self.scheduler!r}")
        if not re.fullmatch(r"(tcp|tls)://[^:/]+:\d+", str(self.scheduler_address)):
            raise ConfigError(f"scheduler_address must look like tcp://HOST:8786, got {self.scheduler_address!r}")
        if self.scheduler == "kubernetes" and not self.image:
            raise ConfigError("kubernetes: give the worker image (image: REGISTRY/paranmt:TAG, built from the "
                              "repository's Dockerfile)")
        if not isinstance(self.environment, list):
            raise ConfigError("environment must be a list of shell lines")
        self.cpu.validate("cpu")
        self.gpu.validate("gpu")
        if self.cpu.gpus:
            raise ConfigError("cpu.gpus must be 0: GPUs belong to the gpu pool (translate)")
        if self.gpu.jobs and not self.gpu.gpus:
            raise ConfigError("gpu.gpus must be >= 1 for a gpu pool with jobs")
        if not self.cpu.jobs:
            raise ConfigError("cpu.jobs must be >= 1: read, clean, score, parse and write run on CPU workers")
        return self

    def pools(self) -> dict[str, WorkerPool]:
        """The pools with jobs, by name."""
        return {name: pool for name, pool in (("cpu", self.cpu), ("gpu", self.gpu)) if pool.jobs}


def load_cluster_config(path: str | None = None, overrides: dict | None = None) -> ClusterConfig:
    """Defaults <- YAML file (a path, or a preset name of configs/dask/, e.g. `slurm-czeng`) <- overrides (the
    project's loader: unknown keys are errors), validated."""
    if path and not Path(path).exists():
        preset = PRESETS_DIR / (path if path.endswith(".yaml") else f"{path}.yaml")
        if not preset.exists():
            known = ", ".join(sorted(p.stem for p in PRESETS_DIR.glob("*.yaml")))
            raise ConfigError(f"cluster config {path} does not exist (presets: {known})")
        path = str(preset)
    return load_config(ClusterConfig, path, overrides, what="cluster config").validate()
