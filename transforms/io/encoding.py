"""Input lines that are not UTF-8: the reject detail of one line, and the advice of the build for a whole file.

A line's detail names the file, the line number, the byte offset and bytes, and a guess at the legacy encoding of
that line alone; whether a FILE is in a legacy encoding is decided over all its lines (`encoding_advice`: only when
most of them fail), since converting a UTF-8 file with a few bad lines would garble its good ones.
"""
from __future__ import annotations

import re


CZECH_LETTERS = set("áčďéěíňóřšťúůýžÁČĎÉĚÍŇÓŘŠŤÚŮÝŽ")


def guess_encoding(raw: bytes) -> str:
    """A guess at the legacy encoding of bytes that are not UTF-8: `UTF-16` (NUL bytes or a BOM), `cp1250`
    (decodes to Czech letters under Windows-1250; ISO-8859-2 differs from it in a few letters only) or `latin-1`."""
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")) or b"\x00" in raw:
        return "UTF-16"
    if CZECH_LETTERS & set(raw.decode("cp1250", "replace")):
        return "cp1250"
    return "latin-1"


UTF8_PROBLEM = re.compile(r"^(?P<file>.*) line (?P<line>\d+): (?P<what>invalid UTF-8 .*) "
                          r"\(encoding guess: (?P<guess>[\w-]+)\)$")


def utf8_problem(raw: bytes, file_name: str, line_no: int) -> tuple[str | None, str]:
    """(text, "") for UTF-8 bytes, else (None, detail): `news.tsv line 57: invalid UTF-8 at byte 3: b'\\xe8ra'
    (encoding guess: cp1250)` (UTF8_PROBLEM parses it back). The guess is about this line alone; whether the input
    is in a legacy encoding is decided over all lines of a file (`encoding_advice`)."""
    try:
        return raw.decode("utf-8"), ""
    except UnicodeDecodeError as error:
        return None, (f"{file_name} line {line_no}: invalid UTF-8 at byte {error.start}: "
                      f"{raw[error.start:error.start + 4]!r} (encoding guess: {guess_encoding(raw)})")


def encoding_advice(invalid: int, read: int, first_problem: str, guesses: list[str]) -> str:
    """One line about the lines of one input file that are not UTF-8 (`invalid` of `read` records, the detail of
    the first one and the per-line guesses): an encoding is guessed (the commonest guess, with an `iconv` command)
    only when MOST lines fail (invalid > read / 2); otherwise the file is UTF-8 with a few bad lines, and the first
    bad line is named (converting the file would garble its good lines)."""
    match = UTF8_PROBLEM.match(first_problem)
    where = f"{match['file']} line {match['line']}" if match else first_problem
    if invalid * 2 > read and guesses:
        guess = max(sorted(set(guesses)), key=guesses.count)
        name = match["file"] if match else "IN"
        return (f"{invalid} of {read} lines are not UTF-8 (the first: {where}): the file looks like {guess}: convert "
                f"it first, e.g. `iconv -f {guess} -t UTF-8 {name} > {name}.utf8`, and build from that")
    what = f" ({match['what']})" if match else ""
    return (f"{invalid} of {read} lines are not UTF-8, the first at {where}{what}; they are rejects "
            f"(read/invalid_utf8), the other lines were read")
