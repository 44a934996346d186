"""A row condition over a pair row's numeric columns, e.g. `para_score >= 0.5 and trigram_overlap < 0.7` (the value
of `parse.only_if`). A small language, parsed here and never handed to `eval`:

    condition  := conjunction ("or" conjunction)*
    conjunction := comparison ("and" comparison)*
    comparison := COLUMN OP NUMBER | "(" condition ")"
    OP         := >= | <= | > | < | == | !=

COLUMN is one of NUMERIC_COLUMNS (the float and integer columns of `schemas.records.PAIR_SCHEMA`); NUMBER is a
decimal number (`0.5`, `-1`, `1e-3`). `and` binds tighter than `or`. A comparison with a null (or NaN) column is
false, so a row whose scores were never computed does not satisfy `para_score >= 0.5` (nor `para_score < 0.5`).
"""
from __future__ import annotations

import math
import operator
import re
from dataclasses import dataclass

import pyarrow as pa

from paranmt.schemas.config import near_matches
from paranmt.schemas.records import PAIR_SCHEMA

NUMERIC_COLUMNS = tuple(f.name for f in PAIR_SCHEMA if pa.types.is_floating(f.type) or pa.types.is_integer(f.type))
OPERATORS = {">=": operator.ge, "<=": operator.le, ">": operator.gt, "<": operator.lt, "==": operator.eq,
             "!=": operator.ne}
_TOKEN = re.compile(r"\s*(?:(?P<op>>=|<=|==|!=|>|<)|(?P<paren>[()])"
                    r"|(?P<number>[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)|(?P<word>[A-Za-z_][A-Za-z_0-9]*))")


class ConditionError(ValueError):
    """The text is not a condition of this language (the message says where and why)."""


@dataclass(frozen=True)
class Comparison:
    column: str
    op: str
    number: float

    @property
    def columns(self) -> frozenset[str]:
        return frozenset((self.column,))

    def __call__(self, row: dict) -> bool:
        value = row.get(self.column)
        return value is not None and not math.isnan(value) and OPERATORS[self.op](value, self.number)


@dataclass(frozen=True)
class Combination:
    """Comparisons joined by `and` (AllOf) or `or` (AnyOf)."""
    parts: tuple

    @property
    def columns(self) -> frozenset[str]:
        return frozenset().union(*(part.columns for part in self.parts))


class AnyOf(Combination):
    def __call__(self, row: dict) -> bool:
        return any(part(row) for part in self.parts)


class AllOf(Combination):
    def __call__(self, row: dict) -> bool:
        return all(part(row) for part in self.parts)


def _tokens(text: str) -> list[tuple[str, str]]:
    tokens, position = [], 0
    while position < len(text.rstrip()):
        match = _TOKEN.match(text, position)
        if not match:
            raise ConditionError(f"unexpected {text[position:].strip()[:20]!r} at character {position + 1}")
        kind = match.lastgroup
        tokens.append((kind, match.group(kind)))
        position = match.end()
    return tokens


def parse_condition(text: str):
    """The condition `text` as a callable row -> bool (Comparison, AllOf or AnyOf; `.columns`: the columns it
    reads); ConditionError when it is not
    one (unknown column, missing number, dangling `and`, unbalanced parenthesis, ...)."""
    tokens = _tokens(text)
    if not tokens:
        raise ConditionError("empty condition")
    position = 0

    def peek():
        return tokens[position] if position < len(tokens) else (None, None)

    def take(kind: str, what: str) -> str:
        nonlocal position
        found_kind, value = peek()
        if found_kind != kind:
            raise ConditionError(f"expected {what}, found {value!r}" if value else f"expected {what} at the end")
        position += 1
        return value

    def comparison():
        nonlocal position
        if peek() == ("paren", "("):
            position += 1
            inner = disjunction()
            take("paren", "')'")
            return inner
        column = take("word", "a column name")
        if column not in NUMERIC_COLUMNS:
            raise ConditionError(f"unknown column {column!r}{near_matches(column, NUMERIC_COLUMNS)}; numeric columns: "
                                 f"{', '.join(NUMERIC_COLUMNS)}")
        op = take("op", f"a comparison ({' '.join(OPERATORS)}) after {column}")
        return Comparison(column, op, float(take("number", f"a number after {column} {op}")))

    def joined(word: str, part, combine):
        nonlocal position
        parts = [part()]
        while peek() == ("word", word):
            position += 1
            parts.append(part())
        return parts[0] if len(parts) == 1 else combine(tuple(parts))

    def conjunction():
        return joined("and", comparison, AllOf)

    def disjunction():
        return joined("or", conjunction, AnyOf)

    condition = disjunction()
    if position < len(tokens):
        raise ConditionError(f"unexpected {tokens[position][1]!r} (join comparisons with `and` / `or`)")
    return condition
