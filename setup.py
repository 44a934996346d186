"""Distribution `paranmt`.

The top-level folders are mapped into ONE import namespace, so nothing generic such as `models` lands in
site-packages: pipelines/ -> paranmt.pipelines, transforms/ -> paranmt.transforms, models/ -> paranmt.models,
schemas/ -> paranmt.schemas. `paranmt` itself is a namespace package (it has no __init__.py of its own). configs/
is installed as data beside them (paranmt/configs), so that the presets resolve in an installed copy too.

Dependencies are pinned in requirements/lock.txt (install with PIP_CONSTRAINT=requirements/build-constraints.txt
so that torch is the CPU wheel and never a CUDA build); `install_requires` and the extras repeat the direct ones
with the same pins so that `pip install .` alone cannot drift.

`pip install paranmt` is the core: Beam, pyarrow, sacremoses, sentencepiece, the CLI; enough for filter, stats,
export, lexicon and `build --stages read,clean`. The extras add the heavy parts (torch only where needed; which
command needs which: paranmt/pipelines/runtime/extras.py, whose table maps a missing module to its extra):
    translate  ctranslate2 + sacrebleu          fairseq  fairseq-fixed + torch (sdist: compiles 3-5 min)
    hf         transformers + torch             parse    stanza + torch
    train      torch + scikit-learn             mine     faiss-cpu + torch
    dataflow   DataflowRunner's GCP clients     sentence-transformers   export-encoder's target library
    dask       --runner dask (dask, distributed) and cluster-config (dask-jobqueue, dask-kubernetes)
    all        every extra
`make install` (make demo / make test) installs everything from requirements/lock.txt instead.
"""
from pathlib import Path

from setuptools import find_packages, setup

ROOT = Path(__file__).parent
FOLDERS = ("pipelines", "transforms", "models", "schemas")
# folders of data files installed beside the code (paranmt/configs/...: the presets `--config NAME` resolves)
DATA_FOLDERS = {"configs": ["*.yaml", "*/*.yaml"]}


def _packages():
    packages, package_dir = [], {}
    for folder in FOLDERS:
        packages.append(f"paranmt.{folder}")
        package_dir[f"paranmt.{folder}"] = folder
        for sub in find_packages(folder):
            packages.append(f"paranmt.{folder}.{sub}")
            package_dir[f"paranmt.{folder}.{sub}"] = f"{folder}/{sub.replace('.', '/')}"
    for folder in DATA_FOLDERS:
        packages.append(f"paranmt.{folder}")
        package_dir[f"paranmt.{folder}"] = folder
    return packages, package_dir


def _pins(*names):
    """`name==version` for each name, from the pinned files in requirements/."""
    pins = {}
    for file in ("lock.txt", "dev.txt"):
        for line in (ROOT / "requirements" / file).read_text().splitlines():
            if "==" in line and not line.startswith("#"):
                pins[line.split("==")[0].lower()] = line.strip()
    return [pins[n.lower()] for n in names]


EXTRAS = {
    "translate": _pins("ctranslate2", "sacrebleu"),
    "fairseq": _pins("fairseq-fixed", "torch"),
    "hf": _pins("transformers", "torch"),
    "parse": _pins("stanza", "torch"),
    "train": _pins("torch", "scikit-learn"),
    "mine": _pins("faiss-cpu", "torch"),
    "dataflow": _pins("google-cloud-dataflow-client", "google-cloud-storage", "google-auth", "google-auth-httplib2"),
    "sentence-transformers": _pins("sentence-transformers", "torch"),
    "dask": _pins("dask", "distributed", "dask-jobqueue", "dask-kubernetes"),
}
EXTRAS["all"] = sorted({pin for pins in EXTRAS.values() for pin in pins})

packages, package_dir = _packages()
setup(
    name="paranmt",
    version="0.1.0",
    description="ParaNMT-style paraphrase corpora from bitext on Apache Beam, and paraphrastic sentence encoders",
    python_requires=">=3.11,<3.12",
    packages=packages,
    package_dir=package_dir,
    package_data={f"paranmt.{folder}": patterns for folder, patterns in DATA_FOLDERS.items()},
    install_requires=_pins("apache-beam", "pyarrow", "numpy", "PyYAML", "sacremoses", "sentencepiece", "tqdm",
                           "zstandard", "regex", "scipy", "matplotlib", "py3langid", "psutil"),
    extras_require=EXTRAS,
    entry_points={"console_scripts": ["paranmt = paranmt.pipelines.cli:main"]},
)
