r"""The post-filter of generated paraphrases (thesis §6.3.3, SPEC §7): a paraphrase is kept when

    overlap(source, paraphrase)   >= min_overlap      (default 0.5)
    para_score(source, paraphrase) >= min_similarity  (default 0.7)

overlap = the corpus's word-trigram overlap (`paranmt.models.scoring.overlap.trigram_overlap`: shared lowercased
trigrams / the smaller trigram set; a sentence under 3 tokens is one "trigram"). The thesis says "n-gram overlap"
without n (AMBIG): the corpus's own trigram overlap is used, so thresholds mean the same here as in `paranmt
filter`. para_score = cosine of a paraphrastic encoder's embeddings (`ParaScorer`; the thesis used WORD,TRIGRAM,
the default here is the shipped `assets/encoder-sp`; any encoder directory works).
Guards for a user who wants paraphrases (issue 32, measured in docs/paraphrase.md, Decoding guards; on by default,
each can be turned off: `PostFilter(keep=...)` names the reasons not checked):
- `copy`: the paraphrase is the source again, up to case, punctuation and spacing (words(p) == words(s)): it passes
  both thresholds, but it is not a paraphrase;
- `repeated_word`: the paraphrase says a word twice in a row where the source does not ("it's time time"), or
  has a word of 4+ characters more often than the source (count_p(w) >= 2 and count_p(w) > count_s(w): "the
  Defense completion of Defense"); the commonest way an undertrained generator is disfluent. Shorter words (the,
  a, of, to, in, is, ...) repeat in fluent English and are not counted apart from the first rule.
- `unbalanced`: for some pair kind of PAIRS the paraphrase is unbalanced and the source is balanced ("a 'runaway"
  from "a 'runaway' who"). A text is balanced for a kind when each closing mark closes an open one and none is
  left open. ( [ { “ ‘ open and ) ] } ” ’ close; a symmetric " or ' opens where it starts a word (not after a
  letter or digit, not before a space), closes otherwise, and alone between spaces closes an open one or opens.
  An apostrophe is not a quote: ' or ’ between two letters or digits (don't, Tanaka's), before a digit ('90s), or
  closing nothing after an s (players', a plural possessive).
- `lowercase_start`: the paraphrase starts with a lowercase letter where the source starts with an uppercase one
  ("himself has had weight problems"); not checked when either starts with something else (a digit, a quote)
  or the paraphrase's first word has a capital inside (iPhone, eBay: a name).
- `doubled_punctuation`: the paraphrase has a run of two or more of one of . ! ? , ("smoldering ash..") where
  the source has no run of that mark (a source with "..." allows dots).
words(x) = the lowercased runs of word characters (`\w+`) of x, in order.
Reasons, in this order: `empty_paraphrase` (no tokens: overlap undefined), the guards in the order above (GUARDS),
`low_overlap`, `low_similarity` (a NaN cosine counts as below). Scores are returned for every candidate, so a new
threshold is a cheap re-run.
"""
from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass
from typing import Collection

import numpy as np

from paranmt.models.encoders import SentenceEncoder
from paranmt.models.scoring.overlap import trigram_overlap
from paranmt.models.scoring.para_score import ParaScorer

MIN_OVERLAP = 0.5
MIN_SIMILARITY = 0.7
WORD = re.compile(r"\w+")


def words(text: str) -> list[str]:
    """The lowercased runs of word characters of `text`, in order."""
    return WORD.findall(text.lower())


def is_copy(source: str, paraphrase: str) -> bool:
    """The paraphrase repeats the source, up to case, punctuation and spacing."""
    return words(source) == words(paraphrase)


def repeats_a_word(source: str, paraphrase: str) -> bool:
    """The paraphrase says a word twice in a row where the source does not, or has a word of 4+ characters at
    least twice and more often than the source."""
    said, have = words(paraphrase), words(source)
    doubled = {(a, b) for a, b in zip(have, have[1:]) if a == b}
    if any(a == b and (a, b) not in doubled for a, b in zip(said, said[1:])):
        return True
    counts = Counter(have)
    return any(count >= 2 and count > counts[word] and len(word) >= 4 for word, count in Counter(said).items())


PAIRS = ("()", "[]", "{}", "“”", "‘’", '""', "''")     # opening and closing mark of each kind
APOSTROPHES = "'’"
DOUBLED = re.compile(r"([.!?,])\1+")


