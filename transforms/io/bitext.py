"""Streaming bitext readers: input records -> pair rows or reject rows (no Beam inside; `readers.py` adapts them to
Beam). Planning is in read_plan.py, decompression and lines in streams.py, UTF-8 problems in models/encoding.py.

Every input record ends as exactly one pair row or one reject row (stage `read`), tagged with its shard:
a shard is a block of `shard_rows` consecutive records of ONE input file, named
`<file stem>[-<path hash>].<block:05d>` (the path hash only when two input files share a base name).

Formats
- `tsv`      generic TSV; `columns` maps fields to 0-based columns, or to column names of a header line (default
             source TAB reference; read_plan.py on headers). Too few columns is a reject (`wrong_column_count`);
             more columns than `columns` names (with a header: than the header has) are counted (Beam counter
             `read/extra_columns`, reported by the build) or, with `strict_columns`, rejected (`extra_columns`).
             Fields besides `cs` and `ref` (`given_row`): `bt` a translation of the source that the input brings
             (bring your own translations: the row gets `bt_source` = `input`, `bt_len` as the translate stage
             counts it, and translate passes it on untranslated; an empty bt is no bt), `bt_score` its score (a
             number, or empty for null; anything else is a reject `bad_score`, and a score without a bt is a
             reject `bt_score_without_bt`), `id` the row's id (empty: the default id), `corpus` its corpus
             (empty: the default corpus), `src_lang` its source language (empty: the build's `source_lang`).
- `parquet`  Parquet files, one record per row; `jsonl` one JSON object per line. Their fields are named: each
             field of `tsv` is read from the column / key of its own name (`cs`, `ref`, `bt`, ...) unless
             `columns` names another (ReadConfig.record_fields). A Parquet file without `cs`, `ref` or an
             explicitly named column is a ConfigError before any work; a JSON line that is not an object is a
             reject (`bad_json`), one without `cs` or `ref` a reject (`missing_field`). Ids as for tsv, with the
             1-based row number of a Parquet file as its line. A Parquet file is read by one task.
- `czeng16`  CzEng 1.6 plain-text export: `id TAB filter_score TAB cs TAB en`. The corpus/section is the id's
             leading letters without a trailing capital (`subtitlesM-b1-00train-f000001-s1` -> `subtitles`).
             `filter_score` goes to `source_scores`.
- `czeng20`  CzEng 2.0: `id TAB adq_score TAB cs_lang_score TAB en_lang_score TAB cs TAB en`; empty lines separate
             documents and are structure (counted as `separators`, not records). Corpus = the id's first
             `-`/`_`/`.`-separated segment.
- `moses`    two line-aligned files `PREFIX.<src>` + `PREFIX.<ref>`; when one file is longer, each surplus line is
             a reject (`line_count_mismatch`).
Ids: the corpus's own id for CzEng; `<corpus>:<file>:<line>` (1-based) otherwise, where the default corpus name
is the file name up to its first dot (`news.2019.tsv.gz` -> `news`; for moses, the prefix's base name).

Files: plain, .gz, .bz2, .xz/.lzma, .zst (detected by name and by magic bytes), opened through Beam's
FileSystems so any filesystem Beam supports (local, gs://) works. Lines are read as bytes with a length cap,
decoded as strict UTF-8. A file that cannot be decompressed to its end (truncated or corrupt) yields one reject
(`corrupt_file`) holding the unfinished line, after the records that were read intact.
"""
from __future__ import annotations

import json
import math
import re
from pathlib import PurePosixPath
from typing import Iterator

from apache_beam.metrics import Metrics

from paranmt.models.text.tokenize import length_column
from paranmt.schemas.records import empty_row, reject_row
from paranmt.models.encoding import utf8_problem
from paranmt.transforms.io.read_plan import (InputFile, ReadOptions, ReadTask, block_shard_name, header_fields,
                                             tsv_layout)
from paranmt.transforms.io.streams import CorruptFile, file_lines, open_raw

STAGE = "read"


def _czeng16_corpus(sentence_id: str) -> str:
    head = re.match(r"[A-Za-z]+", sentence_id)
    if not head:
        return "czeng16"
    word = head.group(0)
    return word[:-1] if len(word) > 1 and word[-1].isupper() else word


