"""Target templates for syntactically controlled paraphrasing: reading them in either notation, choosing them,
and comparing them with parses.

A template is the top two levels of a linearized parse below ROOT (SPEC §2): the first constituent and its
children, none of which has children. Two notations are accepted everywhere and normalized to paranmt's:
* paranmt's (the shards' `ref_template` column): `(S(NP)(VP)(.))`; spaces between brackets are allowed;
* the SCPN authors' (`generate_paraphrases.py`, ../shared/data/scpn): `( ROOT ( S ( NP ) ( VP ) ( . ) ) ) EOP`,
  ROOT kept and the `EOP` end marker (both optional here).
`normalize_template` rejects anything else (unbalanced brackets, words, a third level, an empty template) with a
TemplateError naming the problem: a full parse is not a template (`template_of_linearized` cuts one to size).

`choose_templates(spec, stored)` turns the `--templates` value of `paranmt paraphrase` into a list:
* None or `top<N>` (`top20`): the first N of `stored`, the model's own 20 most frequent training templates;
* `top<N>:PATH` or `PATH` where PATH is a `paranmt stats` output directory or its `stats.json`: that corpus's N
  (default 20) most frequent templates (the `all` corpus when the report has several);
* PATH of any other existing file: one template a line (blank lines and lines starting with `#` skipped);
* anything else that starts with a bracket: one template, literally (anything else is a path that does not exist:
  a TemplateError saying so; so is an empty value). A value too long to be a file name (over 255 bytes) is no
  path: a template when it starts with a bracket, else a TemplateError.
Repeats are dropped (first occurrence kept, order kept).
"""
from __future__ import annotations

import errno
import json
import re
from pathlib import Path

from paranmt.models.parsing.trees import (EOP, ROOT, Tree, TreeFormatError, parse_one, template_of_linearized,
                                          to_scpn)

STATS_FILE = "stats.json"
ALL_CORPORA = "all"         # the merged corpus of a multi-corpus `paranmt stats` report (models/stats/report.py)
DEFAULT_COUNT = 20
_TOP = re.compile(r"top(\d+)(?::(.+))?$", re.DOTALL)


class TemplateError(ValueError):
    """A template string, template file or template source that cannot be used (one clear message)."""


def normalize_template(text: str) -> str:
    """A template in paranmt's notation, from either notation (see the module docstring); TemplateError else.
    `( ROOT ( S ( NP ) ( VP ) ( . ) ) ) EOP` -> `(S(NP)(VP)(.))`; `(S(NP)(VP)(.))` -> itself."""
    body = text.strip()
    if body.endswith(EOP):
        body = body[: -len(EOP)].rstrip()
    if not body:
        raise TemplateError("empty template; give one such as (S(NP)(VP)(.))")
    try:
        tree = parse_one(body)
    except TreeFormatError as error:
        raise TemplateError(f"not a template: {error}") from None
    if tree.label == ROOT:
        if len(tree.children) != 1 or not isinstance(tree.children[0], Tree):
            raise TemplateError(f"not a template: ROOT must have exactly one constituent in {text.strip()!r}")
        tree = tree.children[0]
    if not tree.label or not tree.children:
        raise TemplateError(f"not a template: {text.strip()!r} needs a labeled constituent with children, "
                            "e.g. (S(NP)(VP)(.))")
    for child in tree.children:
        if isinstance(child, str):
            raise TemplateError(f"not a template: a template has no words ({child!r} in {text.strip()!r})")
        if child.children:
            raise TemplateError(f"not a template: {text.strip()!r} has more than two levels; a template is the "
                                "top two levels of a parse, e.g. (S(NP)(VP)(.))")
        if not child.label:
            raise TemplateError(f"not a template: an unlabeled constituent in {text.strip()!r}")
    return "(" + tree.label + "".join(f"({child.label})" for child in tree.children) + ")"


def scpn_template(template: str) -> str:
    """paranmt notation -> the SCPN authors' (`( ROOT ( S ( NP ) ( VP ) ( . ) ) ) EOP`)."""
    return to_scpn(normalize_template(template))


