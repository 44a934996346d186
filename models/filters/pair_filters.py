"""The row-level filters. Each is configured by a mapping `{type: <key of FILTER_TYPES>, ...parameters}` (see
`build_filter`) and named by `name` (default: derived from type and column), which is the reason code of the rows
it drops. A user-defined filter needs no fork: `type: package.module:Class` (OpusFilter's convention) names any
importable PairFilter subclass, configured by the other keys like the built-in ones.

Every filter decides on a whole Arrow table at once (pyarrow compute / numpy). Null handling: a null (or NaN) in a
column a filter reads is never accepted (reason = the filter's name, detail says `null`). Bounds are inclusive
everywhere. A bound outside the range a column can take (COLUMN_RANGES, e.g. para_score min 7) is a configuration
error: it would keep every row or none.
"""
from __future__ import annotations

import difflib
import hashlib
import importlib
import inspect
import math
import re
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from paranmt.models.filters.base import PairFilter, column, every_field, struct_of, true_where
from paranmt.models.filters.english import looks_english
from paranmt.models.filters.text_keys import NORMALIZATIONS, normalize_texts
from paranmt.schemas.errors import ConfigError

SIDES = ("ref", "bt")
# The values each score column can take (schemas/records.py): cosines and Kendall tau in [-1, 1], overlaps and
# shares in [0, 1], bt_score a mean log-probability (<= 0).
COLUMN_RANGES = {"para_score": (-1.0, 1.0), "trigram_overlap": (0.0, 1.0), "bt_score": (-math.inf, 0.0),
                 "xsim": (-1.0, 1.0), "simile": (-1.0, 1.0), "bt_repetition": (0.0, 1.0), "unigram_f1": (0.0, 1.0),
                 "kendall_tau": (-1.0, 1.0)}
SCORE_COLUMNS = tuple(COLUMN_RANGES)


def _number(value, what: str) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or math.isnan(value):
        raise ConfigError(f"{what} must be a number, got {value!r}")
    return float(value)


def _in_range(value: float | None, column_name: str, what: str) -> float | None:
    low, high = COLUMN_RANGES[column_name]
    if value is not None and not low <= value <= high:
        raise ConfigError(f"{what} {value:g} is outside the values {column_name} can take, [{low:g}, {high:g}]")
    return value


def _between(values: pa.Array, low: float | None, high: float | None) -> np.ndarray:
    """low <= value <= high (a missing bound is open); null and NaN -> False."""
    keep = pc.invert(pc.is_nan(values)) if pa.types.is_floating(values.type) else pc.is_valid(values)
    if low is not None:
        keep = pc.and_(keep, pc.greater_equal(values, low))
    if high is not None:
        keep = pc.and_(keep, pc.less_equal(values, high))
    return true_where(keep)


def _sides(sides, what: str) -> tuple[str, ...]:
    sides = tuple([sides] if isinstance(sides, str) else sides)
    if not sides or any(side not in SIDES for side in sides):
        raise ConfigError(f"{what}: sides must be a non-empty subset of {list(SIDES)}, got {list(sides)}")
    return sides


class RangeFilter(PairFilter):
    """Keep rows with min <= row[column] <= max (either bound optional). score = row[column]."""

    def __init__(self, column: str, min: float | None = None, max: float | None = None, name: str | None = None):
        if column not in SCORE_COLUMNS:
            raise ConfigError(f"range filter: column must be one of {list(SCORE_COLUMNS)}, got {column!r}")
        self.column = column
        self.min = _in_range(_number(min, f"{column} min"), column, f"range filter on {column}: min")
        self.max = _in_range(_number(max, f"{column} max"), column, f"range filter on {column}: max")
        if self.min is None and self.max is None:
            raise ConfigError(f"range filter on {column}: give min, max or both")
        if self.min is not None and self.max is not None and self.min > self.max:
            raise ConfigError(f"range filter on {column}: min {self.min} > max {self.max}")
        self.name = name or f"{column}_range"
        self.requires = (column,)

    def score(self, table):
        return column(table, self.column)

    def accept(self, score):
        return _between(score, self.min, self.max)

    def describe(self):
        low = "-inf" if self.min is None else f"{self.min:g}"
        high = "inf" if self.max is None else f"{self.max:g}"
        return f"{low} <= {self.column} <= {high}"


