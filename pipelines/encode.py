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

from paranmt.pipelines.runtime import outputs
from paranmt.pipelines.runtime.arguments import add_config_command, load_command_config
from paranmt.schemas.config import Config, bounded, check_ranges, setting
from paranmt.schemas.errors import ConfigError
from paranmt.schemas.paths import asset_path


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


def check_output(config: EncodeConfig, overwrite: bool) -> None:
    """The output contract for `--output` FILE: apart from the input and the encoder, not a directory, an existing
    file only with --overwrite."""
    outputs.check_apart(config.output, [config.input, asset_path(config.model)])
    if os.path.isdir(config.output):
        raise ConfigError(f"--output {config.output} is a directory; give a file (FILE.npy, or a text file)")
    outputs.claim(config.output, "the embeddings of an earlier run" if os.path.exists(config.output) else None,
                  False, overwrite, resumable=False)


def write_vectors(vectors: np.ndarray, output: str) -> None:
    """`output` as .npy or text, atomically (transforms/shards.py `atomic_file`)."""
    from paranmt.transforms.shards import atomic_file

    with atomic_file(os.path.abspath(output)) as handle:
        if output.endswith(".npy"):
            np.save(handle, vectors)
        else:
            np.savetxt(handle, vectors, fmt="%.6g")


def run(args) -> int:
    from paranmt.models.encoders import open_encoder
    from paranmt.models.files import read_text

    config = load_command_config(EncodeConfig, args, "encode config", required=("model",))
    if config.output:
        check_output(config, args.overwrite)
    where = os.path.dirname(os.path.abspath(config.output)) if config.output else "."
    # the file appears whole or not at all (atomic_file deletes its temporary when the block is cut short)
    with outputs.stops_in_one_line(lambda: "no embeddings were written", lambda: "run the same command again", where):
        encoder = open_encoder(config.model, config.threads)
        if config.input:    # one sentence per \n-ended line, as stdin's are read (not str.splitlines' separators)
            lines = read_text(config.input, "--input").split("\n")
            sentences = lines[:-1] if lines[-1] == "" else lines
        else:
            sentences = [line.rstrip("\n") for line in sys.stdin]
        vectors = encoder.encode(sentences, config.batch_size)
        if config.output:
            write_vectors(vectors, config.output)
        else:
            np.savetxt(sys.stdout, vectors, fmt="%.6g")
    return 0


def register(subparsers) -> None:
    add_config_command(subparsers, "encode", EncodeConfig, run, example="batch_size=256",
                       help="embed sentences with a saved encoder", description=__doc__,
                       overwrite="replace an existing --output file (without it, an existing one is refused)")
