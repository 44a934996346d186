"""`paranmt export-encoder`: a saved encoder (any kind) in another library's format.

`--format sentence-transformers` writes a sentence-transformers model directory: `SentenceTransformer(OUT)`
loads it wherever paranmt and sentence-transformers are installed, and its `encode()` gives the vectors of
`paranmt encode` (cosine similarity; see docs/encoders.md).

Output (docs/reliability.md, "Every command that writes"): a new or empty directory; one holding an earlier export
(its `modules.json`) is refused unless `--overwrite`, which replaces it whole; any other non-empty directory, and one
that is, holds or lies inside `--model`, is refused. Ctrl-C, SIGTERM or a full disk stop it with one line (exit 130 /
143 / 1) after removing the partial export.
"""
from __future__ import annotations

from pathlib import Path

from paranmt.pipelines.runtime.extras import require_extra
from paranmt.pipelines.runtime.outputs import check_apart, left_in, replace_earlier, rerun_stops
from paranmt.schemas.errors import ConfigError

FORMATS = ("sentence-transformers",)


def run(args) -> int:
    output = Path(args.output)
    check_apart(args.output, [args.model])
    if output.exists() and (not output.is_dir() or any(output.iterdir()) and not (output / "modules.json").is_file()):
        raise ConfigError(f"--output {output} exists and is not an empty directory or an earlier export; choose a "
                          f"new directory")
    replace_earlier(args.output, left_in(args.output), args.overwrite, "an earlier export")
    with rerun_stops(args.output, getattr(args, "argv", None), "export-encoder", lambda: left_in(args.output)):
        return export(args, output)


def export(args, output: Path) -> int:
    """Load `--model` and write it into `output` in `--format`."""
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
    parser.add_argument("--overwrite", action="store_true", help="replace an earlier export in --output (without "
                        "it, an --output holding one is refused)")
    parser.set_defaults(func=run)
