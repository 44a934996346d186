"""`paranmt mine` search + selection speed and peak memory: faiss exact (blocked) vs faiss HNSW (approximate) vs a
plain numpy brute-force baseline, in the same run, on the same vectors; recall of HNSW against exact.

    .venv/bin/python benchmarks/bench_mine.py [--sizes 10000,30000,100000] [--dim 300] [--k 4]
                                              [--workdir work/bench_mine] [--real] [--parallel]

Vectors (SYNTHETIC, for speed/recall only; encoding 100k distinct real sentences per language is not possible
with the data at hand, the shared cs-en bitext has 46k pairs): per size n, n source and n target unit vectors of
`--dim` dimensions drawn around 2,000 Gaussian cluster centres (centre + 0.6 * noise, then normalized), the first
20% of the targets being noisy copies of the sources (source + noise of norm ~0.5: planted parallel pairs), the rest
drawn independently. `--real` also runs the three methods on the bilingual encoder's (assets/encoder-xling)
embeddings of the whole shared cs-en bitext (all Czech lines x all English lines, deduplicated).

Methods (all: k-NN both directions, then the same ratio-margin `max` selection, threshold 1.45):
  numpy   x @ y.T in blocks of 1,024 query rows, np.argpartition top-k (the plain brute force)
  exact   paranmt.models.mining.knn exact: faiss.knn over 65,536 x 65,536 blocks, ResultHeap merge
  hnsw    paranmt.models.mining.knn hnsw: IndexHNSWFlat M 16, efConstruction 80, efSearch 64 (build included)
Each method runs in its own child process with ONE thread (OMP/BLAS/faiss = 1); the child reports its CPU time
(user + system, resource.getrusage(RUSAGE_SELF)) for the search + selection only (vectors are memmapped .npy
files, loading excluded), and its peak RSS (VmHWM of /proc/self/status), which includes the memmapped vector pages it touched.
sentences/s = (n_source + n_target) / CPU seconds. Methods run one after the other per case (numpy, exact, hnsw),
or all at once with `--parallel` (on a busy shared machine; per-process CPU time and peak RSS are unaffected).
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from paranmt.pipelines.cli import CommandLineParser, exit_code

REPO = Path(__file__).resolve().parents[1]
THRESHOLD = 1.45


def synthetic(n: int, dim: int, seed: int) -> tuple[np.ndarray, np.ndarray, int]:
    from paranmt.models.mining.corpus import normalize_rows

    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(2000, dim)).astype(np.float32)

    def draw(m):
        return normalize_rows(centres[rng.integers(0, len(centres), m)] + 0.6 * rng.normal(size=(m, dim)))

    x = draw(n)
    planted = n // 5
    noise = 0.5 / np.sqrt(dim) * rng.normal(size=(planted, dim))
    y = np.vstack([normalize_rows(x[:planted] + noise), draw(n - planted)])
    return x, y.astype(np.float32), planted


def numpy_knn(queries: np.ndarray, base: np.ndarray, k: int, block: int = 1024) -> tuple[np.ndarray, np.ndarray]:
    sims = np.empty((len(queries), k), np.float32)
    ids = np.empty((len(queries), k), np.int64)
    base = np.asarray(base)
    for start in range(0, len(queries), block):
        scores = np.asarray(queries[start:start + block]) @ base.T
        top = np.argpartition(-scores, k - 1, axis=1)[:, :k]
        top_scores = np.take_along_axis(scores, top, axis=1)
        order = np.argsort(-top_scores, axis=1)
        ids[start:start + len(scores)] = np.take_along_axis(top, order, axis=1)
        sims[start:start + len(scores)] = np.take_along_axis(top_scores, order, axis=1)
    return sims, ids


def peak_rss_mb() -> float:
    """This process's peak RSS (VmHWM; ru_maxrss would report the parent's peak inherited over fork + exec)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def child(args) -> None:
    """Run one method on the memmapped vectors; print a JSON line."""
    from paranmt.models.mining.knn import SearchConfig, knn
    from paranmt.models.mining.margin import select

    x = np.load(args.x, mmap_mode="r")
    y = np.load(args.y, mmap_mode="r")
    before = resource.getrusage(resource.RUSAGE_SELF)
    wall = time.perf_counter()
    if args.method == "numpy":
        x2y, y2x = numpy_knn(x, y, args.k), numpy_knn(y, x, args.k)
    else:
        config = SearchConfig(index=args.method, threads=1)
        x2y, y2x = knn(x, y, args.k, config), knn(y, x, args.k, config)
    pairs = select(x2y, y2x, "max", THRESHOLD)
    after = resource.getrusage(resource.RUSAGE_SELF)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    np.save(args.out, x2y[1])
    print(json.dumps({"cpu_s": cpu, "wall_s": time.perf_counter() - wall, "peak_rss_mb": peak_rss_mb(),
                      "mined": len(pairs),
                      "planted_found": int(np.sum((pairs.source == pairs.target) & (pairs.source < args.planted)))}))


