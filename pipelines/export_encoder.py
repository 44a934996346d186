"""`paranmt export-encoder`: a saved encoder (any kind) in another library's format.

`--format sentence-transformers` writes a sentence-transformers model directory: `SentenceTransformer(OUT)`
loads it wherever paranmt and sentence-transformers are installed, and its `encode()` gives the vectors of
`paranmt encode` (cosine similarity; see docs/encoders.md).
"""
from __future__ import annotations

from pathlib import Path

from paranmt.pipelines.runtime.extras import require_extra
from paranmt.schemas.config import ConfigError

FORMATS = ("sentence-transformers",)


def run(args) -> int:
    output = Path(args.output)
    if output.exists() and (not output.is_dir() or any(output.iterdir())):
        raise ConfigError(f"--output {output} exists and is not an empty directory; choose a new directory")
    encoders = require_extra("train", "paranmt.models.encoders")
    try:
        encoder = encoders.load_encoder(args.model)
    except encoders.EncoderError as error:
        raise ConfigError(str(error)) from None
    exporter = require_extra("sentence-transformers", "paranmt.models.encoders.sentence_transformers")
    exporter.export_sentence_transformer(encoder, output)
    print(f"wrote {output}: {encoder.kind} encoder, dim {encoder.dim}; load it with "
          f"sentence_transformers.SentenceTransformer({str(output)!r})")
    return 0


def register(subparsers) -> None:
    parser = subparsers.add_parser("export-encoder", help="write a saved encoder for sentence-transformers",
                                   description=__doc__)
    parser.add_argument("--format", choices=FORMATS, default="sentence-transformers",
                        help="target format (default: sentence-transformers)")
    parser.add_argument("--model", required=True, help="encoder directory (`paranmt train` output, assets/encoder-sp)")
    parser.add_argument("--output", required=True, help="new directory to write")
    parser.set_defaults(func=run)
