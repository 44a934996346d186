"""docs/architecture.md stays true (issue 33, item 6): its command table has one row per command of pipelines/cli.py
COMMANDS, each row's cells check out, and every path the page names is in the repository.

The table (under the heading TABLE_HEADING): `| command | module | config | main library code | tests |`.
- module: `pipelines/<COMMANDS[command]>.py`;
- config: `flags`, or `` `Name` KIND, PATH `` (several joined by `; `): class Name is defined in PATH, the
  command's module names it or imports PATH, and KIND says what it is: `typed` when it subclasses schemas' `Config`
  (through any chain of classes of the repository, e.g. LoopConfig), `dataclass` otherwise; and every class the
  module hands to a config loader (`load_config(Name, ...)`, `load_command_config(Name, ...)`), or for a declared
  command the config of its declaration (`Command("command", Name, ...)`), is in the cell;
- main library code, tests: paths separated by `, `, each a tracked file or folder; at least one of the tests names
  the command (`"command"` in quotes) or its module (`pipelines.<module>` / `pipelines/<module>`).

A path the page names (`named_paths`): a word that starts with a top-level folder of the repository (`models/...`,
`tests/...`, `docs/...`) where the word starts (not after a letter, `.`, `/`, `<`, `-`), up to the first character
that cannot be part of a path; a trailing `.` ends the sentence, not the path. It resolves when it is a tracked
file or folder (a glob: when it matches one), or when it is `FOLDER/MODULE.NAME` (`schemas/config.load_config`) and
FOLDER/MODULE.py is tracked and defines NAME at the start of a line (def, class or assignment). Scripts cited without
a folder (`tasks.py`) follow the records' rule (tests/test_records.py `cited_scripts`, `resolves`).

A name the page quotes (`quoted_names`): a backquoted identifier, dotted or not, whose last part has an underscore or
is capitalized (`claim_results`, `Task.keep_best`, `ShardJob`; not `copy` or `DIR`). It resolves when some tracked
Python file defines that last part (def, class, an assignment or a field at the start of a line) or has it as a
string literal (`"repeated_word"`: a reason, a metric).
"""
from __future__ import annotations

import ast
import functools
import importlib.util
import re
from fnmatch import fnmatch
from pathlib import Path

import pytest

from paranmt.pipelines.cli import COMMANDS

REPO = Path(__file__).resolve().parents[1]
DOC = REPO / "docs" / "architecture.md"
TABLE_HEADING = "## Every command: code, config, tests"
COLUMNS = ["command", "module", "config", "main library code", "tests"]
CONFIG_ENTRY = re.compile(r"^`(\w+)` (typed|dataclass), (\S+\.py)$")
LOADED = re.compile(r"\bload_\w*config\(\s*([A-Z]\w*)\b")
DECLARED = re.compile(r"\bCommand\(\s*\"([\w-]+)\",\s*([A-Z]\w*)\b")    # a command's declaration: its name, config
SOURCE_FOLDERS = ("schemas", "models", "transforms", "pipelines")

_spec = importlib.util.spec_from_file_location("records_rules", REPO / "tests" / "test_records.py")
records = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(records)


@pytest.fixture(scope="module")
def tracked() -> set[str]:
    names = records.tracked_files()
    if names is None:
        pytest.skip("not a git checkout: the tracked files are unknown")
    return set(names)


def folders(files: set[str]) -> set[str]:
    return {"/".join(parts[:i]) for name in files for parts in [name.split("/")] for i in range(1, len(parts))}


def command_rows(text: str) -> dict[str, list[list[str]]]:
    """command -> the cells of each of its rows in the table under TABLE_HEADING (several rows: a duplicate)."""
    section = text.split(TABLE_HEADING, 1)[1] if TABLE_HEADING in text else ""
    rows: dict[str, list[list[str]]] = {}
    for line in section.splitlines():
        if line.startswith("## "):
            break
        if not line.startswith("|"):
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if cells == COLUMNS or set("".join(cells)) <= set("-: "):
            continue
        rows.setdefault(cells[0], []).append(cells)
    return rows


