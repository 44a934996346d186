"""docs/reproduction.md, the index of the papers' tables, stays true to the code and to the results it points at.

The rules (each checked on the page, and shown to catch a spoiled copy of it):
- every row of its tables has seven cells (table, what, command, ours, paper, status, where) and a status cell that
  starts with **reproduced**, **partly** or **not**, and the page's "Status counts" line matches the rows;
- every `paranmt ...` span of a command cell parses with the command's real parser, as tests/test_documented_commands.py
  checks the documented commands (`check_arguments`: unknown flags, bad choices and, for builds, bad config keys
  fail); every `bash|python benchmarks/SCRIPT` span names a script of the repository; every `configs/`, `assets/`
  or `benchmarks/` path a command names exists;
- every row links at least one section, and every link `FILE#anchor` of the page names a Markdown file of the
  repository and one of its headings (GitHub's anchor of the heading's text).
"""
from __future__ import annotations

import importlib.util
import re
import shlex
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
DOC = REPO / "docs" / "reproduction.md"
COLUMNS = ["table", "what", "command", "ours", "paper", "status", "where"]
STATUSES = ("reproduced", "partly", "not")
CHECKED_ROOTS = ("configs/", "assets/", "benchmarks/")

_spec = importlib.util.spec_from_file_location("documented_commands", REPO / "tests" / "test_documented_commands.py")
documented = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(documented)


def rows(text: str) -> list[list[str]]:
    """The cells of every body row of the page's tables (header and separator rows left out)."""
    found = []
    for line in text.splitlines():
        if not line.startswith("|"):
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if cells == COLUMNS or set("".join(cells)) <= set("-|: "):
            continue
        found.append(cells)
    return found


def status(cells: list[str]) -> str | None:
    match = re.match(r"\*\*(\w+)\*\*", cells[5]) if len(cells) == len(COLUMNS) else None
    return match.group(1) if match and match.group(1) in STATUSES else None


