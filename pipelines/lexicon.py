"""`paranmt lexicon`: a paraphrase lexicon with cross-sentence and adjusted PMI (SPEC §4), evaluated on SimLex-999.

    paranmt filter --config configs/filters/lexicon.yaml --input SHARDS --output LEXDATA   # para >= 0.35, <= 30 tok
    paranmt lexicon --input LEXDATA --output DIR [--min-count 2] [--simlex ../shared/data/word-sim/EN-SIMLEX-999.txt]

Writes DIR/lexicon-*.tsv (table TSVs, schemas/tsv.py: header `u v cross_count pmi_cross pmi_within pmi_adj`, both
directions of each pair, unsorted, sharded), DIR/simlex_pairs.tsv (the lexicon rows of the benchmark's pairs, the
same columns) and DIR/lexicon_eval.json (Spearman rho of pmi_adj and of pmi_cross against SimLex-999, with
coverage). An earlier lexicon in DIR is refused unless `--overwrite`; a DIR that is, holds or lies inside the input
is refused (docs/reliability.md).
"""
from __future__ import annotations

import dataclasses
import io
import logging
import sys
from pathlib import Path
from typing import ClassVar

import apache_beam as beam
from apache_beam.io.filesystems import FileSystems

from paranmt.models.lexicon.simlex import evaluate, read_word_pairs
from paranmt.pipelines.runtime.command import Command, Shards
from paranmt.pipelines.runtime.options import pipeline_options
from paranmt.pipelines.runtime.shard_job import ShardJob, found
from paranmt.schemas import tsv
from paranmt.schemas.config import Config, bounded, check_ranges, setting
from paranmt.schemas.errors import ConfigError
from paranmt.schemas.paths import PROJECT_ROOT
from paranmt.transforms.lexicon import ParaphraseLexicon
from paranmt.transforms.shards import write_json, write_text_atomically

LOG = logging.getLogger(__name__)
DEFAULT_SIMLEX = PROJECT_ROOT.parent / "shared" / "data" / "word-sim" / "EN-SIMLEX-999.txt"
MIN_COVERED_PAIRS = 50     # fewer covered benchmark pairs than this: the Spearman rho says little


def tsv_line(entry: dict) -> str:
    """One lexicon row of a table TSV."""
    return tsv.table_line([entry["u"], entry["v"], str(entry["cross_count"])]
                          + [f"{entry[c]:.5f}" for c in tsv.LEXICON_COLUMNS[3:]])


def lexicon_pipeline(pipeline, files: list[str], output: str, min_count: int, alpha: float, wanted: set) -> None:
    """The lexicon's Beam graph: the lexicon of the shards `files` into `output`/lexicon-*.tsv, and its entries
    for the `wanted` word pairs into `output`/simlex_pairs.tsv."""
    lexicon = (pipeline
               | "ShardFiles" >> beam.Create(files)
               | "Spread" >> beam.Reshuffle()
               | "Lexicon" >> ParaphraseLexicon(min_count, alpha))
    (lexicon
     | "Lines" >> beam.Map(tsv_line)
     | "WriteLexicon" >> beam.io.WriteToText(FileSystems.join(output, "lexicon"), file_name_suffix=".tsv",
                                             header=tsv.header(tsv.LEXICON_COLUMNS), append_trailing_newlines=False))
    (lexicon
     | "BenchmarkPairs" >> beam.Filter(lambda entry: (entry["u"], entry["v"]) in wanted)
     | "Collect" >> beam.combiners.ToList()
     | "WriteBenchmarkPairs" >> beam.Map(lambda entries: write_text_atomically(
         FileSystems.join(output, "simlex_pairs.tsv"),
         tsv.header(tsv.LEXICON_COLUMNS) + "".join(tsv_line(e) for e in sorted(
             entries, key=lambda e: (e["u"], e["v"]))))))


