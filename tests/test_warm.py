"""The tests' warm launcher (tests/support/warm.py): a Python command it forks from its server behaves as the same
command in a fresh interpreter: the same output, exit code, traceback, exit-time work, signals' effect, streams,
argv and sys.path; it honours env, cwd, stdin and start_new_session; it times out as subprocess does; and commands it
cannot run as a fresh interpreter would go to subprocess."""
import os
import signal
import subprocess
import sys
import time

import pytest

import warm


@pytest.fixture(autouse=True)
def server_environment(monkeypatch):
    """The variables a warm start compares (warm.IMPORT_TIME) as the server has them: a test run earlier in this
    worker may have left one changed in os.environ (a library's own setting), which sends every command fresh."""
    for key in set(warm.import_time(dict(os.environ))) | set(warm.import_time(warm.BASE_ENV)):
        if key in warm.BASE_ENV:
            monkeypatch.setenv(key, warm.BASE_ENV[key])
        else:
            monkeypatch.delenv(key, raising=False)


SNIPPETS = {
    "exit-code": "import sys; print('out'); sys.exit(3)",
    "exit-message": "import sys; sys.exit('bye')",
    "exit-none": "raise SystemExit",
    "exception": "def f():\n    raise ValueError('broken')\nprint('before', flush=True)\nf()",
    "syntax-error": "print('never'",
    "at-exit": ("import atexit, sys, threading, time\natexit.register(print, 'atexit')\n"
                "threading.Thread(target=lambda: (time.sleep(0.2), print('thread'))).start()\n"
                "sys.stdout.write('unflushed ')"),
    "at-exit-after-exception": "import atexit\natexit.register(print, 'atexit')\nraise KeyError('k')",
    "interpreter": ("import sys, os\nprint(sys.argv, repr(sys.path[0]), __name__, sys.orig_argv[1:], "
                    "'__file__' in globals(), sys.flags, sys.warnoptions, os.get_inheritable(0))"),
    "signal-handlers": ("import signal\nprint([str(signal.getsignal(s)) for s in (signal.SIGINT, signal.SIGTERM, "
                        "signal.SIGPIPE, signal.SIGCHLD, signal.SIGXFSZ, signal.SIGHUP)])"),
    "streams": ("import sys\nfor s in (sys.stdin, sys.stdout, sys.stderr):\n"
                "    print(s.fileno(), s.name, s.mode, s.encoding, s.errors, s.line_buffering, s.write_through,"
                " s.buffer, getattr(s.buffer, 'raw', None))"),
    "descriptors": "import os; print(sorted(int(fd) for fd in os.listdir('/proc/self/fd'))[:4])",
    "at-exit-raises": ("import atexit, sys\natexit.register(print, 'after')\natexit.register(int, 'x')\n"
                       "atexit.register(sys.exit, 5)\nprint('out')\nsys.exit(3)"),
    "thread-then-exit": ("import sys, threading, time\n"
                         "threading.Thread(target=lambda: (time.sleep(0.2), print('thread'))).start()\nsys.exit(4)"),
    "exit-status-range": "print('out')\nraise SystemExit(263)",
    "exit-status-overflow": "raise SystemExit(2 ** 70)",
    "keyboard-interrupt": "print('out')\nraise KeyboardInterrupt",
    "logging-config": ("import logging\nlogging.basicConfig(format='%(levelname)s %(name)s %(message)s',"
                       " level='INFO')\nlogging.getLogger('x').info('configured')"),
    "logging-file-handler": ("import logging\nlog = logging.getLogger('snippet')\nlog.propagate = False\n"
                             "log.addHandler(logging.FileHandler('/dev/stdout', delay=True))\nlog.warning('logged')\n"
                             "print('printed')"),
    "logging-shutdown": ("import logging.handlers, sys\nlog = logging.getLogger('snippet')\nlog.propagate = False\n"
                         "target = logging.StreamHandler(sys.stdout)\n"
                         "log.addHandler(logging.handlers.MemoryHandler(100, target=target))\n"
                         "log.warning('flushed by logging.shutdown')\nprint('printed')"),
    "file-left-open": "print('first')\nf = open(1, 'w', closefd=False)\nf.write('second\\n')",
    "unflushable-stdout": "import os, sys\nsys.stdout = open(1, 'w', closefd=False)\nprint('lost')\nos.close(1)",
    "resource-warning": "import warnings\nwarnings.simplefilter('always')\nf = open('/dev/null')\nprint('out')",
    "fork": ("import os, sys\npid = os.fork()\nif pid == 0:\n    print('child')\n    sys.exit(3)\n"
             "print('parent', os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]))"),
    "spawn-and-subprocess": ("import multiprocessing, subprocess, sys\n"
                             "with multiprocessing.get_context('spawn').Pool(1) as pool:\n"
                             "    print(pool.map(abs, [-1, -2]))\n"
                             "print(subprocess.run([sys.executable, '-c', 'print(7)'], capture_output=True,"
                             " text=True).stdout, end='')"),
}


def both(command: list[str], **kwargs) -> tuple[subprocess.CompletedProcess, subprocess.CompletedProcess]:
    return (warm.run(command, capture_output=True, text=True, timeout=120, **kwargs),
            subprocess.run(command, capture_output=True, text=True, timeout=120, **kwargs))


