"""The tests' warm launcher: `popen`/`run`, drop-ins for subprocess.Popen/subprocess.run that start a Python command
(`[sys.executable, "-c", CODE, *args]`, `[sys.executable, "-m", MODULE, *args]`, `[sys.executable, SCRIPT, *args]`)
as a fork of a warm server (tests/support/warm_server.py) instead of a fresh interpreter, saving the seconds of CPU
each fresh one spends importing torch, Beam, pandas...

One server per pytest process (each xdist worker has its own), started on first use from the environment this
module saw when first imported, ended when that process exits. The child is the server's, not the caller's: the
`WarmPopen` returned knows its pid, signals it with os.kill and learns its wait status from the server. What a
command sees is what a fresh `python` would see (its own argv, environment, working directory, standard streams,
session, signal handlers and interpreter exit); what differs: the third-party modules of PRELOAD are imported already
(they count in the child's resident memory), its parent process is the server, and it ends without the
interpreter's teardown of those modules (warm_server.py: what of an interpreter's end it keeps).

Anything else goes to subprocess unchanged, a fresh interpreter: another executable or interpreter options, the
Popen arguments this launcher does not take (pass_fds, preexec_fn, shell...), an environment that differs from the
server's in a variable read when those modules are imported (IMPORT_TIME), and every command when the environment
variable PARANMT_TEST_FRESH is set to 1 (`PARANMT_TEST_FRESH=1 make test`: every process fresh)."""
from __future__ import annotations

import atexit
import json
import os
import select
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

SERVER = Path(__file__).with_name("warm_server.py")
# Imported once by the server: what the commands the tests start import, never paranmt nor anything that reads the
# environment at import in a way a test may change (dask and distributed read DASK_* and their config files).
PRELOAD = ("numpy", "pandas", "pyarrow", "pyarrow.parquet", "torch", "apache_beam",
           "apache_beam.runners.direct.direct_runner", "apache_beam.runners.portability.fn_api_runner",
           "apache_beam.runners.portability.portable_runner", "apache_beam.runners.worker.sdk_worker_main",
           "apache_beam.io.parquetio", "sentencepiece", "ctranslate2", "sacremoses", "psutil", "yaml", "regex")
# Environment variables (by prefix) that the interpreter or those modules read as they start and import: a request
# whose value differs from the server's runs fresh.
IMPORT_TIME = ("PYTHON", "OMP_", "MKL_", "OPENBLAS_", "GOMP_", "LD_", "MALLOC", "TORCH", "PYTORCH", "CUDA",
               "NUMPY", "NPY_", "ARROW", "JE_", "BEAM", "LANG", "LC_", "TMPDIR", "HOME", "XDG_")
# The Popen keyword arguments a warm start honours, with the values of theirs it cannot honour.
TAKEN = {"stdin": (), "stdout": (), "stderr": (), "text": (), "universal_newlines": (), "encoding": (),
         "errors": (), "cwd": (), "env": (), "start_new_session": (), "bufsize": (), "close_fds": (False,)}
BASE_ENV = dict(os.environ)
# The CPU seconds of the warm children ended so far (a profiler of the tests' subprocesses adds them: they are the
# server's children, not this process's).
CHILD_SECONDS = 0.0


def fresh() -> bool:
    return os.environ.get("PARANMT_TEST_FRESH") == "1"


def import_time(env: dict) -> dict:
    return {k: v for k, v in env.items() if k.startswith(IMPORT_TIME)}


def warm_command(args, kwargs: dict) -> bool:
    """Whether this Popen call can start warm (module docstring)."""
    if fresh() or isinstance(args, (str, bytes)) or len(args) < 2 or os.fspath(args[0]) != sys.executable:
        return False
    first = os.fspath(args[1])
    if first in ("-c", "-m") and len(args) < 3 or first.startswith("-") and first not in ("-c", "-m"):
        return False
    if any(key not in TAKEN or value in TAKEN[key] for key, value in kwargs.items()):
        return False
    env = kwargs.get("env")
    return import_time(dict(os.environ if env is None else env)) == import_time(BASE_ENV)


