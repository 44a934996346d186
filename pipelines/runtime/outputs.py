"""The output contract of every command that writes (build, filter, export, stats, lexicon, paraphrase, train,
train-paraphraser, train-bgt, finetune-sts, train-words, probe, train-nmt, train-parser, convert-nmt, eval-nmt,
export-encoder, and the evaluations: `claim_results`), before and while it writes: the first piece of the one
shard-job helper.

1. Apart from the inputs (`check_apart`): an output that is an input, lies inside an input directory, holds an
   input, or that an input glob matches (it, or files written into it) is refused before any work: the command
   would overwrite what it reads, or a later run would read its own output.
2. Never over earlier work by surprise (`claim`): an output that already holds what an earlier run wrote is
   refused unless `--resume` (continue it, for commands that can) or `--overwrite` (replace it) says what to do;
   `--resume` where there is nothing to resume is refused too, and so are both flags at once. Each is one line,
   exit 2 (a ConfigError).
3. Stopped in one line (`stops_in_one_line`): Ctrl-C, SIGTERM and a full disk end the command with one line on
   stderr (`stopped: <what>; <what is kept>; <how to go on>`, the shape of the watchdog's line,
   pipelines/runtime/watchdog.py), no traceback, exit 130 / 143 / 1, after removing the temporaries of the write that was
   cut short. `resume_command` is the command to go on with: the one typed, with `--resume` instead of
   `--overwrite`.
"""
from __future__ import annotations

import errno
import fnmatch
import glob
import json
import os
import re
import shlex
import shutil
import signal
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterable

from paranmt.pipelines.runtime.output_lock import output_locked
from paranmt.schemas.errors import ConfigError, PipelineStopped, TrainingDiverged
from paranmt.schemas.paths import make_output_dir

EXIT_FAILURE, EXIT_SIGINT, EXIT_SIGTERM = 1, 130, 143
# torch.save to a path reports a write that failed for want of space only as an error of its zip writer
# ("[enforce fail at inline_container.cc:...] . unexpected pos 576 vs 534"), without errno
TORCH_WRITE_FAILED = re.compile(r"inline_container|PytorchStreamWriter|file write failed")
FULL_BELOW_BYTES = 1 << 20      # a torch write failure with less than this free beside the output: the disk is full


def components(path: str) -> list[str]:
    """The parts of `path` to compare: `scheme://` and the names after it for a URL, else the names of the
    absolute path with symbolic links resolved (so `./a`, `a` and a link to `a` are one path)."""
    if "://" in path:
        scheme, rest = path.split("://", 1)
        return [f"{scheme}://", *(part for part in rest.split("/") if part)]
    return [part for part in os.path.realpath(os.path.expanduser(path)).split(os.sep) if part]


def is_glob(path: str) -> bool:
    """Whether an input stands for the paths a glob matches: it has glob characters and (locally) no such path
    exists."""
    return glob.has_magic(path) and ("://" in path or not os.path.exists(path))


def overlap(output: str, given: str) -> str | None:
    """How `output` and the input `given` (a path, or a glob: `is_glob`) overlap, or None when they are apart:
    "is" (the same path), "is inside" (the output inside what the input names), "holds" (the input inside the
    output) or "is matched by" (the glob can match the output or files inside it)."""
    have, want = components(output), components(given)
    magic = is_glob(given)
    for index, part in enumerate(want):
        if magic and part == "**":
            return "is matched by"
        if index == len(have):
            return "is matched by" if magic else "holds"
        if not (fnmatch.fnmatchcase(have[index], part) if magic else have[index] == part):
            return None
    if len(have) > len(want):
        return "is inside"
    return "is matched by" if magic else "is"


def named_files(given: str) -> list[str]:
    """The input `given`, or for a local path that does not exist and is no glob (a Moses prefix `corpus/news`)
    the files it is the prefix of (`corpus/news.cs`, `corpus/news.en`; none for a missing input, which its
    reader reports)."""
    if "://" in given or os.path.exists(given) or glob.has_magic(given):
        return [given]
    return sorted(glob.glob(glob.escape(given) + ".*"))


def check_apart(output: str, inputs: Iterable[str | None], flag: str = "--output") -> None:
    """ConfigError naming the first input (path, glob or prefix: `named_files`) that `overlap`s `output` (None
    entries are skipped)."""
    for given in (name for entry in inputs if entry for name in named_files(str(entry))):
        how = overlap(output, given)
        if how is None:
            continue
        what = {"is": "is the input", "is inside": "is inside the input", "holds": "holds the input",
                "is matched by": "is matched by the input glob"}[how]
        raise ConfigError(f"{flag} {output} {what} {given}: the command would write over what it reads, or a "
                          f"later run would read its own output; choose an {flag} apart from the inputs")


