"""Reader + writer throughput on the full shared bitext (46,128 real cs-en pairs), as ratios against a naive
baseline run in the same process.

    .venv/bin/python benchmarks/bench_read_write.py [--bitext ../shared/data/bitext/cs-en] [--repeat 4]

Each step reads the full bitext once; the best of --repeat runs is reported (pairs/s):
  baseline      plain Python: open both files, zip lines, build a pyarrow table, write one zstd Parquet file
  reader        paranmt's streaming reader alone (transforms/io/bitext.read_file, rows + accounting, no Beam)
  build-read    `paranmt build --stages read` (Beam DirectRunner, multi-processing, atomic shards, accounting)
  build-clean   `paranmt build --stages read,clean` (adds Moses normalization, tokenization, checks)
"""
from __future__ import annotations

import glob
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from paranmt.pipelines.cli import CommandLineParser, exit_code
from paranmt.transforms.io.bitext import read_file
from paranmt.transforms.io.read_plan import ReadOptions, plan_inputs

REPO = Path(__file__).resolve().parents[1]


def baseline(prefixes: list[str], out: str) -> int:
    cs, en = [], []
    for prefix in prefixes:
        with open(prefix + ".ces", encoding="utf-8") as a, open(prefix + ".eng", encoding="utf-8") as b:
            for x, y in zip(a, b):
                cs.append(x.rstrip("\n"))
                en.append(y.rstrip("\n"))
    pq.write_table(pa.table({"cs": cs, "ref": en}), out, compression="zstd")
    return len(cs)


def reader(sources: list[str]) -> int:
    options = ReadOptions(format="moses", suffixes=("ces", "eng"))
    n = 0
    for unit in plan_inputs(sources, "moses", ("ces", "eng")):
        for _, record in read_file(unit, options):
            n += "_count" not in record
    return n


def build(bitext: str, out: str, stages: str) -> int:
    command = [sys.executable, "-m", "paranmt.pipelines.cli", "build", "--input", f"{bitext}/*", "--format",
               "moses", "--suffixes", "ces,eng", "--output", out, "--stages", stages]
    subprocess.run(command, check=True, capture_output=True)
    return 46128


def timed(fn, *args) -> tuple[float, int]:
    start = time.perf_counter()
    n = fn(*args)
    return time.perf_counter() - start, n


def main() -> None:
    parser = CommandLineParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bitext", default=str(REPO.parent / "shared" / "data" / "bitext" / "cs-en"))
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    sources = sorted(glob.glob(f"{args.bitext}/*.ces"))
    prefixes = [s[: -len(".ces")] for s in sources]
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, fn, fn_args in [
            ("baseline", baseline, (prefixes, os.path.join(tmp, "baseline.parquet"))),
            ("reader", reader, (sources,)),
            ("build-read", build, (args.bitext, os.path.join(tmp, "read"), "read")),
            ("build-clean", build, (args.bitext, os.path.join(tmp, "clean"), "read,clean")),
        ]:
            best = float("inf")
            for attempt in range(args.repeat):
                for leftover in glob.glob(os.path.join(tmp, name.split("-")[-1])):
                    subprocess.run(["rm", "-rf", leftover], check=True)
                seconds, n = timed(fn, *fn_args)
                best = min(best, seconds)
            results[name] = (n, best)
    base = results["baseline"][0] / results["baseline"][1]
    print(f"| step | pairs | best seconds | pairs/s | ratio vs baseline |")
    print(f"|---|---|---|---|---|")
    for name, (n, seconds) in results.items():
        print(f"| {name} | {n} | {seconds:.2f} | {n / seconds:,.0f} | {n / seconds / base:.3f} |")


if __name__ == "__main__":
    sys.exit(exit_code(main))
