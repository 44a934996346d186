"""The output contract (pipelines/runtime/outputs.py) of the encoder evaluations (`eval`, `eval-xling`,
`eval-transfer`, `eval-words`) on tiny real data with the shipped encoder: an --output that is an input, or that holds
the results of an earlier run without --overwrite, is one line, exit 2; --overwrite replaces them. Ctrl-C, SIGTERM
(each command in its own process, as a user runs it) and a full disk while an evaluation writes its results (between
results.csv and summary.md, the worst moment): one line naming the rerun, no results file and no temporary left, and
the rerun finishes. (eval-paraphraser and adversarial: tests/pipelines/paraphrase/test_evaluation_stops.py.)"""
import errno
import pathlib
import signal
from pathlib import Path

import pytest

from paranmt.pipelines.cli import main

REPO = Path(__file__).resolve().parents[2]
ENCODER = REPO / "assets" / "encoder-sp"


@pytest.fixture(scope="module")
def eval_data(shared_data, tmp_path_factory) -> Path:
    """A folder laid out like ../shared/data: 40 STS Benchmark dev pairs, 40 MR sentences of both labels, the first
    30 SimLex pairs; and cs.txt / en.txt, 40 lines of newstest2017."""
    root = tmp_path_factory.mktemp("eval-data")
    (root / "sts" / "stsbenchmark").mkdir(parents=True)
    lines = (shared_data / "sts/stsbenchmark/sts-dev.csv").read_text(encoding="utf-8").splitlines(keepends=True)
    (root / "sts/stsbenchmark/sts-dev.csv").write_text("".join(lines[:40]), encoding="utf-8")
    (root / "transfer").mkdir()
    mr = (shared_data / "transfer/mr.tsv").read_text(encoding="utf-8").splitlines(keepends=True)
    (root / "transfer/mr.tsv").write_text(mr[0] + "".join(mr[1::250][:40]), encoding="utf-8")
    (root / "word-sim").mkdir()
    simlex = (shared_data / "word-sim/EN-SIMLEX-999.txt").read_text(encoding="utf-8").splitlines(keepends=True)
    (root / "word-sim/EN-SIMLEX-999.txt").write_text("".join(simlex[:30]), encoding="utf-8")
    for side, name in (("cs", "newstest2017.ces"), ("en", "newstest2017.eng")):
        text = (shared_data / "bitext/cs-en" / name).read_text(encoding="utf-8").splitlines(keepends=True)
        (root / f"{side}.txt").write_text("".join(text[:40]), encoding="utf-8")
    return root


# command -> (arguments with DATA for the data folder, the input an --output may not be, the module whose
# write_result_file writes summary.md)
EVALUATIONS = {
    "eval": (["--model", ENCODER, "--sts-dir", "DATA/sts"], "DATA/sts", "paranmt.models.evaluation.sts"),
    "eval-xling": (["--source", "DATA/cs.txt", "--target", "DATA/en.txt", "--encoder", ENCODER, "--gold-fraction",
                    "0.5"], "DATA/en.txt", "paranmt.models.mining.evaluate"),
    "eval-transfer": (["--model", ENCODER, "--data-dir", "DATA", "--tasks", "mr", "--folds", "2", "--inner-folds",
                       "2", "--c-grid", "1", "--baselines"], "DATA", "paranmt.models.evaluation.transfer"),
    "eval-words": (["--model", ENCODER, "--data-dir", "DATA"], "DATA", "paranmt.models.evaluation.word_similarity"),
}


def evaluation(command: str, data: Path, output: Path, *extra) -> list[str]:
    arguments, _, _ = EVALUATIONS[command]
    return [command, *(str(a).replace("DATA", str(data)) for a in arguments), "--output", str(output),
            *map(str, extra)]


def results_left(output: Path) -> list[str]:
    return sorted(p.name for p in output.iterdir()) if output.exists() else []


@pytest.mark.parametrize("command", EVALUATIONS)
def test_an_evaluation_refuses_its_input_and_earlier_results(command, eval_data, tmp_path, one_line):
    given = EVALUATIONS[command][1].replace("DATA", str(eval_data))
    assert main(evaluation(command, eval_data, Path(given))) == 2
    assert f"--output {given} is the input {given}" in one_line(command)
    output = tmp_path / "out"
    assert main(evaluation(command, eval_data, output)) == 0
    first = (output / "results.csv").read_bytes()
    assert results_left(output) == ["results.csv", "summary.md"]
    assert main(evaluation(command, eval_data, output)) == 2
    assert (f"--output {output} already holds the results of an earlier run (2 file(s)); give --overwrite to "
            f"replace it, or choose another --output") in one_line(command)
    assert main(evaluation(command, eval_data, output, "--overwrite")) == 0
    assert (output / "results.csv").read_bytes() == first and results_left(output) == ["results.csv", "summary.md"]


def stalled_summary(module: str, marker: Path) -> str:
    """Python lines for signal_when: the command's summary.md is written only after `marker` is made and the test's
    signal has come (results.csv is written by then)."""
    return (f"import pathlib, time, {module} as m\nwrite = m.write_result_file\n"
            f"def stalled(path, text):\n    if pathlib.Path(path).name == 'summary.md':\n"
            f"        pathlib.Path({str(marker)!r}).touch()\n        [time.sleep(0.1) for _ in range(600)]\n    return write(path, text)\n"
            f"m.write_result_file = stalled\n")


@pytest.mark.parametrize("command, how, code, what", [
    ("eval", signal.SIGINT, 130, "interrupted by SIGINT (Ctrl-C)"),
    ("eval-xling", signal.SIGTERM, 143, "interrupted by SIGTERM"),
    ("eval-transfer", signal.SIGTERM, 143, "interrupted by SIGTERM"),
    ("eval-words", signal.SIGINT, 130, "interrupted by SIGINT (Ctrl-C)")])
def test_a_signal_while_an_evaluation_writes_leaves_no_results(command, how, code, what, eval_data, tmp_path,
                                                               signal_when):
    output, marker = tmp_path / "out", tmp_path / "writing"
    returncode, err = signal_when(evaluation(command, eval_data, output), marker.exists, how,
                                  stalled_summary(EVALUATIONS[command][2], marker))
    assert returncode == code and "Traceback" not in err, err
    assert err.strip().splitlines()[-1] == (f"paranmt {command}: stopped: {what}; the partial output is removed; "
                                            f"run the same command again")
    assert results_left(output) == []                 # results.csv was written, and removed: an incomplete set
    if command == "eval":
        assert main(evaluation(command, eval_data, output)) == 0
        assert results_left(output) == ["results.csv", "summary.md"]


def test_a_full_disk_while_an_evaluation_writes_is_one_line(eval_data, tmp_path, monkeypatch, one_line):
    output = tmp_path / "out"
    write_bytes = pathlib.Path.write_bytes     # what models/files.write_bytes_atomically writes with

    def full(self, text, *args, **kwargs):
        if self.name.startswith(".summary.md.tmp-"):
            write_bytes(self, text[: len(text) // 2], *args, **kwargs)   # written up to the last free byte
            raise OSError(errno.ENOSPC, "No space left on device")
        return write_bytes(self, text, *args, **kwargs)

    monkeypatch.setattr(pathlib.Path, "write_bytes", full)
    assert main(evaluation("eval", eval_data, output)) == 1
    assert one_line("eval") == ("paranmt eval: stopped: the disk is full (OSError: [Errno 28] No space left "
                                        "on device): free space on it, then; the partial output is removed; run the "
                                        "same command again")
    assert results_left(output) == []