def check_flags(output: str, resume: bool, overwrite: bool) -> None:
    """ConfigError for --resume and --overwrite together."""
    if resume and overwrite:
        raise ConfigError(f"--resume and --overwrite exclude each other: --resume continues the run in {output}, "
                          f"--overwrite replaces what it wrote")


def claim(output: str, held: str | None, resume: bool, overwrite: bool, flag: str = "--output",
          resumable: bool = True, unfinished: bool = True) -> str:
    """What to do with `output`, which holds `held` of an earlier run (a description: "a trained model", "3
    paraphrase shard(s)"; None when nothing): "fresh", "resume" or "overwrite". ConfigError when `held` is not
    None and neither flag is given, when both are given, and when `--resume` finds nothing to continue (`held`
    None, or `unfinished` False: the earlier run ended and there is nothing left to do). Commands that cannot
    resume (`resumable` False) name --overwrite only."""
    check_flags(output, resume, overwrite)
    if resume:
        if held is None:
            raise ConfigError(f"--resume: {output} holds nothing to resume; run without --resume to start")
        if not unfinished:
            raise ConfigError(f"--resume: {output} holds {held}, complete: nothing to resume (--overwrite makes "
                              f"it again)")
        return "resume"
    if held is None:
        return "fresh"
    if overwrite:
        return "overwrite"
    how = "give --resume to continue it or --overwrite to replace it" if resumable else \
        "give --overwrite to replace it"
    raise ConfigError(f"{flag} {output} already holds {held}; {how}, or choose another {flag}")


def resume_command(argv: list[str] | None, command: str = "") -> str:
    """`resume with: paranmt ...`: the command typed (`argv`, the arguments after `paranmt`) with `--resume`
    (and without `--overwrite`, which would throw away what is kept)."""
    if argv is None:
        return f"run the same `paranmt {command}` command again with --resume"
    kept = [argument for argument in argv if argument != "--overwrite"]
    return "resume with: " + shlex.join(["paranmt", *kept, *([] if "--resume" in kept else ["--resume"])])


def rerun_command(argv: list[str] | None, command: str = "") -> str:
    """`rerun with: paranmt ... --overwrite`: how to go on after a stop for a command that cannot resume (what it
    wrote before the stop is incomplete and is replaced)."""
    if argv is None:
        return f"run the same `paranmt {command}` command again with --overwrite"
    return "rerun with: " + shlex.join(["paranmt", *argv, *([] if "--overwrite" in argv else ["--overwrite"])])


def left_in(output: str, names: Iterable[str] | None = None) -> list[str]:
    """What an earlier run left in the local directory `output` (for `replace_earlier`): the paths of the entries
    among `names` that exist there (None: every entry of it but the side folder of its lock, output_lock.py)."""
    from paranmt.schemas.layout import SIDE_DIR

    if not os.path.isdir(output):
        return []
    found = sorted(set(os.listdir(output)) - {SIDE_DIR}) if names is None else [
        name for name in names if os.path.lexists(os.path.join(output, name))]
    return [os.path.join(output, name) for name in found]


def replace_earlier(output: str, earlier: list[str], overwrite: bool, what: str) -> None:
    """The output contract of a command that cannot resume: `earlier` (the files and folders an earlier run left
    in `output`, found by the command) are refused without --overwrite (`claim`) and deleted with it, so that no
    file of the earlier run (a shard, a plot this run does not make) is left beside the new ones."""
    if claim(output, f"{what} ({len(earlier)} file(s))" if earlier else None, False, overwrite,
             resumable=False) == "overwrite" and earlier:
        from apache_beam.io.filesystems import FileSystems  # only to delete: a first run need not load Beam

        FileSystems.delete(earlier)


class Stopped(PipelineStopped):
    """A command stopped by a signal or a full disk: its one line, and the exit code (130, 143 or 1)."""

    def __init__(self, message: str, exit_code: int = EXIT_FAILURE):
        super().__init__(message)
        self.exit_code = exit_code


class Terminated(BaseException):
    """SIGTERM, raised in the main thread while `stops_in_one_line` runs (a BaseException, like
    KeyboardInterrupt, so that no `except Exception` of the work swallows it)."""


def _terminated(signum, frame):
    raise Terminated()


