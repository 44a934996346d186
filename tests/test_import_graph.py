"""The layers of the code (issue 33, item 2), read from every module's imports (`ast`; imports inside functions
count as much as those at the top of a module):

1. Layers: schemas/ < models/ < transforms/ < pipelines/. A module imports nothing of ours from a layer above its
   own: models/ never imports transforms/ or pipelines/, transforms/ never imports pipelines/, schemas/ imports
   only schemas/.
2. Commands only command: a command module (`paranmt.pipelines.<module>` of pipelines/cli.py COMMANDS) is imported
   by pipelines/cli.py alone. What several commands share lives below them: pipelines/runtime/ (which imports no
   other module of pipelines/), or down in transforms/ and models/.
3. No import circle: following the imports from module to module never comes back, except through an import
   inside a function that picks one implementation of a package from a module of the same package (a factory:
   models/nmt/translator.py -> fairseq_translator.py, which imports translator.py). A circle through the imports
   at the top of the modules (one that breaks the import itself) or across packages is refused.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
LAYERS = ("schemas", "models", "transforms", "pipelines")      # bottom to top; each folder is paranmt.<folder>
CLI = "paranmt.pipelines.cli"
RUNTIME = "paranmt.pipelines.runtime"


@dataclass(frozen=True)
class Import:
    source: str        # the importing module
    target: str        # the imported module (the longest name that is a module of ours)
    line: int
    top: bool          # at import time (module level, class bodies, `if` blocks), not inside a function


def module_files(root: Path) -> dict[str, Path]:
    """paranmt.<folder>.<path> -> file, for every .py file of the layers under `root`."""
    modules = {}
    for folder in LAYERS:
        for path in sorted((root / folder).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            modules[".".join(("paranmt",) + (parts[:-1] if parts[-1] == "__init__" else parts))] = path
    return modules


def imports_of(name: str, path: Path, modules: dict[str, Path]) -> list[Import]:
    """The imports of our modules in one file; `from X import y` is an import of X.y when that is a module."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []

    def ours(target: str) -> str | None:
        while target and target not in modules:
            target = target.rpartition(".")[0]
        return target or None

    def visit(node: ast.AST, top: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inner = top and not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            targets = []
            if isinstance(child, ast.Import):
                targets = [alias.name for alias in child.names]
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    parts = package.split(".")
                    base = ".".join(parts[:len(parts) - child.level + 1] + ([base] if base else []))
                targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                           for alias in child.names]
            for target in targets:
                if target.startswith("paranmt.") and (module := ours(target)) and module != name:
                    found.append(Import(name, module, child.lineno, inner))
            visit(child, inner)

    visit(ast.parse(path.read_text(encoding="utf-8"), str(path)), True)
    return found


def import_graph(root: Path) -> list[Import]:
    modules = module_files(root)
    return list(dict.fromkeys(edge for name, path in modules.items() for edge in imports_of(name, path, modules)))


def layer(module: str) -> str:
    return module.split(".")[1]


