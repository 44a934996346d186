"""`paranmt encode`: sentences (one per line, from `--input` or stdin) -> embeddings of a saved encoder, written
as `.npy` (float32 [n, dim]) when `--output` ends in .npy, else as text (one vector per line, space-separated)."""
from __future__ import annotations

import sys

import numpy as np


def run(args) -> int:
    from paranmt.models.encoders import open_encoder
    from paranmt.models.files import read_text

    encoder = open_encoder(args.model, args.threads)
    if args.input:      # one sentence per \n-ended line, as stdin's are read (not str.splitlines' separators)
        lines = read_text(args.input, "--input").split("\n")
        sentences = lines[:-1] if lines[-1] == "" else lines
    else:
        sentences = [line.rstrip("\n") for line in sys.stdin]
    vectors = encoder.encode(sentences, args.batch_size)
    if args.output and args.output.endswith(".npy"):
        np.save(args.output, vectors)
        return 0
    target = open(args.output, "w", encoding="utf-8") if args.output else sys.stdout
    try:
        np.savetxt(target, vectors, fmt="%.6g")
    finally:
        if target is not sys.stdout:
            target.close()
    return 0


def register(subparsers) -> None:
    parser = subparsers.add_parser("encode", help="embed sentences with a saved encoder", description=__doc__)
    parser.add_argument("--model", required=True, help="encoder directory")
    parser.add_argument("--input", help="sentence file (default: stdin)")
    parser.add_argument("--output", help="FILE.npy or text file (default: text to stdout)")
    parser.add_argument("--batch-size", type=int, default=1024)
    parser.add_argument("--threads", type=int, default=1)
    parser.set_defaults(func=run)
