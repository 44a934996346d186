"""benchmarks/bench_encoders.py suite-table on a root in the layout benchmarks/encoder_suite.sh writes (per entry
DIR: model/ of `paranmt train` with best/ kept by the dev evaluations, train.log, sts/ and transfer/ of the
evaluations of model/best, speed.md): a finished run with its stop reason; a run that diverged, known from its
metrics' last line or, for a run from before that line, from the one-line error in its train.log, shown with its
best encoder's dim and evaluations and `diverged at N`; a run killed after its checkpoint was removed; the rows of
two roots (a CPU and a GPU suite) in one table with the device each run trained on."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from paranmt.models.encoders import create_encoder
from paranmt.models.evaluation import sts, transfer

REPO = Path(__file__).resolve().parents[1]
SCRIPT = REPO / "benchmarks" / "bench_encoders.py"
SENTENCES = ["a man is playing a guitar .", "a woman is slicing an onion .", "two dogs run on the beach ."]
TRAIN_LOG_ERROR = ("paranmt train: stopped: the training diverged: the loss is nan and the weights are no longer "
                   "finite numbers after update 1209 (lr 0.001 is likely too high): lower it, then; the last "
                   "checkpoint is kept in irnn/model/checkpoint; resume with: paranmt train --resume ...")


def suite_run(root: Path, kind: str, dim: int, lines: list[dict], best_step: int, train_log: str,
              finished: bool = False, checkpoint: bool = False, device: str | None = None,
              speed: str = "12,345", encoder_kind: str | None = None) -> Path:
    """DIR = root/kind as the suite leaves it: model/ (metrics.jsonl of `lines`, train_config.json with `device`
    when given, best/ = an encoder of `dim` with the dev line of update `best_step`, config.json when `finished`,
    checkpoint/ when kept), train.log, sts/ and transfer/ results of model/best (real writers) and speed.md saying
    `speed` sentences/s; `encoder_kind`: the `--encoder` of a variant's directory (default `kind`)."""
    model = root / kind / "model"
    encoder = create_encoder(encoder_kind or kind, SENTENCES, dim=dim)
    encoder.save(model / "best")
    dev = {"step": best_step, "epoch": 0, "dev": {"STS2017/track5.en-en": 61.5}}
    (model / "best" / "dev.json").write_text(json.dumps(dev) + "\n")
    if finished:
        encoder.save(model)
    if checkpoint:
        encoder.save(model / "checkpoint")
    (model / "metrics.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))
    settings = {"encoder": encoder_kind or kind, "dim": dim, "batch_size": 100, "max_steps": 0,
                "time_budget_minutes": 25.0}
    (model / "train_config.json").write_text(json.dumps({**settings, **({"device": device} if device else {})}))
    (root / kind / "train.log").write_text(train_log)
    sts.write_results([sts.STSResult("STS2012-test/MSRpar", 750, 0.41, 0.4),
                       sts.STSResult("STS2017/track5.en-en", 250, 0.62, 0.6)], [], root / kind / "sts")
    transfer.write_results([transfer.TransferResult(kind, "mr", "accuracy", 0.7)], root / kind / "transfer", kind)
    (root / kind / "speed.md").write_text(f"| encoder | sentences/s |\n|---|---:|\n| {kind} | {speed} |\n")
    return root / kind


def training(last_step: int) -> list[dict]:
    """Metrics lines of a run logged every 100 updates with a dev evaluation every 200, to `last_step`."""
    lines = []
    for step in range(100, last_step + 1, 100):
        lines.append({"step": step, "epoch": 0, "loss": 0.5, "megabatch": 1, "elapsed_s": step / 10})
        if step % 200 == 0:
            lines.append({"step": step, "epoch": 0, "dev": {"STS2017/track5.en-en": 60.0}})
    return lines


def suite_table(*roots: Path) -> list[dict]:
    """The rows of `bench_encoders.py suite-table --root ROOT...`, each a dict by the header's cells, in order."""
    result = subprocess.run([sys.executable, str(SCRIPT), "suite-table", "--root", *map(str, roots)],
                            capture_output=True, text=True, timeout=300, env={"OMP_NUM_THREADS": "1",
                                                                               "PATH": "/usr/bin:/bin"})
    assert result.returncode == 0, result.stderr
    table = [line.strip("|").split("|") for line in result.stdout.splitlines()]
    header = [cell.strip() for cell in table[0]]
    return [dict(zip(header, (cell.strip() for cell in cells))) for cells in table[2:]]


def test_a_diverged_run_is_shown_at_its_best_encoder_with_the_update_it_diverged_after(tmp_path):
    progress = "train irnn:  12%|#2        | 1200/10000 [10:00<1:13:20, 2.00update/s, loss=0.5]\r"
    suite_run(tmp_path, "word", 16, [*training(600), {"done": True, "step": 600, "epoch": 1, "elapsed_s": 60.0,
                                                      "stopped": "patience"}], 200, progress, finished=True)
    # diverged before the loop wrote its last line: only the suite's train.log says so
    suite_run(tmp_path, "irnn", 24, training(1200), 1000, progress + "\n" + TRAIN_LOG_ERROR + "\n")
    # diverged with the line; its checkpoint (finite weights of update 400) kept for a resume at a lower lr
    suite_run(tmp_path, "lstm", 20, [*training(400), {"done": False, "stopped": "diverged", "step": 417, "epoch": 0}],
              400, progress, checkpoint=True)
    # killed, and its checkpoint folder deleted
    suite_run(tmp_path, "gran", 12, training(300), 200, progress)

    rows = {row["encoder"]: row for row in suite_table(tmp_path)}
    assert list(rows) == ["gran", "irnn", "lstm", "word"]
    assert "device" not in rows["word"], "one device (none recorded): no device column"
    stop = "updates (best), stop"
    assert [rows[kind]["dim"] for kind in rows] == ["12", "24", "20", "16"], "best/'s dim where model/ has none"
    assert rows["word"][stop] == "600 (200), patience" and rows["word"]["train s"] == "60"
    assert rows["irnn"][stop] == "1,209 (1,000), diverged at 1209"
    assert rows["lstm"][stop] == "417 (400), diverged at 417"
    assert rows["gran"][stop] == "300 (200), unfinished, checkpoint removed"
    for kind, row in rows.items():
        assert (row["STS12"], row["STS17"], row["MR"], row["sent/s"]) == ("41.0", "62.0", "70.0", "12,345"), kind
        assert kind == "word" or row["train s"] == "", "no done line, no training seconds"


def test_the_rows_of_two_roots_are_one_table_by_encoder_with_the_device_each_trained_on(tmp_path):
    done = [*training(400), {"done": True, "step": 400, "epoch": 1, "elapsed_s": 40.0, "stopped": "patience"}]
    cpu, gpu = tmp_path / "cpu" / "wmt-bt", tmp_path / "gpu" / "wmt-bt"
    suite_run(cpu, "word", 16, done, 200, "", finished=True, device="cpu", speed="300")
    suite_run(cpu, "gran", 12, done, 400, "", finished=True, device="auto", speed="250")
    suite_run(gpu, "word", 20, done, 400, "", finished=True, device="cuda", speed="")
    suite_run(gpu, "lstm", 24, done, 200, "", finished=True)
    recorded = [*done[:-1], {**done[-1], "device": "cuda"}]      # the loop's done line names the device it used
    suite_run(gpu, "gran-3", 8, recorded, 200, "", finished=True, device="auto")

    rows = suite_table(cpu, gpu)
    assert [(row["encoder"], row["device"], row["dim"]) for row in rows] == [
        ("gran", "?", "12"), ("gran-3", "cuda", "8"), ("lstm", "?", "24"), ("word", "cpu", "16"),
        ("word", "cuda", "20")], \
        "by encoder name, the roots' order within one; 'auto': the done line's device, else '?'"
    assert [row["sent/s"] for row in rows] == ["250", "12,345", "12,345", "300", ""], "each row's own root's speed"
    assert [row["updates (best), stop"] for row in rows] == [
        "400 (400), patience", "400 (200), patience", "400 (200), patience", "400 (200), patience",
        "400 (400), patience"]
    assert rows[2]["papers (their data and budget)"].startswith("LSTMavg (P18)")


def test_a_variants_directory_gets_the_papers_numbers_of_the_encoder_it_trained(tmp_path):
    done = [*training(400), {"done": True, "step": 400, "epoch": 1, "elapsed_s": 40.0, "stopped": "patience"}]
    suite_run(tmp_path, "irnn", 8, done, 200, "", finished=True)
    suite_run(tmp_path, "irnn-lc1", 8, done, 400, "", finished=True, encoder_kind="irnn")
    rows = {row["encoder"]: row for row in suite_table(tmp_path)}
    papers = "papers (their data and budget)"
    assert rows["irnn-lc1"][papers] == rows["irnn"][papers] and rows["irnn"][papers].startswith("iRNN (ICLR'16)")
    assert rows["irnn-lc1"]["updates (best), stop"] == "400 (400), patience"
