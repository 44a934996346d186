"""`paranmt filter`: shards -> a training corpus (same shard layout and schema), with per-filter accounting.

    paranmt filter --input SHARDS --output DIR [--config configs/filters/paranmt-5m.yaml] [--sample N] [--tsv]
                   [--write-dropped] [beam options, e.g. --runner DataflowRunner ...]

Outputs in DIR: one `<shard>.parquet` per input shard (kept rows, PAIR_SCHEMA, the input's metadata plus
`paranmt.filter_config_hash` / `paranmt.filter_config`), and side files whose names start with `_` (so pandas,
pyarrow.dataset, Polars, DuckDB and `datasets` load DIR as the kept rows alone; names in schemas/layout.py): the
filter report (rows in / kept, per-filter seen / kept / dropped, the quantile bounds and sample threshold actually
applied), the resolved config, optionally the dropped rows (with `drop_reason`, `drop_detail`) and `pairs.tsv`
(ref TAB bt, shards in name order). See docs/filtering.md.
"""
from __future__ import annotations

import json
import logging

import apache_beam as beam
import yaml
from apache_beam.io.filesystems import FileSystems

from paranmt.models.filters.config import PRESETS_DIR, FilterConfig
from paranmt.models.filters.pair_filters import QuantileFilter
from paranmt.models.filters.plan import FilterPlan, filter_counts
from paranmt.pipelines.runtime.command import Command, Shards
from paranmt.pipelines.runtime.options import pipeline_options
from paranmt.pipelines.runtime.shard_job import ShardJob, found
from paranmt.schemas import layout, tsv
from paranmt.schemas.errors import ConfigError
from paranmt.transforms.filter import FilterShards
from paranmt.transforms.shards import (column_fill, concatenate_files, matching, shard_files, write_json,
                                       write_text_atomically)

LOG = logging.getLogger(__name__)
# Dedup candidates one hash partition holds in memory (~40 bytes each): the partition count grows with the input,
# so a worker's memory does not.
DEDUP_PARTITION_ROWS = 500_000


def earlier_corpus(output: str) -> list[str]:
    """The files of an earlier corpus in `output`: its shards and dropped rows (both layouts)."""
    return shard_files(output) + found(output, *(f"{name}/*{suffix}"
                                                 for suffix in (layout.SIDE_TABLE_SUFFIX, layout.DATA_SUFFIX)
                                                 for name in (layout.DROPPED, layout.LEGACY_NAMES[layout.DROPPED])))


def prepare_output(output: str) -> None:
    """After the shard job claimed `output` (an earlier corpus deleted with --overwrite): delete the side files an
    earlier run left (config, report, TSV, dedup work), create the side directories."""
    side = [FileSystems.join(output, name) for key in (layout.CONFIG, layout.FILTER_REPORT, layout.TSV_PARTS,
                                                        layout.PAIRS_TSV)
            for name in (key, layout.LEGACY_NAMES[key])] + [FileSystems.join(output, layout.DEDUP_WORK)]
    try:
        FileSystems.delete([path for path in side if FileSystems.exists(path)])
        for directory in (FileSystems.join(output, layout.DROPPED), FileSystems.join(output, layout.TSV_PARTS)):
            if not FileSystems.exists(directory):
                FileSystems.mkdirs(directory)
    except OSError as error:  # Beam's BeamIOError is one; the cause is in its message
        raise ConfigError(f"cannot create the output directory {output}: {error}") from None


def build_report(shard_counts: list[dict], quantiles: dict, threshold, plan: FilterPlan, config: FilterConfig,
                 input_files: list[str]) -> dict:
    """filter_report.json: totals, per-step seen/kept/dropped, the bounds and threshold applied, per-shard counts
    (each shard's kept + dropped must equal its rows)."""
    reasons = {}
    for counts in shard_counts:
        if counts["rows"] != counts["kept"] + sum(counts["dropped"].values()):
            raise RuntimeError(f"accounting error in shard {counts['shard']}: {counts}")
        for reason, count in counts["dropped"].items():
            reasons[reason] = reasons.get(reason, 0) + count
    rows_in = sum(c["rows"] for c in shard_counts)
    bounds = {f.name: [quantiles[f.column][f.lower], quantiles[f.column][f.upper]]
              for f in plan.filters if isinstance(f, QuantileFilter)}
    return {
        "config_hash": config.hash(),
        "input_shards": len(input_files),
        "rows_in": rows_in,
        "rows_kept": sum(c["kept"] for c in shard_counts),
        "filters": filter_counts(reasons, rows_in, plan.reasons()),
        "keeps": {f.name: f.describe() for f in plan.filters},
        "quantile_bounds": bounds,
        "sample_hash_threshold": threshold,
        "shards": sorted(shard_counts, key=lambda c: c["shard"]),
    }