class TokenCountFilter(PairFilter):
    """Keep rows where every side in `sides` has min_tokens <= <side>_len <= max_tokens (token counts of the shard
    columns ref_len / bt_len: sacremoses English tokens). score = struct of the sides' lengths."""

    def __init__(self, min_tokens: int = 1, max_tokens: int | None = None, sides=SIDES, name: str | None = None):
        self.sides = _sides(sides, "tokens filter")
        self.min_tokens = int(min_tokens)
        self.max_tokens = None if max_tokens is None else int(max_tokens)
        if self.min_tokens < 0 or (self.max_tokens is not None and self.max_tokens < self.min_tokens):
            raise ConfigError(f"tokens filter: need 0 <= min_tokens <= max_tokens, got {min_tokens}, {max_tokens}")
        self.name = name or "tokens"
        self.requires = tuple(f"{side}_len" for side in self.sides)

    def score(self, table):
        return struct_of(table, self.requires)

    def accept(self, score):
        return every_field(score, lambda lengths: _between(lengths, self.min_tokens, self.max_tokens))

    def describe(self):
        high = "inf" if self.max_tokens is None else self.max_tokens
        return f"{self.min_tokens} <= tokens <= {high} on {', '.join(self.sides)}"


class LengthRatioFilter(PairFilter):
    """Keep rows with max(ref_len, bt_len) / max(1, min(ref_len, bt_len)) <= max_ratio."""

    requires = ("ref_len", "bt_len")

    def __init__(self, max_ratio: float, name: str | None = None):
        self.max_ratio = _number(max_ratio, "length_ratio max_ratio")
        if self.max_ratio is None or self.max_ratio < 1:
            raise ConfigError(f"length_ratio filter: max_ratio must be >= 1, got {max_ratio!r}")
        self.name = name or "length_ratio"

    def score(self, table):
        ref, bt = (column(table, name).cast(pa.float64()) for name in ("ref_len", "bt_len"))
        both = pc.ElementWiseAggregateOptions(skip_nulls=False)
        longer, shorter = pc.max_element_wise(ref, bt, options=both), pc.min_element_wise(ref, bt, options=both)
        return pc.divide(longer, pc.max_element_wise(shorter, 1.0))

    def accept(self, score):
        return _between(score, None, self.max_ratio)

    def describe(self):
        return f"max(ref_len, bt_len) / min(...) <= {self.max_ratio:g}"


class TemplateFilter(PairFilter):
    """Keep rows whose ref and bt templates (level `template`: top two parse levels) or full de-leafed parses
    (level `parse`) differ (`require: differ`, SCPN's training data) or are equal (`require: equal`).
    score = struct of the ref and bt values."""

    def __init__(self, require: str = "differ", level: str = "template", name: str | None = None):
        if require not in ("differ", "equal"):
            raise ConfigError(f"template filter: require must be `differ` or `equal`, got {require!r}")
        if level not in ("template", "parse"):
            raise ConfigError(f"template filter: level must be `template` or `parse`, got {level!r}")
        self.require, self.level = require, level
        self.requires = (f"ref_{level}", f"bt_{level}")
        self.name = name or f"{level}_{require}"

    def score(self, table):
        return struct_of(table, self.requires)

    def accept(self, score):
        compare = pc.not_equal if self.require == "differ" else pc.equal
        return true_where(compare(score.field(0), score.field(1)))

    def describe(self):
        return f"ref and bt {self.level}s {self.require}"


class EnglishFilter(PairFilter):
    """Keep rows whose `sides` all look English by the function-word heuristic of
    `paranmt.models.filters.english` (not a trained language identifier). score = struct of one boolean per side."""

    def __init__(self, sides=SIDES, min_function_word_ratio: float = 0.15, min_ascii_ratio: float = 0.97,
                 min_words: int = 4, name: str | None = None):
        self.sides = _sides(sides, "english filter")
        self.min_function_word_ratio = _number(min_function_word_ratio, "english min_function_word_ratio")
        self.min_ascii_ratio = _number(min_ascii_ratio, "english min_ascii_ratio")
        self.min_words = int(min_words)
        self.requires = self.sides
        self.name = name or "english"

    def score(self, table):
        return pa.StructArray.from_arrays(
            [pa.array(looks_english(column(table, side), self.min_function_word_ratio, self.min_ascii_ratio,
                                    self.min_words)) for side in self.sides], list(self.sides))

    def accept(self, score):
        return every_field(score, true_where)

    def describe(self):
        return f"{', '.join(self.sides)} look English (function-word ratio >= {self.min_function_word_ratio:g})"