def run_lexicon(config: "LexiconConfig", beam_args: list[str] | None = None, overwrite: bool = False,
                argv: list[str] | None = None) -> dict:
    """The lexicon of the shards `config.input` and its evaluation, into `config.output` (a shard job,
    pipelines/runtime/shard_job.py: an earlier lexicon there needs `overwrite`: its files are deleted first, so no
    shard of a different sharding is left). `argv` makes the command a stop prints."""
    input_path, output, min_count, alpha = config.input, config.output, config.min_count, config.alpha
    simlex_path = Path(config.simlex) if config.simlex else DEFAULT_SIMLEX
    try:
        benchmark = read_word_pairs(simlex_path)
    except (OSError, ValueError) as error:
        raise ConfigError(f"cannot read the SimLex file {simlex_path}: {error}") from None
    job = ShardJob("lexicon", input_path, output, columns=["ref", "bt"], what="a lexicon",
                   earlier=lambda out: found(out, "lexicon-*.tsv", "simlex_pairs.tsv", "lexicon_eval.json",
                                             "beam-temp-*"),
                   argv=argv, overwrite=overwrite, inputs=[str(simlex_path)])
    output = job.output
    wanted = {(w1, w2) for w1, w2, _ in benchmark} | {(w2, w1) for w1, w2, _ in benchmark}
    LOG.info("lexicon of %d shards -> %s", len(job.files), output)
    with job:
        with job.pipeline(pipeline_options(beam_args or [])) as pipeline:
            lexicon_pipeline(pipeline, job.files, output, min_count, alpha, wanted)
        with FileSystems.open(FileSystems.join(output, "simlex_pairs.tsv")) as handle:
            rows = [dict(zip(tsv.LEXICON_COLUMNS, fields))
                    for fields in list(tsv.read_rows(io.StringIO(handle.read().decode("utf-8"), newline="")))[1:]]
        result = {"benchmark": str(simlex_path), "min_count": min_count, "alpha": alpha}
        for column in ("pmi_adj", "pmi_cross"):
            result[column] = evaluate({(r["u"], r["v"]): float(r[column]) for r in rows}, benchmark)
        write_json(FileSystems.join(output, "lexicon_eval.json"), result)
        return result


@dataclasses.dataclass
class LexiconConfig(Config):
    """The settings of `paranmt lexicon`: flags (one per field), `--config` YAML keys and `--set`."""
    RUN_FIELDS: ClassVar[tuple[str, ...]] = ("input", "output")
    input: str = setting("", help="shard directory (top-level *.parquet) or glob")
    output: str = setting("", help="output directory")
    simlex: str | None = setting(None, help=f"word-similarity file (default: {DEFAULT_SIMLEX})")
    min_count: int = bounded(2, 1, help="minimum cross co-occurrence count")
    alpha: float = bounded(1.0, 0, open_low=True, help="add-alpha smoothing of the PMI counts")

    def validate(self) -> "LexiconConfig":
        check_ranges(self)
        return self


def print_summary(result: dict, output: str) -> None:
    """The evaluation in words on stdout; a warning on stderr when fewer than MIN_COVERED_PAIRS benchmark pairs
    are covered."""
    print(f"paranmt lexicon: {output}/lexicon-*.tsv, simlex_pairs.tsv, lexicon_eval.json")

    def rho(value):
        return "n/a" if value is None else f"{value:.3f}"

    covered, pairs = result["pmi_adj"]["covered"], result["pmi_adj"]["pairs"]
    print(f"  {Path(result['benchmark']).name}: {covered} of {pairs} pairs covered (min count {result['min_count']})")
    for column in ("pmi_adj", "pmi_cross"):
        print(f"  Spearman rho of {column}: {rho(result[column]['rho_covered'])} over the covered pairs, "
              f"{rho(result[column]['rho_all'])} over all (uncovered pairs ranked last)")
    if covered < MIN_COVERED_PAIRS:
        print(f"paranmt lexicon: WARNING: only {covered} of the {pairs} benchmark pairs are in the lexicon, too few "
              f"for the Spearman rho to mean much: give more shards (a bigger corpus)"
              + (" or a lower --min-count" if result["min_count"] > 1 else ""), file=sys.stderr)


def run(config: LexiconConfig, args) -> int:
    result = run_lexicon(config, args.beam_args, args.overwrite, getattr(args, "argv", None))
    print_summary(result, config.output.rstrip("/"))
    return 0


COMMAND = Command("lexicon", LexiconConfig, run, help="paraphrase lexicon (cross-sentence and adjusted PMI) with its "
                  "SimLex-999 evaluation", description=__doc__.split("\n\n")[0], required=("input", "output"),
                  example="min_count=3", output=Shards("replace an earlier lexicon in --output (without it, an "
                                                       "--output holding one is refused)"))
