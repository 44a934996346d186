"""`paranmt encode`: sentences (one per line, from `--input` or stdin) -> embeddings of a saved encoder, written
as `.npy` (float32 [n, dim]) when `--output` ends in .npy, else as text (one vector per line, space-separated).

The output contract (pipelines/runtime/outputs.py): an `--output` that is the input or lies inside the encoder
directory is refused, and so is one that exists unless `--overwrite`; the file is written atomically when every
sentence is encoded, so Ctrl-C, SIGTERM or a full disk end in one line (exit 130 / 143 / 1) and leave no partial file.
"""
from __future__ import annotations

import dataclasses
import os
import sys
from typing import ClassVar

import numpy as np

from paranmt.pipelines.runtime.command import Command, OutputFile
from paranmt.schemas.config import Config, bounded, check_ranges, setting


@dataclasses.dataclass
class EncodeConfig(Config):
    """The settings of `paranmt encode`: flags (one per field), `--config` YAML keys and `--set`."""
    RUN_FIELDS: ClassVar[tuple[str, ...]] = ("model", "input", "output")
    model: str = setting("", help="encoder directory")
    input: str | None = setting(None, help="sentence file (default: stdin)")
    output: str | None = setting(None, help="FILE.npy or text file (default: text to stdout)")
    batch_size: int = bounded(1024, 1, help="sentences per encoder call")
    threads: int = bounded(1, 1, help="torch CPU threads")

    def validate(self) -> "EncodeConfig":
        check_ranges(self)
        return self


def write_vectors(vectors: np.ndarray, output: str) -> None:
    """`output` as .npy or text, atomically (transforms/shards.py `atomic_file`)."""
    from paranmt.transforms.shards import atomic_file

    with atomic_file(os.path.abspath(output)) as handle:
        if output.endswith(".npy"):
            np.save(handle, vectors)
        else:
            np.savetxt(handle, vectors, fmt="%.6g")


def run(config: EncodeConfig, args) -> int:
    from paranmt.models.encoders import open_encoder
    from paranmt.models.files import read_text

    encoder = open_encoder(config.model, config.threads)
    if config.input:    # one sentence per \n-ended line, as stdin's are read (not str.splitlines' separators)
        lines = read_text(config.input, "--input").split("\n")
        sentences = lines[:-1] if lines[-1] == "" else lines
    else:
        sentences = [line.rstrip("\n") for line in sys.stdin]
    vectors = encoder.encode(sentences, config.batch_size)
    if config.output:   # whole or not at all (atomic_file deletes its temporary when the block is cut short)
        write_vectors(vectors, config.output)
    else:
        np.savetxt(sys.stdout, vectors, fmt="%.6g")
    return 0


COMMAND = Command("encode", EncodeConfig, run, help="embed sentences with a saved encoder", description=__doc__,
                  inputs=("input", "model"), required=("model",), example="batch_size=256",
                  output=OutputFile("the embeddings of an earlier run", "no embeddings were written",
                                    "replace an existing --output file (without it, an existing one is refused)"))
