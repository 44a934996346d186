"""The output contract (pipelines/runtime/outputs.py) as each command uses it: outputs apart from the inputs, an earlier
run's output needs --resume or --overwrite, --resume needs something to resume, and Ctrl-C / SIGTERM / a full disk
end in one line after the temporaries are removed. The commands' own tests: tests/pipelines/test_output_contract.py
(build, trainers), tests/pipelines/corpus_tools/test_output_contract.py (filter, export, stats, lexicon),
tests/pipelines/paraphrase/test_paraphrase_stops.py (paraphrase)."""
import errno
import os
import signal
from collections import namedtuple

import pytest

from paranmt.pipelines.runtime import outputs
from paranmt.schemas.errors import ConfigError


@pytest.fixture
def tree(tmp_path, monkeypatch):
    """tmp/work/{a.tsv, b.tsv}, tmp/s.tsv, a link tmp/link -> tmp/work; the working directory is tmp."""
    (tmp_path / "work").mkdir()
    for name in ("work/a.tsv", "work/b.tsv", "s.tsv"):
        (tmp_path / name).write_text("x\n")
    (tmp_path / "link").symlink_to(tmp_path / "work", target_is_directory=True)
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("output, given, how", [
    ("s.tsv", "s.tsv", "is"),                           # paraphrase --input s.tsv --output s.tsv
    ("./s.tsv", "s.tsv", "is"),
    ("link/a.tsv", "work/a.tsv", "is"),                 # through a symbolic link
    ("out.tsv", "s.tsv", None),
    ("work/out", "work", "is inside"),                  # a shard job writing into its input directory's subfolder
    ("work", "work/a.tsv", "holds"),                    # a model directory holding its training file
    ("work/out", "work/*", "is matched by"),            # build whose input glob matches its output directory
    ("work", "work/*.tsv", "is matched by"),            # files written into work would match the glob
    ("work/out", "work/*.tsv", None),                   # the glob never reaches into work/out
    ("deep/er", "**/x", "is matched by"),
    ("gs://bucket/out", "gs://bucket/*", "is matched by"),
    ("gs://bucket/out", "gs://other/*", None),
])
def test_overlap(tree, output, given, how):
    assert outputs.overlap(output, given) == how


def test_check_apart_names_the_input_and_moses_prefixes_count_by_their_files(tree):
    with pytest.raises(ConfigError, match=r"--output s.tsv is the input s.tsv: .*choose an --output apart"):
        outputs.check_apart("s.tsv", [None, "work", "s.tsv"])
    outputs.check_apart("work/news", ["work/a"])        # a missing input is its reader's to report
    (tree / "work" / "news.en").write_text("x\n")
    outputs.check_apart("work/news", ["work/news"])     # the prefix names work/news.en, not work/news
    with pytest.raises(ConfigError, match="is the input work/news.en"):
        outputs.check_apart("work/news.en", ["work/news"])


def test_claim_says_what_to_do_in_one_line():
    assert outputs.claim("o", None, False, False) == "fresh"
    assert outputs.claim("o", None, False, True) == "fresh"
    assert outputs.claim("o", "3 shard(s)", True, False) == "resume"
    assert outputs.claim("o", "3 shard(s)", False, True) == "overwrite"
    messages = []
    for held, resume, overwrite, kwargs in [("3 shard(s)", False, False, {}), (None, True, False, {}),
                                            ("a report", False, False, {"resumable": False}),
                                            ("a file", True, False, {"unfinished": False}),
                                            ("3 shard(s)", True, True, {})]:
        with pytest.raises(ConfigError) as error:
            outputs.claim("o", held, resume, overwrite, **kwargs)
        messages.append(str(error.value))
    assert all(len(message.splitlines()) == 1 for message in messages)
    assert messages[0] == ("--output o already holds 3 shard(s); give --resume to continue it or --overwrite to "
                           "replace it, or choose another --output")
    assert messages[1] == "--resume: o holds nothing to resume; run without --resume to start"
    assert "give --overwrite to replace it" in messages[2] and "--resume" not in messages[2]
    assert messages[3].startswith("--resume: o holds a file, complete: nothing to resume")
    assert messages[4].startswith("--resume and --overwrite exclude each other")


def test_the_command_to_go_on_with():
    assert outputs.resume_command(["train", "--output", "m", "--overwrite"]) == \
        "resume with: paranmt train --output m --resume"
    assert outputs.resume_command(["build", "--resume"]) == "resume with: paranmt build --resume"
    assert outputs.rerun_command(["stats", "--output", "a b"]) == "rerun with: paranmt stats --output 'a b' --overwrite"


def test_a_full_disk_is_recognized_however_it_is_wrapped(tmp_path, monkeypatch):
    full = OSError(errno.ENOSPC, "No space left on device")
    assert outputs.disk_full(full, str(tmp_path))
    try:
        try:
            raise full
        except OSError:
            raise ConfigError("cannot write the parse cache") from None
    except ConfigError as wrapped:
        assert outputs.disk_full(wrapped, str(tmp_path))              # found through __context__
    assert outputs.disk_full(RuntimeError("OSError: [Errno 28] No space left on device: 'o/.a.tmp'"), ".")
    assert not outputs.disk_full(OSError(errno.EACCES, "Permission denied"), str(tmp_path))
    # torch.save to a path says only that its writer failed (seen on a full tmpfs); the free space decides
    torch_error = RuntimeError("[enforce fail at inline_container.cc:672] . unexpected pos 576 vs 534")
    usage = namedtuple("usage", "total used free")
    monkeypatch.setattr(outputs.shutil, "disk_usage", lambda path: usage(1 << 30, 1 << 30, 4096))
    assert outputs.disk_full(torch_error, str(tmp_path))
    monkeypatch.setattr(outputs.shutil, "disk_usage", lambda path: usage(1 << 30, 0, 1 << 30))
    assert not outputs.disk_full(torch_error, str(tmp_path))


def test_stops_become_one_line_after_the_cleanup(tmp_path):
    cleaned = []

    def stop(raise_in_block):
        with pytest.raises(outputs.Stopped) as stopped:
            with outputs.stops_in_one_line(lambda: "2 of 5 parts done", lambda: "resume with: paranmt x --resume",
                                           str(tmp_path), cleanup=lambda: cleaned.append(True)):
                raise_in_block()
        return stopped.value

    def interrupt():
        raise KeyboardInterrupt

    def terminate():
        os.kill(os.getpid(), signal.SIGTERM)      # the handler raises in this thread at the next bytecode
        for _ in range(1000):
            pass

    def fill():
        raise OSError(errno.ENOSPC, "No space left on device")

    before = signal.getsignal(signal.SIGTERM)
    for block, code, what in [(interrupt, 130, "interrupted by SIGINT (Ctrl-C)"),
                              (terminate, 143, "interrupted by SIGTERM"),
                              (fill, 1, "the disk is full (OSError: [Errno 28] No space left on device): free space "
                                        "on it, then")]:
        error = stop(block)
        assert error.exit_code == code
        assert str(error) == f"stopped: {what}; 2 of 5 parts done; resume with: paranmt x --resume"
    assert cleaned == [True] * 3 and signal.getsignal(signal.SIGTERM) == before
    with pytest.raises(ValueError):               # anything else is not a stop: it goes through unchanged
        with outputs.stops_in_one_line(lambda: "", lambda: ""):
            raise ValueError("a bug keeps its traceback")
    assert signal.getsignal(signal.SIGTERM) == before
