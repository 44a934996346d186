r"""The TSV files paranmt writes: tables in one dialect, and plain lines where a consumer splits lines at tabs.

**Table TSV** (`header`, `table_line`, `quote_array`; read back with `read_rows`): UTF-8, one row per line ending
in "\n", fields separated by one tab, first a header line naming the columns. No field holds a tab or a line
break: a writer replaces every whitespace run by one space and trims the ends (`one_line`; cleaned text has none).
A field that begins with a double quote is quoted: `"`, the field with each `"` doubled, `"`. No other field is
quoted or escaped, so a line without such a field is its fields joined by tabs, byte for byte. Readers:

    pd.read_csv(path, sep="\t", keep_default_na=False)      # pandas: every row and field as written
    csv.DictReader(handle, delimiter="\t")                   # Python's csv module

pandas' defaults alone (`pd.read_csv(path, sep="\t")`) read every row and column unchanged too, except that they
turn a field "NA", "null", "nan", "None", "N/A", ... or an empty one into NaN (`keep_default_na=False` keeps them
strings) and a column of numbers into numbers. Written so: `filter --tsv`'s pairs.tsv (PAIRS_COLUMNS),
`export --format scpn` (SCPN_COLUMNS), `paraphrase --output OUT.tsv` (schemas/paraphrases.py COLUMNS), `lexicon`'s
lexicon-*.tsv and simlex_pairs.tsv (LEXICON_COLUMNS).

**Plain lines** (`plain_line`): no header, nothing quoted: the fields joined by tabs, for formats whose consumers
split a line at its tabs: `export --format paranmt-txt` (`ref, bt, para_score`: the released para-nmt-50m.txt
layout; whitespace runs made one space), `mine`'s mined.tsv (`cs, en, margin, cos`: what `paranmt build --format
tsv` reads; a tab in a sentence was made a space when it was read) and the paraphrasers' parse cache (`sentence,
parse`; a sentence with a tab is never cached). A field may then begin with a quote that is part of the text, so
read them without quoting:

    pd.read_csv(path, sep="\t", header=None, names=["cs", "en", "margin", "cos"], quoting=csv.QUOTE_NONE,
                keep_default_na=False)
"""
from __future__ import annotations

import csv
from itertools import chain
from typing import Iterable, Iterator

QUOTE = '"'
PAIRS_COLUMNS = ("ref", "bt")
SCPN_COLUMNS = ("source", "target_parse", "target_template", "target")
LEXICON_COLUMNS = ("u", "v", "cross_count", "pmi_cross", "pmi_within", "pmi_adj")


def one_line(text: str) -> str:
    """`text` with every whitespace run (str.split's: tabs, line breaks, Unicode spaces) made one space, ends
    trimmed."""
    return " ".join(text.split())


def quote(field: str) -> str:
    """A table field as written: quoted when it begins with `"` (`"a" b` is written `\"\"\"a\"\" b\"`), else as
    it is."""
    return QUOTE + field.replace(QUOTE, QUOTE * 2) + QUOTE if field.startswith(QUOTE) else field


def header(columns: Iterable[str]) -> str:
    return "\t".join(columns) + "\n"


def table_line(fields: Iterable[str]) -> str:
    """One row of a table TSV, its line break included."""
    return "\t".join(quote(one_line(field)) for field in fields) + "\n"


def plain_line(fields: Iterable[str]) -> str:
    """One plain line (nothing quoted), its line break included."""
    return "\t".join(one_line(field) for field in fields) + "\n"


def quote_array(values):
    """`quote` over a pyarrow string array (nulls stay null), for writers that build their lines in Arrow."""
    import pyarrow.compute as pc

    quoted = pc.binary_join_element_wise(QUOTE, pc.replace_substring(values, QUOTE, QUOTE * 2), QUOTE, "")
    return pc.if_else(pc.starts_with(values, QUOTE), quoted, values)


def read_rows(lines: Iterable[str]) -> Iterator[list[str]]:
    """The rows of a table TSV (its header first), quoted fields unquoted: its `lines` (a file opened with
    newline="", or lines already read)."""
    return csv.reader(lines, delimiter="\t", quotechar=QUOTE)


def pair_rows(lines: Iterable[str], columns: tuple[str, ...] = PAIRS_COLUMNS,
              optional: tuple[str, ...] = ()) -> tuple[dict[str, int], Iterator[list[str]]]:
    """({column: index}, rows) of a TSV of pairs: its `lines` (a file opened with newline="", or lines already
    read). A first line naming every one of `columns` is a header: the file is a table TSV (quoted fields unquoted;
    `optional` columns indexed when named). Otherwise the lines are plain, split at tabs, the columns in the order
    given (`s1 TAB s2`)."""
    lines = iter(lines)
    head = next(lines, None)
    first = (head or "").rstrip("\r\n").split("\t")
    if all(column in first for column in columns):
        return {c: first.index(c) for c in (*columns, *optional) if c in first}, read_rows(lines)
    plain = lines if head is None else chain([head], lines)
    return {c: i for i, c in enumerate(columns)}, (line.rstrip("\r\n").split("\t") for line in plain)