class LanguageFilter(PairFilter):
    """Keep rows whose language label of `side` (a schema v2 column `<side>_lang`, filled by the score stage's
    language identifier) is one of `languages` with confidence `<side>_lang_conf` >= `min_conf`.
    score = struct of the label and its confidence."""

    def __init__(self, side: str, languages, min_conf: float = 0.0, name: str | None = None):
        if side not in ("cs", "ref", "bt"):
            raise ConfigError(f"language filter: side must be cs, ref or bt, got {side!r}")
        languages = [languages] if isinstance(languages, str) else list(languages or [])
        if not languages or not all(isinstance(label, str) and label for label in languages):
            raise ConfigError(f"language filter on {side}: languages must be ISO 639-1 labels, e.g. [en]")
        self.side, self.languages = side, languages
        self.min_conf = _number(min_conf, f"language filter on {side}: min_conf")
        if not 0.0 <= self.min_conf <= 1.0:
            raise ConfigError(f"language filter on {side}: min_conf {self.min_conf:g} is outside [0, 1]")
        self.requires = (f"{side}_lang", f"{side}_lang_conf")
        self.name = name or f"{side}_language"

    def score(self, table):
        return struct_of(table, self.requires)

    def accept(self, score):
        keep = pc.and_(pc.is_in(score.field(0), value_set=pa.array(self.languages)),
                       pc.greater_equal(score.field(1), self.min_conf))
        return true_where(keep)

    def describe(self):
        return f"{self.side} is {'/'.join(self.languages)} (confidence >= {self.min_conf:g})"


class BacktranslationCopyFilter(PairFilter):
    """Drop rows whose back-translation is the reference itself (a copy teaches a paraphrase model nothing: 7% of
    the rows paranmt-5m kept on the demo corpus before it had this filter). Texts are compared as given
    (`normalization: exact`) or after text_keys.normalize_texts (`normalized`, default: case, Unicode form and
    punctuation ignored, as dedup does). score = True where bt is a copy of ref (null when a side is null, which
    never passes)."""

    requires = ("ref", "bt")

    def __init__(self, normalization: str = "normalized", name: str | None = None):
        if normalization not in NORMALIZATIONS:
            raise ConfigError(f"bt_copy filter: normalization must be one of {list(NORMALIZATIONS)}, "
                              f"got {normalization!r}")
        self.normalization = normalization
        self.name = name or "bt_copy"

    def score(self, table):
        ref, bt = column(table, "ref"), column(table, "bt")
        if self.normalization == "normalized":
            ref, bt = normalize_texts(ref), normalize_texts(bt)
        return pc.equal(ref, bt)

    def accept(self, score):
        return true_where(pc.invert(score))

    def describe(self):
        return f"bt differs from ref ({self.normalization})"


class QuantileFilter(PairFilter):
    """Keep rows whose `column` lies between its `lower` and `upper` quantiles over the WHOLE input (e.g. lower 0.8,
    upper 1.0 = the top two tenths). The quantiles are computed by the pipeline in a first pass and bound with
    `with_bounds`; an unbound filter refuses to decide. Bounds are inclusive, so ties at a boundary are kept.
    score = row[column]."""

    def __init__(self, column: str, lower: float = 0.0, upper: float = 1.0, name: str | None = None):
        if column not in SCORE_COLUMNS:
            raise ConfigError(f"quantile filter: column must be one of {list(SCORE_COLUMNS)}, got {column!r}")
        self.column = column
        self.lower, self.upper = _number(lower, "quantile lower"), _number(upper, "quantile upper")
        if not 0.0 <= self.lower < self.upper <= 1.0:
            raise ConfigError(f"quantile filter on {column}: need 0 <= lower < upper <= 1, got {lower}, {upper}")
        self.requires = (column,)
        self.name = name or f"{column}_quantile"
        self.bounds: tuple[float, float] | None = None

    def with_bounds(self, low_value: float, high_value: float) -> "QuantileFilter":
        bound = QuantileFilter(self.column, self.lower, self.upper, self.name)
        bound.bounds = (low_value, high_value)
        return bound

    def score(self, table):
        return column(table, self.column)

    def accept(self, score):
        if self.bounds is None:
            raise RuntimeError(f"quantile filter {self.name} used before its bounds were computed")
        return _between(score, *self.bounds)

    def describe(self):
        text = f"{self.column} between its {self.lower:g} and {self.upper:g} quantiles"
        if self.bounds is not None:
            text += f" ([{self.bounds[0]:.4f}, {self.bounds[1]:.4f}])"
        return text


