"""Reading torch files (checkpoints, model weights) without running code from them.

A `.pt` file is a pickle: unpickled in full it can build any object, and so run any code (a crafted checkpoint's
`__reduce__`). Every torch file paranmt reads, and every one it hands to a library (fairseq, stanza, CTranslate2's
converter), goes through torch's weights-only unpickler, which builds tensors, containers and plain values and
refuses everything else. Formats that need one more class register it process-wide before loading (fairseq
checkpoints: `argparse.Namespace`, paranmt.models.nmt.export.allow_fairseq_checkpoints). A refused file is an
`UnsafeFileError`, a ConfigError: one line naming the file, exit 2; nothing from it has run.
"""
from __future__ import annotations

import pickle
import re
from contextlib import contextmanager
from pathlib import Path

from paranmt.schemas.errors import ConfigError


class UnsafeFileError(ConfigError):
    """A file that torch's weights-only unpickler refuses (loading it in full could run code from it), or a pickle
    that cannot be read at all."""


@contextmanager
def refusing(path: str | Path):
    """Turn torch's refusal of `path` (a file, or a model directory a library loads) inside the block
    (`pickle.UnpicklingError`, from paranmt's own load or from a library loading weights-only, also when the library
    raised its own error while handling it, as transformers does) into one UnsafeFileError line naming the path and
    what it holds."""
    try:
        yield
    except Exception as raised:     # the refusal itself, or a library's error raised while handling it
        chain = [raised]
        while chain[-1].__cause__ or chain[-1].__context__:
            chain.append(chain[-1].__cause__ or chain[-1].__context__)
        error = next((e for e in chain if isinstance(e, pickle.UnpicklingError)), None)
        if error is None:
            raise
        text = f"{error}\n{error.__cause__ or ''}"     # stanza re-raises torch's refusal with its own message
        if "Weights only load failed" not in text:
            first = str(error).splitlines()[0] if str(error) else "unreadable pickle"
            raise UnsafeFileError(f"{path}: not a readable torch file ({first})") from None
        found = re.search(r"GLOBAL ([\w.]+)|Unsupported operand \d+", text)
        detail = f" ({found.group(1) or found.group(0)})" if found else ""
        holder = "a torch file in it holds" if Path(path).is_dir() else "it holds"
        raise UnsafeFileError(f"{path}: refused: {holder} objects other than tensors and plain data{detail}; "
                              f"loading it in full could run code from the file, and paranmt reads only "
                              f"weights-only torch files") from None


def load_weights_only(path: str | Path, map_location="cpu"):
    """torch.load(path, weights_only=True) whatever the environment says (TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD only
    changes loads that do not say); UnsafeFileError when refused."""
    import torch

    with refusing(path):
        return torch.load(str(path), map_location=map_location, weights_only=True)
