"""The one home of shard I/O for `paranmt build`, `filter`, `stats`, `export` and `lexicon`: naming and listing shard
files, reading their metadata and rows, and writing tables, text and JSON atomically. Local paths and any Beam
filesystem (gs://...) work.

Names: a shard `news.00003` is the data file `DIR/news.00003.parquet` (`shard_path` / `shard_name`); its rejects are
`DIR/__paranmt__/rejects/news.00003.pq` (`reject_path`): Parquet under another suffix, so that `DIR/**/*.parquet`
(DuckDB, Polars) matches pair rows only (schemas/layout.py). Reject files of earlier versions
(`__paranmt__/rejects/*.parquet`, layout 1 `rejects/*.parquet`) are still listed by `reject_files`.

An input is a directory (its top-level `*.parquet` files) or a glob; side files and folders of either output layout
(schemas.layout.is_side_path: `__paranmt__/`, `rejects/`, `dropped/`, names starting with `_` or `.`) are never
read, even when a glob reaches into them (the rule: schemas/layout.py `shard_pattern` and `is_shard`, which
`layout.local_shards` applies for the trainers in models/, that read local shards without Beam). Files are read in record batches of BATCH_ROWS rows, only the columns
asked for, so a worker's memory stays bounded by one batch whatever the shard size. Every file is written under a
temporary name `.<name>.tmp-<uuid>` beside its final one and renamed when complete (`atomic_file`), so a file under
its final name is always complete.
"""
from __future__ import annotations

import contextlib
import json
import uuid
from collections.abc import Iterator

import pyarrow as pa
import pyarrow.parquet as pq
from apache_beam.io.filesystems import FileSystems

from paranmt.schemas import layout
from paranmt.schemas.errors import ConfigError
from paranmt.schemas.records import PAIR_SCHEMA, pairs_to_table, scores_as_dict, upgrade_table

BATCH_ROWS = 8192
ROW_GROUP_ROWS = 16_384
# Columns whose values repeat (Parquet dictionary encoding pays off); free text and scores are written plain, which
# is ~35% faster to write and no bigger for them.
DICTIONARY_COLUMNS = frozenset({"corpus", "ref_template", "bt_template", "ref_parse", "bt_parse", "cs_lang",
                                "ref_lang", "bt_lang", "stage", "reason", "drop_reason"})
METADATA_PREFIX = "paranmt."


COUNTS_KEY = b"paranmt.counts"


def join_path(directory: str, *names: str) -> str:
    return FileSystems.join(directory, *names)


def shard_path(directory: str, name: str) -> str:
    """The data file of shard `name` in an output directory."""
    return join_path(directory, name + layout.DATA_SUFFIX)


def reject_path(directory: str, name: str) -> str:
    """The reject file of shard `name` in a build output directory."""
    return join_path(directory, layout.REJECTS, name + layout.SIDE_TABLE_SUFFIX)


def dropped_path(directory: str, name: str) -> str:
    """The dropped-rows file of shard `name` in a filter output directory (`--write-dropped`)."""
    return join_path(directory, layout.DROPPED, name + layout.SIDE_TABLE_SUFFIX)


def shard_name(path: str) -> str:
    """`DIR/news.00003.parquet` (or a side table `.../news.00003.pq`) -> `news.00003`."""
    name = path.rstrip("/").rsplit("/", 1)[-1]
    for suffix in (layout.DATA_SUFFIX, layout.SIDE_TABLE_SUFFIX):
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return name


def matching(pattern: str) -> list[str]:
    """Sorted paths of the files matching a glob (none when nothing matches or the folder does not exist)."""
    return sorted(m.path for m in FileSystems.match([pattern])[0].metadata_list)


def shard_files(directory: str) -> list[str]:
    """Sorted data files of the shards in an output `directory`, `<directory>/<shard>.parquet` (none when it does
    not exist)."""
    return matching(join_path(directory, "*" + layout.DATA_SUFFIX))


def completed_shards(output: str) -> set[str]:
    """Names of the shards whose data file exists in `output` (a data file is written last: the shard is done)."""
    return {shard_name(path) for path in shard_files(output)}


def reject_files(output: str) -> list[str]:
    """The reject files of a build output, of every layout: `__paranmt__/rejects/*.pq`, and those of earlier versions
    (`__paranmt__/rejects/*.parquet`, `rejects/*.parquet`)."""
    folders = (layout.REJECTS, layout.LEGACY_NAMES[layout.REJECTS])
    return [path for folder in folders for suffix in (layout.SIDE_TABLE_SUFFIX, layout.DATA_SUFFIX)
            for path in matching(join_path(output, folder, "*" + suffix))]


