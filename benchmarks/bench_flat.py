"""Issue 13 benchmarks of `paranmt build` (one shard per element): flat memory, read,clean throughput against a
plain 2-process Python loop, all-stages pairs per CPU-second against the previous design, kill and resume.

    .venv/bin/python benchmarks/bench_flat.py memory   [--clean-sizes 16000,128000,512000] [--all-sizes 4000,16000]
                                                       [--shard-rows N]
    .venv/bin/python benchmarks/bench_flat.py baseline [--size 128000]          # read,clean vs a plain loop
    .venv/bin/python benchmarks/bench_flat.py compare  [--size 16000] --old OLD [--sides new,old]
    .venv/bin/python benchmarks/bench_flat.py resume [--kill-at 0.6] [--reuse-full]   # 2,000 pairs, 8 shards, translate
    .venv/bin/python benchmarks/bench_flat.py only-if [--input 'data/sample/*'] [--repeat 2] [--condition C]
                                                       [--stand-ins]          # issue 25: all stages, parse.only_if
    .venv/bin/python benchmarks/bench_flat.py sizes --input BUILT_SHARDS_DIR   # bytes per row and per cache entry
    .venv/bin/python benchmarks/bench_flat.py cache-cost --input BUILT_SHARDS_DIR [--repeat 2]   # score stage CPU

Every run is the real CLI in a subprocess (`bench_scale.measure`: nice 10, OMP_NUM_THREADS=1, CPU seconds of the
process tree from os.wait4, peak RSS of the whole process tree sampled every 0.2 s from /proc), default local
runner unless said otherwise. Inputs: the shared bitext repeated to the size asked; copy k > 0 of a pair gets
` (k)` appended to both sides (so dedup inside the translate and parse stages cannot shortcut the repeats).
All-stages runs use the stand-in models of RESULTS.md's Scale section where the shipped ones are slow:
translate = tests/fixtures/nmt-tiny (threads 1), score = assets/encoder-sp, parse = assets/parser-en.
Results are appended to WORK/results.jsonl and printed as Markdown rows.

`only-if` (issue 25): every stage (the build's default list) on the same Moses input with and without
`--set parse.only_if=CONDITION` (default: the paranmt-5m-style condition of RESULTS.md's "Parse only what is
kept"), alternated `--repeat` times; the shipped demo models unless `--stand-ins`. Besides the process tree's CPU
seconds it records each stage's `cpu_ms` counter (the worker's CPU time while it ran the stage, model loading
excluded), so the table has pairs per CPU-second per stage.
"""
from __future__ import annotations

import glob
import json
import multiprocessing
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_scale import BITEXT, REPO, measure  # noqa: E402

from paranmt.pipelines.cli import CommandLineParser, exit_code  # noqa: E402

TINY = REPO / "tests" / "fixtures" / "nmt-tiny"
STAND_INS = ["--set", f"translate.model={TINY}", "--set", "translate.threads=1"]
BLOCK = 50_000
METRICS_NAMES = ("__paranmt__/metrics.json", "_metrics.json", "metrics.json")   # layouts 2, 1.5, 1 (old design)


def write_repeated(n: int, directory: Path) -> Path:
    """`n` pairs: the shared bitext (newstest20* first), repeated with ` (k)` appended to copy k > 0."""
    prefix = directory / "bench"
    if prefix.with_suffix(".en").exists():
        return prefix
    directory.mkdir(parents=True, exist_ok=True)
    news = sorted(glob.glob(str(BITEXT / "newstest20*.ces")))
    pairs = []
    for source in news + sorted(set(glob.glob(str(BITEXT / "*.ces"))) - set(news)):
        with open(source, encoding="utf-8") as a, open(source[:-4] + ".eng", encoding="utf-8") as b:
            pairs += [(x.rstrip("\n"), y.rstrip("\n")) for x, y in zip(a, b)]
    with open(prefix.with_suffix(".cs"), "w", encoding="utf-8") as cs, \
            open(prefix.with_suffix(".en"), "w", encoding="utf-8") as en:
        for i in range(n):
            copy, (x, y) = divmod(i, len(pairs))[0], pairs[i % len(pairs)]
            suffix = f" ({copy})" if copy else ""
            cs.write(f"{x}{suffix}\n")
            en.write(f"{y}{suffix}\n")
    return prefix