def _czeng20_corpus(sentence_id: str) -> str:
    return re.split(r"[-_.]", sentence_id, maxsplit=1)[0] or "czeng20"


def _label(value) -> str | None:
    """A label field's text (id, corpus, src_lang; an integer id as its digits) without surrounding space, None
    when missing or blank."""
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return value.strip() or None if isinstance(value, str) else None


def named_record(record: dict, fields: dict[str, str], corpus: str, fallback_id: str, source_lang: str | None,
                 raw: str) -> dict:
    """The pair row (or reject) of a Parquet / JSONL record: `fields` (field -> name in the record,
    ReadConfig.record_fields) picks its values; `given_row` does the rest."""
    values = {name: record[key] for name, key in fields.items() if key in record}
    missing = [fields[name] for name in ("cs", "ref") if name not in values]
    if missing:
        return reject_row(_label(values.get("id")) or fallback_id, STAGE, "missing_field",
                          f"the record has no {' or '.join(missing)}", raw)
    return given_row(values, corpus, fallback_id, source_lang, raw)


def given_row(values: dict, corpus: str, fallback_id: str, source_lang: str | None, raw: str) -> dict:
    """The pair row (or reject) of one input record's fields (`values`: field of ReadConfig.columns -> value;
    see the module docstring on each field)."""
    row_id = _label(values.get("id")) or fallback_id
    for side in ("cs", "ref"):
        if not isinstance(values[side], str):
            return reject_row(row_id, STAGE, "not_text", f"{side} is {values[side]!r}, not text", raw)
    row = empty_row(row_id, _label(values.get("corpus")) or corpus, values["cs"], values["ref"],
                    src_lang=_label(values.get("src_lang")) or source_lang)
    score = values.get("bt_score")
    if score is not None and not (isinstance(score, str) and not score.strip()):
        try:
            if isinstance(score, bool) or not math.isfinite(score := float(score)):
                raise ValueError
        except (TypeError, ValueError):
            return reject_row(row_id, STAGE, "bad_score", f"bt_score is not a finite number: {score!r}", raw)
        row["bt_score"] = score
    bt = values.get("bt")
    if isinstance(bt, str) and bt.strip():
        row.update(bt=bt, bt_len=length_column(bt), bt_source="input")
    elif row["bt_score"] is not None:
        return reject_row(row_id, STAGE, "bt_score_without_bt", "the row has a bt_score but no bt", raw)
    return row


def parse_line(text: str, fmt: str, columns: dict[str, int], corpus: str, fallback_id: str,
               strict_columns: bool = False, header_width: int | None = None,
               source_lang: str | None = None) -> dict:
    """One decoded line -> a pair row or a reject row (id = fallback_id unless the format carries one). For
    `tsv`, `columns` are resolved numbers (read_plan.tsv_layout) and `header_width` the header's number of
    columns (None: no header); for `jsonl`, the field names (ReadConfig.record_fields)."""
    if fmt == "jsonl":
        try:
            record = json.loads(text)
        except ValueError as error:
            return reject_row(fallback_id, STAGE, "bad_json", f"not JSON: {error}", text)
        if not isinstance(record, dict):
            return reject_row(fallback_id, STAGE, "bad_json", f"a JSON {type(record).__name__}, not an object", text)
        return named_record(record, columns, corpus, fallback_id, source_lang, text)
    fields = text.split("\t")
    if fmt == "tsv":
        need = max(columns.values()) + 1
        width = max(header_width or need, need)
        if len(fields) < need:
            return reject_row(fallback_id, STAGE, "wrong_column_count",
                              f"expected at least {need} tab-separated columns, got {len(fields)}", text)
        if len(fields) > width:
            if strict_columns:
                named = "read.columns names" if header_width is None else "the header has"
                return reject_row(fallback_id, STAGE, "extra_columns",
                                  f"{len(fields)} tab-separated columns, {named} {width}", text)
            Metrics.counter(STAGE, "extra_columns").inc()
        return given_row({name: fields[i] for name, i in columns.items()}, corpus, fallback_id, source_lang, text)
    expected = 4 if fmt == "czeng16" else 6
    if len(fields) != expected:
        return reject_row(fields[0] if len(fields) > 1 and fields[0] else fallback_id, STAGE, "wrong_column_count",
                          f"{fmt} lines have {expected} tab-separated columns, got {len(fields)}", text)
    sentence_id = fields[0] or fallback_id
    names = ["filter_score"] if fmt == "czeng16" else ["adq_score", "cs_lang_score", "en_lang_score"]
    try:
        scores = {name: float(value) for name, value in zip(names, fields[1:1 + len(names)])}
    except ValueError as error:
        return reject_row(sentence_id, STAGE, "bad_score", f"{fmt} score column is not a number: {error}", text)
    row_corpus = corpus if corpus != "" else (_czeng16_corpus if fmt == "czeng16" else _czeng20_corpus)(sentence_id)
    return empty_row(sentence_id, row_corpus, fields[-2], fields[-1], scores, source_lang)


