"""PTB-style English tokenization for the parser (the tokens the Penn Treebank, and so the parser, expects).

The rules are the Penn Treebank tokenizer's sed script as ported by NLTK's `TreebankWordTokenizer` (Apache-2.0),
re-stated here because NLTK is not a dependency and sacremoses 0.2.0's `MosesTokenizer.penn_tokenize` is broken
(one rule is an uncompiled Perl pattern and raises AttributeError; with it removed, contractions come out as
`can ' t` and ellipses as `\\.\\.\\.`; it also XML-escapes its output). What the rules do:
* double quotes -> `` (opening) and '' (closing);
* `, ; : @ # $ % & ? !` and `...` split off; `,` and `:` stay inside numbers (`1,000`, `10:30`);
* only the sentence-final period is split off (`Mr. Smith` keeps `Mr.`);
* clitics: `can't` -> `ca n't`, `you'll` -> `you 'll`, `it's` -> `it 's`, `cannot` -> `can not`, `gonna` -> `gon na`;
* brackets become -LRB- -RRB- -LSB- -RSB- -LCB- -RCB- (as in the PTB); `--` is split off.
"""
from __future__ import annotations

import re

NAME = "paranmt.models.parsing.tokenize.ptb_tokenize (Penn Treebank sed rules, NLTK TreebankWordTokenizer port)"

_STARTING_QUOTES = [
    (re.compile(r'^"'), "``"),
    (re.compile(r"(``)"), r" \1 "),
    (re.compile(r"([ (\[{<])(\"|'{2})"), r"\1 `` "),
]
_PUNCTUATION = [
    (re.compile(r"([:,])([^\d])"), r" \1 \2"),
    (re.compile(r"([:,])$"), r" \1 "),
    (re.compile(r"\.\.\."), r" ... "),
    (re.compile(r"[;@#$%&]"), r" \g<0> "),
    (re.compile(r"([^.])(\.)([\])}>\"']*)\s*$"), r"\1 \2\3 "),
    (re.compile(r"[?!]"), r" \g<0> "),
    (re.compile(r"([^'])' "), r"\1 ' "),
]
_BRACKETS = (re.compile(r"[\]\[(){}<>]"), r" \g<0> ")
_BRACKET_NAMES = {"(": "-LRB-", ")": "-RRB-", "[": "-LSB-", "]": "-RSB-", "{": "-LCB-", "}": "-RCB-"}
_DOUBLE_DASHES = (re.compile(r"--"), r" -- ")
_ENDING_QUOTES = [
    (re.compile(r"''"), " '' "),
    (re.compile(r'"'), " '' "),
    (re.compile(r"([^' ])('[sS]|'[mM]|'[dD]|') "), r"\1 \2 "),
    (re.compile(r"([^' ])('ll|'LL|'re|'RE|'ve|'VE|n't|N'T) "), r"\1 \2 "),
]
_SPLIT_WORDS = [re.compile(pattern) for pattern in (
    r"(?i)\b(can)(not)\b", r"(?i)\b(d)('ye)\b", r"(?i)\b(gim)(me)\b", r"(?i)\b(gon)(na)\b",
    r"(?i)\b(got)(ta)\b", r"(?i)\b(lem)(me)\b", r"(?i)\b(more)('n)\b", r"(?i)\b(wan)(na)(?=\s)",
    r"(?i) ('t)(is)\b", r"(?i) ('t)(was)\b")]


def ptb_tokenize(text: str) -> list[str]:
    """PTB tokens of one English sentence (an empty or blank string gives [])."""
    for pattern, repl in _STARTING_QUOTES:
        text = pattern.sub(repl, text)
    for pattern, repl in _PUNCTUATION:
        text = pattern.sub(repl, text)
    text = _BRACKETS[0].sub(_BRACKETS[1], text)
    text = _DOUBLE_DASHES[0].sub(_DOUBLE_DASHES[1], text)
    text = f" {text} "
    for pattern, repl in _ENDING_QUOTES:
        text = pattern.sub(repl, text)
    for pattern in _SPLIT_WORDS:
        text = pattern.sub(r" \1 \2 ", text)
    return [_BRACKET_NAMES.get(token, token) for token in text.split()]