def build(prefix: Path, output: Path, stages: str, extra: list[str] = ()) -> list[str]:
    return [sys.executable, "-m", "paranmt.pipelines.cli", "build", "--input", str(prefix), "--format", "moses",
            "--output", str(output), "--stages", stages, *extra]


def record(work: Path, name: str, pairs: int, command: list[str], output: Path | None, fresh: bool = True) -> dict:
    """Run and measure `command`, writing into `output` (emptied first when `fresh`)."""
    if output and fresh:
        subprocess.run(["rm", "-rf", str(output)], check=True)
    print(f"[{time.strftime('%H:%M:%S')}] {name}", flush=True)
    entry = {"name": name, "pairs": pairs, **measure(command, work / f"{name}.log")}
    found = [output / m for m in METRICS_NAMES if (output / m).exists()] if output else []
    if found:
        metrics = json.loads(found[0].read_text())
        entry.update(read=metrics["read"], written=metrics["written"], rejected=metrics["rejected"])
    entry["pairs_per_cpu_s"] = round(pairs / max(entry["cpu_seconds"], 1e-9), 1)
    print(f"    {entry}", flush=True)
    with open(work / "results.jsonl", "a") as handle:
        handle.write(json.dumps(entry) + "\n")
    return entry


def memory(args, work: Path) -> None:
    for stages, sizes in (("read,clean", args.clean_sizes), ("read,clean,translate,score,parse", args.all_sizes)):
        for n in [int(s) for s in sizes.split(",") if s]:
            rows = ["--shard-rows", str(args.shard_rows)] if args.shard_rows else []
            name = f"{stages}-{n}" + (f"-rows{args.shard_rows}" if args.shard_rows else "")
            out = work / "out" / name
            extra = (STAND_INS if "translate" in stages else []) + rows
            record(work, f"memory {name}", n, build(write_repeated(n, work / f"in-{n}"), out, stages, extra), out)


def _loop_block(job: tuple[str, str, int, int, str]) -> int:
    """One 50k-row block of the plain loop: read its lines, Moses-normalize punctuation and tokenize both sides,
    write one Parquet file."""
    import pyarrow as pa
    import pyarrow.parquet as pq
    from sacremoses import MosesPunctNormalizer, MosesTokenizer

    cs_path, en_path, start, stop, out = job
    norm = {lang: MosesPunctNormalizer(lang) for lang in ("cs", "en")}
    tok = {lang: MosesTokenizer(lang) for lang in ("cs", "en")}
    columns = {"cs": [], "ref": [], "cs_len": [], "ref_len": []}
    with open(cs_path, encoding="utf-8") as a, open(en_path, encoding="utf-8") as b:
        for i, (x, y) in enumerate(zip(a, b)):
            if i < start:
                continue
            if i >= stop:
                break
            x, y = norm["cs"].normalize(x.strip()), norm["en"].normalize(y.strip())
            columns["cs"].append(x)
            columns["ref"].append(y)
            columns["cs_len"].append(len(tok["cs"].tokenize(x, escape=False)))
            columns["ref_len"].append(len(tok["en"].tokenize(y, escape=False)))
    pq.write_table(pa.table(columns), out, compression="zstd")
    return stop - start


def plain_loop(prefix: str, n: int, out_dir: str) -> None:
    """The baseline: 2 processes, one Parquet write per 50k-row block."""
    os.makedirs(out_dir, exist_ok=True)
    jobs = [(f"{prefix}.cs", f"{prefix}.en", s, min(s + BLOCK, n), f"{out_dir}/{s // BLOCK:05d}.parquet")
            for s in range(0, n, BLOCK)]
    with multiprocessing.Pool(2) as pool:
        assert sum(pool.map(_loop_block, jobs, chunksize=1)) == n


def baseline(args, work: Path) -> None:
    n = args.size
    prefix = write_repeated(n, work / f"in-{n}")
    for k in range(1, args.repeat + 1):       # alternated, so both see the same contention
        record(work, f"plain loop {n} r{k}", n, [sys.executable, __file__, "loop", str(prefix), str(n),
                                                 str(work / "out" / "loop")], None)
        out = work / "out" / f"clean-{n}"
        record(work, f"build read,clean {n} r{k}", n, build(prefix, out, "read,clean"), out)


