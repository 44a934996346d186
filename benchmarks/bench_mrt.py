"""Speed of a minimum-risk (MRT) update against a maximum-likelihood (MLE) update of the same model on the same
batches: fairseq-train from the same initial checkpoint, the recipe's arguments for the `mrt` step (models/nmt/
recipe.py) and the same arguments with the label-smoothed cross-entropy criterion instead. Runs alternate
(MLE, MRT, MLE, MRT, ...) so that a shared machine's load hits both alike; seconds per update are read from
fairseq's own `ups` of every logged interval after the first (start-up and the first batches excluded).

    python benchmarks/bench_mrt.py --config configs/nmt/mrt-demo.yaml --work-dir work/nmt-mrt --updates 20

(the work dir must hold the recipe's `data`, `spm` and `preprocess` steps:
`paranmt train-nmt --config configs/nmt/mrt-demo.yaml --steps data,spm,preprocess --work-dir work/nmt-mrt`).
"""
from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import tempfile

from paranmt.models.nmt.recipe import NMTRecipe, load_recipe_config
from paranmt.pipelines.cli import CommandLineParser, exit_code

UPS = re.compile(r"train_inner \| .*?ups=([0-9.]+)")


def criterion_args(args: list[str], mle: bool) -> list[str]:
    """The mrt step's arguments, or (mle) the same without the user dir and the mrt criterion's options."""
    if not mle:
        return args
    out, skip = [], False
    for arg in args:
        if skip:
            skip = False
            continue
        if arg in ("--user-dir", "--criterion") or arg.startswith("--mrt-"):
            skip = True
            continue
        out.append(arg)
    return out + ["--criterion", "label_smoothed_cross_entropy"]


def seconds_per_update(recipe: NMTRecipe, mle: bool, updates: int, interval: int, threads: int) -> list[float]:
    with tempfile.TemporaryDirectory() as save_dir:
        args = recipe.mrt_args()
        args[args.index("--save-dir") + 1] = save_dir
        args = criterion_args(args, mle) + ["--max-update", str(updates), "--log-interval", str(interval),
                                            "--no-save", "--disable-validation"]
        env = {**recipe._env(), "OMP_NUM_THREADS": str(threads), "MKL_NUM_THREADS": str(threads)}
        result = subprocess.run([sys.executable, "-m", "fairseq_cli.train", *args], capture_output=True, text=True,
                                env=env)
        if result.returncode:
            raise RuntimeError(result.stderr[-2000:])
        rates = [float(m) for m in UPS.findall(result.stdout + result.stderr)]
    return [1.0 / r for r in rates[1:] if r > 0]


def main() -> None:
    parser = CommandLineParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--config", default="configs/nmt/mrt-demo.yaml")
    parser.add_argument("--work-dir", required=True)
    parser.add_argument("--updates", type=int, default=20)
    parser.add_argument("--interval", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--cost", default="simile")
    args = parser.parse_args()
    recipe = NMTRecipe(load_recipe_config(args.config, {"work_dir": args.work_dir, "mrt.cost": args.cost}))
    if not (recipe.bin / "dict.en.txt").is_file():
        sys.exit(f"{recipe.bin} has no binarized data: run the recipe's data,spm,preprocess steps first")
    timings = {"mle": [], "mrt": []}
    for _ in range(args.rounds):
        for name in ("mle", "mrt"):
            timings[name] += seconds_per_update(recipe, name == "mle", args.updates, args.interval, args.threads)
    report = {name: {"seconds_per_update_median": round(statistics.median(v), 3), "intervals": len(v)}
              for name, v in timings.items()}
    report["mrt_over_mle"] = round(report["mrt"]["seconds_per_update_median"]
                                   / report["mle"]["seconds_per_update_median"], 2)
    report.update(cost=args.cost, nbest=recipe.config.mrt.nbest,
                  max_tokens=recipe.config.mrt.train.get("max_tokens"), threads=args.threads)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    sys.exit(exit_code(main))
