"""`paranmt build` with a test-only fault, run as a script by tests/pipelines/test_watchdog.py:

    python faulty_build.py FAULT BUILD-ARGS...

FAULT is `abort-at=ID` (a stage after the configured ones calls os.abort() on the row with that id: a native
crash), `sleep-at=ID` (it sleeps for an hour on that row: a stall) or `disk-full-after=N` (the N-th file the
launcher process creates raises ENOSPC; with the in_memory runner that is where shards are written). The fault
stage passes every other row through unchanged, so shards are those of a build without it. Defined here, in the
script's __main__, the stage is pickled by value into the DirectRunner's worker processes.
"""
import errno
import os
import sys
import time

from paranmt.pipelines.cli import configure_logging, main

configure_logging(verbose=False)     # before Beam is imported, as the CLI does (Beam warns at import time)

from apache_beam.io.filesystems import FileSystems  # noqa: E402

from paranmt.models.stage import PairStage  # noqa: E402
from paranmt.pipelines import build  # noqa: E402
from paranmt.transforms.stage import RunStage  # noqa: E402


class FaultOnMarkedRow(PairStage):
    name = "fault"

    def __init__(self, action: str, row_id: str):
        self.action, self.row_id = action, row_id

    def process_batch(self, rows):
        if any(row["id"] == self.row_id for row in rows):
            if self.action == "abort-at":
                os.abort()
            time.sleep(3600)
        return rows


def full_disk_after(count: int):
    real, created = FileSystems.create, []

    def create(path, *args, **kwargs):
        created.append(path)
        if len(created) == count:
            raise OSError(errno.ENOSPC, "No space left on device", path)
        return real(path, *args, **kwargs)
    return staticmethod(create)


if __name__ == "__main__":
    fault, _, value = sys.argv[1].partition("=")
    if fault == "disk-full-after":
        FileSystems.create = full_disk_after(int(value))
    else:
        stages = build.processing_stages
        build.processing_stages = lambda config, remote=False: [*stages(config, remote),
                                                                RunStage(FaultOnMarkedRow(fault, value), 10)]
    sys.exit(main(sys.argv[2:]))