def compare(args, work: Path) -> None:
    """All stages, today's design vs the previous one, alternated, each with its own default runner. `--old` is a
    PYTHONPATH whose `paranmt/` holds the package folders of ee34c7b^ (3fcf465, the last commit before the one
    stage shape), e.g. `git archive ee34c7b^ pipelines transforms models schemas | tar -x -C OLD/paranmt` plus
    links OLD/paranmt/{assets,configs,tests} -> the repository's."""
    n = args.size
    prefix = write_repeated(n, work / f"in-{n}")
    sets = STAND_INS + ["--set", f"score.encoder={REPO / 'assets/encoder-sp'}",
                        "--set", f"parse.model_dir={REPO / 'assets/parser-en'}"]
    stages = "read,clean,translate,score,parse"
    for k in range(1, args.repeat + 1):
        if "new" in args.sides:
            out = work / "out" / f"new-{n}"
            record(work, f"all stages {n} new r{k}", n, build(prefix, out, stages, sets), out)
        if "old" in args.sides:
            out = work / "out" / f"old-{n}"
            command = ["env", f"PYTHONPATH={args.old}", *build(prefix, out, stages, sets)]
            record(work, f"all stages {n} old(3fcf465) r{k}", n, command, out)


PARANMT_5M_LIKE = "para_score >= 0.58 and ref_len <= 30 and bt_len <= 30 and bt_repetition <= 0"


def only_if(args, work: Path) -> None:
    """All stages with and without `parse.only_if`, alternated; per run the CPU seconds of the tree and of each
    stage (`<stage>/cpu_ms`), and what the parse stage did."""
    pairs = sum(1 for path in glob.glob(args.input) if path.endswith(".cs") for _ in open(path, encoding="utf-8"))
    for k in range(1, args.repeat + 1):
        for side in ("every row", "only_if"):
            extra = (STAND_INS if args.stand_ins else []) + (
                ["--set", f"parse.only_if={args.condition}"] if side == "only_if" else [])
            out = work / "out" / f"only-if-{side.replace(' ', '-')}-r{k}"
            command = [sys.executable, "-m", "paranmt.pipelines.cli", "build", "--input", args.input, "--format",
                       "moses", "--output", str(out), *extra]
            entry = record(work, f"all stages, {side}, r{k}", pairs, command, out)
            metrics = json.loads((out / "__paranmt__" / "metrics.json").read_text())
            counters = metrics["beam_counters"]
            stage_cpu = {key.split("/")[0]: value / 1000 for key, value in counters.items() if key.endswith("/cpu_ms")}
            summary = {"name": f"only-if summary {side} r{k}", "pairs": pairs, "cpu_seconds": entry["cpu_seconds"],
                       "pairs_per_cpu_s": round(pairs / entry["cpu_seconds"], 2), "stage_cpu_s": stage_cpu,
                       "outside_stages_cpu_s": round(entry["cpu_seconds"] - sum(stage_cpu.values()), 1),
                       "parse": {key.split("/")[1]: value for key, value in counters.items()
                                 if key.startswith("parse/") and key != "parse/cpu_ms"},
                       "load_before": entry["load_before"], "peak_tree_mb": entry["peak_tree_mb"]}
            print(f"    {summary}", flush=True)
            with open(work / "results.jsonl", "a") as handle:
                handle.write(json.dumps(summary) + "\n")


