"""`paranmt filter` against OpusFilter 3.3.1 on the same synthetic pairs: throughput and peak memory of the process
tree, alternated run by run (issue 16).

    nice -n 5 .venv/bin/python benchmarks/bench_filter.py [--rows 1000000,5000000] [--repeats 2]
        [--opusfilter work/opusfilter-venv/bin/opusfilter] [--workdir work/bench_filter] [--runner-args "..."]

OpusFilter runs from its own venv (`python3 -m venv work/opusfilter-venv && work/opusfilter-venv/bin/pip install
opusfilter==3.3.1`, in the repository root), on `ref.txt` / `bt.txt` exported once from the same shards (one sentence per line, not
timed), with its defaults (one job). Steps, equivalent on both sides (lengths are whitespace words in OpusFilter and
the shards' ref_len / bt_len, which equal them on this corpus):
  length+ratio+dedup  both sides 1-30 words, max/min length ratio <= 2, exact pair dedup
                      (OpusFilter: filter step LengthFilter + LengthRatioFilter threshold 2.01, which keeps the
                      same integer ratios as "<= 2"; then remove_duplicates)
  length              both sides 1-30 words (OpusFilter: LengthFilter)
  presets             paranmt only: `--config paranmt-5m|simile|lexicon`, for memory at each size
Both sides keep the same number of rows (checked); which row of a duplicate group survives differs (OpusFilter the
first, paranmt the best para_score). paranmt reads the Parquet shards and writes Parquet with every column;
OpusFilter reads and writes the two plain-text columns.

Synthetic corpus (SYNTHETIC values, for speed measurements only): shards of PAIR_SCHEMA, `--shard-rows` rows each;
ref / bt are 3-40 words drawn from a 5,000-word synthetic vocabulary, para_score ~ Beta(5, 2) * 2 - 1 clipped to
[-1, 1], trigram_overlap ~ U(0, 1), bt_score ~ -Exp(1), lengths = word counts, 1% of rows duplicate an earlier pair;
bt_repetition and the language columns the presets read as in `signal_columns`. Generated once per size and reused.
Peak memory = the largest summed RSS of the command's process tree, sampled every 0.2 s from /proc.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import yaml

from paranmt.pipelines.cli import CommandLineParser, exit_code
from paranmt.schemas.records import PAIR_SCHEMA

from paranmt.schemas import layout

REPO = Path(__file__).resolve().parents[1]
VOCABULARY = 5000
SIGNALS_SEED = 16
LENGTH = {"type": "tokens", "min_tokens": 1, "max_tokens": 30, "sides": ["ref", "bt"]}
PARANMT_STEPS = {"length+ratio+dedup": {"filters": [LENGTH, {"type": "length_ratio", "max_ratio": 2}],
                                        "dedup": ["pair"], "dedup_normalization": "exact"},
                 "length": {"filters": [LENGTH]}}
OPUS_LENGTH = {"LengthFilter": {"unit": "word", "min_length": 1, "max_length": 30}}
OPUS_STEPS = {"length+ratio+dedup": [OPUS_LENGTH, {"LengthRatioFilter": {"unit": "word", "threshold": 2.01}}],
              "length": [OPUS_LENGTH]}
PRESETS = ("paranmt-5m", "simile", "lexicon")


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
    columns.update(signal_columns(start, rows))
    arrays = [pa.array(columns[f.name], f.type) if f.name in columns else pa.nulls(rows, f.type)
              for f in PAIR_SCHEMA]
    return pa.Table.from_arrays(arrays, schema=PAIR_SCHEMA)


def signal_columns(start: int, rows: int) -> dict[str, np.ndarray]:
    """The schema v2 columns the presets read, from their own generator (seeded by the shard's first row, so the
    text columns are those of a corpus made without them): bt_repetition 0 for 90% of rows, else U(0, 1); ref / bt
    language `en` for 97%, else `cs`, with confidence U(0.3, 1)."""
    rng = np.random.default_rng([SIGNALS_SEED, start])
    repetition = np.where(rng.random(rows) < 0.9, 0.0, rng.random(rows)).astype(np.float32)
    columns = {"bt_repetition": repetition}
    for side in ("ref", "bt"):
        columns[f"{side}_lang"] = np.where(rng.random(rows) < 0.97, "en", "cs")
        columns[f"{side}_lang_conf"] = rng.uniform(0.3, 1.0, rows).astype(np.float32)
    return columns


def make_corpus(directory: Path, rows: int, shard_rows: int) -> Path:
    done = directory / "_complete_v2"
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


def export_text(corpus: Path) -> tuple[Path, Path]:
    """ref.txt and bt.txt (one sentence per line, shard order) beside the shards, once."""
    ref, bt = corpus.parent / f"{corpus.name}-ref.txt", corpus.parent / f"{corpus.name}-bt.txt"
    if not bt.exists():
        with open(ref, "w", encoding="utf-8") as ref_out, open(bt, "w", encoding="utf-8") as bt_out:
            for path in layout.local_shards(str(corpus)):
                table = pq.read_table(path, columns=["ref", "bt"])
                ref_out.write("\n".join(table.column("ref").to_pylist()) + "\n")
                bt_out.write("\n".join(table.column("bt").to_pylist()) + "\n")
    return ref, bt


def opusfilter_config(step: str, ref: Path, bt: Path, out: Path) -> Path:
    steps = [{"type": "filter", "parameters": {"inputs": [str(ref), str(bt)], "outputs": ["ref.f.txt", "bt.f.txt"],
                                               "filters": OPUS_STEPS[step]}}]
    if "dedup" in step:
        steps.append({"type": "remove_duplicates", "parameters": {"inputs": ["ref.f.txt", "bt.f.txt"],
                                                                  "outputs": ["ref.d.txt", "bt.d.txt"]}})
    path = out / f"opusfilter-{step}.yaml"
    path.write_text(yaml.safe_dump({"common": {"output_directory": str(out / "opus")}, "steps": steps}))
    return path


def opusfilter_kept(out: Path, step: str) -> int:
    with open(out / "opus" / ("ref.d.txt" if "dedup" in step else "ref.f.txt"), "rb") as handle:
        return sum(1 for _ in handle)


def paranmt_kept(output: Path) -> int:
    return json.loads((output / layout.FILTER_REPORT).read_text())["rows_kept"]


def main() -> None:
    parser = CommandLineParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", default="1000000,5000000")
    parser.add_argument("--shard-rows", type=int, default=50_000)
    parser.add_argument("--repeats", type=int, default=2, help="alternated runs of each step per tool")
    parser.add_argument("--opusfilter", default=str(REPO / "work" / "opusfilter-venv" / "bin" / "opusfilter"),
                        help="its command (default: work/opusfilter-venv/bin/opusfilter in the repository); "
                        "empty: paranmt alone (e.g. memory at 10M rows)")
    parser.add_argument("--steps", default="length+ratio+dedup,length,presets")
    parser.add_argument("--workdir", default=str(REPO / "work" / "bench_filter"))
    parser.add_argument("--runner-args", default="", help="extra Beam options for paranmt filter")
    args = parser.parse_args()
    workdir = Path(args.workdir)
    print("| rows | step | tool | seconds (runs) | pairs/s | peak RSS MB (runs) | kept |")
    print("|---|---|---|---|---|---|---|")
    for rows in [int(r) for r in args.rows.split(",")]:
        corpus = make_corpus(workdir / f"corpus-{rows}", rows, args.shard_rows)
        ref, bt = export_text(corpus) if args.opusfilter else (None, None)
        out = workdir / f"out-{rows}"
        shutil.rmtree(out, ignore_errors=True)
        out.mkdir(parents=True)
        cli = [sys.executable, "-m", "paranmt.pipelines.cli", "filter", "--input", str(corpus), "--output",
               str(out / "paranmt"), "--overwrite", *args.runner_args.split()]
        for step in args.steps.split(","):
            runs: dict[str, list[tuple[float, int, int]]] = {}
            if step == "presets":
                for preset in PRESETS:
                    for _ in range(args.repeats):
                        seconds, rss = measured(cli + ["--config", preset])
                        runs.setdefault(f"paranmt {preset}", []).append((seconds, rss, paranmt_kept(out / "paranmt")))
            else:
                config = out / f"paranmt-{step}.yaml"
                config.write_text(yaml.safe_dump(PARANMT_STEPS[step]))
                for _ in range(args.repeats):
                    if args.opusfilter:
                        seconds, rss = measured([args.opusfilter, "--overwrite",
                                                 str(opusfilter_config(step, ref, bt, out))])
                        runs.setdefault("OpusFilter 3.3.1", []).append((seconds, rss, opusfilter_kept(out, step)))
                    seconds, rss = measured(cli + ["--config", str(config)])
                    runs.setdefault("paranmt", []).append((seconds, rss, paranmt_kept(out / "paranmt")))
            if "paranmt" in runs and "OpusFilter 3.3.1" in runs:
                pairs = zip(runs["OpusFilter 3.3.1"], runs["paranmt"])
                print(f"| {rows:,} | {step} | paranmt / OpusFilter pairs/s, alternated runs | "
                      f"{', '.join(f'{opus[0] / ours[0]:.2f}x' for opus, ours in pairs)} | | | |", flush=True)
            for tool, results in runs.items():
                best = min(seconds for seconds, _, _ in results)
                print(f"| {rows:,} | {step} | {tool} | {best:.1f} ({', '.join(f'{r[0]:.1f}' for r in results)}) | "
                      f"{rows / best:,.0f} | {max(r[1] for r in results) / 2**20:,.0f} "
                      f"({', '.join(f'{r[1] / 2**20:,.0f}' for r in results)}) | "
                      f"{', '.join(sorted({f'{r[2]:,}' for r in results}))} |", flush=True)


if __name__ == "__main__":
    sys.exit(exit_code(main))