def disk_full(error: BaseException, where: str | None = None) -> bool:
    """Whether `error` (or an error it was raised from) says the disk is full: ENOSPC, its text in a wrapped
    error (Beam's, pyarrow's, a worker's traceback), or a failed torch write while the filesystem of `where` has
    less than FULL_BELOW_BYTES free (torch says no more than that its writer failed)."""
    seen, chain = error, 0
    while seen is not None and chain < 16:
        if isinstance(seen, OSError) and seen.errno == errno.ENOSPC:
            return True
        if "No space left on device" in str(seen) or "[Errno 28]" in str(seen):
            return True
        seen, chain = seen.__cause__ or seen.__context__, chain + 1
    if where is not None and isinstance(error, RuntimeError) and TORCH_WRITE_FAILED.search(str(error)):
        try:
            return shutil.disk_usage(where).free < FULL_BELOW_BYTES
        except OSError:
            return False
    return False


def first_line(error: BaseException) -> str:
    """`Type: message`, the message's first line."""
    lines = str(error).strip().splitlines()
    return f"{type(error).__name__}: {lines[0] if lines else ''}".rstrip(": ")


@contextmanager
def stops_in_one_line(status: Callable[[], str], advice: Callable[[], str], where: str = ".",
                      cleanup: Callable[[], None] | None = None):
    """Run the block; Ctrl-C (KeyboardInterrupt), SIGTERM (a handler installed for the block, main thread only),
    a full disk (`disk_full`, checked beside `where`) and a training that diverged (TrainingDiverged,
    models/loop.py) end it as `Stopped`: `stopped: <what>; <status()>; <advice()>` with exit 130, 143 or
    1, after `cleanup()` (remove the temporaries of the write cut short). Any other error goes through unchanged."""
    main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, _terminated) if main else None
    try:
        yield
    except BaseException as error:  # noqa: BLE001 - sorted below: what is not a stop is raised again
        if isinstance(error, KeyboardInterrupt):
            what, code = "interrupted by SIGINT (Ctrl-C)", EXIT_SIGINT
        elif isinstance(error, Terminated):
            what, code = "interrupted by SIGTERM", EXIT_SIGTERM
        elif isinstance(error, TrainingDiverged):
            what, code = str(error), EXIT_FAILURE
        elif isinstance(error, Exception) and disk_full(error, where):
            what, code = f"the disk is full ({first_line(error)}): free space on it, then", EXIT_FAILURE
        else:
            raise
        if main:
            signal.signal(signal.SIGTERM, signal.SIG_IGN)   # a second SIGTERM must not cut the cleanup short
        if cleanup is not None:
            cleanup()
        raise Stopped(f"stopped: {what}; {status()}; {advice()}", code) from None
    finally:
        if main:
            signal.signal(signal.SIGTERM, previous)


@contextmanager
def rerun_stops(output: str, argv: list[str] | None, command: str, written: Callable[[], list[str]] | None = None):
    """`stops_in_one_line` for a command that cannot resume, writing into `output`. Without `written`, what it wrote
    stays and the line says `its output is incomplete` and gives the command that replaces it (`rerun_command`), as
    the watchdog's line of filter, export, stats and lexicon does (mine). With `written` (the paths the run has
    written so far: the evaluations, finetune-sts, train-words, convert-nmt, export-encoder), those are removed and
    the line says `the partial output is removed; run the same command again` (nothing of the run is left to
    --overwrite)."""
    if written is None:
        status, advice, cleanup = "its output is incomplete", rerun_command(argv, command), None
    else:
        status, advice = "the partial output is removed", "run the same command again"

        def cleanup():
            remove_paths(written())
    with stops_in_one_line(lambda: status, lambda: advice, output, cleanup):
        yield



# An evaluation's results (eval, eval-xling, eval-transfer, eval-words, eval-paraphraser, adversarial): files written
# into a results directory at the end of the run, each whole (models/evaluation/tables.py `write_result_file`)
@contextmanager
def results_output(output: str, inputs: Iterable[str | None], names: Iterable[str] | None, overwrite: bool,
                   argv: list[str] | None, command: str, extra: Iterable[str] = (),
                   held: str = "the results of an earlier run", marker: str | None = None, kept: bool = False):
    """The output contract of a run that writes the files `names` (None: the whole directory, `marker` the file
    that marks an earlier run's) into the directory `output` and cannot resume (an evaluation; finetune-sts,
    train-words, mine, report, export-encoder) for its whole run: one run at a time on `output` (`output_locked`,
    taken after `check_apart`), the files of an earlier run (`held`) claimed (`claim_results`) and, after a stop,
    the files this run wrote removed (`rerun_stops`; `kept`: left, the line giving the command that replaces them)."""
    names, inputs = None if names is None else tuple(names), list(inputs)
    check_apart(output, inputs)
    with output_locked(output, command):
        claim_results(output, inputs, names, overwrite, extra, held, marker)
        with rerun_stops(output, argv, command, None if kept else lambda: left_in(output, names)):
            yield


