"""The Dask cluster config of `paranmt cluster-config` (configs/dask/*.yaml): where workers run, what each kind of
worker job asks the batch scheduler for, and the environment they start in.

Two pools of workers on one Dask scheduler: `cpu` workers (read, clean, xsim, score, parse, write) advertise the
Dask resource `CPU=<threads>`, `gpu` workers (translate) advertise `GPU=<gpus per worker process>`; a build that
joins the cluster with `translate.accelerator` set places each step by those resources
(paranmt/pipelines/runtime/dask_runner.py). A pool with `jobs: 0` is not written.
"""
from __future__ import annotations

import dataclasses
import re

from paranmt.schemas.config import Config, bounded, check_ranges, choice, setting
from paranmt.schemas.errors import ConfigError
from paranmt.schemas.paths import PROJECT_ROOT

SCHEDULERS = ("slurm", "pbs", "sge", "kubernetes")
PRESETS_DIR = PROJECT_ROOT / "configs" / "dask"
HOST = r"[A-Za-z0-9][A-Za-z0-9._-]*"        # a host name or IPv4 address: nothing a shell would expand
DIRECTIVES = {"slurm": "#SBATCH", "pbs": "#PBS", "sge": "#$"}
# one argument of a batch directive line: sbatch, qsub (PBS) and SGE's qsub split those lines at spaces and read
# quotes, '#' and backslashes each their own way, so a value is written as it is and may hold none of them
DIRECTIVE_ARGUMENT = r"[^\s\"'#\\]+"


def check_directive_argument(key: str, value: str, scheduler: str) -> None:
    """ConfigError unless `value` (of config key `key`), written into a `#SBATCH`/`#PBS`/`#$` line of `scheduler`'s
    job scripts, is read back by the batch system as the one argument it is."""
    if value and scheduler in DIRECTIVES and not re.fullmatch(DIRECTIVE_ARGUMENT, value):
        raise ConfigError(f"{key} goes into the job scripts' {DIRECTIVES[scheduler]} lines, which {scheduler} splits at "
                          f"spaces: give it without spaces, quotes, '#' or backslashes, got {value!r}")


@dataclasses.dataclass
class TLSFiles:
    """Dask's TLS settings (`distributed.Security`; the `--tls-ca-file/--tls-cert/--tls-key` flags of the scheduler
    and workers, `distributed.comm.tls.*` of a client): paths, as the scheduler host and the worker nodes see
    them, of the CA certificate that signed the cluster's certificates, and of the one certificate and private
    key the scheduler, every worker and the client present (`key` may be left empty when `cert` holds it). With
    them every connection is encrypted and both ends must show a certificate of that CA: nobody without the key
    can join the cluster or send it work. All empty: no TLS."""
    ca_file: str = ""
    cert: str = ""
    key: str = ""

    @property
    def enabled(self) -> bool:
        return bool(self.ca_file or self.cert or self.key)

    def role(self, role: str) -> dict[str, str]:
        """{ca_file, cert, key} of `role` (scheduler, worker, client) from a distributed.Security of these files;
        empty values left out."""
        from distributed.security import Security

        security = Security(tls_ca_file=self.ca_file, **{f"tls_{r}_{part}": getattr(self, part) or None
                                                         for r in ("scheduler", "worker", "client")
                                                         for part in ("cert", "key")})
        return {k: v for k, v in security.get_tls_config_for_role(role).items() if k != "ciphers" and v}