class ValuesFilter(PairFilter):
    """Keep rows whose text `column` (corpus, src_lang, bt_source, a side's language label, ...) is one of
    `values` (exact match; `exclude: true` keeps the others instead). score = row[column]; a null never passes."""

    def __init__(self, column: str, values, exclude: bool = False, name: str | None = None):
        from paranmt.schemas.records import PAIR_SCHEMA

        text_columns = [f.name for f in PAIR_SCHEMA if pa.types.is_string(f.type)]
        if column not in text_columns:
            raise ConfigError(f"values filter: column must be a text column, one of {text_columns}, got {column!r}")
        values = [values] if isinstance(values, str) else list(values or [])
        if not values or not all(isinstance(v, str) for v in values):
            raise ConfigError(f"values filter on {column}: values must be a non-empty list of strings, got {values!r}")
        self.column, self.values, self.exclude = column, values, bool(exclude)
        self.requires = (column,)
        self.name = name or f"{column}_values"

    def score(self, table):
        return column(table, self.column)

    def accept(self, score):
        found = pc.is_in(score, value_set=pa.array(self.values, pa.string()))
        return true_where(pc.and_(pc.is_valid(score), pc.invert(found) if self.exclude else found))

    def describe(self):
        return f"{self.column} {'not ' if self.exclude else ''}in {self.values}"


class SplitFilter(PairFilter):
    """Keep the rows of one part of a deterministic train/dev/test split made by GROUP, never by row: rows that
    share a group (e.g. the 5-19 system outputs of one WMT source segment) always fall in the same part.

        key(row)    = the first match of `group` (a regular expression; its first capture group when it has one)
                      in the row's `id`; the whole id when `group` is empty or does not match
        u(row)      = int(md5(seed + key)[:8], 16) / 2**32                    (uniform in [0, 1))
        part(row)   = the first part p of `parts` (in order) with u < sum of the fractions up to and including p
        keep row   <=> part(row) == keep

    `parts` maps part names to fractions that sum to 1 (default train 0.94, dev 0.03, test 0.03). The same config
    with another `keep` gives the other parts, disjoint and together the whole input. score = the row's part.
    (Hashing is per row in Python: ~1 s per million rows.)"""

    requires = ("id",)

    def __init__(self, keep: str, parts: dict | None = None, group: str = "", seed: str = "",
                 name: str | None = None):
        parts = dict(parts if parts is not None else {"train": 0.94, "dev": 0.03, "test": 0.03})
        if not parts or any(not isinstance(k, str) for k in parts):
            raise ConfigError(f"split filter: parts must map part names to fractions, got {parts!r}")
        fractions = {k: _number(v, f"split part {k!r}") for k, v in parts.items()}
        if any(f is None or f < 0 for f in fractions.values()) or not math.isclose(sum(fractions.values()), 1.0,
                                                                                    abs_tol=1e-6):
            raise ConfigError(f"split filter: the part fractions must be >= 0 and sum to 1, got {parts!r}")
        if keep not in fractions:
            raise ConfigError(f"split filter: keep must be one of the parts {list(fractions)}, got {keep!r}")
        try:
            self.pattern = re.compile(group) if group else None
        except re.error as error:
            raise ConfigError(f"split filter: group {group!r} is not a regular expression ({error})") from None
        self.keep, self.parts, self.group, self.seed = keep, fractions, group, str(seed)
        self.bounds = list(zip(fractions, np.cumsum(list(fractions.values()))))
        self.name = name or "split"

    def key(self, row_id: str) -> str:
        found = self.pattern.search(row_id) if self.pattern else None
        if found is None:
            return row_id
        return found.group(1) if self.pattern.groups else found.group(0)

    def part(self, row_id: str) -> str:
        digest = hashlib.md5((self.seed + self.key(row_id)).encode("utf-8")).hexdigest()
        u = int(digest[:8], 16) / 2 ** 32
        return next((name for name, bound in self.bounds if u < bound), self.bounds[-1][0])

    def score(self, table):
        return pa.array([self.part(row_id) for row_id in column(table, "id").to_pylist()], pa.string())

    def accept(self, score):
        return true_where(pc.equal(score, self.keep))

    def describe(self):
        by = f"groups of id matching {self.group!r}" if self.group else "id"
        return f"split part {self.keep!r} of {self.parts} by {by}"