def list_shards(input_path: str) -> list[str]:
    """Sorted shard files of a directory (top level only) or a glob, without side paths below the directory or the
    glob's fixed part; ConfigError when there are none. Every file's Parquet footer is read, so a truncated or
    corrupt shard is one clear error before any work, for every command that reads shards."""
    pattern, root = layout.shard_pattern(input_path)
    try:
        matches = FileSystems.match([pattern])[0].metadata_list
    except Exception as error:  # noqa: BLE001 - Beam raises BeamIOError with the underlying cause
        raise ConfigError(f"cannot list shards {pattern}: {error}") from None
    files = sorted(m.path for m in matches if layout.is_shard(m.path, root))
    if not files:
        raise ConfigError(f"no shard files (*{layout.DATA_SUFFIX}) match {pattern}")
    broken = []
    for path in files:
        try:
            read_schema(path)
        except Exception as error:  # noqa: BLE001 - pyarrow raises ArrowInvalid/OSError for broken files
            broken.append(f"{path} ({type(error).__name__}: {error})")
    if broken:
        raise ConfigError(f"{len(broken)} input shard(s) cannot be read: {'; '.join(broken[:3])}")
    return files


def unique_shard_names(files: list[str]) -> list[str]:
    names = [shard_name(f) for f in files]
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise ConfigError(f"shard names repeat across the input ({repeated[:5]}); outputs are named after input "
                          "shards, so give one directory or a glob whose file names are unique")
    return names


def read_schema(path: str) -> pa.Schema:
    with FileSystems.open(path) as handle:
        return pq.read_schema(handle)


def read_shard_metadata(path: str) -> dict[str, str]:
    """The `paranmt.*` key-value metadata of a shard (decoded; written from schemas.metadata.shard_metadata)."""
    metadata = read_schema(path).metadata or {}
    return {k.decode(): v.decode() for k, v in metadata.items() if k.decode().startswith(METADATA_PREFIX)}


def read_shard_counts(path: str) -> dict:
    """The accounting a shard carries in its footer's key-value metadata (`paranmt.counts`: a build's data shard, a
    paraphrase shard, a part of `paranmt paraphrase`; reads the footer only)."""
    with FileSystems.open(path) as handle:
        return json.loads((pq.read_metadata(handle).metadata or {}).get(COUNTS_KEY, b"{}"))


def column_fill(path: str, columns: list[str]) -> dict[str, tuple[int, int | None]]:
    """For each column present in the file: (rows, nulls), nulls from the footer statistics (None if a row group
    has no statistics). Reads the footer only."""
    with FileSystems.open(path) as handle:
        metadata = pq.ParquetFile(handle).metadata
    names = [metadata.schema.column(i).path for i in range(metadata.num_columns)]
    fill = {}
    for column in columns:
        leaves = [i for i, name in enumerate(names) if name == column or name.startswith(column + ".")]
        if not leaves:
            continue
        index, nulls = leaves[0], 0
        for group in range(metadata.num_row_groups):
            stats = metadata.row_group(group).column(index).statistics
            if stats is None or not stats.has_null_count:
                nulls = None
                break
            nulls += stats.null_count
        fill[column] = (metadata.num_rows, nulls)
    return fill


def check_columns(files: list[str], columns: list[str], what: str) -> None:
    """ConfigError (one message) when a column `what` needs is missing from a shard, or null in every row of the
    whole input (e.g. the score stage was never run). Reads footers only."""
    totals = {column: [0, 0] for column in columns}
    for path in files:
        names = set(read_schema(path).names)
        missing = [c for c in columns if c not in names]
        if missing:
            raise ConfigError(f"{what} needs column(s) {missing}, missing from shard {path}")
        for column, (rows, nulls) in column_fill(path, columns).items():
            totals[column][0] += rows
            totals[column][1] += rows if nulls is None else rows - nulls
    empty = [c for c, (rows, filled) in totals.items() if rows and not filled]
    if empty:
        raise ConfigError(f"{what} needs column(s) {empty}, but they are null in every row of the input "
                          "(was the build stage that fills them run? see `paranmt build --stages`; shards of an "
                          "older build get the pair signals from `paranmt build --input DIR --format shards "
                          "--stages score --output NEW`)")


def rows_of_table(table: pa.Table) -> list[dict]:
    rows = table.to_pylist()
    if "source_scores" in table.column_names:
        for row in rows:
            row["source_scores"] = scores_as_dict(row["source_scores"])
    return rows


def iter_table_batches(path: str, columns: list[str] | None = None, batch_rows: int = BATCH_ROWS
                       ) -> Iterator[pa.Table]:
    """One shard as Arrow tables of `batch_rows` rows in schema v2 (schemas.records.upgrade_table: a v1 shard's
    missing columns come as nulls), only `columns` (all when None)."""
    with FileSystems.open(path) as handle:
        parquet = pq.ParquetFile(handle)
        present = set(parquet.schema_arrow.names)
        wanted = None if columns is None else [c for c in columns if c in present]
        for batch in parquet.iter_batches(batch_size=batch_rows, columns=wanted):
            yield upgrade_table(pa.Table.from_batches([batch]), columns)


