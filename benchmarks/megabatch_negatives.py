"""The hardest negatives a mega-batch picks at M = 1, 20, 40 (ParaNMT-50M Table 7, thesis Table 31), issue 44 item 3.

    python benchmarks/megabatch_negatives.py --input PAIRS [PAIRS ...] [--model assets/encoder-sp] [--sizes 1 20 40]
        [--batch-size 100] [--pools 1] [--queries 3] [--seed 1] [--one-per-reference] [--sibling-negatives]

PAIRS is anything `paranmt train` reads (sides of at most 40 words are kept, as the encoder suite trains);
`--one-per-reference` keeps the first pair of each side-1 text (with wmt-bt, one system's translation per
reference). The pairs are shuffled (seeded, as the trainer shuffles an epoch) and the first max(sizes) x batch-size x
pools of them embedded once with the encoder; for each M they are cut into consecutive mega-batches of M x batch-size
pairs, and each mega-batch's negatives are chosen by the trainer's own search (models/training/negatives.py
`mine_megabatch`, MAX, monolingual: the most similar sentence of the other pairs, either side, own pair's texts
excluded, and, as the trainer does unless `--sibling-negatives true`, pairs sharing a text with the anchor's pair;
`--sibling-negatives` lets those give negatives, as the trainer did before, to count them). Every M sees the same
pairs, so the rows differ only by the size of the pool each negative is chosen from. Printed as Markdown:
- per M, over every sentence of those pairs: the mean cosine of its hardest negative and of its paraphrase, the share
  of sentences whose negative is within the margin 0.4 of the paraphrase (the hinge is active), and the share whose
  negative is another pair's sentence of the same side-1 text (with wmt-bt, another system's translation of the same
  reference: a paraphrase taken for a negative);
- for the side-1 sentence of each of the first --queries pairs (in the first mega-batch of every M), its hardest
  negative and that negative's cosine at each M (the paper's table).
"""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import torch

from paranmt.models.encoders import load_encoder
from paranmt.models.pairs import TrainingDataError, read_pairs
from paranmt.models.training.negatives import mine_megabatch, normalize_rows
from paranmt.pipelines.cli import CommandLineParser, exit_code
from paranmt.schemas.errors import ConfigError

MARGIN = 0.4                        # the papers' delta: a negative within it of the paraphrase makes the hinge active


def megabatch_statistics(g1: np.ndarray, g2: np.ndarray, text1: list[str], text2: list[str], size: int,
                         siblings: bool = False) -> dict:
    """The hardest negatives of consecutive mega-batches of `size` pairs over all the pairs given: per sentence
    (side 1 then side 2) the cosine of its negative and of its paraphrase, whether the negative shares the anchor
    pair's side-1 text (a sibling), and each side-1 anchor's negative text."""
    negative, positive, sibling, chosen = [], [], [], []
    e1, e2 = normalize_rows(g1), normalize_rows(g2)
    for start in range(0, len(text1) - size + 1, size):
        part = slice(start, start + size)
        t1, t2 = text1[part], text2[part]
        n1_side, n1_index, valid1, n2_side, n2_index, valid2 = mine_megabatch(
            g1[part], g2[part], t1, t2, bilingual=False, strategy="max", rng=np.random.default_rng(0),
            siblings=siblings)
        sides = {1: e1[part], 2: e2[part]}
        texts = {1: t1, 2: t2}
        for anchor, sides_of, rows, valid in ((e1[part], n1_side, n1_index, valid1),
                                              (e2[part], n2_side, n2_index, valid2)):
            vectors = np.stack([sides[s][r] for s, r in zip(sides_of, rows)])
            negative.append(np.where(valid, (anchor * vectors).sum(1), np.nan))
            positive.append((e1[part] * e2[part]).sum(1))
            sibling.append(np.array([valid[i] and t1[rows[i]] == t1[i] for i in range(size)]))
        chosen += [texts[s][r].replace("|", "\\|") if v else "" for s, r, v in zip(n1_side, n1_index, valid1)]
    negative, positive, sibling = (np.concatenate(x) for x in (negative, positive, sibling))
    return {"negative": negative, "positive": positive, "sibling": sibling, "chosen": chosen}


def read(paths: list[str]) -> list[tuple[str, str]]:
    for path in paths:
        if not Path(path).exists():
            raise ConfigError(f"--input {path} does not exist")
    try:
        return read_pairs(paths, max_words=40)[0]
    except (TrainingDataError, OSError) as error:
        raise ConfigError(f"--input: {error}") from None


def main() -> None:
    parser = CommandLineParser(description=__doc__.splitlines()[0])
    parser.add_argument("--input", nargs="+", required=True, help="training pairs (anything `paranmt train` reads)")
    parser.add_argument("--model", default="assets/encoder-sp", help="encoder directory")
    parser.add_argument("--sizes", type=int, nargs="+", default=[1, 20, 40], help="mega-batch sizes M")
    parser.add_argument("--batch-size", type=int, default=100)
    parser.add_argument("--pools", type=int, default=1, help="mega-batches of the largest M (more: steadier means)")
    parser.add_argument("--queries", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--one-per-reference", action="store_true", help="keep the first pair of each side-1 text")
    parser.add_argument("--sibling-negatives", action="store_true", help="let pairs sharing a text with the anchor's "
                        "pair give its negative (the trainer's --sibling-negatives true)")
    args = parser.parse_args()
    if min(args.sizes) < 1 or args.batch_size < 1 or args.pools < 1:
        raise ConfigError("--sizes, --batch-size and --pools must be at least 1")
    torch.set_num_threads(args.threads)
    pairs = read(args.input)
    if args.one_per_reference:
        first = {}
        for pair in pairs:
            first.setdefault(pair[0], pair)
        pairs = list(first.values())
    needed = max(args.sizes) * args.batch_size * args.pools
    if len(pairs) < needed:
        raise ConfigError(f"--input has {len(pairs)} usable pairs; {needed} are needed (largest M x batch x pools)")
    order = np.random.default_rng(args.seed).permutation(len(pairs))[:needed]
    text1, text2 = [pairs[i][0] for i in order], [pairs[i][1] for i in order]
    encoder = load_encoder(args.model)
    g1, g2 = encoder.encode(text1), encoder.encode(text2)
    results = {m: megabatch_statistics(g1, g2, text1, text2, m * args.batch_size, args.sibling_negatives)
               for m in args.sizes}
    print(f"{needed:,} pairs of {' '.join(args.input)} ({len(pairs):,} usable), encoder {args.model}, "
          f"batch {args.batch_size}\n")
    print("| M | pool (sentences) | mean cos(negative) | mean cos(paraphrase) | hinge active | negative = a sibling |")
    print("|---:|---:|---:|---:|---:|---:|")
    for m, r in results.items():
        print(f"| {m} | {2 * m * args.batch_size - 2:,} | {np.nanmean(r['negative']):.3f} | "
              f"{r['positive'].mean():.3f} | {100 * np.nanmean(r['negative'] > r['positive'] - MARGIN):.1f}% | "
              f"{100 * r['sibling'].mean():.1f}% |")
    for q in range(min(args.queries, len(text1))):
        print(f"\n**{text1[q]}** (paraphrase: {text2[q]}; cos {results[args.sizes[0]]['positive'][q]:.2f})\n")
        print("| M | hardest negative | cos |")
        print("|---:|---|---:|")
        for m, r in results.items():
            print(f"| {m} | {r['chosen'][q]} | {r['negative'][q]:.2f} |")


if __name__ == "__main__":
    sys.exit(exit_code(main))