class Server:
    """The warm server of this process: started on first use, ended (its stdin closed) when this process exits."""
    process: subprocess.Popen | None = None
    folder: str | None = None
    registered = False

    @classmethod
    def address(cls) -> str:
        if cls.process is None or cls.process.poll() is not None:
            cls.folder = tempfile.mkdtemp(prefix="paranmt-warm-", dir=BASE_ENV.get("TMPDIR"))
            log = open(os.path.join(cls.folder, "server.log"), "wb")
            cls.process = subprocess.Popen([sys.executable, str(SERVER), os.path.join(cls.folder, "socket"),
                                            ",".join(PRELOAD)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                           stderr=log, env=BASE_ENV, cwd="/")
            log.close()
            if cls.process.stdout.readline() != b"ready\n":
                raise RuntimeError(f"the warm launcher's server did not start: {cls.log()}")
            if not cls.registered:
                cls.registered = True
                atexit.register(cls.stop)
        return os.path.join(cls.folder, "socket")

    @classmethod
    def log(cls) -> str:
        return Path(cls.folder, "server.log").read_text(errors="replace")[-3000:]

    @classmethod
    def stop(cls) -> None:
        if cls.process is not None:
            cls.process.stdin.close()
            cls.process.wait(timeout=60)
            cls.process.stdout.close()
            for name in ("server.log", "socket"):
                Path(cls.folder, name).unlink(missing_ok=True)
            os.rmdir(cls.folder)
            cls.process = None


class WarmPopen(subprocess.Popen):
    """subprocess.Popen (pipes, text mode, communicate, wait, poll, send_signal, terminate, kill, returncode, as a
    context manager) whose child the warm server forks (module docstring)."""

    def _execute_child(self, args, executable, preexec_fn, close_fds, pass_fds, cwd, env, startupinfo, creationflags,
                       shell, p2cread, p2cwrite, c2pread, c2pwrite, errread, errwrite, restore_signals, gid, gids,
                       uid, umask, start_new_session, process_group):
        args = [os.fspath(arg) for arg in args]
        fds, opened = [], []
        for fd, own in ((p2cread, 0), (c2pwrite, 1), (errwrite, 2)):
            if fd == -1:
                try:
                    os.fstat(own)
                except OSError:
                    own = os.open(os.devnull, os.O_RDWR)
                    opened.append(own)
                fd = own
            fds.append(fd)
        request = {"argv": args[1:], "orig_argv": args, "cwd": os.path.abspath(os.fspath(cwd or os.getcwd())),
                   "env": {os.fsdecode(k): os.fsdecode(v) for k, v in (os.environ if env is None else env).items()},
                   "start_new_session": bool(start_new_session)}
        self._connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            self._connection.connect(Server.address())
            socket.send_fds(self._connection, [json.dumps(request).encode() + b"\n"], fds)
            self._answers = self._connection.makefile("rb")
            answer = self._answers.readline()
        finally:
            for fd in opened:
                os.close(fd)
            devnull = getattr(self, "_devnull", None)      # the child's ends, closed as subprocess closes them
            for child_end, our_end in ((p2cread, p2cwrite), (c2pwrite, c2pread), (errwrite, errread)):
                if child_end != -1 and our_end != -1 and child_end != devnull:
                    os.close(child_end)
            if devnull is not None:
                os.close(devnull)
        if not answer:
            raise RuntimeError(f"the warm launcher's server did not start {args}: {Server.log()}")
        self.pid = json.loads(answer)["pid"]
        self._child_created = True

    def _status(self, timeout: float | None) -> bool:
        """Read the child's wait status if it comes within `timeout` seconds (None: wait for it)."""
        if self.returncode is None:
            if timeout is not None and not select.select([self._connection], [], [], max(timeout, 0))[0]:
                return False
            line = self._answers.readline()
            if not line:
                raise RuntimeError(f"the warm launcher's server ended before child {self.pid}: {Server.log()}")
            answer = json.loads(line)
            self.returncode = os.waitstatus_to_exitcode(answer["status"])
            global CHILD_SECONDS
            CHILD_SECONDS += answer["cpu"]
            self._answers.close()
            self._connection.close()
        return True

    def _internal_poll(self, _deadstate=None, _waitpid=None, _WNOHANG=None, _ECHILD=None):
        if self.returncode is None and self._connection.fileno() == -1:
            # collected with its connection while the child ran (a test that failed: its traceback's cycle), then
            # kept by Popen.__del__ for subprocess's next Popen to poll: its status cannot come (subprocess's own
            # ECHILD case)
            self.returncode = _deadstate
            return self.returncode
        self._status(0)
        return self.returncode

    def _wait(self, timeout):
        if timeout is None:
            self._status(None)
        elif not self._status(timeout):
            raise subprocess.TimeoutExpired(self.args, timeout)
        return self.returncode


def popen(args, **kwargs) -> subprocess.Popen:
    """subprocess.Popen(args, **kwargs), warm when it can be (module docstring)."""
    return (WarmPopen if warm_command(args, kwargs) else subprocess.Popen)(args, **kwargs)


def run(args, *, input=None, capture_output: bool = False, timeout: float | None = None, check: bool = False,
        **kwargs) -> subprocess.CompletedProcess:
    """subprocess.run(args, ...), warm when it can be (module docstring)."""
    if input is not None:
        kwargs["stdin"] = subprocess.PIPE
    if capture_output:
        kwargs["stdout"] = kwargs["stderr"] = subprocess.PIPE
    with popen(args, **kwargs) as process:
        try:
            stdout, stderr = process.communicate(input, timeout=timeout)
        except subprocess.TimeoutExpired as expired:
            process.kill()
            expired.output, expired.stderr = process.communicate()
            raise
        except BaseException:
            process.kill()
            raise
    if check and process.returncode:
        raise subprocess.CalledProcessError(process.returncode, process.args, stdout, stderr)
    return subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr)
