"""Penn Treebank (WSJ .mrg) preprocessing for training and evaluating the parser.

`read_mrg` reads a file's trees and cleans them with `trees.strip_ptb` (no -NONE- traces, no empty constituents,
no function tags, top node ROOT). `split_files` assigns files to train/dev/test by their WSJ number.
`write_treebank` writes one bracketed tree per line (the format stanza's constituency trainer reads);
`write_conllu` writes the words and POS tags as CoNLL-U (the format stanza's POS tagger trains on): XPOS = the PTB
tag, UPOS = its universal tag by `PTB_TO_UPOS`, and a placeholder chain for HEAD/DEPREL (the tagger ignores them).
"""
from __future__ import annotations

import re
from pathlib import Path

from paranmt.models.parsing.trees import Tree, parse_bracketed, strip_ptb

# PTB tag -> Universal POS (after the en-ptb mapping of Petrov et al. 2012, in UD v2 names).
PTB_TO_UPOS = {
    "!": "PUNCT", "#": "SYM", "$": "SYM", "''": "PUNCT", "``": "PUNCT", ",": "PUNCT", "-LRB-": "PUNCT",
    "-RRB-": "PUNCT", ".": "PUNCT", ":": "PUNCT", "?": "PUNCT", "CC": "CCONJ", "CD": "NUM", "DT": "DET",
    "EX": "PRON", "FW": "X", "IN": "ADP", "JJ": "ADJ", "JJR": "ADJ", "JJS": "ADJ", "LS": "X", "MD": "AUX",
    "NN": "NOUN", "NNS": "NOUN", "NNP": "PROPN", "NNPS": "PROPN", "PDT": "DET", "POS": "PART", "PRP": "PRON",
    "PRP$": "PRON", "RB": "ADV", "RBR": "ADV", "RBS": "ADV", "RP": "ADP", "SYM": "SYM", "TO": "PART",
    "UH": "INTJ", "VB": "VERB", "VBD": "VERB", "VBG": "VERB", "VBN": "VERB", "VBP": "VERB", "VBZ": "VERB",
    "WDT": "PRON", "WP": "PRON", "WP$": "PRON", "WRB": "ADV",
}

_WSJ_NUMBER = re.compile(r"wsj_(\d+)")


def read_mrg(path: str | Path) -> list[Tree]:
    """The cleaned trees of one .mrg file (trees that lose every word to trace removal are dropped)."""
    cleaned = (strip_ptb(tree) for tree in parse_bracketed(Path(path).read_text(encoding="utf-8")))
    return [tree for tree in cleaned if tree is not None]


def wsj_number(path: str | Path) -> int:
    match = _WSJ_NUMBER.search(Path(path).name)
    if not match:
        raise ValueError(f"not a WSJ file name (wsj_NNNN.mrg): {path}")
    return int(match.group(1))


def split_files(paths: list[Path], dev: range, test: range) -> dict[str, list[Path]]:
    """Files by split: `dev` and `test` are ranges of WSJ file numbers, the rest is train."""
    splits: dict[str, list[Path]] = {"train": [], "dev": [], "test": []}
    for path in sorted(paths):
        number = wsj_number(path)
        splits["dev" if number in dev else "test" if number in test else "train"].append(path)
    return splits


def write_treebank(trees: list[Tree], path: str | Path) -> None:
    """One bracketed tree per line, `(ROOT (S ...))`."""
    Path(path).write_text("".join(f"{tree}\n" for tree in trees), encoding="utf-8")


def write_conllu(trees: list[Tree], path: str | Path) -> None:
    """Words and tags as CoNLL-U, one sentence per tree (unknown PTB tags get UPOS `X`)."""
    lines = []
    for number, tree in enumerate(trees, 1):
        words, tags = tree.leaves(), tree.tags()
        lines.append(f"# sent_id = {number}")
        lines.append(f"# text = {' '.join(words)}")
        for index, (word, tag) in enumerate(zip(words, tags), 1):
            head, relation = (0, "root") if index == 1 else (index - 1, "dep")
            lines.append(f"{index}\t{word}\t_\t{PTB_TO_UPOS.get(tag, 'X')}\t{tag}\t_\t{head}\t{relation}\t_\t_")
        lines.append("")
    Path(path).write_text("\n".join(lines) + "\n", encoding="utf-8")
