"""The CLI's log levels: paranmt's own INFO messages (training progress, where a model was saved) reach the
console; libraries stay at WARNING unless -v."""
import subprocess
import sys

SCRIPT = """
import logging, sys
from paranmt.pipelines.runtime.logs import configure_logging
configure_logging(verbose=sys.argv[1] == "-v")
logging.getLogger("paranmt.models.training.trainer").info("encoder saved to out/enc")
logging.getLogger("apache_beam.runners.worker").info("worker chatter")
logging.getLogger("stanza").info("stanza chatter")
logging.info("root info")
logging.warning("root warning")
"""


def run(flag: str) -> str:
    done = subprocess.run([sys.executable, "-c", SCRIPT, flag], capture_output=True, text=True, check=True)
    return done.stderr


def test_paranmt_info_is_shown_and_library_info_is_not():
    stderr = run("")
    assert "INFO paranmt.models.training.trainer: encoder saved to out/enc" in stderr
    assert "root warning" in stderr
    for hidden in ("worker chatter", "stanza chatter", "root info"):
        assert hidden not in stderr


def test_verbose_shows_everything():
    stderr = run("-v")
    for shown in ("encoder saved to out/enc", "worker chatter", "stanza chatter", "root info", "root warning"):
        assert shown in stderr
