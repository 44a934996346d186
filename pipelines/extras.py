"""Optional dependencies: `pip install paranmt` is the core (Beam, pyarrow, sacremoses, sentencepiece, the CLI;
enough for filter, stats, export and lexicon), and each extra of setup.py adds what some commands need:

    translate  ctranslate2 (the default translate backend), sacrebleu       build's translate stage, eval-nmt
    fairseq    fairseq-fixed, torch                                          train-nmt, convert-nmt, fairseq backend
    hf         transformers, torch                                           Hugging Face translation models
    parse      stanza, torch                                                 build's parse stage, train-parser
    train      torch                                                         train, eval, encode, build's score stage
    mine       faiss-cpu, torch                                              mine, eval-xling
    dataflow   the Google Cloud clients of the DataflowRunner and gs://      --runner DataflowRunner, check-dataflow
    all        every extra above

A command that needs a missing one stops with one line naming the extra (exit 2): `require_extra` when a command
knows up front what it needs, and the CLI for a `ModuleNotFoundError` of a module in EXTRA_OF raised anywhere.
"""
from __future__ import annotations

import importlib
from types import ModuleType

from paranmt.schemas.config import ConfigError

# module (or package of modules) -> the extra that installs it (torch comes with several; `train` is the smallest)
EXTRA_OF = {"ctranslate2": "translate", "sacrebleu": "translate", "fairseq": "fairseq", "transformers": "hf",
            "stanza": "parse", "torch": "train", "faiss": "mine", "google.cloud": "dataflow",
            "google.auth": "dataflow", "google.api_core": "dataflow"}


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


def missing_extra(error: ModuleNotFoundError) -> MissingExtra | None:
    """The MissingExtra for an import that failed on a module of an extra (EXTRA_OF); None for any other module
    (a broken install, not a missing extra)."""
    name = error.name or ""
    extra = next((extra for module, extra in EXTRA_OF.items() if name == module or name.startswith(module + ".")),
                 None)
    return MissingExtra(extra, name) if extra else None
