"""Records anyone can rerun (issue 33, item 5): no tracked text file names a folder of the machine it was written on,
and every script that benchmarks/RESULTS.md or an asset's MANIFEST cites is in the repository.

Machine path (`machine_paths`): an absolute path whose first component is `work`, `root`, `home` or `Users`, or a
path under `/tmp/` (`/tmp/NAME...`: one machine's scratch folder), where the path starts a word: at the start of a
line or after a character that cannot be part of a path (space, quote, backtick, `=`, `(`, `[`, `,`, `>`, ...). Not
machine paths: the bare `/tmp` (the system's scratch folder as such, e.g. a Dask worker's `--local-directory /tmp`),
generic examples under other roots (`/data/czeng20/*.gz`, `/scratch/...`, `/opt/...` inside the worker image),
paths inside URLs (`gs://...`, `file:///...`) and a container path after `:` (`docker run -v ~/.x:/root/.x`).
Scanned: every file `git ls-files` lists that is UTF-8 text, except .gitignore / .dockerignore, where a leading `/`
anchors a pattern to the repository root, and this file, whose examples are such paths.

Cited script (`cited_scripts`): a word ending in `.py` or `.sh` (`benchmarks/bench_flat.py`, `encoder_suite.sh`,
`tests/x.py::test_y`). It resolves when, after removing a leading `./` and anything up to a `paranmt/` folder (a
checkout or snapshot of the package: `$S/paranmt/benchmarks/bench_flat.py`), it is a tracked path; a bare file name
resolves when some tracked file has that name.
"""
import re
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
ANCHORED_PATTERN_FILES = {".gitignore", ".dockerignore"}
MACHINE_PATH = re.compile(r"(?<![\w.~:/$@%+-])/(?:(?:work|root|home|Users)(?=/|\b)|tmp/[\w.-])[^\s`'\")\],;|>]*")
CITED_SCRIPT = re.compile(r"(?<![\w./$-])/?(?:[\w.$-]+/)*[\w-]+\.(?:py|sh)\b")
RECORDS = ["benchmarks/RESULTS.md", "assets/*/MANIFEST.md", "assets/*/MANIFEST.json"]


def machine_paths(text: str) -> list[str]:
    """The machine paths of `text` (rule in the module docstring)."""
    return [m.group(0) for m in MACHINE_PATH.finditer(text)]


def cited_scripts(text: str) -> list[str]:
    """The script paths `text` cites; a URL's (`https://host/x.py`) are not scripts of this repository."""
    found = []
    for match in CITED_SCRIPT.finditer(text):
        word_start = max(text.rfind(c, 0, match.start()) for c in " \t\n`'\"(") + 1
        if "://" not in text[word_start:match.end()]:
            found.append(match.group(0))
    return found


def resolves(cited: str, tracked: set[str], names: set[str]) -> bool:
    """Whether a cited script is in the repository (rule in the module docstring)."""
    path = cited.removeprefix("./")
    if "/" not in path:
        return path in names
    if "paranmt/" in path:
        path = path.rsplit("paranmt/", 1)[1]
    return path in tracked


def tracked_files() -> list[str] | None:
    """The files `git ls-files` lists (None outside a git checkout)."""
    try:
        listed = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    return [name for name in listed.decode().split("\0") if name]


@pytest.fixture(scope="module")
def tracked() -> list[str]:
    names = tracked_files()
    if names is None:
        pytest.skip("not a git checkout: the tracked files are unknown")
    return names


def text_of(path: Path) -> str | None:
    data = path.read_bytes()
    if b"\0" in data:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def test_the_rules_find_machine_paths_and_spare_generic_ones():
    assert machine_paths("outputs under /work/runs/h6b-evals/ and `/root/x`, --work=/tmp/bench/hf") == [
        "/work/runs/h6b-evals/", "/root/x", "/tmp/bench/hf"]
    assert machine_paths('"/home/me/data" (/Users/me/x)') == ["/home/me/data", "/Users/me/x"]
    assert machine_paths("--input '/data/czeng20/*.gz' --local-directory /tmp; gs://b/work/x file:///tmp/x") == []
    assert machine_paths("-v ~/.config/gcloud:/root/.config/gcloud work/runs/x out/work/y /usr/bin/time") == []


def test_the_rules_resolve_cited_scripts():
    tracked = {"benchmarks/bench_flat.py", "models/generation/scpn.py"}
    names = {Path(p).name for p in tracked}
    text = ("`benchmarks/bench_flat.py` and $S/paranmt/benchmarks/bench_flat.py, scpn.py, "
            "tests/x.py::test_y, /work/runs/h4/plain_eval.py, ./benchmarks/gone.sh https://host/a/b.py")
    found = cited_scripts(text)
    assert found == ["benchmarks/bench_flat.py", "$S/paranmt/benchmarks/bench_flat.py", "scpn.py", "tests/x.py",
                     "/work/runs/h4/plain_eval.py", "./benchmarks/gone.sh"]
    assert [resolves(c, tracked, names) for c in found] == [True, True, True, False, False, False]


def test_no_tracked_text_file_names_a_machine_path(tracked):
    found = []
    for name in tracked:
        path = REPO / name
        if path.name in ANCHORED_PATTERN_FILES or path == Path(__file__).resolve() or not path.is_file():
            continue
        text = text_of(path)
        for number, line in enumerate((text or "").splitlines(), 1):
            found += [f"{name}:{number}: {p}" for p in machine_paths(line)]
    assert not found, "absolute paths of a machine (use paths relative to the repository, or arguments):\n" + \
        "\n".join(found)


def test_every_script_the_records_cite_is_in_the_repository(tracked):
    paths = set(tracked)
    names = {Path(p).name for p in tracked}
    records = sorted({p for pattern in RECORDS for p in REPO.glob(pattern)})
    assert REPO / "benchmarks" / "RESULTS.md" in records and len(records) > 5
    missing = [f"{record.relative_to(REPO)}: {cited}" for record in records
               for cited in cited_scripts(record.read_text(encoding="utf-8")) if not resolves(cited, paths, names)]
    assert not missing, "cited scripts that are not in the repository:\n" + "\n".join(missing)
