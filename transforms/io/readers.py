"""Beam adapters for reading: bitext files (`ReadBitext`) and existing shards (`ReadShards`).

Both produce three PCollections of `(shard, ...)` tuples: rows, rejects, and per-shard counts
(`{"read": n, "separators": k}`) that the writer checks against what it writes.
Files are matched when the transform is constructed (on the launcher), so a glob that matches nothing fails
before any work.
"""
from __future__ import annotations

import apache_beam as beam
import pyarrow.parquet as pq
from apache_beam.io.filesystems import FileSystems
from apache_beam.metrics import Metrics

from paranmt.schemas.config import ConfigError
from paranmt.schemas.records import table_to_pairs
from paranmt.transforms.io.bitext import InputFile, ReadOptions, plan_inputs, read_file

REJECTS, COUNTS = "rejects", "counts"


def match_paths(pattern: str) -> list[str]:
    """All files matching a glob (or comma-separated globs) on any Beam filesystem; ConfigError if none."""
    paths = []
    for part in [p for p in pattern.split(",") if p]:
        try:
            results = FileSystems.match([part])[0].metadata_list
        except Exception as error:  # noqa: BLE001 - Beam raises BeamIOError/IOError subclasses per filesystem
            raise ConfigError(f"cannot list input {part!r}: {error}") from None
        paths += [m.path for m in results if not m.path.endswith("/")]
    if not paths:
        raise ConfigError(f"input {pattern!r} matches no files")
    return sorted(set(paths))


def plan_bitext(pattern: str, options: ReadOptions) -> list[InputFile]:
    """Resolve the input glob into InputFiles. For `moses`, PATTERN names prefixes: `PREFIX.<src>` files are
    matched (`PATTERN` + `.<src>`), and each must have its `PREFIX.<ref>` partner."""
    if options.format == "moses":
        source_suffix, ref_suffix = options.suffixes
        sources = match_paths(",".join(f"{p}.{source_suffix}" for p in pattern.split(",") if p))
        units = plan_inputs(sources, "moses", options.suffixes)
        missing = [u.paths[1] for u in units if not FileSystems.exists(u.paths[1])]
        if missing:
            raise ConfigError(f"moses input: no .{ref_suffix} file beside {len(missing)} .{source_suffix} "
                              f"file(s), e.g. {missing[0]}")
        return units
    return plan_inputs(match_paths(pattern), options.format)


class _ReadFileFn(beam.DoFn):
    def __init__(self, options: ReadOptions, skip_shards: frozenset):
        self.options, self.skip_shards = options, skip_shards
        self.records = Metrics.counter("read", "records")
        self.separators = Metrics.counter("read", "separators")

    def process(self, unit: InputFile):
        for shard, record in read_file(unit, self.options, self.skip_shards):
            if "_count" in record:
                self.separators.inc(record["_count"]["separators"])
                yield beam.pvalue.TaggedOutput(COUNTS, (shard, record["_count"]))
            elif "reason" in record:
                self.records.inc()
                Metrics.counter("read", f"reject_{record['reason']}").inc()
                yield beam.pvalue.TaggedOutput(REJECTS, (shard, record))
            else:
                self.records.inc()
                yield shard, record


class ReadBitext(beam.PTransform):
    """Bitext files -> (rows, rejects, counts). One file is read by one worker (compressed files cannot be
    split); the rows are reshuffled afterwards so that later stages spread over all workers."""

    def __init__(self, units: list[InputFile], options: ReadOptions, skip_shards=frozenset()):
        super().__init__()
        self.units, self.options, self.skip_shards = units, options, frozenset(skip_shards)

    def expand(self, pbegin):
        outputs = (pbegin
                   | "Files" >> beam.Create(self.units)
                   | "SpreadFiles" >> beam.Reshuffle()
                   | "Read" >> beam.ParDo(_ReadFileFn(self.options, self.skip_shards)).with_outputs(
                       REJECTS, COUNTS, main="rows"))
        rows = outputs.rows | "SpreadRows" >> beam.Reshuffle()
        return rows, outputs[REJECTS], outputs[COUNTS]


def shard_files(pattern: str) -> list[str]:
    """Shard files of a build output: DIR (its top-level *.parquet) or a glob of .parquet files. Every file's
    Parquet footer is read here, so a truncated or corrupt shard is one clear error before any work."""
    if not any(ch in pattern for ch in "*?[") and not pattern.endswith(".parquet"):
        pattern = pattern.rstrip("/") + "/*.parquet"
    paths = [p for p in match_paths(pattern) if p.endswith(".parquet")]
    broken = []
    for path in paths:
        try:
            with FileSystems.open(path) as handle:
                pq.read_schema(handle)
        except Exception as error:  # noqa: BLE001 - pyarrow raises ArrowInvalid/OSError for broken files
            broken.append(f"{path} ({type(error).__name__}: {error})")
    if broken:
        raise ConfigError(f"{len(broken)} input shard(s) cannot be read: {'; '.join(broken[:3])}")
    return paths


def shard_of(path: str) -> str:
    return path.rstrip("/").rsplit("/", 1)[-1][: -len(".parquet")]


class _ReadShardFn(beam.DoFn):
    def process(self, path: str):
        with FileSystems.open(path) as handle:
            table = pq.read_table(handle)
        shard = shard_of(path)
        yield beam.pvalue.TaggedOutput(COUNTS, (shard, {"read": table.num_rows, "separators": 0}))
        for row in table_to_pairs(table):
            yield shard, row


class ReadShards(beam.PTransform):
    """Existing shards -> (rows, rejects (always empty), counts): stages run over shards keep shard names."""

    def __init__(self, paths: list[str], skip_shards=frozenset()):
        super().__init__()
        self.paths = [p for p in paths if shard_of(p) not in set(skip_shards)]

    def expand(self, pbegin):
        outputs = (pbegin
                   | "Shards" >> beam.Create(self.paths)
                   | "SpreadShards" >> beam.Reshuffle()
                   | "ReadShard" >> beam.ParDo(_ReadShardFn()).with_outputs(COUNTS, main="rows"))
        rejects = pbegin | "NoRejects" >> beam.Create([])
        return outputs.rows | "SpreadRows" >> beam.Reshuffle(), rejects, outputs[COUNTS]