def cycles(edges: list[Import]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    graph: dict[str, set[str]] = {}
    for edge in edges:
        graph.setdefault(edge.source, set()).add(edge.target)
        graph.setdefault(edge.target, set())
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    components = []

    def connect(node: str) -> None:        # recursion depth <= number of modules (a few hundred)
        index[node] = low[node] = len(index)
        stack.append(node)
        for successor in sorted(graph[node]):
            if successor not in index:
                connect(successor)
                low[node] = min(low[node], low[successor])
            elif successor in stack:
                low[node] = min(low[node], index[successor])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                components.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            connect(node)
    return components


def violations(root: Path, commands: set[str]) -> list[str]:
    """Every break of the rules of the module docstring in the tree under `root`, one line each;
    `commands`: the command modules (paranmt.pipelines.<name>)."""
    edges = import_graph(root)
    packages_of = {name: name if path.name == "__init__.py" else name.rpartition(".")[0]
                   for name, path in module_files(root).items()}
    found = []
    for edge in edges:
        where = f"{edge.source} (line {edge.line}) imports {edge.target}"
        if LAYERS.index(layer(edge.target)) > LAYERS.index(layer(edge.source)):
            found.append(f"{where}: {layer(edge.source)}/ must not import {layer(edge.target)}/ (a layer above)")
        if edge.target == CLI:
            found.append(f"{where}: the entry point, which nothing imports")
        if edge.target in commands and edge.source != CLI:
            found.append(f"{where}: a command module, which only {CLI} imports; move what is shared below the "
                         f"commands (pipelines/runtime/, transforms/, models/)")
        if (edge.source + ".").startswith(RUNTIME + ".") and layer(edge.target) == "pipelines" \
                and not (edge.target + ".").startswith(RUNTIME + "."):
            found.append(f"{where}: pipelines/runtime/ imports nothing of pipelines/ outside it")
    for component in cycles(edges):
        packages = {packages_of[module] for module in component}
        at_import = cycles([edge for edge in edges if edge.top and edge.source in component
                            and edge.target in component])
        if len(packages) > 1 or at_import:
            found.append(f"import circle: {' -> '.join(component)}"
                         + (" (at import time)" if at_import else " (across packages)"))
    return found


def command_modules() -> set[str]:
    from paranmt.pipelines.cli import COMMANDS

    return {f"paranmt.pipelines.{module}" for module in COMMANDS.values()}


def test_the_code_keeps_its_layers_and_has_no_import_circle():
    assert violations(REPO, command_modules()) == []


def write_tree(root: Path, files: dict[str, str]) -> Path:
    for folder in LAYERS:
        (root / folder).mkdir(parents=True, exist_ok=True)
        (root / folder / "__init__.py").touch()
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def test_an_upward_import_inside_a_function_is_refused(tmp_path):
    root = write_tree(tmp_path, {
        "pipelines/tool.py": "from paranmt.models import core\n",
        "models/core.py": "def load():\n    from paranmt.transforms.adapter import Adapter\n    return Adapter\n",
        "transforms/adapter.py": "from paranmt.schemas import records\nAdapter = object\n",
        "schemas/records.py": "import json\n",
    })
    assert violations(root, set()) == [
        "paranmt.models.core (line 2) imports paranmt.transforms.adapter: models/ must not import transforms/ "
        "(a layer above)"]


def test_a_command_module_or_the_cli_imported_by_another_module_is_refused(tmp_path):
    root = write_tree(tmp_path, {
        "pipelines/cli.py": "import importlib\nfrom paranmt.pipelines import runtime\n",
        "pipelines/runtime/__init__.py": "",
        "pipelines/runtime/logs.py": "def setup():\n    from paranmt.pipelines.cli import configure\n",
        "pipelines/runtime/shared.py": "from paranmt.pipelines.train import add_flags\n",
        "pipelines/train.py": "def add_flags(parser):\n    pass\n",
        "pipelines/train_more.py": "from .train import add_flags\n",
    })
    assert violations(root, {"paranmt.pipelines.train", "paranmt.pipelines.train_more"}) == [
        "paranmt.pipelines.runtime.logs (line 2) imports paranmt.pipelines.cli: the entry point, which nothing "
        "imports",
        "paranmt.pipelines.runtime.logs (line 2) imports paranmt.pipelines.cli: pipelines/runtime/ imports nothing "
        "of pipelines/ outside it",
        "paranmt.pipelines.runtime.shared (line 1) imports paranmt.pipelines.train: a command module, which only "
        "paranmt.pipelines.cli imports; move what is shared below the commands (pipelines/runtime/, transforms/, "
        "models/)",
        "paranmt.pipelines.runtime.shared (line 1) imports paranmt.pipelines.train: pipelines/runtime/ imports "
        "nothing of pipelines/ outside it",
        "paranmt.pipelines.train_more (line 1) imports paranmt.pipelines.train: a command module, which only "
        "paranmt.pipelines.cli imports; move what is shared below the commands (pipelines/runtime/, transforms/, "
        "models/)"]


def test_import_circles_across_packages_or_at_import_time_are_refused(tmp_path):
    root = write_tree(tmp_path, {
        # a factory: base picks an implementation beside it, inside a function (allowed)
        "models/nmt/__init__.py": "",
        "models/nmt/base.py": "def pick():\n    from paranmt.models.nmt.fast import Fast\n    return Fast\n",
        "models/nmt/fast.py": "from paranmt.models.nmt.base import pick\nFast = pick\n",
        # at import time, in one package
        "models/text/__init__.py": "",
        "models/text/a.py": "from paranmt.models.text import b\n",
        "models/text/b.py": "import paranmt.models.text.a\n",
        # across packages, through a function
        "models/gen/__init__.py": "",
        "models/gen/setup.py": "def load():\n    from paranmt.models.enc.open import open_encoder\n",
        "models/enc/__init__.py": "",
        "models/enc/open.py": "from paranmt.models.gen.setup import load\nopen_encoder = load\n",
    })
    assert violations(root, set()) == [
        "import circle: paranmt.models.enc.open -> paranmt.models.gen.setup (across packages)",
        "import circle: paranmt.models.text.a -> paranmt.models.text.b (at import time)"]


def test_the_code_compiles_without_warnings():
    """An invalid escape in a string (a docstring's `\\w`) is a SyntaxWarning on Python 3.12 (printed by every run
    there, e.g. a GPU image's) and an error in a later Python: every module of the layers and of benchmarks/ compiles
    with warnings as errors."""
    import warnings

    files = [path for folder in (*LAYERS, "benchmarks") for path in sorted((REPO / folder).rglob("*.py"))]
    failed = []
    for path in files:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            try:
                compile(path.read_text(), str(path), "exec")
            except (SyntaxError, SyntaxWarning, DeprecationWarning) as error:
                failed.append(f"{path.relative_to(REPO)}: {error}")
    assert len(files) > 100 and not failed


def test_a_local_training_run_does_not_load_beam(tmp_path):
    """The trainers, the input fingerprint of a local file and a results folder's first claim need no Apache Beam
    (so `train`, `train-bgt`, `eval` and `eval-transfer` run on an image without it, as the GPU runs of issue 43
    did): Beam is imported for remote files and to delete an earlier run's files only."""
    import subprocess
    import sys

    data = tmp_path / "pairs.tsv"
    data.write_text("a b\tc d\n")
    code = ("import sys\n"
            "import paranmt.pipelines.cli, paranmt.models.training.trainer, paranmt.models.bgt.trainer\n"
            "from paranmt.schemas.metadata import input_fingerprint\n"
            "from paranmt.pipelines.runtime.outputs import replace_earlier\n"
            f"assert input_fingerprint({str(data)!r})['size'] == 8\n"
            f"replace_earlier({str(tmp_path / 'out')!r}, [], False, 'results')\n"
            "print(sorted(m for m in sys.modules if m.startswith('apache_beam')))\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"
