"""benchmarks/bench_train_limit.py on a few real pairs: a row per kind with positive times and counted FLOPs (the
fused LSTM layer, which torch's FLOP counter does not know, counted by its formula: an `lstm` step counts more than a
word-averaging one), the matmul row, and the fused reference's ratio; in-place addmm_ counted as addmm."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def test_the_benchmark_prints_a_row_per_kind(shared_data, tmp_path):
    lines = (shared_data / "bitext" / "cs-en" / "newstest2016.eng").read_text(encoding="utf-8").splitlines()
    pairs = tmp_path / "pairs.tsv"
    pairs.write_text("".join(f"{a}\t{b}\n" for a, b in zip(lines[:60], lines[60:120])), encoding="utf-8")
    result = subprocess.run([sys.executable, str(REPO / "benchmarks" / "bench_train_limit.py"), "--input", str(pairs),
                             "--kinds", "word", "lstm", "--megabatch", "2", "--batch-size", "10", "--dim", "16",
                             "--work", str(tmp_path / "work")], capture_output=True, text=True, timeout=300,
                            env={"OMP_NUM_THREADS": "1", "PATH": "/usr/bin:/bin"})
    assert result.returncode == 0, result.stderr
    rows = {line.split(" | ")[0].strip("| "): line.strip("|").split("|") for line in result.stdout.splitlines()
            if line.startswith("| ") and not line.startswith("| kind")}
    assert set(rows) == {"word", "lstm", "matmul 1024² fp32"}, result.stdout
    # wall s, CPU s, pairs/CPU-s, GFLOP, GFLOP/s, % matmul, x ref
    word, lstm = ([float(cell.strip().rstrip("%")) for cell in rows[kind][2:]] for kind in ("word", "lstm"))
    assert all(value > 0 for value in word[:3] + lstm + word[6:]), result.stdout
    assert lstm[3] > word[3], "the LSTM layer's FLOPs are counted"
    assert float(rows["matmul 1024² fp32"][6]) > 0


def test_in_place_addmm_is_counted():
    """The stepped cells' W_h h_{t-1} is an in-place `addmm_`, which torch's FLOP table lacks: counted as addmm."""
    import importlib.util

    import torch
    from torch.utils.flop_counter import FlopCounterMode

    spec = importlib.util.spec_from_file_location("bench_train_limit", REPO / "benchmarks" / "bench_train_limit.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    z, h, weight = torch.zeros(4, 6), torch.ones(4, 3), torch.ones(6, 3)
    with FlopCounterMode(display=False, custom_mapping=bench.FLOP_FORMULAS) as counter:
        z.addmm_(h, weight.t())
        torch.addmm(z, h, weight.t())
    assert counter.get_total_flops() == 2 * (2 * 4 * 3 * 6)
