"""The warm launcher's server (tests/support/warm.py): a fresh interpreter that imports the heavy third-party modules
named on its command line once, then forks a child per request that runs a Python command as `python` would.

Usage: warm_server.py SOCKET MODULE,MODULE,...  It listens on the Unix socket SOCKET and ends when its stdin (a pipe
from the pytest worker that started it) reaches end of file. A request is one JSON message, with the command's
stdin, stdout and stderr file descriptors attached (SCM_RIGHTS): {"argv": [-c CODE | -m MODULE | SCRIPT, *args],
"orig_argv", "cwd", "env", "start_new_session"}. The server answers {"pid": PID} once forked and {"status": WAIT
STATUS, "cpu": CPU SECONDS} once it has reaped the child (its CPU: user + system, with that of the processes it
waited for), then closes the connection.

The child leaves the server loop and runs the command at the top level of this script, so that its end is an
interpreter's own: atexit handlers, non-daemon threads joined, streams flushed, SystemExit's code, an uncaught
exception's traceback and exit code 1, an uncaught KeyboardInterrupt ending it by SIGINT. The server imports nothing
of paranmt (nor anything that reads the environment at import in a way a request could change: the client sends
such requests to a fresh interpreter) and runs no thread: forking a process with other threads is unsafe."""
import gc
import io
import json
import os
import select
import signal
import socket
import sys

SOCKET, PRELOAD = sys.argv[1], [name for name in sys.argv[2].split(",") if name]
# pyarrow's jemalloc (not its default memory pool) starts a background thread when loaded unless told not to, and
# numpy's OpenBLAS starts one per core beyond the first unless told to use one (its thread count is fixed when it is
# loaded: without OPENBLAS_NUM_THREADS or OMP_NUM_THREADS, e.g. one test file run without xdist, the children run
# numpy's BLAS on one thread; results are the same). The environment is restored before any request.
IMPORT_ONLY = {"JE_ARROW_MALLOC_CONF": "background_thread:false"}
if "OPENBLAS_NUM_THREADS" not in os.environ and "OMP_NUM_THREADS" not in os.environ:
    IMPORT_ONLY["OPENBLAS_NUM_THREADS"] = "1"
os.environ.update(IMPORT_ONLY)
for name in PRELOAD:
    __import__(name)
for name in IMPORT_ONLY:
    del os.environ[name]
HANDLERS = {number: signal.getsignal(number) for number in signal.valid_signals()
            if number not in (signal.SIGKILL, signal.SIGSTOP) and signal.getsignal(number) is not None}


def threads() -> int:
    return len(os.listdir("/proc/self/task"))


def serve() -> dict:
    """Answer requests until stdin closes (then exit); in a forked child, return its request."""
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(SOCKET)
    listener.listen(64)
    sys.stdout.write("ready\n")
    sys.stdout.flush()
    waiting: dict[int, tuple[int, socket.socket, int]] = {}        # pidfd -> (pid, connection, pidfd)
    while True:
        readable, _, _ = select.select([sys.stdin.fileno(), listener, *waiting], [], [])
        if sys.stdin.fileno() in readable and not os.read(sys.stdin.fileno(), 1):
            listener.close()
            os.unlink(SOCKET)
            sys.exit(0)
        for pidfd in [fd for fd in readable if fd in waiting]:
            pid, connection, _ = waiting.pop(pidfd)
            _, status, usage = os.wait4(pid, 0)
            os.close(pidfd)
            try:
                connection.sendall(json.dumps({"status": status, "cpu": usage.ru_utime + usage.ru_stime}).encode()
                                   + b"\n")
            except OSError:
                pass            # the requester is gone
            connection.close()
        if listener in readable:
            connection, _ = listener.accept()
            message, fds, _, _ = socket.recv_fds(connection, 1 << 20, 3)
            while not message.endswith(b"\n"):
                message += connection.recv(1 << 20)
            request = json.loads(message)
            assert threads() == 1, f"the warm server runs {threads()} threads: it must not fork"
            sys.stdout.flush()
            sys.stderr.flush()
            gc.freeze()         # the child's collections skip the server's objects (copying their pages)
            pid = os.fork()
            if pid == 0:
                for fd, (_, other, _) in waiting.items():
                    other.close()
                    os.close(fd)
                listener.close()
                connection.close()
                for target, fd in enumerate(fds):
                    os.dup2(fd, target)
                return request
            for fd in fds:
                os.close(fd)
            connection.sendall(json.dumps({"pid": pid}).encode() + b"\n")
            pidfd = os.pidfd_open(pid)
            waiting[pidfd] = (pid, connection, pidfd)


def excepthook(kind, value, traceback, hook=sys.excepthook):
    if traceback is not None and traceback.tb_frame.f_code.co_filename == __file__:
        traceback = traceback.tb_next
        value.__traceback__ = traceback         # (what the default hook prints)
    hook(kind, value, traceback)


def become(request: dict) -> None:
    """Make this forked child what `python ARGV` would be at its start: session, signal handlers, fresh standard
    streams, environment, working directory, argv, a fresh __main__; close every other descriptor. An uncaught
    exception's traceback leaves out this script's frame (the one that runs the command)."""
    if request["start_new_session"]:
        os.setsid()
    for number, handler in HANDLERS.items():
        signal.signal(number, handler)
    os.closerange(3, min(os.sysconf("SC_OPEN_MAX"), 1 << 16))
    buffered = not sys.__stdout__.write_through  # (-u, PYTHONUNBUFFERED) the streams as create_stdio makes them
    for name, fd in (("stdin", 0), ("stdout", 1), ("stderr", 2)):
        old = getattr(sys, name)
        stream = io.TextIOWrapper(open(fd, "wb" if fd else "rb", buffering=-1 if buffered or not fd else 0,
                                       closefd=False),
                                  encoding=old.encoding, errors=old.errors, newline="\n",
                                  line_buffering=buffered and (os.isatty(fd) or fd == 2), write_through=not buffered)
        getattr(stream.buffer, "raw", stream.buffer).name, stream.mode = f"<{name}>", "w" if fd else "r"
        setattr(sys, name, stream)
        setattr(sys, f"__{name}__", stream)
    os.environ.clear()
    os.environ.update(request["env"])
    os.chdir(request["cwd"])
    __import__("tempfile").tempdir = None           # a fresh interpreter reads TMPDIR from its environment
    if "numpy" in sys.modules:
        sys.modules["numpy"].random.seed()          # numpy's global generator: seeded anew in each fresh process
    sys.orig_argv = request["orig_argv"]
    sys.excepthook = excepthook
    main = type(sys)("__main__")
    main.__dict__["__builtins__"] = __builtins__
    sys.modules["__main__"] = main


request = serve()
del serve
become(request)
argv = request["argv"]
if argv[0] == "-c":
    sys.argv, sys.path[0] = ["-c", *argv[2:]], ""
    exec(compile(argv[1], "<string>", "exec"), sys.modules["__main__"].__dict__)
elif argv[0] == "-m":
    sys.argv, sys.path[0] = ["-m", *argv[2:]], os.getcwd()
    __import__("runpy")._run_module_as_main(argv[1], alter_argv=True)
else:
    script = os.path.abspath(argv[0])
    sys.argv, sys.path[0] = argv, os.path.dirname(os.path.realpath(script))
    sys.modules["__main__"].__dict__.update(__file__=script, __cached__=None)
    with open(script, "rb") as source:
        code = compile(source.read(), argv[0], "exec")
    exec(code, sys.modules["__main__"].__dict__)
