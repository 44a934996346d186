"""`paranmt report`: one self-contained HTML page about a corpus, and the rating sheet of P18's manual evaluation.

    paranmt report --input SHARDS --output DIR [--by COLUMN] [--per-band 10] [--seed paranmt] [--where COND]
                   [--rate [--blind]] [--sample-size 10000] [--overwrite]
    paranmt report --ratings FILE.csv [FILE.csv ...] --output DIR [--overwrite]

The first writes DIR/index.html (no network: style, script and plots inline) about the shards of a build, a
filtered corpus or `paranmt paraphrase`: the build's accounting and rejects, distributions, P18 Table 1, template
pairs, seeded samples per band, a preview of each filter preset and of `--where`; `--rate` adds the two questions
of the paper's manual evaluation to every sampled pair, kept in the browser and saved as a CSV; `--rate --blind`
makes the page that sheet alone, its pairs in one shuffled numbered list with no score, band or id in sight. The
second turns such CSVs (one per annotator) into the per-band table beside P18 Table 3: DIR/ratings.html and
ratings.json (the CSV carries each pair's band and the band's rows, so it needs no --input). The shards are read
once, batch by batch (transforms/shards.py), into the collectors of models/report; see docs/report.md.
"""
from __future__ import annotations

import dataclasses
import json
import math
from typing import ClassVar

from paranmt.pipelines.runtime.command import Command, ResultsFolder
from paranmt.schemas.config import Config, bounded, check_ranges, setting
from paranmt.schemas.errors import ConfigError
from paranmt.schemas.row_condition import NUMERIC_COLUMNS

PAGE = "index.html"
RATINGS = ("ratings.html", "ratings.json")


@dataclasses.dataclass
class ReportConfig(Config):
    """The settings of `paranmt report`: flags (one per field), `--config` YAML keys and `--set`."""
    RUN_FIELDS: ClassVar[tuple[str, ...]] = ("input", "output", "ratings")
    input: str = setting("", help="shards of a build, a filtered corpus or `paranmt paraphrase` (a directory or a "
                         "glob)")
    output: str = setting("", help="directory for index.html (or, with --ratings, ratings.html and ratings.json)")
    by: str = setting("para_score", help="the numeric column whose bands the samples are drawn from (tenths of its "
                      "range, or deciles)")
    per_band: int = bounded(10, 1, 10_000, help="pairs shown per band (sources, for paraphrase shards); 100 for a "
                            "rating sheet as P18's")
    seed: str = setting("paranmt", help="the seed of every sample")
    where: str | None = setting(None, help="a row condition to preview beside the filter presets, e.g. \"para_score >= "
                                "0.5 and trigram_overlap <= 0.7\"")
    rate: bool = setting(False, flag={"action": "store_true"}, help="add the paraphrase and fluency questions (1-3) "
                         "to every sampled pair: a rating sheet")
    blind: bool = setting(False, flag={"action": "store_true"}, help="with --rate: a blind rating sheet, the pairs "
                          "of all bands in one list shuffled with --seed, each showing its two texts only (no "
                          "score, band, id, language or system; the saved CSV is the same)")
    sample_size: int = bounded(10_000, 1, help="references per corpus for the Table 1 statistics (length, IDF, "
                               "entropies)")
    ratings: list[str] = setting(default_factory=list, help="ratings CSV(s) saved by a rating "
                                 "sheet (one per annotator): write the per-band table instead")

    def validate(self) -> "ReportConfig":
        check_ranges(self)
        if self.ratings and self.input:
            raise ConfigError("give --input SHARDS (a report) or --ratings FILE.csv (the table of ratings), not both: "
                              "a ratings CSV carries each pair's band and the band's rows")
        if not self.ratings and not self.input:
            raise ConfigError("give --input SHARDS (or --ratings FILE.csv)")
        if self.blind and not self.rate:
            raise ConfigError("--blind is a mode of the rating sheet: give --rate --blind")
        if self.by not in NUMERIC_COLUMNS:
            raise ConfigError(f"--by {self.by}: bands are of a numeric pair column, one of "
                              f"{', '.join(NUMERIC_COLUMNS)}")
        self.condition()
        return self

    def condition(self):
        """The --where condition (schemas/row_condition.py), None without one."""
        from paranmt.schemas.row_condition import ConditionError, parse_condition

        if not self.where:
            return None
        try:
            return parse_condition(self.where)
        except ConditionError as error:
            raise ConfigError(f"--where {self.where!r}: {error}") from None


