"""Scaling of `paranmt build` (issue 7): end-to-end time and peak memory at growing input sizes, the share of each
stage, and single-process vs multi-process local runs. Every run is the real CLI in a subprocess, as a user runs it.

    .venv/bin/python benchmarks/bench_scale.py [--sizes 1000,4000,16000] [--split-sizes 1000,4000]
        [--speedup-size 4000] [--stages read,clean,translate,score,parse] [--set translate.threads=1 ...]
        [--work work/bench_scale] [--rerun]

Input: the first N pairs of the shared bitext (../shared/data/bitext/cs-en: the WMT news test sets newstest20*
in name order, then the other files), written as one Moses file pair per size.
Runs (each `nice -n 10`, OMP_NUM_THREADS=1 per process; results appended to WORK/results.jsonl, a rerun skips what
is recorded there, so an interrupted benchmark resumes):
  e2e-N        `paranmt build --stages STAGES` on N pairs, default local runner (DirectRunner multi-processing,
               one worker per core)
  split-N-S    the same N pairs as separate jobs, one per stage S, each over the previous job's shards
               (`--stages read,clean`, then `--format shards --stages translate`, then score, then parse): the
               time of each stage alone, i.e. its share, and its throughput
  read-N       `--stages read` on N pairs: the fixed cost of one job (interpreter, imports, Beam start-up,
               reading, manifest), subtracted from each split job to get its stage's own time
  single-N-rK  e2e on N pairs in one process (`--runner DirectRunner --direct_running_mode in_memory`) and
  multi-N-rK   the default multi-process runner, alternated K = 1..--repeat times (so both see the same
               contention), for the multi-process speed-up
Measured: wall seconds; CPU seconds (user + system of the CLI and its waited-for descendants, from os.wait4:
the work done, which contention does not inflate much); peak memory = the largest sum of RSS over the whole process tree (the CLI and its SDK
worker processes), sampled every 0.2 s from /proc; the largest single process (ru_maxrss of os.wait4 on the CLI:
the largest of it and its waited-for descendants); the 1-minute load average before each run (other jobs on the
machine). Fit: seconds = a + b * N by least squares over the e2e runs (a = fixed cost, b = seconds per pair; linear
scaling means small residuals); memory should stay flat in N.
"""
from __future__ import annotations

import glob
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

from paranmt.pipelines.cli import CommandLineParser, exit_code

REPO = Path(__file__).resolve().parents[1]
BITEXT = REPO.parent / "shared" / "data" / "bitext" / "cs-en"
MODEL_STAGES = ("translate", "score", "parse")


def write_input(n: int, directory: Path) -> Path:
    """The first `n` pairs of the shared bitext (newstest20*.{ces,eng} in name order, then the other files) as
    directory/bench.{cs,en}; returns the prefix."""
    prefix = directory / "bench"
    if prefix.with_suffix(".en").exists():
        return prefix
    directory.mkdir(parents=True, exist_ok=True)
    cs, en = [], []
    news = sorted(glob.glob(str(BITEXT / "newstest20*.ces")))
    for source in news + sorted(set(glob.glob(str(BITEXT / "*.ces"))) - set(news)):
        with open(source, encoding="utf-8") as a, open(source[:-4] + ".eng", encoding="utf-8") as b:
            for x, y in zip(a, b):
                cs.append(x)
                en.append(y)
                if len(cs) == n:
                    break
        if len(cs) == n:
            break
    if len(cs) < n:
        raise SystemExit(f"only {len(cs)} pairs in {BITEXT}; ask for fewer")
    prefix.with_suffix(".cs").write_text("".join(cs), encoding="utf-8")
    prefix.with_suffix(".en").write_text("".join(en), encoding="utf-8")
    return prefix


def tree_rss_kb(root: int) -> int:
    """Sum of VmRSS (kB) over `root` and all its descendants, from /proc."""
    children: dict[int, list[int]] = {}
    for stat in glob.glob("/proc/[0-9]*/stat"):
        try:
            with open(stat) as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(stat.split("/")[2]))
    total, stack = 0, [root]
    while stack:
        pid = stack.pop()
        stack.extend(children.get(pid, []))
        try:
            with open(f"/proc/{pid}/status") as handle:
                for line in handle:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
                        break
        except OSError:
            pass
    return total