FILTER_TYPES: dict[str, type[PairFilter]] = {
    "range": RangeFilter,
    "tokens": TokenCountFilter,
    "length_ratio": LengthRatioFilter,
    "template": TemplateFilter,
    "english": EnglishFilter,
    "language": LanguageFilter,
    "quantile": QuantileFilter,
    "bt_copy": BacktranslationCopyFilter,
    "split": SplitFilter,
    "values": ValuesFilter,
}


def filter_class(kind: Any) -> type[PairFilter]:
    """The class of a filter `type`: a key of FILTER_TYPES, or `package.module:Class` naming an importable
    PairFilter subclass (ConfigError naming the near matches / the import problem otherwise)."""
    if isinstance(kind, str) and ":" in kind:
        module_name, _, class_name = kind.partition(":")
        try:
            found = getattr(importlib.import_module(module_name), class_name)
        except ImportError as error:
            raise ConfigError(f"filter type {kind!r}: cannot import module {module_name!r} ({error})") from None
        except AttributeError:
            raise ConfigError(f"filter type {kind!r}: module {module_name!r} has no {class_name!r}") from None
        if not (isinstance(found, type) and issubclass(found, PairFilter)):
            raise ConfigError(f"filter type {kind!r} is not a subclass of "
                              f"paranmt.models.filters.base.PairFilter")
        return found
    if kind not in FILTER_TYPES:
        near = difflib.get_close_matches(str(kind), FILTER_TYPES, n=2)
        raise ConfigError(f"unknown filter type {kind!r}" + (f" (did you mean {' or '.join(near)}?)" if near else "")
                          + f"; known: {', '.join(FILTER_TYPES)}, or package.module:Class for your own")
    return FILTER_TYPES[kind]


def check_keys(cls: type[PairFilter], kind: str, params: dict) -> None:
    """ConfigError naming an unknown key (and its near match) or a missing required key of a filter's mapping,
    with the filter's valid keys (the parameters of its constructor)."""
    parameters = {name: p for name, p in inspect.signature(cls.__init__).parameters.items()
                  if name != "self" and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)}
    valid = f"valid keys of a {kind!r} filter: type, {', '.join(parameters)}"
    if any(p.kind == p.VAR_KEYWORD for p in inspect.signature(cls.__init__).parameters.values()):
        return
    for key in params:
        if key not in parameters:
            near = difflib.get_close_matches(str(key), parameters, n=1)
            raise ConfigError(f"filter {kind!r}: unknown key {key!r}" + (f" (did you mean {near[0]!r}?)" if near
                                                                        else "") + f"; {valid}")
    missing = [name for name, p in parameters.items() if p.default is p.empty and name not in params]
    if missing:
        raise ConfigError(f"filter {kind!r}: missing key(s) {', '.join(missing)}; {valid}")


def build_filter(spec: Any) -> PairFilter:
    """A filter from its config mapping, e.g. `{type: range, column: para_score, min: 0.5}`."""
    if not isinstance(spec, dict) or "type" not in spec:
        raise ConfigError(f"each filter must be a mapping with a `type` ({', '.join(FILTER_TYPES)}, or "
                          f"package.module:Class), got {spec!r}")
    params = dict(spec)
    kind = params.pop("type")
    cls = filter_class(kind)
    check_keys(cls, kind, params)
    try:
        built = cls(**params)
    except (TypeError, ValueError) as error:
        if isinstance(error, ConfigError):
            raise
        raise ConfigError(f"filter {kind!r}: a value has the wrong type ({error}); {params}") from None
    if not built.name:
        raise ConfigError(f"filter {kind!r}: {cls.__name__} sets no `name` (the reason code of the rows it drops)")
    return built