def run(config: ReportConfig, args) -> int:
    if config.ratings:
        print(write_ratings(config), end="")
        return 0
    from paranmt.transforms.shards import list_shards

    files = list_shards(config.input)
    report = make_report(config, files, "paranmt " + " ".join(getattr(args, "argv", None) or ["report"]))
    line = f"paranmt report: {report['rows']:,} rows of {len(files)} shard file(s)"
    if report.get("pairs"):
        bands = report["pairs"]["bands"]["bands"]
        line += (f", {sum(len(b['samples']) for b in bands)} pairs shown in {sum(1 for b in bands if b['rows'])} "
                 f"bands of {config.by}")
    print(f"{line} -> {config.output.rstrip('/')}/{PAGE}")
    return 0


def read_side_json(root: str, name: str) -> dict | None:
    """A JSON side file of a build or filter output (schemas/layout.py), None when there is none."""
    from apache_beam.io.filesystems import FileSystems

    from paranmt.schemas import layout
    from paranmt.transforms.shards import join_path

    for path in (join_path(root, name), *([join_path(root, layout.LEGACY_NAMES[name])] if name in layout.LEGACY_NAMES
                                          else [])):
        if FileSystems.exists(path):
            try:
                with FileSystems.open(path) as handle:
                    return json.loads(handle.read().decode("utf-8"))
            except (ValueError, UnicodeDecodeError) as error:
                raise ConfigError(f"{path} is not a JSON file ({error})") from None
    return None


def build_side(root: str, seed: str) -> dict:
    """The build's part of the report: the manifest, its accounting (summed over the manifest's shards), the
    rejects by stage and reason with examples, a filter's report, the summary of `paranmt paraphrase`."""
    from paranmt.models.report.collect import RejectCollector
    from paranmt.schemas import layout
    from paranmt.schemas.records import REJECT_SCHEMA
    from paranmt.transforms.shards import iter_table_batches, reject_files

    manifest = read_side_json(root, layout.MANIFEST)
    accounting = None
    if manifest and manifest.get("shards"):
        accounting = {key: sum(shard.get(key, 0) for shard in manifest["shards"])
                      for key in ("read", "written", "rejected")}
    rejects = None
    paths = reject_files(root)
    if paths or manifest:
        collector = RejectCollector(seed)
        for path in paths:
            for table in iter_table_batches(path, list(REJECT_SCHEMA.names)):
                collector.add(table)
        rejects = collector.summary()
    return {"manifest": manifest, "accounting": accounting, "rejects": rejects,
            "filter_report": read_side_json(root, layout.FILTER_REPORT),
            "paraphrase_summary": read_side_json(root, layout.PARAPHRASE_SUMMARY)}


def make_report(config: ReportConfig, files: list[str], command: str) -> dict:
    """Read the shards once (twice more for the columns whose exact quantiles a preset or decile bands need) and
    write DIR/index.html; returns the report dict."""
    from paranmt.models.report.sections import render_report
    from paranmt.schemas import layout
    from paranmt.transforms.shards import join_path, read_schema, write_text_atomically

    names = read_schema(files[0]).names
    paraphrases = "source_id" in names and "kept" in names
    report = {"input": config.input, "shards": len(files), "command": command, "seed": config.seed,
              "by": config.by, "per_band": config.per_band, "rate": config.rate,
              "blind": config.blind, "build": build_side(layout.shard_pattern(config.input)[1], config.seed)}
    if paraphrases:
        if config.rate or config.where:
            raise ConfigError(f"{config.input} holds paraphrase shards (`paranmt paraphrase`): --rate and --where "
                              "are for pair shards of a build or a filtered corpus")
        report["paraphrases"] = paraphrase_report(config, files)
        report["rows"] = report["paraphrases"]["rows"]
    else:
        report["pairs"] = pair_report(config, files)
        report["rows"] = report["pairs"]["rows"]
    write_text_atomically(join_path(config.output, PAGE), render_report(report))
    return report


def column_batches(files: list[str], column: str):
    """A callable yielding `column` of every shard, batch by batch (models/report/collect.py exact_quantiles)."""
    from paranmt.transforms.shards import iter_table_batches

    def batches():
        for path in files:
            for table in iter_table_batches(path, [column]):
                yield table.column(column)
    return batches


