"""`paranmt encode`: sentences (one per line, from `--input` or stdin) -> embeddings of a saved encoder, written
as `.npy` (float32 [n, dim]) when `--output` ends in .npy, else as text (one vector per line, space-separated).

The output contract (pipelines/runtime/outputs.py): an `--output` that is the input or lies inside the encoder
directory is refused, and so is one that exists unless `--overwrite`; the file is written atomically when every
sentence is encoded, so Ctrl-C, SIGTERM or a full disk end in one line (exit 130 / 143 / 1) and leave no partial file.
"""
from __future__ import annotations

import os
import sys

import numpy as np

from paranmt.pipelines.runtime import outputs
from paranmt.schemas.config import ConfigError, asset_path


def check_output(args) -> None:
    """The output contract for `--output` FILE: apart from the input and the encoder, not a directory, an existing
    file only with --overwrite."""
    outputs.check_apart(args.output, [args.input, asset_path(args.model)])
    if os.path.isdir(args.output):
        raise ConfigError(f"--output {args.output} is a directory; give a file (FILE.npy, or a text file)")
    outputs.claim(args.output, "the embeddings of an earlier run" if os.path.exists(args.output) else None, False,
                  args.overwrite, resumable=False)


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

    if args.output:
        check_output(args)
    where = os.path.dirname(os.path.abspath(args.output)) if args.output else "."
    # the file appears whole or not at all (atomic_file deletes its temporary when the block is cut short)
    with outputs.stops_in_one_line(lambda: "no embeddings were written", lambda: "run the same command again", where):
        encoder = open_encoder(args.model, args.threads)
        if args.input:      # one sentence per \n-ended line, as stdin's are read (not str.splitlines' separators)
            lines = read_text(args.input, "--input").split("\n")
            sentences = lines[:-1] if lines[-1] == "" else lines
        else:
            sentences = [line.rstrip("\n") for line in sys.stdin]
        vectors = encoder.encode(sentences, args.batch_size)
        if args.output:
            write_vectors(vectors, args.output)
        else:
            np.savetxt(sys.stdout, vectors, fmt="%.6g")
    return 0


def register(subparsers) -> None:
    parser = subparsers.add_parser("encode", help="embed sentences with a saved encoder", description=__doc__)
    parser.add_argument("--model", required=True, help="encoder directory")
    parser.add_argument("--input", help="sentence file (default: stdin)")
    parser.add_argument("--output", help="FILE.npy or text file (default: text to stdout)")
    parser.add_argument("--overwrite", action="store_true", help="replace an existing --output file (without it, "
                        "an existing one is refused)")
    parser.add_argument("--batch-size", type=int, default=1024)
    parser.add_argument("--threads", type=int, default=1)
    parser.set_defaults(func=run)
