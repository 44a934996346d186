"""F1 of `paranmt mine`'s threshold when 1% to 30% of the sentences have a translation (issue 24 item 11).

Held-out bitext: newstest2017 (the training data of the bilingual encoder assets/encoder-xling exclude it), split
into dev (lines 1-1500: the calibration constant FALSE_POSITIVE_RATIO was chosen there) and test (lines 1501-3005:
reported). A task has n_cs Czech and n_en English sentences; a share d of the Czech ones have their translation on the English side (gold pairs
drawn from the half); the other sentences of the half are split into Czech-only and English-only ones, and the pools
are filled up with Czech sentences of newstest2009-2012 and English sentences of news-test2008 + newstest2013-2016
(different files on each side, so no filler has its translation in the task). Every task is mined with `max`, k = 4,
no threshold; F1 (pooled over the seeds of a row) is computed for the calibrated threshold (`--threshold auto`,
models/mining/calibrate.py), the old fixed default 1.45, and the best single threshold of the row (chosen knowing the
answers: an upper bound).

    OMP_NUM_THREADS=1 python benchmarks/mine_threshold.py --workdir work/mine-threshold > table.md
(the mined candidates of every task are cached in WORKDIR/tasks.json, so a rerun only recomputes the table)
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from paranmt.models.encoders import load_encoder
from paranmt.models.mining.calibrate import calibrate_threshold
from paranmt.models.mining.corpus import normalize_rows
from paranmt.models.mining.margin import mine_vectors
from paranmt.pipelines.cli import CommandLineParser, exit_code

BITEXT = Path(__file__).resolve().parents[1] / ".." / "shared" / "data" / "bitext" / "cs-en"
SHARES = (0.01, 0.02, 0.05, 0.1, 0.2, 0.3)
POOLS = ((1000, 1000), (2000, 2000), (5000, 5000), (1800, 5450), (5000, 2000))
THRESHOLDS = np.round(np.arange(1.0, 2.0001, 0.01), 2)


def lines(name: str) -> list[str]:
    return [line.strip() for line in (BITEXT / name).read_text(encoding="utf-8").splitlines()]


def encoded_pools(workdir: Path, encoder_dir: str) -> dict[str, np.ndarray]:
    cached = workdir / "pools.npz"
    if cached.exists():
        return dict(np.load(cached))
    held = {"cs17": lines("newstest2017.ces"), "en17": lines("newstest2017.eng")}
    known = set(held["cs17"]) | set(held["en17"])
    fill_cs = [s for f in ("newstest2009", "newstest2010", "newstest2011", "newstest2012") for s in lines(f + ".ces")]
    fill_en = [s for f in ("news-test2008", "newstest2013", "newstest2014", "newstest2015", "newstest2016")
               for s in lines(f + ".eng")]
    texts = {**held, "fill_cs": [s for s in dict.fromkeys(fill_cs) if s and s not in known],
             "fill_en": [s for s in dict.fromkeys(fill_en) if s and s not in known]}
    encoder = load_encoder(encoder_dir)
    pools = {name: normalize_rows(encoder.encode(values, 512)) for name, values in texts.items()}
    np.savez(cached, **pools)
    return pools


def task(pools: dict, half: str, n_cs: int, n_en: int, share: float, seed: int) -> dict:
    """One mining task (module docstring), both sides shuffled, mined; the candidates' margins and correctness."""
    rng = np.random.default_rng(seed)
    ids = rng.permutation(np.arange(0, 1500) if half == "dev" else np.arange(1500, 3005))
    gold_count = max(1, round(share * n_cs))
    gold, rest = ids[:gold_count], ids[gold_count:]
    cs_only, en_only = rest[: len(rest) // 2][: n_cs - gold_count], rest[len(rest) // 2:][: n_en - gold_count]
    x = np.concatenate([pools["cs17"][gold], pools["cs17"][cs_only], pools["fill_cs"][
        rng.choice(len(pools["fill_cs"]), n_cs - gold_count - len(cs_only), replace=False)]])
    y = np.concatenate([pools["en17"][gold], pools["en17"][en_only], pools["fill_en"][
        rng.choice(len(pools["fill_en"]), n_en - gold_count - len(en_only), replace=False)]])
    x_order, y_order = rng.permutation(len(x)), rng.permutation(len(y))
    mined = mine_vectors(x[x_order], y[y_order], 4, "max")
    source, target = x_order[mined.source], y_order[mined.target]       # back to the unshuffled positions
    return {"margin": mined.margin.tolist(), "correct": ((source == target) & (source < gold_count)).tolist(),
            "gold": gold_count}


def seeds(n_cs: int, n_en: int) -> range:
    """Draws per row: 5 on pools up to 2,000 sentences a side, 3 on larger ones."""
    return range(1, 6 if max(n_cs, n_en) <= 2000 else 4)


def pooled_f1(runs: list[dict], thresholds: list[float]) -> float:
    correct = kept = gold = 0
    for run, threshold in zip(runs, thresholds):
        keep = np.asarray(run["margin"]) >= threshold
        correct += int((np.asarray(run["correct"]) & keep).sum())
        kept += int(keep.sum())
        gold += run["gold"]
    return 2 * correct / (kept + gold)


def main() -> None:
    parser = CommandLineParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--workdir", required=True, help="cache of the encoded pools and the per-row results")
    parser.add_argument("--encoder", default="assets/encoder-xling")
    args = parser.parse_args()
    workdir = Path(args.workdir)
    workdir.mkdir(parents=True, exist_ok=True)
    cache = workdir / "tasks.json"          # the mined candidates of every task (mining is the slow part)
    tasks = json.loads(cache.read_text()) if cache.exists() else {}
    pools = None
    rows = []
    for half in ("dev", "test"):
        for n_cs, n_en in POOLS:
            for share in SHARES:
                if round(share * n_cs) > 1500:
                    continue
                runs = []
                for seed in seeds(n_cs, n_en):
                    key = f"{half} {n_cs} {n_en} {share} {seed}"
                    if key not in tasks:
                        pools = pools or encoded_pools(workdir, args.encoder)
                        tasks[key] = task(pools, half, n_cs, n_en, share, seed)
                        cache.write_text(json.dumps(tasks))
                    runs.append(tasks[key])
                calibrations = [calibrate_threshold(run["margin"]) for run in runs]
                grid = [pooled_f1(runs, [t] * len(runs)) for t in THRESHOLDS]
                rows.append({"half": half, "n_cs": n_cs, "n_en": n_en, "share": share, "gold": runs[0]["gold"],
                             "auto": pooled_f1(runs, [c.threshold for c in calibrations]),
                             "auto_threshold": float(np.median([c.threshold for c in calibrations])),
                             "fixed_1.45": pooled_f1(runs, [1.45] * len(runs)),
                             "best": max(grid), "best_threshold": float(THRESHOLDS[int(np.argmax(grid))])})
    (workdir / "rows.json").write_text(json.dumps(rows, indent=1))
    print("| half | Czech x English | with translation | gold | auto F1 (threshold) | fixed 1.45 F1 | best F1 "
          "(threshold) |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for row in rows:
        print(f"| {row['half']} | {row['n_cs']} x {row['n_en']} | {row['share']:.0%} | {row['gold']} | "
              f"{row['auto']:.3f} ({row['auto_threshold']:.2f}) | {row['fixed_1.45']:.3f} | {row['best']:.3f} "
              f"({row['best_threshold']:.2f}) |")
    for half in ("dev", "test"):
        part = [r for r in rows if r["half"] == half and r["gold"] * len(seeds(r["n_cs"], r["n_en"])) >= 50]
        for key in ("auto", "fixed_1.45"):
            ratios = [r[key] / r["best"] for r in part]
            print(f"\n{half}, {key}: F1 / best F1 mean {np.mean(ratios):.3f}, min {min(ratios):.3f} "
                  f"({len(part)} rows with >= 50 gold pairs over the seeds)")


if __name__ == "__main__":
    sys.exit(exit_code(main))