def previews(config: ReportConfig, files: list[str]):
    """A Preview per filter preset (configs/filters/, quantile bounds computed over the input) and one of --where."""
    from paranmt.models.filters.config import load_filter_config, preset_names
    from paranmt.models.report.collect import Preview, exact_quantiles

    plans = {name: load_filter_config(name).plan() for name in preset_names()}
    fractions: dict[str, set[float]] = {}
    for plan in plans.values():
        for column, wanted in plan.quantile_fractions().items():
            fractions.setdefault(column, set()).update(wanted)
    quantiles = {}
    for column, wanted in sorted(fractions.items()):
        # a column null in every row: bounds that keep nothing (the preview says the column is empty)
        quantiles[column] = exact_quantiles(column_batches(files, column), sorted(wanted)) or dict.fromkeys(
            wanted, math.nan)
    made = []
    for name, plan in plans.items():
        plan = plan.bind_quantiles(quantiles)
        made.append(Preview(f"--config {name}", [f.describe() for f in plan.filters], plan=plan))
    condition = config.condition()
    if condition is not None:
        made.append(Preview(f"--where {config.where}", [config.where], condition=condition))
    return made


def bands_of(config: ReportConfig, files: list[str]):
    """The bands of --by: tenths of its range, or its deciles over the input (models/report/sampling.py)."""
    from paranmt.models.report.collect import exact_quantiles
    from paranmt.models.report.sampling import BAND_RANGES, Bands

    if config.by in BAND_RANGES:
        return Bands.tenths(config.by)
    deciles = exact_quantiles(column_batches(files, config.by), [i / 10 for i in range(11)])
    if deciles is None:
        raise ConfigError(f"--by {config.by}: the column is null in every row of {config.input}")
    return Bands.deciles(config.by, list(deciles.values()))


def pair_report(config: ReportConfig, files: list[str]) -> dict:
    """The pair shards' part of the report: one pass of PairCollector over every batch of every shard."""
    from paranmt.models.report.collect import PAIR_COLUMNS, PairCollector
    from paranmt.transforms.shards import iter_table_batches

    made = previews(config, files)
    collector = PairCollector(bands_of(config, files), config.per_band, config.seed, made, config.sample_size)
    columns = list(dict.fromkeys([*PAIR_COLUMNS, config.by, *(c for p in made for c in p.requires)]))
    for path in files:
        for table in iter_table_batches(path, columns):
            collector.add(table)
    return collector.summary()


def paraphrase_report(config: ReportConfig, files: list[str]) -> dict:
    """The paraphrase shards' part of the report (ParaphraseCollector; --per-band sources shown)."""
    from paranmt.models.report.collect import ParaphraseCollector
    from paranmt.transforms.shards import iter_table_batches

    collector = ParaphraseCollector(config.per_band, config.seed)
    for path in files:
        for table in iter_table_batches(path, list(ParaphraseCollector.COLUMNS)):
            collector.add(table)
    return collector.summary()


def write_ratings(config: ReportConfig) -> str:
    """ratings.html and ratings.json of the --ratings CSVs; returns the Markdown tables to print."""
    from apache_beam.io.filesystems import FileSystems

    from paranmt.models.report.ratings import beside_p18, markdown, per_band, read_ratings, render_ratings
    from paranmt.transforms.shards import join_path, write_json, write_text_atomically

    ratings = []
    for path in config.ratings:
        try:
            with FileSystems.open(path) as handle:
                text = handle.read().decode("utf-8-sig")
        except (OSError, UnicodeDecodeError) as error:
            raise ConfigError(f"cannot read --ratings {path}: {error}") from None
        try:
            ratings += read_ratings(text, path)
        except ValueError as error:
            raise ConfigError(str(error)) from None
    if not ratings:
        raise ConfigError(f"no rated pair in {', '.join(config.ratings)}")
    bands = per_band(ratings)
    p18 = beside_p18(bands)
    write_json(join_path(config.output, RATINGS[1]), {"files": config.ratings, "bands": bands, "p18_table3": p18})
    write_text_atomically(join_path(config.output, RATINGS[0]), render_ratings(bands, p18, config.ratings))
    return markdown(bands, p18)


COMMAND = Command("report", ReportConfig, run, help="a corpus report to open in a browser (one HTML file), and a "
                  "rating sheet", description=__doc__.split("\n\n")[0], required=("output",), example="per_band=100",
                  inputs=("input", "ratings"), output=ResultsFolder(
                      lambda config: RATINGS if config.ratings else (PAGE,), overwrite_help="replace an earlier report "
                      "(index.html, or ratings.html and ratings.json) in --output"))