@dataclasses.dataclass
class WorkerPool:
    """One kind of worker job (a batch job, or a Kubernetes pod): `jobs` of them, each with `cores` cores shared by
    `processes` Dask worker processes (threads = cores / processes), `memory` for the job (Dask units, e.g. 64GB),
    `gpus` GPUs (0: a CPU pool), `walltime` HH:MM:SS, `queue` (partition / queue; '' = the site's default) and
    `directives`: extra scheduler lines (Slurm `--constraint=...`, PBS `-l ngpus=1`, SGE `-l gpu=1`)."""
    jobs: int = bounded(1, 0)
    cores: int = bounded(8, 1)
    processes: int = bounded(1, 1)
    memory: str = "32GB"
    gpus: int = bounded(0, 0)
    walltime: str = "12:00:00"
    queue: str = ""
    directives: list = dataclasses.field(default_factory=list)

    def validate(self, name: str) -> None:
        if self.cores % self.processes:
            raise ConfigError(f"{name}.cores ({self.cores}) must be a multiple of {name}.processes "
                              f"({self.processes}): each worker process gets cores / processes threads")
        if self.gpus % self.processes:
            raise ConfigError(f"{name}.gpus ({self.gpus}) must be a multiple of {name}.processes ({self.processes}): "
                              f"each worker process gets gpus / processes GPUs")
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
class ClusterConfig(Config):
    """`scheduler`: slurm, pbs, sge or kubernetes. `scheduler_address`: the Dask scheduler the workers join
    (tcp://HOST:PORT, or tls://HOST:PORT with `tls`; start-scheduler.sh runs it on HOST, or Kubernetes runs it).
    `scheduler_listen`: the address the scheduler listens on, '' = HOST, the interface of the scheduler's host that
    the workers reach (never every interface unless set to 0.0.0.0); its dashboard listens on 127.0.0.1 only.
    `tls`: Dask's TLS settings (TLSFiles). `account`: the batch
    account / project to charge. `environment`: shell lines run before a worker starts (module load, activate the
    venv with paranmt[dask] and the stage extras installed). `python`: the interpreter that runs the worker.
    `image`: the worker container image for Kubernetes (the repository's Dockerfile). `local_directory`: scratch
    space for a worker (node-local disk). `log_directory`: where batch jobs write their logs. `account`,
    `log_directory` and a pool's `queue` are written into the `#SBATCH`/`#PBS`/`#$` lines, which the batch system
    splits at spaces: they may hold no spaces, quotes, '#' or backslashes (`check_directive_argument`)."""
    scheduler: str = choice("slurm", SCHEDULERS, flag={"show_default": False}, help="the batch system (without "
                            "--config: its preset configs/dask/SCHEDULER.yaml)")
    scheduler_address: str = setting("tcp://LOGIN-NODE:8786", help="the Dask scheduler the workers join "
                                     "(tcp://HOST:PORT, or tls://HOST:PORT with tls)")
    scheduler_listen: str = setting("", help="the address the scheduler listens on ('' = HOST of the scheduler "
                                    "address)")
    tls: TLSFiles = dataclasses.field(default_factory=TLSFiles)
    account: str = setting("", help="the batch account / project to charge")
    environment: list = setting(default_factory=list, flag={"type": str}, help="shell lines run before a worker "
                                "starts (module load, activate the venv)")
    python: str = setting("python3", help="the interpreter that runs the worker")
    image: str = setting("", help="the worker container image for Kubernetes")
    local_directory: str = setting("", help="scratch space for a worker (node-local disk)")
    log_directory: str = setting("", help="where batch jobs write their logs")
    cpu: WorkerPool = dataclasses.field(default_factory=WorkerPool)
    gpu: WorkerPool = dataclasses.field(default_factory=lambda: WorkerPool(jobs=0, gpus=1))

    def validate(self) -> "ClusterConfig":
        check_ranges(self)
        for key, value in values(dataclasses.asdict(self)):
            if isinstance(value, str) and re.search(r"[\x00-\x1f\x7f]", value):
                raise ConfigError(f"{key} must be one line without control characters, got {value!r}")
        if not re.fullmatch(rf"(tcp|tls)://{HOST}:\d+", str(self.scheduler_address)):
            raise ConfigError(f"scheduler_address must look like tcp://HOST:8786 (or tls://HOST:8786), got "
                              f"{self.scheduler_address!r}")
        if self.scheduler_listen and not re.fullmatch(HOST, str(self.scheduler_listen)):
            raise ConfigError(f"scheduler_listen must be a host name or IP address of the scheduler's host, got "
                              f"{self.scheduler_listen!r}")
        if self.tls.enabled and not (self.tls.ca_file and self.tls.cert):
            raise ConfigError("tls needs tls.ca_file and tls.cert (and tls.key unless the certificate file holds it)")
        if self.tls.enabled != self.scheduler_address.startswith("tls://"):
            raise ConfigError(f"TLS needs both a tls:// scheduler_address and the tls files; got "
                              f"{self.scheduler_address} {'with' if self.tls.enabled else 'without'} tls files")
        if self.scheduler == "kubernetes" and self.tls.enabled:
            raise ConfigError("tls: written into the Slurm/PBS/SGE scripts only; on Kubernetes the scheduler is a "
                              "cluster-internal Service (docs/cluster.md, \"Securing a shared cluster\")")
        if self.scheduler == "kubernetes" and not self.image:
            raise ConfigError("kubernetes: give the worker image (image: REGISTRY/paranmt:TAG, built from the "
                              "repository's Dockerfile)")
        if not isinstance(self.environment, list):
            raise ConfigError("environment must be a list of shell lines")
        self.cpu.validate("cpu")
        self.gpu.validate("gpu")
        for key, value in (("account", self.account), ("log_directory", self.log_directory),
                           ("cpu.queue", self.cpu.queue), ("gpu.queue", self.gpu.queue)):
            check_directive_argument(key, value, self.scheduler)
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


def values(mapping: dict, prefix: str = ""):
    """(dotted key, value) of every leaf of a nested config dict, list items included."""
    for key, value in mapping.items():
        if isinstance(value, dict):
            yield from values(value, f"{prefix}{key}.")
        else:
            yield from ((f"{prefix}{key}", item) for item in (value if isinstance(value, list) else [value]))