def iter_row_batches(path: str, columns: list[str] | None = None, batch_rows: int = BATCH_ROWS
                     ) -> Iterator[list[dict]]:
    """Rows of one shard as lists of dicts, `batch_rows` at a time, only `columns` (all when None)."""
    for table in iter_table_batches(path, columns, batch_rows):
        yield rows_of_table(table)


@contextlib.contextmanager
def atomic_file(path: str):
    """A binary handle on `.<name>.tmp-<uuid>` beside `path`; renamed to `path` (replacing it) when the block ends
    without an error, deleted when it raises."""
    directory, name = path.rsplit("/", 1)
    temporary = join_path(directory, f".{name}.tmp-{uuid.uuid4().hex}")
    try:
        with FileSystems.create(temporary) as handle:
            yield handle
        if FileSystems.exists(path):
            FileSystems.delete([path])
        FileSystems.rename([temporary], [path])
    except BaseException:
        if FileSystems.exists(temporary):
            FileSystems.delete([temporary])
        raise


def write_table_atomically(table: pa.Table, path: str) -> None:
    """Write `table` as one Parquet file (zstd, statistics, ROW_GROUP_ROWS rows per group), atomically."""
    buffer = pa.BufferOutputStream()
    pq.write_table(table, buffer, compression="zstd", row_group_size=ROW_GROUP_ROWS, write_statistics=True)
    with atomic_file(path) as handle:
        handle.write(buffer.getvalue().to_pybytes())


class ParquetShardWriter:
    """Stream row batches into one Parquet file (zstd), atomically (`atomic_file`: the file appears under its final
    name on `close()`). Memory: one batch. As a context manager it closes when the block ends and, when the block
    raises (a full disk, Ctrl-C), deletes its temporary (`abort`)."""

    def __init__(self, path: str, schema: pa.Schema = PAIR_SCHEMA, metadata: dict[str, str] | None = None):
        self.path = path
        self.schema = schema.with_metadata({k.encode(): v.encode() for k, v in (metadata or {}).items()})
        self.file = atomic_file(path)
        self.writer = pq.ParquetWriter(self.file.__enter__(), self.schema, compression="zstd",
                                       write_statistics=True,
                                       use_dictionary=[n for n in schema.names if n in DICTIONARY_COLUMNS])
        self.rows = 0
        self.closed = False

    def write_rows(self, rows: list[dict]) -> None:
        if not rows:
            return
        table = pairs_to_table(rows) if self.schema.remove_metadata().equals(PAIR_SCHEMA) else \
            pa.Table.from_pylist(rows, schema=self.schema.remove_metadata())
        self.writer.write_table(table.replace_schema_metadata(self.schema.metadata), ROW_GROUP_ROWS)
        self.rows += len(rows)

    def write_table(self, table: pa.Table) -> None:
        """Append an Arrow table with this writer's columns (cast to its schema; no Python objects made)."""
        if table.num_rows:
            table = table.select(self.schema.names).cast(self.schema.remove_metadata())
            self.writer.write_table(table.replace_schema_metadata(self.schema.metadata), ROW_GROUP_ROWS)
            self.rows += table.num_rows

    def close(self, counts: dict | None = None) -> None:
        """Finish the file (it appears under its final name); `counts` go into its footer as `paranmt.counts`
        (`read_shard_counts`)."""
        if self.closed:
            return
        self.closed = True
        try:
            if counts is not None:
                self.writer.add_key_value_metadata({COUNTS_KEY: json.dumps(counts, sort_keys=True).encode()})
            self.writer.close()
        except BaseException as error:
            self.abort(error)
            raise
        self.file.__exit__(None, None, None)

    def abort(self, error: BaseException) -> None:
        """Give the file up after `error`: its temporary is deleted, nothing appears under its name."""
        self.closed = True
        with contextlib.suppress(Exception):
            self.writer.close()
        self.file.__exit__(type(error), error, error.__traceback__)

    def __enter__(self) -> "ParquetShardWriter":
        return self

    def __exit__(self, kind, error, trace) -> bool:
        if error is None:
            self.close()
        elif not self.closed:
            self.abort(error)
        return False


def write_text_atomically(path: str, text: str) -> None:
    with atomic_file(path) as handle:
        handle.write(text.encode("utf-8"))


def write_json(path: str, data) -> None:
    write_text_atomically(path, json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n")


def concatenate_files(parts: list[str], path: str, header: str = "") -> int:
    """Concatenate text part files (in the given order) into `path` atomically, streaming; deletes the parts.
    Returns the number of bytes written."""
    written = 0
    with atomic_file(path) as out:
        if header:
            written += out.write(header.encode("utf-8"))
        for part in parts:
            with FileSystems.open(part) as handle:
                while chunk := handle.read(1 << 20):
                    written += len(chunk)
                    out.write(chunk)
    FileSystems.delete(parts)
    return written
