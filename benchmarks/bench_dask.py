"""Issue 23 benchmark: `paranmt build` on `--runner dask --dask-workers 2` (a LocalCluster of 2 worker processes)
against the DirectRunner with 2 worker processes, side by side on this machine.

    .venv/bin/python benchmarks/bench_dask.py [--clean-sizes 16000,128000] [--all-sizes 16000] [--repeat 2]
                                              [--models stand-ins|shipped]

For each size: `read,clean` and every stage, the two runners alternating (direct, dask, direct, dask, ...) so that
both see the same machine load. Every stage: `--models stand-ins` (default) is `read,clean,translate,score,parse`
with bench_flat's stand-in models (translate = tests/fixtures/nmt-tiny, score = assets/encoder-sp, parse =
assets/parser-en); `--models shipped` is configs/demo.yaml's stages and shipped models (read, clean, xsim,
translate with assets/nmt-cs-en at beam 12, score, parse; issue 34). Each run is the real CLI in a subprocess
(`bench_scale.measure`: nice 10, OMP_NUM_THREADS=1, wall and CPU seconds of the process tree, peak RSS of the whole
tree sampled every 0.2 s, the load average before the run). Inputs: bench_flat's repeated shared bitext. Results go
to WORK/results.jsonl and a Markdown table (Dask / Direct ratios of pairs per wall second, of CPU seconds and of
peak tree memory, medians over the repeats; whether the last runs of the two wrote the same shard and rejects
files byte for byte).
"""
from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_flat import STAND_INS, build, record, write_repeated  # noqa: E402
from bench_scale import REPO  # noqa: E402

from paranmt.pipelines.cli import CommandLineParser, exit_code  # noqa: E402

RUNNERS = {"direct": ["--runner=DirectRunner", "--direct_running_mode=multi_processing", "--direct_num_workers=2"],
           "dask": ["--runner", "dask", "--dask-workers", "2"]}
ALL_STAGES = {"stand-ins": ("read,clean,translate,score,parse", STAND_INS),
              "shipped": ("read,clean,xsim,translate,score,parse", ["--config", str(REPO / "configs" / "demo.yaml")])}


def shard_files(out: Path) -> dict[str, bytes]:
    """Every shard (`*.parquet`) and rejects file (`*.pq`) of a build output: relative path -> bytes."""
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted([*out.rglob("*.parquet"),
                                                                           *out.rglob("*.pq")])}


def main() -> None:
    parser = CommandLineParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clean-sizes", default="16000,128000")
    parser.add_argument("--all-sizes", default="16000")
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--models", choices=sorted(ALL_STAGES), default="stand-ins")
    parser.add_argument("--work", default=str(REPO / "work" / "bench_dask"))
    args = parser.parse_args()
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    every_stage, models = ALL_STAGES[args.models]
    rows = []
    for stages, sizes in (("read,clean", args.clean_sizes), (every_stage, args.all_sizes)):
        for n in [int(s) for s in sizes.split(",") if s]:
            prefix = write_repeated(n, work / f"in-{n}")
            runs = {name: [] for name in RUNNERS}
            for attempt in range(args.repeat):
                for name, runner in RUNNERS.items():
                    out = work / "out" / f"{name}-{stages}-{n}"
                    extra = (models if "translate" in stages else []) + runner
                    runs[name].append(record(work, f"{name} {stages} {n} #{attempt + 1}", n,
                                             build(prefix, out, stages, extra), out))
            direct, dask = (runs[name] for name in RUNNERS)
            rate = {name: statistics.median(n / r["seconds"] for r in runs[name]) for name in RUNNERS}
            cpu = {name: statistics.median(r["cpu_seconds"] for r in runs[name]) for name in RUNNERS}
            memory = {name: statistics.median(r["peak_tree_mb"] for r in runs[name]) for name in RUNNERS}
            same = (shard_files(work / "out" / f"direct-{stages}-{n}")
                    == shard_files(work / "out" / f"dask-{stages}-{n}"))
            loads = [r["load_before"] for r in direct + dask]
            rounds = ", ".join(f"{d['cpu_seconds'] / r['cpu_seconds']:.2f}" for r, d in zip(direct, dask))
            rows.append(f"| {stages} | {n:,} | {args.repeat} + {args.repeat} | {rate['dask'] / rate['direct']:.2f} | "
                        f"{cpu['dask'] / cpu['direct']:.2f} | "
                        f"{rounds} | "
                        f"{memory['dask'] / memory['direct']:.2f} | {'yes' if same else 'NO'} | "
                        f"{min(loads):.1f}-{max(loads):.1f} |")
            assert all(r["read"] == r["written"] + r["rejected"] == n for r in direct + dask), "accounting"
    print("| stages | pairs | runs | pairs per wall-s, Dask / Direct | CPU s, Dask / Direct (medians) | "
          "CPU s ratio per round | peak memory, Dask / Direct | same shards | load |")
    print("|---|---|---|---|---|---|---|---|---|")
    print("\n".join(rows))
    with open(work / "table.md", "w") as handle:
        handle.write("\n".join(rows) + "\n")
    print(json.dumps({"work": str(work)}))


if __name__ == "__main__":
    sys.exit(exit_code(main))