def template_of(parse: str | None) -> str | None:
    """The template of a linearized parse (or of a template); None for None or a string that is not a tree."""
    if not parse:
        return None
    try:
        return template_of_linearized(parse)
    except TreeFormatError:
        return None


def matches_template(parse: str | None, target: str | None) -> bool:
    """Exact template match (thesis Table 60): the top two levels of `parse` equal those of `target` (a parse or
    a template). False when either side is missing or not a tree."""
    mine, theirs = template_of(parse), template_of(target)
    return mine is not None and mine == theirs


def stats_templates(path: Path, count: int) -> list[str]:
    """The `count` most frequent templates of a `paranmt stats` report (directory or stats.json)."""
    file = path / STATS_FILE if path_kind(str(path)) == "dir" else path
    try:
        corpora = json.loads(file.read_text(encoding="utf-8"))["corpora"]
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise TemplateError(f"{file} is not a `paranmt stats` report ({type(error).__name__}: {error})") from None
    if not corpora:
        raise TemplateError(f"{file} reports no corpus")
    top = corpora[ALL_CORPORA if ALL_CORPORA in corpora else next(iter(corpora))]["templates_top"]
    if not top:
        raise TemplateError(f"{file} lists no templates (were the shards parsed?)")
    return [normalize_template(entry["template"]) for entry in top[:count]]


def file_templates(path: Path) -> list[str]:
    """One template a line (either notation); blank lines and `#` comments skipped; line numbers in errors."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as error:
        raise TemplateError(f"cannot read template file {path}: {error}") from None
    templates = []
    for number, line in enumerate(lines, 1):
        if line.strip() and not line.lstrip().startswith("#"):
            try:
                templates.append(normalize_template(line))
            except TemplateError as error:
                raise TemplateError(f"{path}:{number}: {error}") from None
    if not templates:
        raise TemplateError(f"template file {path} has no template")
    return templates


def path_kind(source: str) -> str | None:
    """`dir`, `file` or None (no such path, or a value too long to be a file name: no path at all); a path that
    cannot be looked at (no permission) is a TemplateError naming it."""
    path = Path(source)
    try:
        return "dir" if path.is_dir() else "file" if path.is_file() else None
    except OSError as error:
        if error.errno == errno.ENAMETOOLONG:
            return None
        raise TemplateError(f"cannot read {source}: {error.strerror}") from None


def choose_templates(spec: str | None, stored: list[str]) -> list[str]:
    """The templates `spec` names (see the module docstring); `stored` = the model's own top templates. A `spec`
    that is no template (it does not start with a bracket) is taken as a path, and a missing one is said so."""
    if spec is not None and not spec.strip():
        raise TemplateError("empty value; give top<N>, top<N>:STATS_DIR, a template file or a template such as "
                            "(S(NP)(VP)(.))")
    match = _TOP.match(spec) if spec else None
    count = int(match.group(1)) if match else DEFAULT_COUNT
    if count < 1:
        raise TemplateError(f"{spec!r}: the number of templates must be at least 1")
    source = match.group(2) if match else spec
    if source is None:
        if not stored:
            raise TemplateError("the model stores no templates; give --templates (a template, a file or a "
                                "`paranmt stats` output)")
        templates = [normalize_template(t) for t in stored[:count]]
    elif (kind := path_kind(source)) == "dir" or source.endswith(".json"):
        templates = stats_templates(Path(source), count)
    elif kind == "file":
        templates = file_templates(Path(source))
    elif match:
        raise TemplateError(f"{spec!r}: {source} is not a `paranmt stats` output (directory or stats.json)")
    elif not source.lstrip().startswith("("):
        raise TemplateError(f"{source}: no such file or directory (a template file, a `paranmt stats` output) and "
                            "not a template (one starts with a bracket, e.g. (S(NP)(VP)(.)))")
    else:
        templates = [normalize_template(source)]
    return list(dict.fromkeys(templates))