def sizes(args, work: Path) -> None:
    """What a worker holds per row and per cache entry (tracemalloc, Python objects), from built shards with every
    column (`--input` = a build's output directory): a row as the stages hold it (a dict), an entry of each
    per-process sentence cache (models/text/tokenize.py SENTENCE_CACHE_ENTRIES) and of the parse stage's cache
    (text -> (parse, template)). Entries are copies, so that no string is shared with the rows."""
    import pickle
    import tracemalloc
    from collections import OrderedDict

    import pyarrow.parquet as pq

    from paranmt.models.scoring.diversity import words
    from paranmt.models.scoring.overlap import sentence_trigrams
    from paranmt.models.text.tokenize import lowercase_tokens
    from paranmt.schemas import layout

    rows = [row for path in layout.local_shards(args.input) for row in pq.read_table(path).to_pylist()]
    tracemalloc.start()

    def allocated(make) -> int:
        before = tracemalloc.get_traced_memory()[0]
        kept = make()
        size = tracemalloc.get_traced_memory()[0] - before
        del kept
        return size

    per_row = allocated(lambda: pickle.loads(pickle.dumps(rows))) / len(rows)
    print(f"| a row with every column | {per_row:,.0f} B | 20,000 rows: {per_row * 20_000 / 2**20:,.0f} MB |")
    sentences = [row[side] for row in rows for side in ("ref", "bt") if row.get(side)]
    for cache in (lowercase_tokens, words, sentence_trigrams):
        cache.cache_clear()
        used = allocated(lambda: [cache(s.encode().decode()) for s in sentences])
        info = cache.cache_info()
        print(f"| {cache.__module__}.{cache.__name__} entry | {used / info.currsize:,.0f} B | full "
              f"({info.maxsize:,} entries): {used / info.currsize * info.maxsize / 2**20:,.1f} MB |")
    parsed = [(row[s], row[f"{s}_parse"], row[f"{s}_template"]) for row in rows for s in ("ref", "bt")
              if row.get(f"{s}_parse")]
    used = allocated(lambda: OrderedDict((t.encode().decode(), (p.encode().decode(), m.encode().decode()))
                                         for t, p, m in parsed))
    print(f"| parse cache entry | {used / len(parsed):,.0f} B | 100,000 entries: "
          f"{used / len(parsed) * 100_000 / 2**20:,.0f} MB |")


def cache_cost(args, work: Path) -> None:
    """The score stage alone (this process, the stage's own CPU) over built shards' rows with the per-process
    sentence caches at SENTENCE_CACHE_ENTRIES vs 65,536 entries (their size before issue 25), alternated `--repeat`
    times; each run starts with empty caches (the three functions re-wrapped in fresh lru_caches wherever paranmt
    imported them)."""
    import functools

    import pyarrow.parquet as pq

    from paranmt.models.scoring import diversity, overlap
    from paranmt.models.stage import run_stage
    from paranmt.models.text import tokenize
    from paranmt.schemas import layout
    from paranmt.schemas.build_config import BuildConfig
    from paranmt.transforms.stage import build_stage

    rows = [row for path in layout.local_shards(args.input) for row in pq.read_table(path).to_pylist()]
    config = BuildConfig(input="-", output="-").validate()
    stage = build_stage("score", config, False).stage
    stage.setup()
    plain = {f.__name__: f.__wrapped__ for f in (tokenize.lowercase_tokens, diversity.words, overlap.sentence_trigrams)}
    for k in range(1, args.repeat + 1):
        for entries in (tokenize.SENTENCE_CACHE_ENTRIES, 1 << 16):
            caches = {name: functools.lru_cache(entries)(function) for name, function in plain.items()}
            for module in [m for name, m in list(sys.modules.items()) if name.startswith("paranmt")]:
                for name, cache in caches.items():
                    if getattr(getattr(module, name, None), "__wrapped__", None) is plain[name]:
                        setattr(module, name, cache)
            start = time.process_time()
            run_stage(stage, [dict(row) for row in rows], config.score.batch_size)
            cpu = time.process_time() - start
            print(f"| {k} | {entries:,} | {len(rows):,} | {cpu:.1f} | {len(rows) / cpu:,.0f} | "
                  f"{', '.join(f'{n} {c.cache_info().hits:,}' for n, c in caches.items())} |", flush=True)


def session_cpu_seconds(session: int) -> float:
    """User + system CPU seconds (whole seconds per process, `ps` TIMES) of the live processes of one session (a
    build and its Beam workers)."""
    listing = subprocess.run(["ps", "-o", "times=", "-s", str(session)], capture_output=True, text=True).stdout
    return float(sum(int(seconds) for seconds in listing.split()))


