"""The words two sentences do not share, for the report's side-by-side pairs.

A sentence is cut into words (runs of letters, digits and apostrophes), punctuation marks and the spaces between
them; the words and marks of the two sides are aligned case-insensitively (difflib's longest matching blocks),
and every word or mark outside a matching block differs. Spaces never differ, so the marked text joins back into
the sentence exactly.
"""
from __future__ import annotations

import difflib
import re

PIECE = re.compile(r"\s+|[\w']+|[^\w\s]")


def pieces(sentence: str) -> list[str]:
    """The sentence as words, marks and spaces, in order (joined: the sentence)."""
    return PIECE.findall(sentence)


def differing(first: str, second: str) -> tuple[list[tuple[str, bool]], list[tuple[str, bool]]]:
    """Both sentences as [(piece, differs)], the pieces joining back into the sentence."""
    sides = [pieces(first or ""), pieces(second or "")]
    tokens = [[index for index, piece in enumerate(side) if not piece.isspace()] for side in sides]
    keys = [[sides[s][index].lower() for index in tokens[s]] for s in (0, 1)]
    same = [set(), set()]
    for block in difflib.SequenceMatcher(None, keys[0], keys[1], autojunk=False).get_matching_blocks():
        same[0].update(tokens[0][block.a: block.a + block.size])
        same[1].update(tokens[1][block.b: block.b + block.size])
    return tuple([(piece, not piece.isspace() and index not in same[s]) for index, piece in enumerate(sides[s])]
                 for s in (0, 1))