def balanced(text: str, opening: str, closing: str) -> bool:
    """Each closing mark of the kind closes an open one and none is left open (the rules of `unbalanced` above)."""
    depth = 0
    for i, mark in enumerate(text):
        if mark not in (opening, closing):
            continue
        before, after = text[i - 1] if i else " ", text[i + 1] if i + 1 < len(text) else " "
        if mark in APOSTROPHES and (before.isalnum() and after.isalnum() or after.isdigit()):
            continue
        if opening != closing:
            opens = mark == opening
        elif before.isspace() and after.isspace():      # alone between spaces
            opens = depth == 0
        else:                                           # starts a word: opens; ends one: closes
            opens = not before.isalnum() and not after.isspace()
        if opens:
            depth += 1
        elif depth:
            depth -= 1
        elif not (mark in APOSTROPHES and before in "sS"):
            return False
    return depth == 0


def unbalanced(source: str, paraphrase: str) -> bool:
    """For some kind of PAIRS the paraphrase is unbalanced and the source is balanced."""
    return any(not balanced(paraphrase, *pair) and balanced(source, *pair) for pair in PAIRS)


def lowercase_start(source: str, paraphrase: str) -> bool:
    """The paraphrase starts with a lowercase letter, the source with an uppercase one, and the paraphrase's first
    word has no capital inside it (iPhone)."""
    source, paraphrase = source.lstrip(), paraphrase.lstrip()
    first = paraphrase.split(maxsplit=1)[0] if paraphrase else ""
    return bool(source) and source[0].isupper() and first[:1].islower() and not any(c.isupper() for c in first)


def doubled_punctuation(source: str, paraphrase: str) -> bool:
    """The paraphrase has a run of 2+ of one of . ! ? , where the source has no run of that mark."""
    allowed = {run.group(1) for run in DOUBLED.finditer(source)}
    return any(run.group(1) not in allowed for run in DOUBLED.finditer(paraphrase))


# reason -> the guard that drops a candidate for it, in the order they are checked
GUARDS = {"copy": is_copy, "repeated_word": repeats_a_word, "unbalanced": unbalanced,
          "lowercase_start": lowercase_start, "doubled_punctuation": doubled_punctuation}


@dataclass
class FilterScores:
    overlap: list[float | None]       # trigram overlap per candidate (None: a side without tokens)
    para_score: np.ndarray            # float32 cosines (NaN where undefined)
    reasons: list[str | None]         # None = kept, else why it was dropped

    @property
    def kept(self) -> list[bool]:
        return [reason is None for reason in self.reasons]


class PostFilter:
    def __init__(self, encoder: SentenceEncoder, min_overlap: float = MIN_OVERLAP,
                 min_similarity: float = MIN_SIMILARITY, batch_size: int = 1024, keep: Collection[str] = ()):
        """`keep`: the reasons of GUARDS not checked (their candidates are kept as far as the guards go)."""
        for name, value in (("min_overlap", min_overlap), ("min_similarity", min_similarity)):
            if not -1.0 <= value <= 1.0:
                raise ValueError(f"{name} must be in [-1, 1], not {value}")
        if set(keep) - set(GUARDS):
            raise ValueError(f"unknown guards {sorted(set(keep) - set(GUARDS))}, the guards are {list(GUARDS)}")
        self.min_overlap, self.min_similarity = min_overlap, min_similarity
        self.guards = {reason: guard for reason, guard in GUARDS.items() if reason not in keep}
        self.scorer = ParaScorer(encoder, batch_size)

    def reason(self, source: str, paraphrase: str, overlap: float | None, para_score: float) -> str | None:
        if overlap is None:
            return "empty_paraphrase"
        for reason, guard in self.guards.items():
            if guard(source, paraphrase):
                return reason
        if overlap < self.min_overlap:
            return "low_overlap"
        if math.isnan(para_score) or para_score < self.min_similarity:
            return "low_similarity"
        return None

    def score(self, sources: list[str], paraphrases: list[str]) -> FilterScores:
        """Scores and keep/drop reasons of each (source, paraphrase) pair; one encoder call for the batch."""
        overlaps = [trigram_overlap(s, p) for s, p in zip(sources, paraphrases)]
        para = self.scorer.score(sources, paraphrases) if sources else np.zeros(0, np.float32)
        return FilterScores(overlaps, para, [self.reason(s, p, o, float(c))
                                             for s, p, o, c in zip(sources, paraphrases, overlaps, para)])
