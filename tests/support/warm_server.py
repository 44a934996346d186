"""The warm launcher's server (tests/support/warm.py): a fresh interpreter that imports the heavy third-party modules
named on its command line once, then forks a child per request that runs a Python command as `python` would.

Usage: warm_server.py SOCKET MODULE,MODULE,...  It listens on the Unix socket SOCKET and ends when its stdin (a pipe
from the pytest worker that started it) reaches end of file. A request is one JSON message, with the command's
stdin, stdout and stderr file descriptors attached (SCM_RIGHTS): {"argv": [-c CODE | -m MODULE | SCRIPT, *args],
"orig_argv", "cwd", "env", "start_new_session"}. The server answers {"pid": PID} once forked and {"status": WAIT
STATUS, "cpu": CPU SECONDS} once it has reaped the child (its CPU: user + system, with that of the processes it
waited for), then closes the connection.

The child leaves the server loop and runs the command at the top level of this script, so that the interpreter ends
it as it ends a command: SystemExit's code (its message printed), an uncaught exception's traceback and exit code 1,
an uncaught KeyboardInterrupt ending it by SIGINT; non-daemon threads joined, then the atexit handlers, last
registered first (those of the preloaded modules were registered in the server, before any of the command's). The
last one, `end` (registered before the preloaded modules are imported), then does what is left of an interpreter's
end that a command could see, flushing sys.stdout and sys.stderr, and exits with the command's status by os._exit,
skipping the interpreter's teardown of the preloaded modules (clearing their dicts, collecting torch's, pandas' and
Beam's objects: ~0.4 CPU-s a child, benchmarks/RESULTS.md "Suite time (issue 45 item 4)"). What that teardown would
show, it leaves to the interpreter (`end` returns, the teardown runs): a standard stream that cannot be flushed (the
interpreter reports it, exit status 120), a file the command left open for writing (closing it flushes its buffer and
completes what wraps it: a gzip trailer, a zip directory, a NamedTemporaryFile's removal), and ResourceWarnings when
the command's warning filters show them. Other finalizers (__del__) of objects alive at the end do not run, as Python
allows ("It is not guaranteed that __del__() methods are called for objects that still exist when the interpreter
exits"). The server imports nothing of paranmt (nor anything that reads the environment at import in a way a request
could change: the client sends such requests to a fresh interpreter) and runs no thread: forking a process with other
threads is unsafe."""
import atexit
import gc
import io
import json
import os
import select
import signal
import socket
import sys
import warnings

# How the command ended (set in the child as it ends, module docstring): its exit status, or INTERRUPTED.
ENDING: int | str | None = None
INTERRUPTED = "KeyboardInterrupt"
FILES = (io.FileIO, io.BufferedWriter, io.BufferedRandom, io.TextIOWrapper)


def writing(stream) -> bool:
    """Whether `stream` is open for writing."""
    try:
        return not stream.closed and stream.writable()
    except ValueError:          # detached
        return False


def leaves_to_interpreter(flushed: list) -> bool:
    """Whether the interpreter's teardown would show something (module docstring): a file left open for writing
    (besides the standard streams `flushed`), or ResourceWarnings shown by the warning filters."""
    for action, message, category, module, _ in warnings.filters:
        if issubclass(ResourceWarning, category):
            if action != "ignore":
                return True
            if message is None and module is None:
                break
    else:
        if warnings.defaultaction != "ignore":
            return True
    skip = {id(part) for stream in flushed for part in (stream, getattr(stream, "buffer", None),
                                                        getattr(getattr(stream, "buffer", None), "raw", None))}
    # (the server's objects are frozen, gc.get_objects leaves them out: only the child's own)
    return any(type(thing) in FILES and id(thing) not in skip and writing(thing) for thing in gc.get_objects())


def end() -> None:
    """The last atexit handler of a command (module docstring): flush sys.stdout and sys.stderr, then exit with the
    command's status, unless the interpreter's own end would show something more. In the server (or while a command
    runs the exit handlers itself), nothing."""
    if ENDING is None:
        return
    flushed = []
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name, None)
        try:
            if stream is None or stream.closed:
                continue
        except Exception:       # noqa: BLE001 - as the interpreter: a stream without `closed` is flushed
            pass
        try:
            stream.flush()
        except Exception:       # noqa: BLE001 - the interpreter flushes it again and reports it
            return
        flushed.append(stream)
    if leaves_to_interpreter(flushed):
        return
    if ENDING == INTERRUPTED:
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGINT)
    os._exit(ENDING if isinstance(ENDING, int) else 128 + signal.SIGINT)


def exit_status(code) -> int:
    """The exit status of SystemExit(code), as the interpreter makes it (it prints a code that is not an int)."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF if -2 ** 63 <= code < 2 ** 63 else 255     # (C's long, then exit's 8 bits)
    return 1


atexit.register(end)        # before any module that registers one is imported: it runs last

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
# A preloaded module that logs as it is imported (Beam: "apitools not found") gives the root logger the handler of
# logging.basicConfig, which would make a command's own basicConfig do nothing (paranmt's CLI sets its format and
# level with it first thing): the root logger is left without handlers, as an interpreter starts.
ROOT = __import__("logging").root      # (imported here: its atexit handler, logging.shutdown, runs before `end`)
for handler in ROOT.handlers[:]:
    ROOT.removeHandler(handler)
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
try:
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
except SystemExit as stop:       # the interpreter handles each as it would (message, traceback); `end` exits
    ENDING = exit_status(stop.code)
    raise
except KeyboardInterrupt:
    ENDING = INTERRUPTED
    raise
except BaseException:
    ENDING = 1
    raise
ENDING = 0