def resume(args, work: Path) -> None:
    """2,000 pairs in 8 shards with translate on (shipped NMT model): a full run; a run killed once its process
    tree has used `--kill-at` (0.6) of the full run's CPU seconds (CPU, not wall time: on a shared machine the wall
    time of two identical runs differs by more than 40%), then --resume; the resumed shards compared byte for byte
    with the full run's. `--reuse-full` takes the full run recorded in WORK/results.jsonl."""
    prefix = write_repeated(2000, work / "in-2000")
    extra = ["--shard-rows", "250"]
    stages = "read,clean,translate"
    full = work / "out" / "resume-full"
    recorded = [json.loads(line) for line in open(work / "results.jsonl")] if (work / "results.jsonl").exists() else []
    recorded = [e for e in recorded if e["name"] == "resume: full run"]
    if args.reuse_full and recorded and full.exists():
        entry = recorded[-1]
    else:
        entry = record(work, "resume: full run", 2000, build(prefix, full, stages, extra), full)
    killed = work / "out" / "resume-killed"
    subprocess.run(["rm", "-rf", str(killed)], check=True)
    start = time.perf_counter()
    process = subprocess.Popen(["nice", "-n", "10", *build(prefix, killed, stages, extra)], start_new_session=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=REPO)
    used = 0.0
    while process.poll() is None and used < args.kill_at * entry["cpu_seconds"]:
        time.sleep(0.5)
        used = session_cpu_seconds(process.pid)
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()
    kept = sorted(p.name for p in killed.glob("*.parquet"))
    kill = {"name": "resume kill", "killed_at_cpu_s": round(used, 1),
            "killed_at_s": round(time.perf_counter() - start, 1), "full_cpu_s": entry["cpu_seconds"],
            "kept_shards": len(kept)}
    print(f"    {kill}", flush=True)
    resumed = record(work, "resume: resumed run", 2000, build(prefix, killed, stages, extra + ["--resume"]), killed,
                     fresh=False)
    same = all((killed / p.relative_to(full)).read_bytes() == p.read_bytes() for p in full.rglob("*.parquet"))
    summary = {**kill, "name": "resume summary", "resume_seconds_ratio":
               round(resumed["seconds"] / entry["seconds"], 2), "resume_cpu_ratio":
               round(resumed["cpu_seconds"] / entry["cpu_seconds"], 2), "byte_identical": same}
    print(f"    {summary}", flush=True)
    with open(work / "results.jsonl", "a") as handle:
        handle.write(json.dumps(summary) + "\n")


def main() -> None:
    if sys.argv[1:2] == ["loop"]:
        plain_loop(sys.argv[2], int(sys.argv[3]), sys.argv[4])
        return
    parser = CommandLineParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=["memory", "baseline", "compare", "resume", "only-if", "sizes", "cache-cost"])
    parser.add_argument("--clean-sizes", default="16000,128000,512000")
    parser.add_argument("--all-sizes", default="4000,16000")
    parser.add_argument("--size", type=int, default=None)
    parser.add_argument("--shard-rows", type=int, default=None, help="memory: --shard-rows of the builds")
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--old", help="compare: the PYTHONPATH of the previous design (required with --sides old)")
    parser.add_argument("--sides", default="new,old", help="compare: which designs to run")
    parser.add_argument("--kill-at", type=float, default=0.6, help="resume: kill at this share of the full run's CPU")
    parser.add_argument("--reuse-full", action="store_true", help="resume: reuse the recorded full run")
    parser.add_argument("--input", default=str(REPO / "data" / "sample" / "*"), help="only-if: Moses PREFIX glob; sizes, cache-cost: a build's output directory")
    parser.add_argument("--condition", default=PARANMT_5M_LIKE, help="only-if: the parse.only_if of the runs")
    parser.add_argument("--stand-ins", action="store_true", help="only-if: translate with the tiny NMT fixture")
    parser.add_argument("--work", default=str(REPO / "work" / "bench_flat"))
    args = parser.parse_args()
    args.size = args.size or (128_000 if args.what == "baseline" else 16_000)
    if args.what == "compare" and "old" in args.sides and not args.old:
        parser.error("compare --sides old needs --old PYTHONPATH")
    work = Path(args.work)
    (work / "out").mkdir(parents=True, exist_ok=True)
    {"memory": memory, "baseline": baseline, "compare": compare, "resume": resume,
     "only-if": only_if, "sizes": sizes, "cache-cost": cache_cost}[args.what](args, work)


if __name__ == "__main__":
    sys.exit(exit_code(main))
