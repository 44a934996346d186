"""One model per machine for the processes of a run (`translate.share_across_processes`), through Beam's
`apache_beam.utils.multi_process_shared.MultiProcessShared`, without the open door Beam leaves: `shared_model`.

Why: Beam's shared model server is a `multiprocessing` manager (requests and replies are pickles) that listens on
localhost with Beam's fixed, public authentication key `b'mps'` (`multi_process_shared.AUTH_KEY`), and keeps its
address and lock files in the shared temporary directory under names anyone can predict (`<tag>.address` there).
Any user of the machine could connect to it (an unpickled request runs code as the user of the run) or write the
address file first and point the run's workers at a server of their own.

Here:
- the files live in a private folder of the run: `shared-models/` in the folder the launcher of a local run names
  to its workers (`PARANMT_HEARTBEAT_DIR`, pipelines/runtime/watchdog.py: a fresh `tempfile.mkdtemp` per run, mode
  0700, removed when the run ends); where no launcher named one (workers on other machines: Dataflow, a joined Dask
  cluster; a stage run on its own) the user's folder of the machine, `<temp dir>/paranmt-shared-<uid>`, made mode
  0700. A folder that is not a directory of this user closed to everyone else (a symbolic link, another user's, mode
  0755) is never used: PermissionError naming it.
- the key is 32 random bytes (`os.urandom`), written by the first process that needs it to `key` (mode 0600) in that
  folder, where only the user's processes can read it. Every process reads it from there and hands it to Beam
  (`multi_process_shared.AUTH_KEY`, which Beam reads at each start of or connection to a server), so a client
  without it (`b'mps'` included) is refused at the handshake, before any pickle is read, and a server without it
  is refused by our workers.
The server still listens on localhost (Beam has no other address for it): another user can reach the port, not talk
to it. tests/transforms/test_shared_model.py runs the shared translate stage on CPU and checks each of these.
"""
from __future__ import annotations

import hashlib
import os
import stat
import tempfile
from typing import Callable, TypeVar

from apache_beam.utils import multi_process_shared

from paranmt.transforms.heartbeat import DIR_VARIABLE

T = TypeVar("T")
FOLDER = "shared-models"            # in the run's folder (DIR_VARIABLE)
MACHINE_FOLDER = "paranmt-shared-{uid}"     # in the temporary directory, where no launcher named a run's folder
KEY_FILE = "key"
KEY_BYTES = 32


def private(path: str) -> str:
    """`path`, a directory (not a symbolic link) of this user that nobody else may enter; PermissionError naming
    it otherwise."""
    info = os.lstat(path)
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.geteuid() or info.st_mode & 0o077:
        raise PermissionError(f"translate.share_across_processes: {path} is not a private folder of this user "
                              f"(owner uid {info.st_uid}, mode {stat.filemode(info.st_mode)}); remove it, or set "
                              f"translate.share_across_processes: false")
    return path


def shared_folder() -> str:
    """The private folder of the shared models' files for this process (module docstring), made if missing."""
    run = os.environ.get(DIR_VARIABLE)
    if run and os.path.isdir(run):
        folder = os.path.join(private(run), FOLDER)
    else:
        folder = os.path.join(tempfile.gettempdir(), MACHINE_FOLDER.format(uid=os.geteuid()))
    try:
        os.mkdir(folder, 0o700)
    except FileExistsError:
        pass
    return private(folder)


def shared_key(folder: str) -> bytes:
    """The key of `folder`'s servers: read from its `key` file, which the first process to ask writes whole (a
    mode-0600 temporary file linked into place, so no process ever reads half a key)."""
    path = os.path.join(folder, KEY_FILE)
    if not os.path.exists(path):
        descriptor, temporary = tempfile.mkstemp(dir=folder, prefix=f".{KEY_FILE}-")      # mode 0600
        try:
            with os.fdopen(descriptor, "wb") as handle:
                handle.write(os.urandom(KEY_BYTES))
            os.link(temporary, path)
        except FileExistsError:         # another process was first: its key counts
            pass
        finally:
            os.unlink(temporary)
    with open(path, "rb") as handle:
        return handle.read()


def shared_model(constructor: Callable[[], T], identity: tuple) -> T:
    """The one instance of the model that `identity` names (a tuple of what it is made from) in this machine's
    processes of the run: made by `constructor` in the first process that asks, served from there to the others
    (every call goes through the server, this process's too) over a connection authenticated with the folder's
    key (module docstring)."""
    folder = shared_folder()
    multi_process_shared.AUTH_KEY = shared_key(folder)
    tag = f"{identity[0]}-{hashlib.sha256(repr((folder, identity)).encode()).hexdigest()[:32]}"
    return multi_process_shared.MultiProcessShared(constructor, tag=tag, path=folder, always_proxy=True).acquire()
