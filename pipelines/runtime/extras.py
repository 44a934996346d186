"""Optional dependencies: `pip install paranmt` is the core (Beam, pyarrow, sacremoses, sentencepiece, the CLI;
enough for filter, stats, export and lexicon), and each extra of setup.py adds what some commands need:

    translate  ctranslate2 (the default translate backend), sacrebleu       build's translate stage, eval-nmt
    fairseq    fairseq-fixed, torch                                          train-nmt, convert-nmt, fairseq backend
    hf         transformers, torch                                           Hugging Face translation models
    parse      stanza, torch                                                 build's parse stage, train-parser
    train      torch, scikit-learn                                           train, eval, encode, eval-transfer,
                                                                             finetune-sts, probe, build's score stage
    mine       faiss-cpu, torch                                              mine, eval-xling
    dataflow   the Google Cloud clients of the DataflowRunner and gs://      --runner DataflowRunner, check-dataflow
    sentence-transformers  sentence-transformers, torch                      export-encoder's target library
    dask       dask, distributed, dask-jobqueue, dask-kubernetes             --runner dask, cluster-config
    all        every extra above

A command that needs a missing one stops with one line naming the extra (exit 2): `require_extra` when a command
knows up front what it needs, and the CLI for a `ModuleNotFoundError` of a module of an extra raised anywhere
(`missing_extra`: the command's own extra when it provides the module, else the first extra that does).
"""
from __future__ import annotations

import importlib
from types import ModuleType

from paranmt.schemas.errors import ConfigError

# extra -> the modules (or packages of modules) it installs, as setup.py's extras_require; torch comes with several,
# `train` (torch alone) is the first
EXTRAS = {
    "translate": ("ctranslate2", "sacrebleu"),
    "train": ("torch", "sklearn"),
    "fairseq": ("fairseq", "torch"),
    "hf": ("transformers", "torch"),
    "parse": ("stanza", "torch"),
    "mine": ("faiss", "torch"),
    "dataflow": ("google.cloud", "google.auth", "google.api_core"),
    "sentence-transformers": ("sentence_transformers", "torch"),
    "dask": ("dask", "distributed", "dask_jobqueue", "dask_kubernetes"),
}
# build stage -> the extra its workers need (read and clean: the core); translate: per backend
STAGE_EXTRAS = {"xsim": "train", "score": "train", "parse": "parse",
                "translate": {"ctranslate2": "translate", "fairseq": "fairseq", "transformers": "hf"}}
# commands whose extra is not the first one providing the missing module
COMMAND_EXTRAS = {"mine": "mine", "eval-xling": "mine", "train-nmt": "fairseq", "train-parser": "parse",
                  "check-dataflow": "dataflow", "export-encoder": "sentence-transformers",
                  "cluster-config": "dask"}


class MissingExtra(ConfigError):
    """A command needs a module that the core install leaves out."""

    def __init__(self, extra: str, module: str):
        super().__init__(f"needs {module}, which the core install leaves out: pip install 'paranmt[{extra}]' "
                         f"(or 'paranmt[all]')")
        self.extra, self.module = extra, module


def require_extra(extra: str, module: str) -> ModuleType:
    """`module` imported, or MissingExtra naming `extra` when it (or a module it imports) is not installed."""
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as error:
        raise MissingExtra(extra, error.name or module) from None


def missing_extra(error: ModuleNotFoundError, command: str | None = None) -> MissingExtra | None:
    """The MissingExtra for an import that failed on a module of an extra (EXTRAS), naming `command`'s own extra
    when that one provides the module; None for any other module (a broken install, not a missing extra)."""
    name = error.name or ""
    providers = [extra for extra, modules in EXTRAS.items()
                 if any(name == module or name.startswith(module + ".") for module in modules)]
    if not providers:
        return None
    return MissingExtra(COMMAND_EXTRAS.get(command) if COMMAND_EXTRAS.get(command) in providers else providers[0],
                        name)


def stage_extras(stages: list[str], translate_backend: str) -> list[str]:
    """The extras a build running `stages` needs on its workers (EXTRAS order), e.g. the Dockerfile's
    PARANMT_EXTRAS build argument."""
    needed = set()
    for stage in stages:
        extra = STAGE_EXTRAS.get(stage)
        needed.add(extra.get(translate_backend) if isinstance(extra, dict) else extra)
    return [extra for extra in EXTRAS if extra in needed]