def measure(command: list[str], log: Path) -> dict:
    """Run `command` (niced, one thread per process); wall seconds, peak tree RSS, max single-process RSS."""
    env = {**os.environ, "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1", "TOKENIZERS_PARALLELISM": "false"}
    load = os.getloadavg()[0]
    peak = 0
    start = time.perf_counter()
    with open(log, "w") as out:
        process = subprocess.Popen(["nice", "-n", "10", *command], stdout=out, stderr=subprocess.STDOUT, env=env,
                                   cwd=REPO)
        done = threading.Event()

        def sample():
            nonlocal peak
            while not done.wait(0.2):
                peak = max(peak, tree_rss_kb(process.pid))

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = code = os.waitstatus_to_exitcode(status)
        done.set()
        sampler.join()
    seconds = time.perf_counter() - start
    if code != 0:
        raise SystemExit(f"failed ({code}): {' '.join(command)}\nlast lines of {log}:\n"
                         + "\n".join(log.read_text().splitlines()[-15:]))
    return {"seconds": round(seconds, 2), "cpu_seconds": round(usage.ru_utime + usage.ru_stime, 1),
            "peak_tree_mb": round(peak / 1024, 1),
            "max_process_mb": round(usage.ru_maxrss / 1024, 1), "load_before": round(load, 2)}


def build_command(input_args: list[str], output: Path, stages: str, sets: list[str], beam: list[str]) -> list[str]:
    command = [sys.executable, "-m", "paranmt.pipelines.cli", "build", *input_args, "--output", str(output),
               "--stages", stages]
    for item in sets:
        command += ["--set", item]
    return command + beam


def main() -> None:
    parser = CommandLineParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,4000,16000")
    parser.add_argument("--split-sizes", default="1000,4000")
    parser.add_argument("--speedup-size", type=int, default=4000)
    parser.add_argument("--repeat", type=int, default=2, help="alternating single/multi pairs of runs")
    parser.add_argument("--stages", default="read,clean,translate,score,parse")
    parser.add_argument("--set", action="append", default=[], help="passed to every `paranmt build`")
    parser.add_argument("--work", default=str(REPO / "work" / "bench_scale"))
    parser.add_argument("--rerun", action="store_true", help="ignore recorded results")
    args = parser.parse_args()
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    results_file = work / "results.jsonl"
    recorded = {}
    if results_file.exists() and not args.rerun:
        for line in results_file.read_text().splitlines():
            entry = json.loads(line)
            recorded[entry["run"]] = entry
    stages = args.stages.split(",")
    tag = f"{args.stages}|{'|'.join(args.set)}"

    def run(name: str, command: list[str], pairs: int) -> dict:
        key = f"{name}@{tag}"
        if key in recorded:
            return recorded[key]
        output = work / "out" / name
        subprocess.run(["rm", "-rf", str(output)], check=True)
        print(f"[{time.strftime('%H:%M:%S')}] {name}: {' '.join(command[2:])}", flush=True)
        entry = {"run": key, "name": name, "pairs": pairs, **measure(command, work / f"{name}.log")}
        metrics = json.loads((output / "metrics.json").read_text())
        entry.update(read=metrics["read"], written=metrics["written"], rejected=metrics["rejected"])
        print(f"    {entry}", flush=True)
        with open(results_file, "a") as handle:
            handle.write(json.dumps(entry) + "\n")
        recorded[key] = entry
        return entry

    def bitext_args(n: int) -> list[str]:
        prefix = write_input(n, work / f"input-{n}")
        return ["--input", str(prefix), "--format", "moses", "--suffixes", "cs,en"]

    sizes = [int(s) for s in args.sizes.split(",") if s]
    e2e = {n: run(f"e2e-{n}", build_command(bitext_args(n), work / "out" / f"e2e-{n}", args.stages, args.set, []),
                  n) for n in sizes}
    split, overhead = {}, {}
    for n in [int(s) for s in args.split_sizes.split(",") if s]:
        overhead[n] = run(f"read-{n}", build_command(bitext_args(n), work / "out" / f"read-{n}", "read", [], []), n)
        first = [s for s in stages if s not in MODEL_STAGES]
        jobs = [(",".join(first), bitext_args(n))]
        previous = f"split-{n}-{'+'.join(first)}"
        for stage in [s for s in stages if s in MODEL_STAGES]:
            jobs.append((stage, ["--input", str(work / "out" / previous), "--format", "shards"]))
            previous = f"split-{n}-{stage}"
        split[n] = []
        for stage_list, input_args in jobs:
            name = f"split-{n}-{stage_list.replace(',', '+')}"
            split[n].append((stage_list, run(name, build_command(input_args, work / "out" / name, stage_list,
                                                                 args.set, []), n)))
    speedup = []
    if args.speedup_size:
        n = args.speedup_size
        for k in range(1, args.repeat + 1):
            multi = run(f"multi-{n}-r{k}", build_command(bitext_args(n), work / "out" / f"multi-{n}-r{k}",
                                                         args.stages, args.set, []), n)
            single = run(f"single-{n}-r{k}", build_command(bitext_args(n), work / "out" / f"single-{n}-r{k}",
                                                           args.stages, args.set, ["--runner", "DirectRunner",
                                                                                   "--direct_running_mode",
                                                                                   "in_memory"]), n)
            speedup.append((single, multi))
    report(args, e2e, overhead, split, speedup)


