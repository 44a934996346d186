"""Where one encoder beats another on STS, dataset by dataset and pair by pair (P17 Tables 4 and 7: LSTMavg against
word averaging), issue 44 item 4.

    python benchmarks/error_analysis.py --model A=DIR --model B=DIR --sts-dir DIR
        [--select STS2012-test STS2013-test STS2014-test STS2015-test] [--examples 3]

Both encoders score every pair of the datasets `--select` names (models/evaluation/sts.py `pair_similarities`).
Printed as Markdown: per dataset, each model's Pearson r x100 and A minus B (P17 Table 4); then, over the pooled
pairs, the `--examples` pairs where A is closest to gold compared with B and the ones where B is (P17 Table 7), each
with its gold score and both models' similarities on gold's scale (5 x cosine, clipped to [0, 5]: P17 scaled the
cosines to [0, 5] without saying how).
"""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import torch
from scipy.stats import pearsonr

from paranmt.models.encoders import load_encoder
from paranmt.models.evaluation.sts import discover_datasets, pair_similarities
from paranmt.pipelines.cli import CommandLineParser, exit_code
from paranmt.schemas.errors import ConfigError

YEARS = ["STS2012-test", "STS2013-test", "STS2014-test", "STS2015-test"]


def main() -> None:
    parser = CommandLineParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", action="append", required=True, metavar="NAME=DIR", help="give it twice: A, B")
    parser.add_argument("--sts-dir", required=True)
    parser.add_argument("--select", nargs="+", default=YEARS)
    parser.add_argument("--examples", type=int, default=3)
    args = parser.parse_args()
    torch.set_num_threads(1)
    if len(args.model) != 2 or any("=" not in spec for spec in args.model):
        raise ConfigError("give --model A=DIR --model B=DIR (two encoders)")
    (a, dir_a), (b, dir_b) = (spec.split("=", 1) for spec in args.model)
    if not Path(args.sts_dir).is_dir():
        raise ConfigError(f"--sts-dir {args.sts_dir} does not exist")
    datasets, _ = discover_datasets(args.sts_dir, args.select)
    if not datasets:
        raise ConfigError(f"no STS dataset under {args.sts_dir} matches {' '.join(args.select)}")
    encode = {a: load_encoder(dir_a).encode, b: load_encoder(dir_b).encode}
    similarity = {name: [pair_similarities(f, d) for d in datasets] for name, f in encode.items()}
    print(f"| dataset | pairs | {a} | {b} | {a} - {b} |")
    print("|---|---:|---:|---:|---:|")
    wins = 0
    for index, dataset in enumerate(datasets):
        r = {name: 100 * pearsonr(similarity[name][index], dataset.gold)[0] for name in (a, b)}
        wins += r[a] > r[b]
        print(f"| {dataset.name} | {len(dataset.gold):,} | {r[a]:.1f} | {r[b]:.1f} | {r[a] - r[b]:+.1f} |")
    print(f"\n{a} is ahead on {wins} of {len(datasets)} datasets.\n")
    gold = np.concatenate([d.gold for d in datasets])
    pairs = [(s1, s2) for d in datasets for s1, s2 in zip(d.s1, d.s2)]
    scaled = {name: np.clip(5 * np.concatenate(similarity[name]), 0, 5) for name in (a, b)}
    advantage = np.abs(scaled[b] - gold) - np.abs(scaled[a] - gold)      # > 0: A is closer to gold
    for title, order in ((f"{a} closer to gold", np.argsort(-advantage)),
                         (f"{b} closer to gold", np.argsort(advantage))):
        print(f"| {title}: sentence 1 | sentence 2 | gold | {a} | {b} |")
        print("|---|---|---:|---:|---:|")
        for i in order[:args.examples]:
            s1, s2 = (s.replace("|", "\\|") for s in pairs[i])
            print(f"| {s1} | {s2} | {gold[i]:.2f} | {scaled[a][i]:.2f} | {scaled[b][i]:.2f} |")
        print()


if __name__ == "__main__":
    sys.exit(exit_code(main))
