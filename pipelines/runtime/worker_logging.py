"""`WorkerLogging`, the plugin that the Dask runner (dask_runner.py) registers on every worker of a run. A module of
its own, away from Beam: a worker unpickles the plugin before it imports Beam."""
from __future__ import annotations

from distributed import WorkerPlugin

from paranmt.pipelines.runtime.logs import configure_logging


class WorkerLogging(WorkerPlugin):
    """A Dask worker plugin: the launcher's logging set-up (`logs.configure_logging`) on every worker of a run, so
    that workers log like the launcher (and drop Beam's import-time GCP-client warning)."""

    name = "paranmt-logging"

    def __init__(self, verbose: bool):
        self.verbose = verbose

    def setup(self, worker):
        configure_logging(self.verbose)
