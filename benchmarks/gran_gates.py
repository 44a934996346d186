"""GRAN's gates by part of speech and by phrase label (P17 §5.2, Tables 9-11), issue 44 item 4.

    python benchmarks/gran_gates.py --model GRAN_DIR --treebank DIR [--max-words 15] [--min-count 20] [--top 10]

The sentences of the Penn Treebank sample (`DIR/wsj_*.mrg`, read and cleaned by models/parsing/ptb.py `read_mrg`:
gold trees, no traces) of at most `--max-words` words (P17: 10,000 Wikipedia sentences of at most 15 tokens, tagged
and parsed by the Stanford parser) go through a trained `gran` encoder (models/encoders/recurrent.py
`GRANEncoder.gates`: g_t = sigmoid(W_x x_t + W_h h_t + b) at each unit). A word's gate norm is the L1 norm of the
gate (summed over its dimensions) of its units (the encoder's units of the word: one for most words, several for
`n't`, `U.S.`), averaged over them. Printed as Markdown: per gold POS tag and per label of the word's parent
phrase (NP, VP, PP, ...: the constituency stand-in for P17's dependency labels, which need a dependency parser the
project does not ship), the mean gate norm and its count, highest first, for tags and labels seen at least
`--min-count` times; then the `--top` highest and lowest, as P17's Table 9 lists them.
"""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import torch

from paranmt.models.encoders import load_encoder
from paranmt.models.encoders.featurizers import word_tokens
from paranmt.models.encoders.recurrent import GRANEncoder
from paranmt.models.parsing.ptb import read_mrg
from paranmt.models.parsing.trees import Tree
from paranmt.pipelines.cli import CommandLineParser, exit_code
from paranmt.schemas.errors import ConfigError


def words_with_labels(tree: Tree) -> list[tuple[str, str, str]]:
    """(word, POS tag, label of the phrase above its preterminal) of each word of `tree`, in order."""
    found = []

    def walk(node: Tree) -> None:
        for child in node.subtrees():
            if child.is_preterminal:
                found.append((child.children[0], child.label, node.label))
            else:
                walk(child)
    walk(tree)
    return found


def word_gate_norms(encoder: GRANEncoder, sentences: list[list[str]]) -> list[list[float]]:
    """Per sentence (its words), the mean L1 gate norm of each word's units (NaN for a word without units)."""
    gates = encoder.gates([" ".join(words) for words in sentences])
    norms = []
    for words, gate in zip(sentences, gates):
        unit_norms, position, sentence = gate.abs().sum(1).numpy(), 0, []
        for word in words:
            count = len(word_tokens(word))
            sentence.append(float(unit_norms[position:position + count].mean()) if count else float("nan"))
            position += count
        norms.append(sentence)
    return norms


def means(values: dict[str, list[float]], min_count: int) -> list[tuple[str, float, int]]:
    rows = [(key, float(np.mean(v)), len(v)) for key, v in values.items() if len(v) >= min_count]
    return sorted(rows, key=lambda row: -row[1])


def main() -> None:
    parser = CommandLineParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", required=True, help="a trained `paranmt train --encoder gran` directory")
    parser.add_argument("--treebank", required=True, help="folder of wsj_*.mrg files")
    parser.add_argument("--max-words", type=int, default=15)
    parser.add_argument("--min-count", type=int, default=20)
    parser.add_argument("--top", type=int, default=10)
    args = parser.parse_args()
    torch.set_num_threads(1)
    files = sorted(Path(args.treebank).glob("wsj_*.mrg"))
    if not files:
        raise ConfigError(f"--treebank {args.treebank} has no wsj_*.mrg files")
    encoder = load_encoder(args.model)
    if type(encoder) is not GRANEncoder:
        raise ConfigError(f"--model {args.model} is a {encoder.kind} encoder, not gran")
    if encoder.featurizer.kind != "word":
        raise ConfigError(f"--model {args.model} reads {encoder.featurizer.kind} units; the analysis needs words")
    labeled = [words_with_labels(tree) for file in files for tree in read_mrg(file)]
    labeled = [sentence for sentence in labeled if 0 < len(sentence) <= args.max_words]
    norms = word_gate_norms(encoder, [[word for word, _, _ in sentence] for sentence in labeled])
    by_tag: dict[str, list[float]] = {}
    by_label: dict[str, list[float]] = {}
    for sentence, sentence_norms in zip(labeled, norms):
        for (_, tag, label), norm in zip(sentence, sentence_norms):
            if not np.isnan(norm):
                by_tag.setdefault(tag, []).append(norm)
                by_label.setdefault(label, []).append(norm)
    words = sum(len(v) for v in by_tag.values())
    print(f"{len(labeled):,} sentences of at most {args.max_words} words, {words:,} words; gate size "
          f"{encoder.dim} (L1 norm of a gate of all 0.5: {encoder.dim / 2:g})\n")
    for title, rows in (("POS", means(by_tag, args.min_count)), ("phrase label", means(by_label, args.min_count))):
        print(f"| {title} | mean gate L1 norm | words |")
        print("|---|---:|---:|")
        print("\n".join(f"| {key} | {value:.1f} | {count:,} |" for key, value, count in rows))
        print(f"\nhighest {title}: {' '.join(key for key, _, _ in rows[:args.top])}; lowest (lowest first): "
              f"{' '.join(key for key, _, _ in rows[::-1][:args.top])}\n")


if __name__ == "__main__":
    sys.exit(exit_code(main))