@functools.cache
def class_bases(files: frozenset[str]) -> dict[str, list[tuple[str, list[str]]]]:
    """Class name -> (file, names of its bases) of every class defined in the source folders."""
    classes: dict[str, list[tuple[str, list[str]]]] = {}
    for name in sorted(files):
        text = (REPO / name).read_text(encoding="utf-8") if name.endswith(".py") else ""
        if name.split("/")[0] in SOURCE_FOLDERS and "Config" in text:      # only a config's file matters
            for node in ast.walk(ast.parse(text)):
                if isinstance(node, ast.ClassDef):
                    bases = [getattr(base, "id", getattr(base, "attr", "")) for base in node.bases]
                    classes.setdefault(node.name, []).append((name, bases))
    return classes


def is_typed(name: str, file: str, classes: dict, seen: frozenset = frozenset()) -> bool:
    """Whether class `name` of `file` subclasses schemas' `Config` (a base is looked up in `file` first)."""
    if name == "Config" and any(f.startswith("schemas/") for f, _ in classes.get(name, [])):
        return True
    found = [bases for f, bases in classes.get(name, []) if f == file] or [b for _, b in classes.get(name, [])]
    return any(is_typed(base, file, classes, seen | {name}) for bases in found for base in bases
               if base not in seen)


def names_command(test_file: str, command: str) -> bool:
    text = (REPO / test_file).read_text(encoding="utf-8")
    module = COMMANDS[command]
    return bool(re.search(rf"[\"']{re.escape(command)}[\"']|pipelines[./]{module}\b", text))


def names_config(module: str, name: str, file: str) -> bool:
    """Whether the command's module names the config class or imports the module that defines it."""
    text = (REPO / module).read_text(encoding="utf-8")
    dotted = "paranmt." + file.removesuffix(".py").replace("/", ".")
    return bool(re.search(rf"\b{name}\b|{re.escape(dotted)}\b", text))


def table_problems(text: str, commands: dict[str, str], files: set[str]) -> list[str]:
    """What is wrong with the command table of `text` (rules in the module docstring)."""
    rows = command_rows(text)
    problems = [f"{c}: no row (add one to {TABLE_HEADING!r})" for c in commands if c not in rows]
    problems += [f"{c}: not a command of pipelines/cli.py COMMANDS" for c in rows if c not in commands]
    problems += [f"{c}: {len(r)} rows" for c, r in rows.items() if len(r) > 1]
    paths = files | folders(files)
    classes = class_bases(frozenset(files))
    for command, (cells, *_) in rows.items():
        if command not in commands:
            continue
        if len(cells) != len(COLUMNS):
            problems.append(f"{command}: {len(cells)} cells, not {len(COLUMNS)}")
            continue
        _, module, config, library, tests = cells
        if module != f"pipelines/{commands[command]}.py":
            problems.append(f"{command}: module {module}, not pipelines/{commands[command]}.py")
        for entry in ([] if config == "flags" else config.split("; ")):
            match = CONFIG_ENTRY.match(entry)
            if not match:
                problems.append(f"{command}: config {entry!r} is not `Name` typed|dataclass, PATH")
                continue
            name, kind, file = match.groups()
            if file not in files or not any(f == file for f, _ in classes.get(name, [])):
                problems.append(f"{command}: class {name} is not defined in {file}")
                continue
            actual = "typed" if is_typed(name, file, classes) else "dataclass"
            if kind != actual:
                problems.append(f"{command}: {name} is {actual}, the table says {kind}")
            if module in files and not names_config(module, name, file):
                problems.append(f"{command}: {module} neither names {name} nor imports {file}")
        named = {m.group(1) for entry in config.split("; ") for m in [CONFIG_ENTRY.match(entry)] if m}
        source = (REPO / module).read_text(encoding="utf-8") if module in files else ""
        declared = {name for name_declared, name in DECLARED.findall(source) if name_declared == command}
        loaded = declared or set(LOADED.findall(source))      # a module may hold two commands (convert-nmt, eval-nmt)
        problems += [f"{command}: {module} loads {name}, which its config cell does not name"
                     for name in sorted(loaded - named)]
        for cell in (library, tests):
            problems += [f"{command}: {path} is not in the repository" for path in cell.split(", ")
                         if path.rstrip("/") not in paths]
        if not any(path in files and names_command(path, command) for path in tests.split(", ")):
            problems.append(f"{command}: none of its tests names the command or pipelines.{commands[command]}")
    return problems


