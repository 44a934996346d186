"""Input lines that are not UTF-8: the reject detail of one line, the advice for a whole file, and the count of
the lines a reader of text inputs refuses.

A line's detail names the file, the line number, the byte offset and bytes, and a guess at the legacy encoding of
that line alone; whether a FILE is in a legacy encoding is decided over all its lines (`encoding_advice`: only when
most of them fail), since converting a UTF-8 file with a few bad lines would garble its good ones.

`paranmt build` makes a reject row of each such line (transforms/io/bitext.py); the trainers' readers of text files
(models/pairs.py, models/generation/data.py) count them in `LineRejects` under the build's reasons
(`read/invalid_utf8`, `read/empty_line`, `read/wrong_column_count`) and say them in the same one line per file.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

STAGE = "read"          # the stage of the build's reject rows of input lines: reasons are `read/<reason>`


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


@dataclass
class FileLines:
    """What `LineRejects.lines` saw in one file: its lines, those that are not UTF-8, the first one's detail and
    the guesses at their encoding (the first GUESSES_KEPT)."""
    lines: int = 0
    invalid: int = 0
    first: str = ""
    guesses: list[str] = field(default_factory=list)


GUESSES_KEPT = 1000


@dataclass
class LineRejects:
    """The input records a reader of text files refused, by `read/<reason>` (the build's reject reasons), and per
    file its lines that are not UTF-8 (for `advice`)."""
    by_reason: dict[str, int] = field(default_factory=dict)
    files: dict[str, FileLines] = field(default_factory=dict)

    @property
    def total(self) -> int:
        return sum(self.by_reason.values())

    @property
    def lines_read(self) -> int:
        """The lines `lines` read, over every file."""
        return sum(seen.lines for seen in self.files.values())

    def add(self, reason: str, n: int = 1) -> None:
        """Count `n` refused records under `read/<reason>`."""
        key = f"{STAGE}/{reason}"
        self.by_reason[key] = self.by_reason.get(key, 0) + n

    def lines(self, path: str | Path) -> Iterator[str | None]:
        """The lines of the file `path` (split at line feeds only, the line end `\\n` or `\\r\\n` removed),
        decoded; None for a line that is not UTF-8, noted for the file's advice (the caller counts the record it
        belongs to with `add("invalid_utf8")`)."""
        seen = self.files.setdefault(str(path), FileLines())
        with open(path, "rb") as handle:
            for number, raw in enumerate(handle, 1):
                seen.lines += 1
                raw = raw[:-1] if raw.endswith(b"\n") else raw
                raw = raw[:-1] if raw.endswith(b"\r") else raw
                text, problem = utf8_problem(raw, str(path), number)
                if text is None:
                    seen.invalid += 1
                    seen.first = seen.first or problem
                    if len(seen.guesses) < GUESSES_KEPT:
                        seen.guesses.append(UTF8_PROBLEM.match(problem)["guess"])
                yield text

    def text_lines(self, path: str | Path) -> Iterator[str]:
        """The UTF-8 lines of `path` that are not blank (`lines`); the others are counted as `read/invalid_utf8`
        and `read/empty_line`."""
        for text in self.lines(path):
            if text is None:
                self.add("invalid_utf8")
            elif not text.strip():
                self.add("empty_line")
            else:
                yield text

    def advice(self) -> list[str]:
        """One line per file with lines that are not UTF-8 (`encoding_advice`), in the order the files were read."""
        return [encoding_advice(seen.invalid, seen.lines, seen.first, seen.guesses)
                for seen in self.files.values() if seen.invalid]

    def merge(self, other: "LineRejects") -> None:
        """Add the counts and files of `other` to these."""
        for reason, n in other.by_reason.items():
            self.by_reason[reason] = self.by_reason.get(reason, 0) + n
        self.files.update(other.files)