def start_method(method: str, x_path: Path, y_path: Path, k: int, out: Path, planted: int) -> subprocess.Popen:
    env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1")
    command = [sys.executable, __file__, "--child", method, "--x", str(x_path), "--y", str(y_path), "--k", str(k),
               "--out", str(out), "--planted", str(planted)]
    return subprocess.Popen(command, env=env, stdout=subprocess.PIPE, text=True)


def finish_method(process: subprocess.Popen) -> dict:
    stdout, _ = process.communicate()
    if process.returncode:
        raise RuntimeError(f"{process.args} failed with exit code {process.returncode}")
    return json.loads(stdout.strip().splitlines()[-1])


def real_vectors(workdir: Path) -> tuple[Path, Path]:
    from paranmt.models.encoders import load_encoder
    from paranmt.models.mining.corpus import normalize_rows

    bitext = REPO.parent / "shared" / "data" / "bitext" / "cs-en"
    encoder = load_encoder(REPO / "assets" / "encoder-xling")
    paths = []
    for side, suffix in (("cs", "ces"), ("en", "eng")):
        texts = list(dict.fromkeys(line.strip() for f in sorted(bitext.glob(f"*.{suffix}"))
                                   for line in f.read_text(encoding="utf-8").splitlines() if line.strip()))
        started = time.process_time()
        vectors = normalize_rows(encoder.encode(texts))
        print(f"real {side}: {len(texts)} distinct sentences encoded in {time.process_time() - started:.1f} CPU s "
              f"({len(texts) / (time.process_time() - started):.0f} sentences/s)")
        path = workdir / f"real-{side}.npy"
        np.save(path, vectors)
        paths.append(path)
    return paths[0], paths[1]


def main() -> None:
    parser = CommandLineParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="10000,30000,100000")
    parser.add_argument("--dim", type=int, default=300)
    parser.add_argument("--k", type=int, default=4)
    parser.add_argument("--workdir", default="work/bench_mine")
    parser.add_argument("--methods", default="numpy,exact,hnsw")
    parser.add_argument("--real", action="store_true", help="also the real cs-en bitext embeddings")
    parser.add_argument("--parallel", action="store_true", help="run the methods of a case at the same time")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--x", help=argparse.SUPPRESS)
    parser.add_argument("--y", help=argparse.SUPPRESS)
    parser.add_argument("--out", help=argparse.SUPPRESS)
    parser.add_argument("--planted", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        args.method = args.child
        child(args)
        return
    from paranmt.models.mining.knn import recall_at_k

    workdir = Path(args.workdir)
    workdir.mkdir(parents=True, exist_ok=True)
    cases = []
    for n in (int(s) for s in args.sizes.split(",")):
        x_path, y_path = workdir / f"x-{n}-{args.dim}.npy", workdir / f"y-{n}-{args.dim}.npy"
        if not (x_path.exists() and y_path.exists()):
            x, y, _ = synthetic(n, args.dim, seed=n)
            np.save(x_path, x)
            np.save(y_path, y)
        cases.append((f"synthetic {n} x {n}", x_path, y_path, n // 5, n, n))
    if args.real:
        x_path, y_path = real_vectors(workdir)
        cases.append(("real cs-en bitext", x_path, y_path, 0, len(np.load(x_path, mmap_mode="r")),
                      len(np.load(y_path, mmap_mode="r"))))
    print("| vectors | method | CPU s | sentences/s | x numpy | peak RSS MB | mined (margin >= 1.45) | "
          "planted found | recall@4 vs exact |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for name, x_path, y_path, planted, n_x, n_y in cases:
        methods = args.methods.split(",")
        outs = {method: workdir / f"ids-{method}.npy" for method in methods}
        if args.parallel:      # CPU time and peak RSS are per child, so running them together changes neither
            processes = {m: start_method(m, x_path, y_path, args.k, outs[m], planted) for m in methods}
            results = {m: finish_method(p) for m, p in processes.items()}
        else:
            results = {m: finish_method(start_method(m, x_path, y_path, args.k, outs[m], planted)) for m in methods}
        ids = {m: np.load(outs[m]) for m in methods}
        for method, r in results.items():
            speed = (n_x + n_y) / r["cpu_s"]
            ratio = results["numpy"]["cpu_s"] / r["cpu_s"] if "numpy" in results else float("nan")
            recall = recall_at_k(ids[method], ids["exact"]) if "exact" in ids else float("nan")
            found = f"{r['planted_found']} / {planted}" if planted else "-"
            print(f"| {name} | {method} | {r['cpu_s']:.1f} | {speed:,.0f} | {ratio:.2f} | {r['peak_rss_mb']:.0f} | "
                  f"{r['mined']} | {found} | {recall:.4f} |", flush=True)


if __name__ == "__main__":
    sys.exit(exit_code(main))