def report(args, e2e: dict, overhead: dict, split: dict, speedup: list[tuple[dict, dict]]) -> None:
    sizes = sorted(e2e)
    xs, ys = sizes, [e2e[n]["seconds"] for n in sizes]
    mean_x, mean_y = sum(xs) / len(xs), sum(ys) / len(ys)
    denominator = sum((x - mean_x) ** 2 for x in xs)
    slope = sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys)) / denominator if denominator else 0.0
    intercept = mean_y - slope * mean_x
    base = e2e[sizes[0]]
    print(f"\n### End-to-end `paranmt build --stages {args.stages}` (DirectRunner, 2 processes)\n")
    print("| pairs | seconds | pairs/s | time ratio vs 1st | size ratio | peak memory (tree) MB | "
          "largest process MB | fit a+b*N residual s | load avg before |")
    print("|---|---|---|---|---|---|---|---|---|")
    for n in sizes:
        r = e2e[n]
        print(f"| {n} | {r['seconds']:.1f} | {n / r['seconds']:.1f} | {r['seconds'] / base['seconds']:.2f} | "
              f"{n / sizes[0]:.0f} | {r['peak_tree_mb']:.0f} | {r['max_process_mb']:.0f} | "
              f"{r['seconds'] - (intercept + slope * n):+.1f} | {r['load_before']} |")
    print(f"\nfit: seconds = {intercept:.1f} + {slope * 1000:.2f} * N/1000  (fixed cost {intercept:.1f} s, "
          f"marginal {1 / slope if slope else float('inf'):.1f} pairs/s)")
    for n, jobs in split.items():
        print(f"\n### Stages as separate jobs, {n} pairs (stage time = job time - time of a `--stages read` job "
              f"on the same pairs, {overhead[n]['seconds']:.1f} s)\n")
        print("| job | seconds | stage seconds | share of stage time | stage pairs/s | stage CPU seconds | "
              "stage pairs per CPU-second | peak memory MB |")
        print("|---|---|---|---|---|---|---|---|")
        own = [(stage, max(r["seconds"] - overhead[n]["seconds"], 0.01), r) for stage, r in jobs]
        total = sum(seconds for _, seconds, _ in own)
        for stage, seconds, r in own:
            if "cpu_seconds" in r and "cpu_seconds" in overhead[n]:
                cpu = max(r["cpu_seconds"] - overhead[n]["cpu_seconds"], 0.01)
                cpu_text = f"{cpu:.1f} | {n / cpu:.1f}"
            else:
                cpu_text = "- | -"
            print(f"| {stage} | {r['seconds']:.1f} | {seconds:.1f} | {seconds / total:.0%} | {n / seconds:.1f} | "
                  f"{cpu_text} | {r['peak_tree_mb']:.0f} |")
        print(f"| sum of jobs | {sum(r['seconds'] for _, r in jobs):.1f} | {total:.1f} | | | | | |")
        if n in e2e:
            print(f"| one fused job (e2e-{n}) | {e2e[n]['seconds']:.1f} | | | | | | {e2e[n]['peak_tree_mb']:.0f} |")
    if speedup:
        print(f"\n### Single vs multi-process, {speedup[0][0]['pairs']} pairs (alternated runs)\n")
        print("| run | runner | seconds | CPU seconds | CPU/wall | wall speed-up (single/multi) | peak memory MB | "
              "load avg before |")
        print("|---|---|---|---|---|---|---|---|")
        for k, (single, multi) in enumerate(speedup, 1):
            for label, r in (("in_memory (1 process)", single), ("multi_processing (2 workers)", multi)):
                ratio = f"{single['seconds'] / multi['seconds']:.2f}" if r is multi else "1.00"
                print(f"| {k} | {label} | {r['seconds']:.1f} | {r.get('cpu_seconds', '-')} | "
                      f"{r.get('cpu_seconds', 0) / r['seconds']:.2f} | {ratio} | {r['peak_tree_mb']:.0f} | "
                      f"{r['load_before']} |")


if __name__ == "__main__":
    sys.exit(exit_code(main))