def anchor(heading: str) -> str:
    """GitHub's anchor of a heading: lowercased, punctuation but `-` and `_` dropped, spaces made hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    """The anchors of the headings of a Markdown page (fenced blocks skipped; a repeated heading gets `-1`, ...)."""
    seen: dict[str, int] = {}
    fenced = False
    for line in page.read_text(encoding="utf-8").splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
        match = None if fenced else re.match(r"#{1,6} (.+)", line)
        if match:
            base = anchor(match.group(1))
            seen[base] = seen.get(base, -1) + 1
            seen[f"{base}-{seen[base]}" if seen[base] else base] = 0
    return set(seen)


def commands(cells: list[str]) -> list[str]:
    return [" ".join(span.split()) for span in re.findall(r"`([^`]+)`", cells[2])]


def command_problems(command: str) -> list[str]:
    """What is wrong with one command span of the page (rules in the module docstring)."""
    words = shlex.split(command)
    problems = [f"{command}: {word} is not in the repository" for word in words
                if word.startswith(CHECKED_ROOTS) and not (REPO / word.split("=")[-1]).exists()]
    if words[0] in ("bash", "python") and not words[1].startswith("benchmarks/"):
        problems.append(f"{command}: only benchmarks/ scripts and paranmt commands belong here")
    elif words[0] == "paranmt":
        try:
            documented.check_arguments(command)
        except (AssertionError, pytest.fail.Exception, SystemExit) as error:
            problems.append(f"{command}: does not parse ({str(error).splitlines()[0] if str(error) else error!r})")
    elif words[0] not in ("bash", "python"):
        problems.append(f"{command}: neither a paranmt command nor a benchmarks/ script")
    return problems


def link_problems(text: str) -> list[str]:
    problems = []
    for target, section in re.findall(r"\]\(([^)#\s]+\.md)#([^)\s]+)\)", text):
        page = (DOC.parent / target).resolve()
        if not page.is_file() or REPO not in page.parents:
            problems.append(f"{target}: no such page")
        elif section not in anchors(page):
            problems.append(f"{target}#{section}: no such section")
    return problems


def page_problems(text: str) -> list[str]:
    """Everything wrong with the page (rules in the module docstring)."""
    table = rows(text)
    problems = [f"{cells[0]}: {len(cells)} cells, not {len(COLUMNS)}" for cells in table if len(cells) != len(COLUMNS)]
    problems += [f"{cells[0]}: status {cells[5]!r} does not start with **reproduced**, **partly** or **not**"
                 for cells in table if len(cells) == len(COLUMNS) and status(cells) is None]
    problems += [f"{cells[0]}: links no section" for cells in table
                 if len(cells) == len(COLUMNS) and not re.search(r"\]\([^)]+#[^)]+\)", cells[6])]
    counted = [status(cells) for cells in table]
    expected = ", ".join(f"{counted.count(name)} {name}" for name in STATUSES)
    if f"Status counts: {expected} " not in text:
        problems.append(f"the Status counts line does not say: {expected}")
    problems += [problem for cells in table if len(cells) == len(COLUMNS) for command in commands(cells)
                 for problem in command_problems(command)]
    return problems + link_problems(text)


def test_the_index_is_true_to_the_code_and_the_results():
    text = DOC.read_text(encoding="utf-8")
    assert len(rows(text)) >= 40, "the index lost its rows"
    problems = page_problems(text)
    assert not problems, "docs/reproduction.md:\n" + "\n".join(problems)


def test_every_row_that_names_a_command_runs_paranmt_or_a_benchmark_script():
    spans = [command for cells in rows(DOC.read_text(encoding="utf-8")) for command in commands(cells)]
    assert sum(span.startswith("paranmt ") for span in spans) >= 20
    assert any(span.startswith("bash benchmarks/") for span in spans)


def test_the_checks_catch_a_spoiled_page():
    text = DOC.read_text(encoding="utf-8")
    spoiled = (text.replace("--by para_score", "--by-column para_score", 1)
               .replace("benchmarks/wmt_bt_probes.sh", "benchmarks/gone.sh", 1)
               .replace("#the-real-corpus-wmt-bt-issue-31)", "#the-real-corpus-gone)", 1)
               .replace("| **partly**: every column computed", "| **maybe**: every column computed", 1)
               .replace("configs/nmt/cs-en-small.yaml", "configs/nmt/gone.yaml", 1))
    problems = page_problems(spoiled)
    assert len(problems) == 6, problems
    assert problems[0].startswith("P18 Tab. 1-2 (= T Tab. 25): status \"**maybe**: every column computed")
    assert problems[0].endswith("does not start with **reproduced**, **partly** or **not**")
    counts = [status(cells) for cells in rows(text)]                 # the page's, less the spoiled **partly**
    assert problems[1].startswith(f"the Status counts line does not say: {counts.count('reproduced')} reproduced, "
                                  f"{counts.count('partly') - 1} partly, {counts.count('not')} not")
    assert problems[2] == ("paranmt train-nmt --config configs/nmt/gone.yaml: configs/nmt/gone.yaml is not in the "
                           "repository")
    assert problems[3] == "bash benchmarks/gone.sh work/wmt-bt work/wmt-bt-probes: benchmarks/gone.sh is not in " \
                          "the repository"
    assert problems[4].startswith("paranmt probe --input work/wmt-bt/scored-train --by-column para_score")
    assert "does not parse" in problems[4]
    assert problems[5] == "../benchmarks/RESULTS.md#the-real-corpus-gone: no such section"


def test_anchors_follow_github():
    assert anchor("Hard STS: `paranmt eval --hard`") == "hard-sts-paranmt-eval---hard"
    assert anchor("ParaNMT-50M's data experiments on wmt-bt (issue 31 item 3)") == \
        "paranmt-50ms-data-experiments-on-wmt-bt-issue-31-item-3"
