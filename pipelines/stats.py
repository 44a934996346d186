"""`paranmt stats`: the corpus statistics report of SPEC §1 for shards (or a filtered corpus).

    paranmt stats --input SHARDS --output DIR [--sample-size 100000] [--idf-reference FILE] [beam options]

Writes DIR/stats.md (Table 1 per corpus, score-bin table, top-20 templates, plots), DIR/stats.json (the same
numbers plus the histograms) and DIR/*.png. See docs/filtering.md. An earlier report in DIR is refused unless
`--overwrite`; a DIR that is, holds or lies inside the input is refused (docs/reliability.md).
"""
from __future__ import annotations

import dataclasses
import json
import logging
from typing import ClassVar

import apache_beam as beam
from apache_beam.io.filesystems import FileSystems

from paranmt.models.stats.plots import PLOTS
from paranmt.models.stats.report import build_stats, render_markdown
from paranmt.pipelines.runtime.command import Command, Shards
from paranmt.pipelines.runtime.options import pipeline_options
from paranmt.pipelines.runtime.shard_job import ShardJob, found
from paranmt.schemas.config import Config, bounded, check_ranges, setting
from paranmt.schemas.errors import ConfigError
from paranmt.transforms.shards import write_json, write_text_atomically
from paranmt.transforms.stats import CorpusStatistics

LOG = logging.getLogger(__name__)
SAMPLE_KEYS = ("bt_score_sample", "ref_length_sample")
REPORT = "stats.json"


def read_reference(path: str) -> list[str]:
    """Sentences of an IDF reference file: one per line, blank lines skipped."""
    try:
        with FileSystems.open(path) as handle:
            text = handle.read().decode("utf-8")
    except Exception as error:  # noqa: BLE001 - any filesystem error is a configuration error here
        raise ConfigError(f"cannot read --idf-reference {path}: {error}") from None
    sentences = [line.strip() for line in text.splitlines() if line.strip()]
    if not sentences:
        raise ConfigError(f"--idf-reference {path} has no sentences")
    return sentences


def write_report(accumulators: dict, output: str, idf_reference: str | None) -> dict:
    """Build the report from the merged accumulators and write stats.json, stats.md and the PNG plots."""
    reference = read_reference(idf_reference) if idf_reference else None
    report = build_stats(accumulators, reference, idf_reference or "")
    written = []
    for name, plot in PLOTS.items():
        image = plot(report)
        if image is not None:       # a plot with nothing to show (e.g. no signal columns in v1 shards) is left out
            with FileSystems.create(FileSystems.join(output, name)) as handle:
                handle.write(image)
            written.append(name)
    for data in report["corpora"].values():
        for key in SAMPLE_KEYS:
            data.pop(key)
    write_json(FileSystems.join(output, REPORT), report)
    write_text_atomically(FileSystems.join(output, "stats.md"), render_markdown(report, written))
    return report


def run_stats(config: "StatsConfig", beam_args: list[str] | None = None, overwrite: bool = False,
              argv: list[str] | None = None) -> dict:
    """The report of the shards `config.input` into `config.output` (a shard job, pipelines/runtime/shard_job.py:
    an earlier report there needs `overwrite`: its files are deleted first). `argv` makes the command a stop
    prints."""
    input_path, output, sample_size, idf_reference = (config.input, config.output, config.sample_size,
                                                      config.idf_reference)
    if idf_reference:
        read_reference(idf_reference)  # fail fast, before any work
    job = ShardJob("stats", input_path, output, columns=["id", "corpus", "ref", "ref_len"], what="a stats report",
                   earlier=lambda out: found(out, REPORT, "stats.md", *PLOTS),
                   argv=argv, overwrite=overwrite, inputs=[idf_reference])
    LOG.debug("statistics of %d shards -> %s", len(job.files), job.output)
    with job:
        with job.pipeline(pipeline_options(beam_args or [])) as pipeline:
            (pipeline
             | "ShardFiles" >> beam.Create(job.files)
             | "Spread" >> beam.Reshuffle()
             | "Statistics" >> CorpusStatistics(sample_size)
             | "WriteReport" >> beam.Map(write_report, job.output, idf_reference))
        with FileSystems.open(FileSystems.join(job.output, REPORT)) as handle:
            return json.loads(handle.read())


@dataclasses.dataclass
class StatsConfig(Config):
    """The settings of `paranmt stats`: flags (one per field), `--config` YAML keys and `--set`."""
    RUN_FIELDS: ClassVar[tuple[str, ...]] = ("input", "output")
    input: str = setting("", help="shard directory (top-level *.parquet) or glob")
    output: str = setting("", help="report directory")
    sample_size: int = bounded(100_000, 1, help="rows per corpus for length / IDF / entropy statistics (as P18)")
    idf_reference: str | None = setting(None, help="plain-text file, one sentence per line, for IDF document "
                                        "frequencies (default: the sampled references themselves)")

    def validate(self) -> "StatsConfig":
        check_ranges(self)
        return self


def run(config: StatsConfig, args) -> int:
    report = run_stats(config, args.beam_args, args.overwrite, getattr(args, "argv", None))
    with FileSystems.open(FileSystems.join(config.output.rstrip("/"), "stats.md")) as handle:
        print(handle.read().decode("utf-8").split("\n## ")[0])
    return 0 if report["corpora"] else 1


COMMAND = Command("stats", StatsConfig, run, help="corpus statistics report (Markdown, JSON, PNG plots)",
                  description=__doc__.split("\n\n")[0], required=("input", "output"), example="sample_size=5000",
                  output=Shards("replace an earlier report in --output (without it, an --output holding one is "
                                "refused)"))
