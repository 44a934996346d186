"""Distribution `paranmt`.

The top-level folders are mapped into ONE import namespace, so nothing generic such as `models` lands in
site-packages: pipelines/ -> paranmt.pipelines, transforms/ -> paranmt.transforms, models/ -> paranmt.models,
schemas/ -> paranmt.schemas. `paranmt` itself is a namespace package (it has no __init__.py of its own).

Dependencies are pinned in requirements/lock.txt (install with PIP_CONSTRAINT=requirements/build-constraints.txt
so that torch is the CPU wheel and never a CUDA build); `install_requires` repeats the direct ones with the same
pins so that `pip install .` alone cannot drift.
"""
from pathlib import Path

from setuptools import find_packages, setup

ROOT = Path(__file__).parent
FOLDERS = ("pipelines", "transforms", "models", "schemas")


def _packages():
    packages, package_dir = [], {}
    for folder in FOLDERS:
        packages.append(f"paranmt.{folder}")
        package_dir[f"paranmt.{folder}"] = folder
        for sub in find_packages(folder):
            packages.append(f"paranmt.{folder}.{sub}")
            package_dir[f"paranmt.{folder}.{sub}"] = f"{folder}/{sub.replace('.', '/')}"
    return packages, package_dir


def _pins(*names):
    """`name==version` for each name, from the pinned files in requirements/."""
    pins = {}
    for file in ("lock.txt", "dev.txt"):
        for line in (ROOT / "requirements" / file).read_text().splitlines():
            if "==" in line and not line.startswith("#"):
                pins[line.split("==")[0].lower()] = line.strip()
    return [pins[n.lower()] for n in names]


packages, package_dir = _packages()
setup(
    name="paranmt",
    version="0.1.0",
    description="ParaNMT-style paraphrase corpora from bitext on Apache Beam, and paraphrastic sentence encoders",
    python_requires=">=3.11,<3.12",
    packages=packages,
    package_dir=package_dir,
    install_requires=_pins("apache-beam", "pyarrow", "numpy", "PyYAML", "sacremoses", "sentencepiece", "torch",
                           "tqdm", "zstandard", "regex", "scipy", "matplotlib", "py3langid"),
    extras_require={
        "nmt": _pins("fairseq-fixed", "ctranslate2", "sacrebleu"),
        "parse": _pins("stanza"),
        "sentence-transformers": _pins("sentence-transformers"),
    },
    entry_points={"console_scripts": ["paranmt = paranmt.pipelines.cli:main"]},
)
