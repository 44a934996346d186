"""STS by unknown words and by sentence length: where character n-grams beat word averaging (thesis §3.8, Tables
20-21), issue 44 item 6.

    python benchmarks/sts_bins.py --model NAME=DIR [NAME=DIR ...] --vocabulary DIR --sts-dir DIR
        [--select STS2012-test STS2013-test STS2014-test STS2015-test]

The pairs of the STS datasets `--select` names (`paranmt eval --select`: names containing one of them; the thesis
pooled the 20 SemEval 2012-15 sets, 19 are staged here) are pooled and binned (models/evaluation/sts.py): by the
number of their words (`\\w+|[^\\w\\s]` tokens of both sentences, lowercased, as the word encoders split them) that are
not in the vocabulary of `--vocabulary`, a word-averaging encoder directory (the thesis counted words not among
GloVe's types; here: not among the words the WORD model was trained with), and by the length in those tokens of the
longer sentence. Per bin, printed as Markdown: its pairs and each model's Pearson r (x100) of cosine similarity
against gold over them.
"""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import torch

from paranmt.models.encoders import load_encoder
from paranmt.models.encoders.featurizers import WordFeaturizer, word_tokens
from paranmt.models.evaluation.sts import (discover_datasets, length_bins, pair_similarities, pearson_by_bin,
                                           unknown_word_bins)
from paranmt.pipelines.cli import CommandLineParser, exit_code
from paranmt.schemas.errors import ConfigError

YEARS = ["STS2012-test", "STS2013-test", "STS2014-test", "STS2015-test"]


def vocabulary(directory: str) -> set[str]:
    """The words of a word-averaging encoder (its WordFeaturizer's vocabulary, `<unk>` left out)."""
    featurizer = getattr(load_encoder(directory), "featurizer", None)
    if not isinstance(featurizer, WordFeaturizer):
        raise ConfigError(f"--vocabulary {directory} is not a word-averaging encoder (its units are not words)")
    return set(featurizer.tokens[1:])


def table(title: str, rows: list[tuple[str, int, dict[str, float]]]) -> str:
    names = list(rows[0][2])
    lines = [f"| {title} | pairs | " + " | ".join(names) + " |", "|---|---:|" + "---:|" * len(names)]
    lines += [f"| {label} | {count:,} | " + " | ".join(f"{100 * r[name]:.1f}" for name in names) + " |"
              for label, count, r in rows]
    return "\n".join(lines)


def main() -> None:
    parser = CommandLineParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", nargs="+", required=True, metavar="NAME=DIR", help="encoders to compare")
    parser.add_argument("--vocabulary", required=True, help="a word-averaging encoder: its words are the known ones")
    parser.add_argument("--sts-dir", required=True, help="STS root folder (as `paranmt eval --sts-dir`)")
    parser.add_argument("--select", nargs="+", default=YEARS, help="datasets whose name contains one of these")
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    for spec in args.model:
        if "=" not in spec or not Path(spec.partition("=")[2]).is_dir():
            raise ConfigError(f"--model {spec}: give NAME=DIR, DIR an encoder directory")
    if not Path(args.sts_dir).is_dir():
        raise ConfigError(f"--sts-dir {args.sts_dir} does not exist")
    known = vocabulary(args.vocabulary)
    datasets, _ = discover_datasets(args.sts_dir, args.select)
    if not datasets:
        raise ConfigError(f"no STS dataset under {args.sts_dir} matches {' '.join(args.select)}")
    encoders = {name: load_encoder(directory).encode for name, _, directory in (s.partition("=") for s in args.model)}
    gold = np.concatenate([d.gold for d in datasets])
    similarities = {name: np.concatenate([pair_similarities(encode, d) for d in datasets])
                    for name, encode in encoders.items()}
    tokens = [(word_tokens(a), word_tokens(b)) for d in datasets for a, b in zip(d.s1, d.s2)]
    unknown = np.array([sum(t not in known for t in a + b) for a, b in tokens])
    longest = np.array([max(len(a), len(b)) for a, b in tokens])
    print(f"{len(gold):,} pairs of {len(datasets)} datasets; {len(known):,} known words ({args.vocabulary})\n")
    print(table("unknown words", pearson_by_bin(gold, similarities, unknown_word_bins(unknown))))
    print()
    print(table("longer sentence (words)", pearson_by_bin(gold, similarities, length_bins(longest))))


if __name__ == "__main__":
    sys.exit(exit_code(main))
