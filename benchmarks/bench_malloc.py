"""CPU training with and without `reuse_freed_memory` (models/device.py): glibc malloc's mmap off and freed heap
kept, against glibc's defaults (`PARANMT_MALLOC=system`), on the same `paranmt probe` run side by side.

    python benchmarks/bench_malloc.py [--input CORPUS] [--pairs 2000] [--models lstm] [--repeats 1]

Each setting runs `paranmt probe --input CORPUS --pairs N --models M --datasets STS2017/track5.en-en` in a child
process with one thread; reported per setting: user and kernel CPU seconds of the child (resource.getrusage), its
peak RSS, and the STS2017 Pearson (the same seed and pairs: it must not change). CORPUS is anything `paranmt
train` reads; the default is the wmt-bt training part that benchmarks/wmt_bt_corpus.sh builds.
"""
from __future__ import annotations

import csv
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from paranmt.pipelines.cli import CommandLineParser, exit_code

ROOT = Path(__file__).resolve().parents[1]
SETTINGS = {"reuse (default)": "", "glibc defaults (PARANMT_MALLOC=system)": "system"}


def run(setting: str, args, output: Path) -> dict:
    env = {**os.environ, "PARANMT_MALLOC": setting, "OMP_NUM_THREADS": "1"}
    child = subprocess.Popen([sys.executable, "-m", "paranmt.pipelines.cli", "probe", "--input", args.input,
                              "--pairs", str(args.pairs), "--models", *args.models, "--sts-dir",
                              str(ROOT.parent / "shared/data/sts"), "--datasets", "STS2017/track5.en-en",
                              "--output", str(output)], env=env, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)          # this child's own CPU times and peak RSS
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"bench_malloc: the probe ({setting or 'reuse'}) failed: rerun it without this script to see why")
    with open(output / "results.csv") as f:
        pearson = {row["model"]: float(row["pearson"]) for row in csv.DictReader(f)}
    return {"user": usage.ru_utime, "sys": usage.ru_stime, "rss_mb": usage.ru_maxrss / 1024, "pearson": pearson}


def main() -> None:
    parser = CommandLineParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--input", default="work/wmt-bt/scored-train")
    parser.add_argument("--pairs", type=int, default=2000)
    parser.add_argument("--models", nargs="+", default=["lstm"])
    parser.add_argument("--repeats", type=int, default=1)
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        for repeat in range(args.repeats):
            for name, setting in SETTINGS.items():
                result = run(setting, args, Path(scratch) / f"{repeat}-{setting or 'reuse'}")
                rows.append((name, result))
                print(f"{name}: user {result['user']:.1f} s, kernel {result['sys']:.1f} s, peak RSS "
                      f"{result['rss_mb']:.0f} MB, STS2017 {result['pearson']}", flush=True)
    cpu = {name: sum(r["user"] + r["sys"] for n, r in rows if n == name) for name in SETTINGS}
    base, reuse = cpu["glibc defaults (PARANMT_MALLOC=system)"], cpu["reuse (default)"]
    print(f"CPU seconds (user + kernel): glibc defaults {base:.1f}, reuse {reuse:.1f}: {base / reuse:.2f}x less")


if __name__ == "__main__":
    sys.exit(exit_code(main))