def read_file(unit: InputFile, options: ReadOptions, skip_shards: frozenset = frozenset(),
              opener=None, task: ReadTask | None = None) -> Iterator[tuple[str, dict]]:
    """Yield (shard, row-or-reject) for every record of one InputFile (or of one planned ReadTask); records of
    shards in `skip_shards` are read past without being yielded (resume). When a shard's last record has been
    read, also yields (shard, {"_count": ...}) with the number of records read into it and the number of
    structural separators, for the accounting check."""
    reader = {"moses": _read_moses, "parquet": _read_parquet}.get(options.format, _read_single)
    task = task or ReadTask(unit)
    current, tally = None, {"read": 0, "separators": 0}
    for shard, record in reader(unit, options, opener, task):
        block = int(shard.rsplit(".", 1)[1])
        if task.end_block is not None and block >= task.end_block:
            break
        if block < task.first_block:
            continue
        if shard != current:
            if current is not None and current not in skip_shards:
                yield current, {"_count": tally}
            current, tally = shard, {"read": 0, "separators": 0}
        if record is None:
            tally["separators"] += 1
            continue
        tally["read"] += 1
        if shard not in skip_shards:
            yield shard, record
    if current is not None and current not in skip_shards:
        yield current, {"_count": tally}


def _read_single(unit: InputFile, options: ReadOptions, opener,
                 task: ReadTask) -> Iterator[tuple[str, dict | None]]:
    path, start = unit.paths[0], task.start
    corpus = options.corpus if options.corpus is not None else (
        "" if options.format in ("czeng16", "czeng20") else unit.stem.split(".")[0])
    record_no = start.record_no if start else 0
    line_no = start.line_no if start else 0
    header = options.format == "tsv" and options.has_header()
    layout = tsv_layout(options.columns, task.header, path) if header and task.header else (
        (options.record_fields()[0], None) if options.format == "jsonl" else (options.columns, None))
    try:
        for raw, too_long in file_lines(path, options.max_line_bytes, opener, start.offsets[0] if start else 0):
            line_no += 1
            if header and line_no == 1:
                layout = tsv_layout(options.columns, header_fields(raw), path)
                continue
            if options.format == "czeng20" and not raw.strip() and not too_long:
                yield block_shard_name(unit.stem, record_no // options.shard_rows), None
                continue
            shard = block_shard_name(unit.stem, record_no // options.shard_rows)
            record_no += 1
            fallback_id = f"{corpus or options.format}:{unit.name}:{line_no}"
            yield shard, _record(raw, too_long, options, layout, corpus, fallback_id, unit.name, line_no)
    except CorruptFile as error:
        line_no += 1
        shard = block_shard_name(unit.stem, record_no // options.shard_rows)
        yield shard, reject_row(f"{corpus or options.format}:{unit.name}:{line_no}", STAGE, "corrupt_file",
                                f"{path} could not be read past line {line_no - 1}: {error}",
                                error.partial.decode("utf-8", "replace"))


def _record(raw: bytes, too_long: bool, options: ReadOptions, layout: tuple[dict, int | None], corpus: str,
            fallback_id: str, file_name: str, line_no: int) -> dict:
    if too_long:
        return reject_row(fallback_id, STAGE, "line_too_long",
                          f"line longer than max_line_bytes={options.max_line_bytes}",
                          raw.decode("utf-8", "replace"))
    text, problem = utf8_problem(raw, file_name, line_no)
    if text is None:
        return reject_row(fallback_id, STAGE, "invalid_utf8", problem, raw.decode("utf-8", "replace"))
    if not text.strip():
        return reject_row(fallback_id, STAGE, "empty_line", "blank line", text)
    return parse_line(text, options.format, layout[0], corpus, fallback_id, options.strict_columns, layout[1],
                      options.source_lang)


def _read_parquet(unit: InputFile, options: ReadOptions, opener,
                  task: ReadTask) -> Iterator[tuple[str, dict | None]]:
    import pyarrow as pa
    import pyarrow.parquet as pq

    path = unit.paths[0]
    corpus = options.corpus if options.corpus is not None else unit.stem.split(".")[0]
    fields = options.record_fields()[0]
    record_no = 0
    try:
        with (opener or open_raw)(path) as handle:
            parquet = pq.ParquetFile(handle)
            names = [name for name in parquet.schema_arrow.names if name in set(fields.values())]
            for batch in parquet.iter_batches(batch_size=min(options.shard_rows, 8192), columns=names):
                for record in batch.to_pylist():
                    record_no += 1
                    raw = json.dumps(record, ensure_ascii=False, default=str)
                    yield (block_shard_name(unit.stem, (record_no - 1) // options.shard_rows),
                           named_record(record, fields, corpus, f"{corpus}:{unit.name}:{record_no}",
                                        options.source_lang, raw))
    except (OSError, pa.ArrowException) as error:
        yield (block_shard_name(unit.stem, record_no // options.shard_rows),
               reject_row(f"{corpus}:{unit.name}:{record_no + 1}", STAGE, "corrupt_file",
                          f"{path} could not be read past row {record_no}: {error}"))


def _read_moses(unit: InputFile, options: ReadOptions, opener,
                task: ReadTask) -> Iterator[tuple[str, dict | None]]:
    start = task.start
    corpus = options.corpus if options.corpus is not None else unit.stem
    source_name = unit.name
    iterators = [file_lines(p, options.max_line_bytes, opener, start.offsets[i] if start else 0)
                 for i, p in enumerate(unit.paths)]
    line_no = start.line_no if start else 0
    try:
        while True:
            sides = []
            for iterator in iterators:
                try:
                    sides.append(next(iterator))
                except StopIteration:
                    sides.append(None)
            if sides[0] is None and sides[1] is None:
                return
            line_no += 1
            shard = block_shard_name(unit.stem, (line_no - 1) // options.shard_rows)
            record_id = f"{corpus}:{source_name}:{line_no}"
            if sides[0] is None or sides[1] is None:
                present = 1 if sides[0] is None else 0
                yield shard, reject_row(record_id, STAGE, "line_count_mismatch",
                                        f"{unit.paths[1 - present]} ended before line {line_no} of "
                                        f"{unit.paths[present]}", sides[present][0].decode("utf-8", "replace"))
                continue
            yield shard, _moses_record(sides, options, corpus, record_id, unit, line_no)
    except CorruptFile as error:
        line_no += 1
        yield (block_shard_name(unit.stem, (line_no - 1) // options.shard_rows),
               reject_row(f"{corpus}:{source_name}:{line_no}", STAGE, "corrupt_file",
                          f"{unit.paths} could not be read past line {line_no - 1}: {error}",
                          error.partial.decode("utf-8", "replace")))
    finally:
        for iterator in iterators:
            iterator.close()


def _moses_record(sides, options: ReadOptions, corpus: str, record_id: str, unit: InputFile, line_no: int) -> dict:
    raw = "\t".join(side[0].decode("utf-8", "replace") for side in sides)
    if any(too_long for _, too_long in sides):
        return reject_row(record_id, STAGE, "line_too_long",
                          f"a side is longer than max_line_bytes={options.max_line_bytes}", raw)
    texts = []
    for (side, _), path in zip(sides, unit.paths):
        text, problem = utf8_problem(side, PurePosixPath(path).name, line_no)
        if text is None:
            return reject_row(record_id, STAGE, "invalid_utf8", problem, raw)
        texts.append(text)
    return empty_row(record_id, corpus, texts[0], texts[1], src_lang=options.source_lang)
