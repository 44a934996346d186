"""Beam adapters for reading: bitext files (`ReadBitext`) and existing shards (`ReadShards`).

Both yield `ShardWork` elements, one per shard, one at a time as the shard's records are read: the element is
the unit of work of every later stage and of the writer (flat memory: a worker holds one shard, whatever the
input size). Files are matched and planned when the transform is constructed (on the launcher), so a glob that
matches nothing fails before any work.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import apache_beam as beam
import pyarrow.parquet as pq
from apache_beam.io.filesystems import FileSystems
from apache_beam.metrics import Metrics

from paranmt.schemas.errors import ConfigError
from paranmt.schemas.records import table_to_pairs
from paranmt.transforms.io.bitext import read_file
from paranmt.transforms.io.read_plan import InputFile, ReadOptions, ReadTask, plan_inputs
from paranmt.transforms.shards import shard_name


@dataclass
class ShardWork:
    """One shard on its way through the build: its pair rows (in input order), the rejects so far, and what was
    read into it (`read` records, `separators` structural lines) for the accounting check at write time."""
    name: str
    rows: list[dict] = field(default_factory=list)
    rejects: list[dict] = field(default_factory=list)
    read: int = 0
    separators: int = 0


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


class _ReadTaskFn(beam.DoFn):
    def __init__(self, options: ReadOptions, skip_shards: frozenset):
        self.options, self.skip_shards = options, skip_shards
        self.records = Metrics.counter("read", "records")
        self.separators = Metrics.counter("read", "separators")

    def process(self, task: ReadTask):
        work = None
        for shard, record in read_file(task.unit, self.options, self.skip_shards, task=task):
            if work is None or work.name != shard:
                work = ShardWork(shard)
            if "_count" in record:
                work.read, work.separators = record["_count"]["read"], record["_count"]["separators"]
                self.separators.inc(work.separators)
                yield work
                work = None
                continue
            self.records.inc()
            if "reason" in record:
                Metrics.counter("read", f"reject_{record['reason']}").inc()
                work.rejects.append(record)
            else:
                work.rows.append(record)


class ReadBitext(beam.PTransform):
    """ReadTasks (`read_plan.plan_reads`: one per shard of a plain file, one per compressed or remote file) ->
    ShardWork, one per shard not in `skip_shards`, yielded as soon as its last record is read."""

    def __init__(self, tasks: list[ReadTask], options: ReadOptions, skip_shards=frozenset()):
        super().__init__()
        self.tasks, self.options, self.skip_shards = tasks, options, frozenset(skip_shards)

    def expand(self, pbegin):
        return (pbegin
                | "Tasks" >> beam.Create(self.tasks)
                | "Read" >> beam.ParDo(_ReadTaskFn(self.options, self.skip_shards)))


class _ReadShardFn(beam.DoFn):
    def process(self, path: str):
        with FileSystems.open(path) as handle:
            table = pq.read_table(handle)
        yield ShardWork(shard_name(path), rows=table_to_pairs(table), read=table.num_rows)


class ReadShards(beam.PTransform):
    """Existing shards -> ShardWork (no rejects): stages run over shards keep shard names."""

    def __init__(self, paths: list[str], skip_shards=frozenset()):
        super().__init__()
        self.paths = [p for p in paths if shard_name(p) not in set(skip_shards)]

    def expand(self, pbegin):
        return (pbegin
                | "Shards" >> beam.Create(self.paths)
                | "ReadShard" >> beam.ParDo(_ReadShardFn()))