def named_paths(text: str, roots: set[str]) -> list[str]:
    """The repository paths `text` names (rule in the module docstring)."""
    pattern = re.compile(rf"(?<![\w./<$-])(?:{'|'.join(map(re.escape, sorted(roots)))})/[\w./*-]*")
    return [match.group(0).rstrip(".") for match in pattern.finditer(text)]


def resolves(path: str, files: set[str], paths: set[str]) -> bool:
    """Whether a named path is in the repository (rule in the module docstring)."""
    if "*" in path:
        return any(fnmatch(name, path) for name in paths)
    if path.rstrip("/") in paths:
        return True
    folder, _, last = path.rpartition("/")
    module, _, attribute = last.partition(".")
    source = f"{folder}/{module}.py"
    if not attribute or "." in attribute or source not in files:
        return False
    text = (REPO / source).read_text(encoding="utf-8")
    return bool(re.search(rf"^\s*(?:def |class )?{re.escape(attribute)}\b", text, re.M))


def path_problems(text: str, files: set[str]) -> list[str]:
    roots = {name.split("/")[0] for name in files if "/" in name}
    paths = files | folders(files)
    names = {Path(name).name for name in files}
    missing = [p for p in named_paths(text, roots) if not resolves(p, files, paths)]
    missing += [p for p in records.cited_scripts(text) if "/" not in p and not records.resolves(p, files, names)]
    return missing


def quoted_names(text: str) -> list[str]:
    """The code names `text` quotes (rule in the module docstring)."""
    return [span for span in re.findall(r"`([A-Za-z_][\w.]*)`", text)
            if "_" in span.rsplit(".", 1)[-1] or re.fullmatch(r"[A-Z][a-z]\w+", span.rsplit(".", 1)[-1])]


DEFINED = re.compile(r"^[ \t]*(?:async def |def |class )(\w+)|^[ \t]*(\w+)[ \t]*(?::[^=\n]*)?=|[\"'](\w+)[\"']", re.M)


def code_names(files: set[str]) -> set[str]:
    """Every name a tracked Python file (but this one) defines or has as a string literal."""
    names = set()
    for name in files:
        if name.endswith(".py") and REPO / name != Path(__file__).resolve():
            names.update(n for match in DEFINED.findall((REPO / name).read_text(encoding="utf-8")) for n in match)
    return names


def name_problems(text: str, files: set[str]) -> list[str]:
    defined = code_names(files)
    return [quoted for quoted in dict.fromkeys(quoted_names(text)) if quoted.rsplit(".", 1)[-1] not in defined]


def test_the_rules_find_named_paths():
    roots = {"models", "docs", "schemas", "tests"}
    text = ("see models/loop.py, `schemas/config.load_config` and docs/*.md. DIR/models/x and "
            "paranmt.models.x are not paths; models/<area>/stage.py names models/; tests/fixtures/trainers/, "
            "tests/gone.")
    assert named_paths(text, roots) == ["models/loop.py", "schemas/config.load_config", "docs/*.md",
                                        "models/", "models/", "tests/fixtures/trainers/", "tests/gone"]
    files = {"models/loop.py", "schemas/config.py", "docs/a.md", "tests/fixtures/trainers/cases.py"}
    paths = files | folders(files)
    assert [resolves(p, files, paths) for p in named_paths(text, roots)] == [True, True, True, True, True, True, False]


