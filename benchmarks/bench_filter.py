"""`paranmt filter` throughput and peak memory on synthetic shards of growing size, against an in-memory baseline
run in the same session on the same files.

    .venv/bin/python benchmarks/bench_filter.py [--rows 500000,1000000,2000000] [--shard-rows 50000]
                                                [--workdir work/bench_filter] [--runner-args "..."]

Synthetic corpus (SYNTHETIC values, for speed measurements only): shards of PAIR_SCHEMA, `--shard-rows` rows each;
ref / bt are 3-40 words drawn from a 5,000-word synthetic vocabulary, para_score ~ Beta(5, 2) * 2 - 1 clipped to
[-1, 1], trigram_overlap ~ U(0, 1), bt_score ~ -Exp(1), lengths = word counts, 1% of rows duplicate an earlier pair.
Generated once per size and reused.

Steps per size (all read the same shards, all write the kept rows as Parquet):
  baseline     pyarrow: read every shard into ONE table, exact 0.8 quantile of para_score, vectorized mask
               (para >= q, both sides <= 30 tokens), write one Parquet file. Memory grows with the corpus.
  paranmt-5m   `paranmt filter --config paranmt-5m` (quantile sketch pass + write pass), default local runner
               (DirectRunner, multi-processing, 2 workers), shards streamed in 8,192-row batches.
  5m+dedup+sample  the same plus `--dedup pair --sample 100000` (two more passes over the shards).
Peak memory = the largest summed RSS of the benchmark's child process tree, sampled every 0.2 s from /proc.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from paranmt.schemas.records import PAIR_SCHEMA

REPO = Path(__file__).resolve().parents[1]
VOCABULARY = 5000


def synthetic_table(rng: np.random.Generator, start: int, rows: int, words: np.ndarray) -> pa.Table:
    ref_len = rng.integers(3, 41, rows)
    bt_len = np.clip(ref_len + rng.integers(-4, 5, rows), 1, 45)
    refs = [" ".join(words[rng.integers(0, VOCABULARY, n)]) + " ." for n in ref_len]
    bts = [" ".join(words[rng.integers(0, VOCABULARY, n)]) + " ." for n in bt_len]
    duplicates = np.nonzero(rng.random(rows) < 0.01)[0]
    for index in duplicates[duplicates > 0]:
        source = int(rng.integers(0, index))
        refs[index], bts[index], ref_len[index], bt_len[index] = refs[source], bts[source], ref_len[source], \
            bt_len[source]
    ids = [f"synthetic:bench:{start + i + 1}" for i in range(rows)]
    columns = {
        "id": ids, "corpus": ["synthetic"] * rows, "cs": ["(synthetic)"] * rows, "ref": refs, "bt": bts,
        "bt_score": (-rng.exponential(1.0, rows)).astype(np.float32),
        "trigram_overlap": rng.random(rows).astype(np.float32),
        "para_score": np.clip(rng.beta(5, 2, rows) * 2 - 1, -1, 1).astype(np.float32),
        "ref_len": (ref_len + 1).astype(np.int16), "bt_len": (bt_len + 1).astype(np.int16),
    }
    arrays = [pa.array(columns[f.name], f.type) if f.name in columns else pa.nulls(rows, f.type)
              for f in PAIR_SCHEMA]
    return pa.Table.from_arrays(arrays, schema=PAIR_SCHEMA)


def make_corpus(directory: Path, rows: int, shard_rows: int) -> Path:
    done = directory / "_complete"
    if done.exists():
        return directory
    directory.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(rows)
    words = np.array([f"w{i}" for i in range(VOCABULARY)])
    metadata = {b"paranmt.schema_version": b"1", b"paranmt.config_hash": b"synthetic-benchmark"}
    for number, start in enumerate(range(0, rows, shard_rows)):
        table = synthetic_table(rng, start, min(shard_rows, rows - start), words)
        pq.write_table(table.replace_schema_metadata(metadata), directory / f"synthetic-{number:05d}.parquet",
                       compression="zstd")
    done.write_text(str(rows))
    return directory


def baseline(input_dir: str, output: str) -> None:
    """Runs in a child process (so its memory is measured like the pipeline's)."""
    table = pq.read_table(sorted(str(p) for p in Path(input_dir).glob("*.parquet")))
    para = table.column("para_score").to_numpy(zero_copy_only=False)
    threshold = float(np.quantile(para, 0.8, method="nearest"))
    mask = pc.and_(pc.and_(pc.greater_equal(table.column("para_score"), threshold),
                           pc.less_equal(table.column("ref_len"), 30)), pc.less_equal(table.column("bt_len"), 30))
    pq.write_table(table.filter(mask), output, compression="zstd")


def tree_rss(pid: int) -> int:
    """Summed RSS (bytes) of `pid` and all its descendants, from /proc."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as handle:
                    ppid = int(handle.read().rsplit(")", 1)[1].split()[1])
                children.setdefault(ppid, []).append(int(entry))
            except (OSError, IndexError, ValueError):
                continue
    total, stack = 0, [pid]
    while stack:
        current = stack.pop()
        try:
            with open(f"/proc/{current}/statm") as handle:
                total += int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
        except OSError:
            pass
        stack.extend(children.get(current, []))
    return total


def measured(command: list[str]) -> tuple[float, int]:
    """(seconds, peak summed RSS bytes of the process tree) of a command."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    peak = [0]

    def sample():
        while process.poll() is None:
            peak[0] = max(peak[0], tree_rss(process.pid))
            time.sleep(0.2)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    _, error = process.communicate()
    sampler.join()
    if process.returncode:
        raise RuntimeError(f"{command} failed:\n{error[-3000:]}")
    return time.perf_counter() - start, peak[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", default="500000,1000000,2000000")
    parser.add_argument("--shard-rows", type=int, default=50_000)
    parser.add_argument("--workdir", default=str(REPO / "work" / "bench_filter"))
    parser.add_argument("--runner-args", default="", help="extra Beam options for paranmt filter")
    args = parser.parse_args()
    workdir = Path(args.workdir)
    print("| rows | step | seconds | pairs/s | peak RSS (MB) | pairs/s ratio vs baseline | RSS ratio vs baseline |")
    print("|---|---|---|---|---|---|---|")
    for rows in [int(r) for r in args.rows.split(",")]:
        corpus = make_corpus(workdir / f"corpus-{rows}", rows, args.shard_rows)
        out = workdir / f"out-{rows}"
        subprocess.run(["rm", "-rf", str(out)], check=True)
        out.mkdir(parents=True)
        cli = [sys.executable, "-m", "paranmt.pipelines.cli", "filter", "--input", str(corpus), "--config",
               "paranmt-5m", "--overwrite", *args.runner_args.split()]
        steps = {
            "baseline": [sys.executable, "-c", f"import sys; sys.path.insert(0, {str(REPO / 'benchmarks')!r}); "
                         f"import bench_filter; bench_filter.baseline({str(corpus)!r}, "
                         f"{str(out / 'baseline.parquet')!r})"],
            "paranmt-5m": cli + ["--output", str(out / "filter")],
            "5m+dedup+sample": cli + ["--output", str(out / "full"), "--dedup", "pair", "--sample", "100000"],
        }
        results = {name: measured(command) for name, command in steps.items()}
        base_seconds, base_rss = results["baseline"]
        for name, (seconds, rss) in results.items():
            print(f"| {rows:,} | {name} | {seconds:.1f} | {rows / seconds:,.0f} | {rss / 2**20:,.0f} | "
                  f"{base_seconds / seconds:.3f} | {rss / base_rss:.2f} |", flush=True)


if __name__ == "__main__":
    main()
