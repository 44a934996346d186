"""Constituency trees as plain Python values, and the pure string functions of the parse stage.

Formats (all without spaces unless said otherwise):

* bracketed tree with leaves (PTB / CoreNLP / stanza): `(ROOT (S (NP (PRP She)) (VP (VBD drove) ...)) (. .)))`,
  any whitespace, possibly pretty-printed over several lines; a PTB file's outer `( (S ...) )` has an empty label.
* linearized parse = the tree without its leaves and without the ROOT node (SPEC §2):
  `(S(NP(PRP))(VP(VBD)(NP(NN)))(.))`.
* template = the top two levels of the linearized parse, i.e. the node below ROOT and its children:
  `(S(NP)(VP)(.))`.
* SCPN format (the SCPN authors' code): ROOT kept, every bracket and label separated by one space, `EOP` end
  marker: `( ROOT ( S ( NP ) ( VP ) ( . ) ) ) EOP`. `to_scpn` / `from_scpn` convert linearized parses and
  templates to and from it (they are inverses of each other).

Labels never contain spaces or brackets (PTB escapes bracket words as -LRB-/-RRB-), so the string forms are
unambiguous. A tree nested deeper than MAX_DEPTH levels is a TreeFormatError: no parser makes one (the Penn
Treebank sample's deepest is 30 levels), and the functions here recurse once per level.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

ROOT = "ROOT"
EOP = "EOP"
NONE_TAG = "-NONE-"
MAX_DEPTH = 200         # levels of nesting a tree may have (module docstring)


class TreeFormatError(ValueError):
    """A bracketed string that is not a well-formed tree."""


class TreeDepthError(TreeFormatError):
    """A bracketed string nested deeper than MAX_DEPTH levels."""


@dataclass(frozen=True)
class Tree:
    """A constituency tree node. Children are nodes or words (plain strings); a preterminal (POS tag) has exactly
    one word child; a node of a de-leafed parse such as `(NN)` has no children at all."""
    label: str
    children: tuple["Tree | str", ...] = field(default=())

    @property
    def is_preterminal(self) -> bool:
        return len(self.children) == 1 and isinstance(self.children[0], str)

    def subtrees(self) -> list["Tree"]:
        """The children that are nodes (not words)."""
        return [child for child in self.children if isinstance(child, Tree)]

    def leaves(self) -> list[str]:
        """The words, left to right."""
        return [word for child in self.children
                for word in ([child] if isinstance(child, str) else child.leaves())]

    def preterminals(self) -> list["Tree"]:
        """The POS-tag nodes, left to right."""
        if self.is_preterminal:
            return [self]
        return [node for child in self.subtrees() for node in child.preterminals()]

    def tags(self) -> list[str]:
        return [node.label for node in self.preterminals()]

    def __str__(self) -> str:
        """Bracketed form with leaves, one line: `(ROOT (S (NP (PRP She)) ...))`."""
        return "(" + " ".join([self.label] + [str(child) for child in self.children]) + ")"


_TOKEN = re.compile(r"\(|\)|[^\s()]+")


def parse_bracketed(text: str) -> list[Tree]:
    """All trees in `text` (one or more bracketed trees, any whitespace).

    `(X a)` is a preterminal X over the word `a`; `(X)` is a childless node labeled X (as in de-leafed parses); a bracket with no label, as in PTB's `( (S ...) )`, gets the empty label "".
    Raises TreeFormatError on unbalanced brackets, stray words outside a bracket or nesting deeper than MAX_DEPTH.
    """
    tokens = _TOKEN.findall(text)
    trees: list[Tree] = []
    position = 0

    def read_node(depth: int) -> Tree:
        nonlocal position
        if depth > MAX_DEPTH:
            raise TreeDepthError(f"nested deeper than {MAX_DEPTH} levels (not a parse): {text[:80]!r}...")
        position += 1  # the "(" itself
        label = ""
        if position < len(tokens) and tokens[position] not in "()":
            label = tokens[position]
            position += 1
        children: list[Tree | str] = []
        while position < len(tokens) and tokens[position] != ")":
            if tokens[position] == "(":
                children.append(read_node(depth + 1))
            else:
                children.append(tokens[position])
                position += 1
        if position >= len(tokens):
            raise TreeFormatError(f"unbalanced brackets: missing ')' in {text[:200]!r}")
        position += 1  # the ")"
        return Tree(label, tuple(children))

    while position < len(tokens):
        if tokens[position] != "(":
            raise TreeFormatError(f"unexpected {tokens[position]!r} outside a bracket in {text[:200]!r}")
        trees.append(read_node(1))
    return trees


def parse_one(text: str) -> Tree:
    """Exactly one tree from `text` (TreeFormatError otherwise)."""
    trees = parse_bracketed(text)
    if len(trees) != 1:
        raise TreeFormatError(f"expected one tree, found {len(trees)} in {text[:200]!r}")
    return trees[0]


def bare_label(label: str) -> str:
    """A PTB label without function tags and co-indices: `NP-SBJ-1` -> `NP`, `PP-LOC=2` -> `PP`, `S-TPC-2` -> `S`.
    Labels that start with `-` (`-NONE-`, `-LRB-`, `-RRB-`) and the empty label are kept as they are."""
    if not label or label.startswith("-"):
        return label
    return re.split(r"[-=]", label, maxsplit=1)[0] or label


def strip_ptb(tree: Tree) -> Tree | None:
    """Penn Treebank preprocessing: drop `-NONE-` (traces, empty elements), drop constituents left without words,
    strip function tags and indices from labels (`bare_label`), and name the (unlabeled) top node ROOT.
    A tree whose top node has one child labeled ROOT already is left with that ROOT. Returns None when no word
    is left."""
    def strip(node: Tree | str) -> Tree | str | None:
        if isinstance(node, str):
            return node
        if node.label == NONE_TAG:
            return None
        if node.is_preterminal:
            return Tree(node.label, node.children)  # POS tags carry no function tags (`-LRB-` stays)
        children = tuple(child for child in (strip(c) for c in node.children) if child is not None)
        if not children:
            return None
        return Tree(bare_label(node.label), children)

    stripped = strip(tree)
    if stripped is None:
        return None
    if stripped.label in ("", ROOT):
        return Tree(ROOT, stripped.children)
    return Tree(ROOT, (stripped,))


def _below_root(tree: Tree) -> Tree:
    """The node under ROOT (the tree itself if its top node is not ROOT/unlabeled or has several children)."""
    if tree.label in (ROOT, "") and len(tree.children) == 1 and isinstance(tree.children[0], Tree):
        return tree.children[0]
    return tree


def _delexicalize(node: Tree, depth: int | None) -> str:
    children = node.subtrees()
    if depth == 1 or not children:
        return f"({node.label})"
    deeper = None if depth is None else depth - 1
    return f"({node.label}" + "".join(_delexicalize(child, deeper) for child in children) + ")"


def linearize(tree: Tree) -> str:
    """The parse without leaves and without ROOT: `(S(NP(PRP))(VP(VBD)(NP(NN)))(.))`."""
    return _delexicalize(_below_root(tree), None)


def template(tree: Tree) -> str:
    """The top two levels below ROOT: the first constituent and its children, `(S(NP)(VP)(.))`."""
    return _delexicalize(_below_root(tree), 2)


def template_of_linearized(linearized: str) -> str:
    """`template` of a linearized parse string (the same result as `template` on the full tree)."""
    return template(parse_one(linearized))


def to_scpn(linearized: str) -> str:
    """Linearized parse or template -> SCPN format: `(S(NP)(VP)(.))` -> `( ROOT ( S ( NP ) ( VP ) ( . ) ) ) EOP`."""
    tree = parse_one(linearized)
    if tree.label != ROOT:
        tree = Tree(ROOT, (tree,))

    def spaced(node: Tree) -> str:
        return " ".join(["(", node.label] + [spaced(child) for child in node.children] + [")"])

    return f"{spaced(tree)} {EOP}"


def from_scpn(scpn: str) -> str:
    """SCPN format -> linearized form without ROOT: `( ROOT ( S ( NP ) ( VP ) ( . ) ) ) EOP` -> `(S(NP)(VP)(.))`.
    The trailing `EOP` is optional; anything else after the tree is a TreeFormatError."""
    text = scpn.strip()
    if text.endswith(EOP):
        text = text[: -len(EOP)]
    return _delexicalize(_below_root(parse_one(text)), None)