def dedup_partitions(files: list[str], plan: FilterPlan) -> int:
    """Hash partitions for the dedup: input rows x dedup fields / DEDUP_PARTITION_ROWS, at least 1 (row counts
    from the Parquet footers)."""
    rows = sum(rows for path in files for rows, _ in column_fill(path, ["id"]).values())
    return max(1, -(-rows * len(plan.dedup) // DEDUP_PARTITION_ROWS))


def run_filter(config: FilterConfig, beam_args: list[str] | None = None, overwrite: bool = False,
               argv: list[str] | None = None) -> dict:
    """Validate (config, input files, needed columns), check the output (a shard job,
    pipelines/runtime/shard_job.py), run the pipeline, write report / config / TSV. `argv` makes the command a stop
    prints."""
    config.validate()
    plan = config.plan()
    job = ShardJob("filter", config.input, config.output, columns=["id"] + plan.required_columns(), what="a corpus",
                   earlier=earlier_corpus, argv=argv, overwrite=overwrite, named_after_shards=True,
                   side_dir=True)
    files, output = job.files, job.output
    job.work_dirs = [output, FileSystems.join(output, layout.DROPPED)]
    options = pipeline_options(beam_args or [], running_mode="in_memory")
    metadata = {"paranmt.filter_config_hash": config.hash(),
                "paranmt.filter_config": json.dumps(config.to_dict(), sort_keys=True)}
    partitions = dedup_partitions(files, plan) if plan.dedup else 1
    with job:
        prepare_output(output)
        LOG.info("filtering %d shards into %s: %s", len(files), output, ", ".join(plan.reasons()) or "no filters")
        with job.pipeline(options) as pipeline:
            filter_pipeline(pipeline, config, plan, files, output, metadata, partitions)
        return finish_output(config, plan, output)


def filter_pipeline(pipeline, config: FilterConfig, plan: FilterPlan, files: list[str], output: str, metadata: dict,
                    partitions: int) -> None:
    """The filter's Beam graph: every shard filtered into `output`, the report written from the counts."""
    paths = pipeline | "ShardFiles" >> beam.Create(files)  # each pass spreads them with its own Reshuffle
    result = paths | "Filter" >> FilterShards(plan, output, metadata, config.write_dropped, config.write_tsv,
                                              partitions)
    (result["counts"]
     | "AllCounts" >> beam.combiners.ToList()
     | "Report" >> beam.Map(
         lambda counts, quantiles, threshold: write_json(
             FileSystems.join(output, layout.FILTER_REPORT),
             build_report(counts, quantiles, threshold, plan, config, files)),
         beam.pvalue.AsDict(result["quantiles"]), beam.pvalue.AsSingleton(result["sample_threshold"])))


def finish_output(config: FilterConfig, plan: FilterPlan, output: str) -> dict:
    """After the pipeline: pairs.tsv assembled from its parts, the work folders removed (and the dropped rows
    unless kept), config.yaml written; returns the report."""
    parts_dir = FileSystems.join(output, layout.TSV_PARTS)
    if config.write_tsv:
        concatenate_files(matching(FileSystems.join(parts_dir, "*.tsv")),
                          FileSystems.join(output, layout.PAIRS_TSV), tsv.header(tsv.PAIRS_COLUMNS))
    FileSystems.delete([parts_dir] + ([FileSystems.join(output, layout.DEDUP_WORK)] if plan.dedup else []))
    if not config.write_dropped:
        FileSystems.delete([FileSystems.join(output, layout.DROPPED)])
    write_text_atomically(FileSystems.join(output, layout.CONFIG),
                          yaml.safe_dump({**config.to_dict(), "hash": config.hash()}, sort_keys=False))
    with FileSystems.open(FileSystems.join(output, layout.FILTER_REPORT)) as handle:
        return json.loads(handle.read())


def format_report(report: dict) -> str:
    lines = [f"rows in {report['rows_in']}, kept {report['rows_kept']}",
             f"{'step':<24}{'seen':>12}{'kept':>12}{'dropped':>12}"]
    for step in report["filters"]:
        lines.append(f"{step['filter']:<24}{step['seen']:>12}{step['kept']:>12}{step['dropped']:>12}")
    return "\n".join(lines)


def run(config: FilterConfig, args) -> int:
    report = run_filter(config, args.beam_args, overwrite=args.overwrite, argv=getattr(args, "argv", None))
    print(format_report(report))
    side = [name for name, wanted in ((layout.PAIRS_TSV, config.write_tsv), (layout.DROPPED, config.write_dropped))
            if wanted]
    print(f"  outputs: {config.output}/*.parquet (the kept rows); "
          + ", ".join([*side, layout.FILTER_REPORT, layout.CONFIG]))
    return 0


COMMAND = Command("filter", FilterConfig, run, help="filter shards into a training corpus",
                  description=__doc__.split("\n\n")[0], presets=PRESETS_DIR, example="sample=1000",
                  config_help=f"a preset name ({', '.join(sorted(path.stem for path in PRESETS_DIR.glob('*.yaml')))}; "
                              f"configs/filters/) or a filter YAML file",
                  epilog="Any Beam option passes through and wins over the local default (a DirectRunner in this "
                         "process, --direct_running_mode in_memory), e.g. --direct_running_mode multi_processing, or "
                         "--runner DataflowRunner --project P --region R --temp_location gs://... with gs:// paths.",
                  output=Shards("replace a corpus already in --output (without it, an --output holding one is "
                                "refused)"))
