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

from dataclasses import dataclass
from pathlib import Path

from paranmt.pipelines.runtime.command import Command, ResultsFolder
from paranmt.pipelines.runtime.extras import require_extra
from paranmt.schemas.config import Config, check_ranges, choice
from paranmt.schemas.errors import ConfigError

# format -> (the extra that provides its exporter, the module with `export_sentence_transformer`)
EXPORTERS = {"sentence-transformers": ("sentence-transformers", "paranmt.models.encoders.sentence_transformers")}
FORMATS = tuple(EXPORTERS)


@dataclass
class EncoderExportConfig(Config):
    """The settings of `paranmt export-encoder` (`--config` YAML keys, `--set`, the flags)."""
    format: str = choice("sentence-transformers", FORMATS, help="target format")

    def validate(self) -> "EncoderExportConfig":
        check_ranges(self)
        return self


def run(config: EncoderExportConfig, args) -> int:
    """Load `--model` and write it into `--output` (claimed) in `config.format`."""
    output = Path(args.output)
    encoders = require_extra("train", "paranmt.models.encoders")
    try:
        encoder = encoders.load_encoder(args.model)
    except encoders.EncoderError as error:
        raise ConfigError(str(error)) from None
    exporter = require_extra(*EXPORTERS[config.format])
    exporter.export_sentence_transformer(encoder, output)
    print(f"wrote {output}: {encoder.kind} encoder, dim {encoder.dim}; load it with "
          f"sentence_transformers.SentenceTransformer({str(output)!r})")
    return 0


def own_flags(parser) -> None:
    """The encoder and the output directory, which no config holds."""
    parser.add_argument("--model", required=True, help="encoder directory (`paranmt train` output, assets/encoder-sp)")
    parser.add_argument("--output", required=True, help="new directory to write")


COMMAND = Command("export-encoder", EncoderExportConfig, run, help="write a saved encoder for sentence-transformers",
                  description=__doc__, flags=own_flags, example="format=sentence-transformers", inputs=("model",),
                  output=ResultsFolder(None, marker="modules.json", held="an earlier export", overwrite_help=(
                      "replace an earlier export in --output (without it, an --output holding one is refused)")))