def claim_results(output: str, inputs: Iterable[str | None], names: Iterable[str] | None, overwrite: bool,
                  extra: Iterable[str] = (), held: str = "the results of an earlier run",
                  marker: str | None = None) -> None:
    """The output contract of an evaluation writing the files `names` into the directory `output`: apart from the
    inputs (`check_apart`), not a file, and the files of an earlier run there (any of `names`, `left_in`; `held`
    names them) refused without --overwrite and deleted with it (`replace_earlier`), together with `extra` (what
    else such a run leaves in `output`: its caches). `names` None: the run writes the whole directory, which holds
    an earlier run's when it holds `marker`; one holding anything else is refused. Then the directory is made, and
    must be writable: all before any work."""
    check_apart(output, inputs)
    if os.path.exists(output) and not os.path.isdir(output):
        raise ConfigError(f"--output {output} exists and is not a directory")
    earlier = left_in(output, names)
    if names is None and earlier and not os.path.isfile(os.path.join(output, marker or "")):
        raise ConfigError(f"--output {output} exists and is not an empty directory or {held}; choose a new "
                          f"directory")
    replace_earlier(output, earlier + (left_in(output, extra) if earlier else []), overwrite, held)
    make_output_dir(output)
    if not os.access(output, os.W_OK | os.X_OK):
        raise ConfigError(f"--output {output} is not writable")


def remove_paths(paths: Iterable[str | os.PathLike]) -> None:
    """Delete each file or directory tree that exists (the temporaries of a write cut short)."""
    for path in paths:
        if os.path.isdir(path) and not os.path.islink(path):
            shutil.rmtree(path, ignore_errors=True)
        elif os.path.lexists(path):
            os.remove(path)


# A trainer's model directory (train, train-paraphraser, train-bgt): what an earlier run leaves in it
CHECKPOINTS = ("checkpoint", "checkpoint.old", "checkpoint.pt")    # what --resume continues from (loop.py)
MODEL_FILES = ("config.json", "paraphraser.json")                  # a saved encoder / paraphraser
# writes cut short: directories (write_directory) and a redraw of the curves (models/curves.py)
TEMPORARIES = ("checkpoint.tmp", "best.tmp", "initial.tmp", "metrics.png.tmp")
# what --overwrite removes besides the temporaries: every state a new run could pick up from the old one (the
# initial encoder a regularizer pulls toward, a trained sentencepiece model, the metrics log that is appended to);
# model files are written over by the new run, and files of other names (a parse cache) are left alone
TRAINING_INPUTS = "training_inputs.json"     # the training files a run started on (size, sha256): --resume compares
REPLACED = (*CHECKPOINTS, "best", "initial", "work", "metrics.jsonl", "metrics.png", "sp.model", "sp.vocab",
            TRAINING_INPUTS)


@contextmanager
def training_output(output: str, inputs: Iterable[str | None], resume: bool, overwrite: bool,
                    argv: list[str] | None, command: str, config, data: Iterable[str],
                    selection: dict | None = None):
    """The output contract of a trainer's model directory `output` (train, train-paraphraser, train-bgt) for its
    whole run: apart from the inputs (`check_apart`), one run at a time (`output_locked`: a second
    run is one line naming the first, which is never called stopped or advised to be resumed while it runs), the
    earlier run's model or checkpoint claimed (`claim_model_directory`), a --resume only onto the same model
    (`config`, a LoopConfig: models/loop.check_resume; a finished run is left as it is) and the same
    training data (`data`, the training inputs as given, and `selection`: `same_training_data`), and a stop in one line
    (`training_stops`). Yields the mode ("fresh", "resume" or "overwrite")."""
    check_apart(output, inputs)
    with output_locked(output, command):
        mode = claim_model_directory(output, resume, overwrite)
        if mode == "resume":
            from paranmt.models.loop import check_resume, find_checkpoint

            checkpoint = find_checkpoint(Path(output))
            if checkpoint is not None:
                check_resume(config, checkpoint, output)
        same_training_data(output, data, mode, selection)
        with training_stops(output, argv, command):
            yield mode


