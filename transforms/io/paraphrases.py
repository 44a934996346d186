"""Paraphrase files: the rows of a paraphrasing run (schemas/paraphrases.py) in one file whose suffix names the
format, `.parquet`, `.jsonl` or `.tsv` (a table TSV, schemas/tsv.py), written atomically (a temporary name, then
renamed); what `paranmt paraphrase` writes for a text input and `paranmt eval-paraphraser` for its requests."""
from __future__ import annotations

import json
import os
from pathlib import Path

from paranmt.schemas.errors import ConfigError

OUTPUT_SUFFIXES = (".parquet", ".jsonl", ".tsv")


def output_kind(path: str) -> str:
    """`.parquet`, `.jsonl` or `.tsv` from the output's name; ConfigError for anything else."""
    suffix = Path(path).suffix.lower()
    if suffix not in OUTPUT_SUFFIXES:
        raise ConfigError(f"--output {path}: the name must end in {', '.join(OUTPUT_SUFFIXES)} (the format), or "
                          "give a shard directory as --input to write a directory of Parquet shards")
    return suffix


def check_output_file(path: str) -> None:
    output_kind(path)
    parent = Path(path).resolve().parent
    if Path(path).is_dir():
        raise ConfigError(f"--output {path} is a directory; give a file name")
    if not parent.is_dir() or not os.access(parent, os.W_OK):
        raise ConfigError(f"--output {path}: directory {parent} does not exist or is not writable")


def tsv_field(value) -> str:
    """A value as text in the TSV output: null and NaN empty, floats with 6 decimals, booleans `true`/`false`."""
    if value is None:
        return ""
    if isinstance(value, float):
        return "" if value != value else f"{value:.6f}"
    return value if isinstance(value, str) else str(value).lower()


def write_paraphrases(rows: list[dict], path: str) -> None:
    """Write rows in the format of the file's suffix, atomically (a temporary name, then renamed); .tsv is a table
    TSV (schemas/tsv.py)."""
    from paranmt.schemas import tsv
    from paranmt.schemas.paraphrases import COLUMNS, paraphrases_to_table
    from paranmt.transforms.shards import write_table_atomically, write_text_atomically

    kind = output_kind(path)
    table = paraphrases_to_table(rows)
    if kind == ".parquet":
        write_table_atomically(table, os.path.abspath(path))
    elif kind == ".jsonl":
        write_text_atomically(os.path.abspath(path), "".join(
            json.dumps(row, ensure_ascii=False) + "\n" for row in table.to_pylist()))
    else:
        write_text_atomically(os.path.abspath(path), tsv.header(COLUMNS) + "".join(
            tsv.table_line(tsv_field(row[c]) for c in COLUMNS) for row in table.to_pylist()))