@pytest.mark.parametrize("name", SNIPPETS)
def test_a_command_ends_as_in_a_fresh_interpreter(name):
    warmed, fresh = both([sys.executable, "-c", SNIPPETS[name], "an", "argument"])
    assert (warmed.returncode, warmed.stdout, warmed.stderr) == (fresh.returncode, fresh.stdout, fresh.stderr)


def test_a_module_and_a_script_run_as_in_a_fresh_interpreter(tmp_path):
    script = tmp_path / "script.py"
    script.write_text("import sys\nprint(sys.argv, sys.path[0], __file__, __name__, __spec__ and __spec__.name)\nraise SystemExit(4)\n")
    for command in ([sys.executable, str(script), "x"], [sys.executable, "-m", "json.tool", str(tmp_path / "no")],
                    [sys.executable, "-m", "script", "y"]):
        warmed, fresh = both(command, cwd=tmp_path)
        assert (warmed.returncode, warmed.stdout, warmed.stderr) == (fresh.returncode, fresh.stdout, fresh.stderr)
    assert warmed.returncode == 4 and str(tmp_path) in warmed.stdout


def test_env_cwd_stdin_and_session_are_honoured(tmp_path):
    """The environment given replaces the server's whole (PATH left out here)."""
    code = ("import os, sys\nprint(os.environ.get('PATH'), os.environ['WARM_ONLY'], os.getcwd(), input()[::-1], "
            "os.getsid(0) == os.getpid(), os.getppid() != int(sys.argv[1]))")
    env = {key: value for key, value in os.environ.items() if key != "PATH"} | {"WARM_ONLY": "yes"}
    for session in (True, False):
        done = warm.run([sys.executable, "-c", code, str(os.getpid())], input="olleh\n", capture_output=True,
                        text=True, cwd=tmp_path, env=env, start_new_session=session, check=True)
        assert done.stdout == f"None yes {tmp_path} hello {session} True\n"     # (its parent: the warm server)


def running(code: str) -> subprocess.Popen:
    process = warm.popen([sys.executable, "-c", "import time\nprint('ready', flush=True)\n" + code],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert isinstance(process, warm.WarmPopen) and process.stdout.readline() == "ready\n"
    assert process.poll() is None and process.returncode is None
    return process


def test_sigint_is_a_keyboard_interrupt_or_the_handler_the_command_set():
    process = running("while True: time.sleep(0.05)")
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=60)
    assert process.returncode == -signal.SIGINT and err.strip().endswith("KeyboardInterrupt")
    process = running("import signal, sys\nsignal.signal(signal.SIGINT, lambda *_: sys.exit(5))\n"
                      "print('handled', flush=True)\nwhile True: time.sleep(0.05)")
    assert process.stdout.readline() == "handled\n"
    process.send_signal(signal.SIGINT)
    assert process.wait(timeout=60) == 5


def test_a_process_collected_while_its_child_runs_does_not_stop_the_next_ones():
    """A WarmPopen collected with its connection while its child runs (a test failed, e.g. timed out: its
    traceback's cycle) is kept by Popen.__del__ for subprocess's next Popen to poll, which takes it for gone."""
    process = running("time.sleep(600)")
    pid = process.pid
    process.__del__()                       # as the collector finalizes the cycle: first the process (still running),
    process._answers.close()
    process._connection.close()             # then its socket
    del process
    try:
        assert warm.run([sys.executable, "-c", "print(1)"], capture_output=True).stdout == b"1\n"
        assert not [process for process in subprocess._active if isinstance(process, warm.WarmPopen)]
    finally:
        os.kill(pid, signal.SIGKILL)


def test_sigterm_and_kill_end_it():
    for stop, number in ((subprocess.Popen.terminate, signal.SIGTERM), (subprocess.Popen.kill, signal.SIGKILL)):
        process = running("time.sleep(600)")
        stop(process)
        assert process.wait(timeout=60) == -number
        process.communicate()
        process.kill()          # a finished process: nothing happens


def test_a_timeout_raises_timeout_expired_and_the_process_runs_on():
    process = running("time.sleep(600)")
    with pytest.raises(subprocess.TimeoutExpired):
        process.communicate(timeout=0.5)
    with pytest.raises(subprocess.TimeoutExpired):
        process.wait(timeout=0.2)
    assert process.poll() is None
    process.kill()
    assert process.wait(timeout=60) == -signal.SIGKILL
    started = time.time()
    with pytest.raises(subprocess.TimeoutExpired):
        warm.run([sys.executable, "-c", "import time; time.sleep(600)"], timeout=1)
    assert time.time() - started < 30


def test_check_raises_called_process_error():
    with pytest.raises(subprocess.CalledProcessError) as raised:
        warm.run([sys.executable, "-c", "import sys; print('x'); sys.exit(2)"], capture_output=True, check=True)
    assert raised.value.returncode == 2 and raised.value.stdout == b"x\n"


def test_what_it_cannot_start_warm_starts_fresh(monkeypatch):
    code = [sys.executable, "-c", "pass"]
    assert isinstance(warm.popen(code), warm.WarmPopen)
    for args, kwargs in (([sys.executable, "-I", "-c", "pass"], {}), (["true"], {}), ("true", {"shell": True}),
                         (code, {"pass_fds": (0,)}), (code, {"env": {**os.environ, "OMP_NUM_THREADS": "7"}})):
        process = warm.popen(args, **kwargs)
        assert type(process) is subprocess.Popen and process.wait(timeout=60) == 0
    monkeypatch.setenv("PARANMT_TEST_FRESH", "1")
    assert type(warm.popen(code)) is subprocess.Popen