def training_files(given: str) -> list[str]:
    """The local files a training input names: itself (a file), the shards of a directory or glob
    (`layout.local_shards`), or the files of a Moses prefix (`named_files`)."""
    from paranmt.schemas import layout

    if os.path.isfile(given):
        return [given]
    return layout.local_shards(given) if os.path.isdir(given) or glob.has_magic(given) else named_files(given)


def same_training_data(output: str, data: Iterable[str], mode: str, selection: dict | None = None) -> None:
    """A fresh run records the size and sha256 of every training file (`training_files` of `data`) in
    `output/TRAINING_INPUTS`, with the `selection` (the flags outside the config that choose which pairs are kept:
    train-bgt's max_words); a --resume compares the files it is given with that record (as a build's resume does:
    schemas/metadata.py `input_changes`) and the selection, and refuses, naming each change, when they differ: its
    checkpoint stands part-way through an epoch of the old data. A record of an older version's run that is missing
    is no check."""
    from paranmt.models.files import read_json, write_text_atomically
    from paranmt.schemas.metadata import input_changes, input_fingerprint

    record = Path(output) / TRAINING_INPUTS
    current = {path: input_fingerprint(path) for given in data for path in training_files(given)}
    if mode != "resume":
        make_output_dir(output)
        write_text_atomically(record, json.dumps({"files": current, "selection": selection or {}}, indent=2) + "\n")
        return
    recorded = read_json(record, dict, "record of the training data") if record.is_file() else {}
    files, chosen = recorded.get("files"), recorded.get("selection") or {}
    changes = (input_changes(files, current) if isinstance(files, dict) else []) + [
        f"{key}: {chosen[key]!r} -> {value!r}" for key, value in (selection or {}).items()
        if key in chosen and chosen[key] != value]
    if changes:
        more = f" (and {len(changes) - 5} more)" if len(changes) > 5 else ""
        raise ConfigError(f"--resume: the training data changed since the run in {output} started "
                          f"({'; '.join(changes[:5])}{more}): its checkpoint stands part-way through the old data; "
                          f"train into another --output, or --overwrite to start again")


def claim_model_directory(output: str, resume: bool, overwrite: bool) -> str:
    """`claim` for a trainer's model directory `output`: a checkpoint or a saved model of an earlier run needs
    --resume (continue from the checkpoint) or --overwrite (which removes REPLACED and TEMPORARIES first); --resume
    needs a checkpoint. Returns the mode."""
    checkpoint = any(os.path.exists(os.path.join(output, name)) for name in CHECKPOINTS)
    model = any(os.path.isfile(os.path.join(output, name)) for name in MODEL_FILES)
    held = ("a trained model and its checkpoint" if checkpoint and model else
            "the checkpoint of a run that stopped before its end" if checkpoint else
            "a trained model (no checkpoint)" if model else None)
    mode = claim(output, held, resume, overwrite, unfinished=checkpoint)
    if mode == "overwrite":
        remove_paths(os.path.join(output, name) for name in REPLACED + TEMPORARIES)
    return mode


@contextmanager
def training_stops(output: str, argv: list[str] | None, command: str):
    """`stops_in_one_line` for a trainer writing into `output`: the line says whether a checkpoint is kept and,
    when one is, the command that resumes from it; the half-written TEMPORARIES are removed."""
    def checkpoint() -> str | None:
        return next((os.path.join(output, name) for name in CHECKPOINTS
                     if os.path.exists(os.path.join(output, name))), None)

    def status() -> str:
        found = checkpoint()
        return f"the last checkpoint is kept in {found}" if found else "no checkpoint was written yet"

    def advice() -> str:
        return resume_command(argv, command) if checkpoint() else "run the same command again to start over"

    with stops_in_one_line(status, advice, output,
                           cleanup=lambda: remove_paths(os.path.join(output, n) for n in TEMPORARIES)):
        yield


def remove_temporaries(*directories: str) -> None:
    """Delete the temporaries (`.<name>.tmp-<uuid>`, transforms/shards.py `atomic_file`) of writes into
    `directories` that did not finish: a killed run's, or those of a worker that died mid-write while its task was
    re-run elsewhere (its file is rewritten whole). Local or any Beam filesystem."""
    from apache_beam.io.filesystems import FileSystems

    for directory in directories:
        stale = FileSystems.match([FileSystems.join(directory, ".*.tmp-*")])[0].metadata_list
        if stale:
            FileSystems.delete([m.path for m in stale])
