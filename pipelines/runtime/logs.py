"""Logging: the launcher's set-up (`paranmt` calls it first thing) and every Dask worker's (`worker_logging.py`)."""
from __future__ import annotations

import logging


def configure_logging(verbose: bool) -> None:
    """INFO for paranmt, WARNING for the libraries (DEBUG for everything with -v). Done before any library import:
    Beam logs an irrelevant GCP-client warning at import time, which is dropped here."""
    logging.basicConfig(level=logging.DEBUG if verbose else logging.INFO,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger().handlers[0].addFilter(lambda record: "apitools not found" not in record.getMessage())
    if not verbose:
        # "root" too: Beam and others log straight to the root logger; paranmt's own loggers stay at INFO
        for noisy in ("apache_beam", "fairseq", "stanza", "root", "matplotlib", "distributed", "dask"):
            logging.getLogger(noisy).setLevel(logging.WARNING)
        logging.getLogger("paranmt").setLevel(logging.INFO)
        # the local job service relays every worker's start-up warnings; real errors still come through
        logging.getLogger("apache_beam.runners.portability.local_job_service").setLevel(logging.ERROR)