def test_every_path_the_page_names_is_in_the_repository(tracked):
    text = DOC.read_text(encoding="utf-8")
    missing = path_problems(text, tracked)
    assert not missing, "paths docs/architecture.md names that are not in the repository:\n" + "\n".join(missing)
    assert path_problems(text + "\nmodels/training/gone.py, `schemas/config.no_such_name`, gone.py\n", tracked) == [
        "models/training/gone.py", "schemas/config.no_such_name", "gone.py"]


def test_the_command_table_has_one_true_row_per_command(tracked):
    text = DOC.read_text(encoding="utf-8")
    problems = table_problems(text, COMMANDS, tracked)
    assert not problems, "docs/architecture.md, " + TABLE_HEADING + ":\n" + "\n".join(problems)


def test_every_command_loads_a_typed_config():
    """Issue 33 item 3: every command's config is a typed Config (`--config FILE.yaml`, `--set`, generated flags);
    the table (checked true above) says so for each command: no `flags` cell, no `dataclass` entry."""
    rows = command_rows(DOC.read_text(encoding="utf-8"))
    untyped = {command: cells[2] for command, found in rows.items() for cells in found
               if cells[2] == "flags" or " dataclass, " in cells[2]}
    assert not untyped, f"commands without a typed config: {untyped}"


def test_the_table_check_catches_a_missing_row_and_wrong_cells(tracked):
    text = DOC.read_text(encoding="utf-8")
    without = "\n".join(line for line in text.splitlines() if not line.startswith("| simile |"))
    assert table_problems(without, COMMANDS, tracked) == [f"simile: no row (add one to {TABLE_HEADING!r})"]
    spoiled = (text.replace("`FilterConfig` typed", "`FilterConfig` dataclass")
               .replace("| eval | pipelines/evaluate.py | `EvalConfig` typed, pipelines/evaluate.py |",
                        "| eval | pipelines/evaluate.py | flags |")
               .replace("| eval-words | pipelines/eval_words.py |", "| eval-words | pipelines/eval.py |"))
    spoiled = re.sub(r"^\| eval-transfer \|.*$", "| eval-transfer | pipelines/eval_transfer.py | `ProbeConfig` "
                     "dataclass, models/training/probe.py | models/evaluation/gone.py | "
                     "tests/pipelines/test_simile.py |", spoiled, flags=re.M)
    assert "models/evaluation/gone.py" in spoiled
    assert table_problems(spoiled + "| nope | pipelines/nope.py | flags | models/ | tests/ |\n", COMMANDS,
                          tracked) == [
        "nope: not a command of pipelines/cli.py COMMANDS",
        "eval: pipelines/evaluate.py loads EvalConfig, which its config cell does not name",
        "filter: FilterConfig is typed, the table says dataclass",
        "eval-transfer: ProbeConfig is typed, the table says dataclass",
        "eval-transfer: pipelines/eval_transfer.py neither names ProbeConfig nor imports models/training/probe.py",
        "eval-transfer: pipelines/eval_transfer.py loads TransferConfig, which its config cell does not name",
        "eval-transfer: models/evaluation/gone.py is not in the repository",
        "eval-transfer: none of its tests names the command or pipelines.eval_transfer",
        "eval-words: module pipelines/eval.py, not pipelines/eval_words.py"]


def test_the_rules_find_quoted_names():
    text = "`claim_results`, `Task.keep_best`, `ShardJob`, `copy`, `DIR`, `--resume`, `paranmt build ...`, `a.b_c`"
    assert quoted_names(text) == ["claim_results", "Task.keep_best", "ShardJob", "a.b_c"]


def test_every_name_the_page_quotes_is_in_the_code(tracked):
    text = DOC.read_text(encoding="utf-8")
    missing = name_problems(text, tracked)
    assert not missing, "names docs/architecture.md quotes that no Python file defines:\n" + "\n".join(missing)
    assert name_problems("`claim_results`, `Loop.run`, `gone_helper`, `GoneClass`", tracked) == [
        "gone_helper", "GoneClass"]
