"""`paranmt build` with a test-only fault, run as a script by tests/pipelines/test_watchdog.py:

    python faulty_build.py FAULT BUILD-ARGS...

FAULT is `abort-at=ID` (a stage after the configured ones calls os.abort() on the row with that id: a native
crash), `sleep-at=ID` (it sleeps for an hour on that row: a stall), `grow-at=ID` (from that row on, the process
holds 400 MB more: a worker outgrowing its memory) or `disk-full-at=ID` (from that row on, every file the process
creates raises ENOSPC: the disk is full where that shard is written). The fault stage passes every other row
through unchanged, so shards are those of a build without it. Defined here, in the script's __main__, the stage is
pickled by value into the runner's worker processes (the DirectRunner's or Dask's).
"""
import errno
import os
import sys
import time

from paranmt.pipelines.cli import main
from paranmt.pipelines.runtime.logs import configure_logging

configure_logging(verbose=False)     # before Beam is imported, as the CLI does (Beam warns at import time)

from apache_beam.io.filesystems import FileSystems  # noqa: E402

from paranmt.models.stage import PairStage  # noqa: E402
from paranmt.pipelines.runtime.building import plan  # noqa: E402
from paranmt.transforms.stage import RunStage  # noqa: E402


class FaultOnMarkedRow(PairStage):
    name = "fault"

    def __init__(self, action: str, row_id: str):
        self.action, self.row_id = action, row_id

    def process_batch(self, rows):
        if any(row["id"] == self.row_id for row in rows):
            if self.action == "abort-at":
                os.abort()
            elif self.action == "grow-at":
                HELD.append(bytearray(os.urandom(1 << 20)) * 400)
            elif self.action == "disk-full-at":
                FileSystems.create = staticmethod(full_disk)
            else:
                [time.sleep(0.1) for _ in range(36000)]
        return rows


HELD = []


def full_disk(path, *args, **kwargs):
    raise OSError(errno.ENOSPC, "No space left on device", path)


if __name__ == "__main__":
    fault, _, value = sys.argv[1].partition("=")
    stages = plan.processing_stages
    plan.processing_stages = lambda config, remote=False: [*stages(config, remote),
                                                           RunStage(FaultOnMarkedRow(fault, value), 10)]
    sys.exit(main(sys.argv[2:]))
