"""`paranmt eval-paraphraser`: template match, BLEU, para_score and SIMILE of the paraphrasers on held-out pairs,
with the baselines in the same table (thesis Table 60), and the share of `--templates` requests answered by a kept
paraphrase in the asked template (models/generation/evaluate.py defines every column).

    paranmt eval-paraphraser --model DIR --input HELD_OUT_PAIRS [--output DIR] [--max-pairs 500] [--templates top10]
                             [--nmt-bt POOL]

HELD_OUT_PAIRS, from data the models were not trained on: a `paranmt build` output (or a glob of its files) with
ref, bt and both parses (the parse stage run), or a pair TSV as `paranmt train-paraphraser` reads it
(models/generation/data.py: a header naming `ref`, `bt` and optionally `ref_parse`, `bt_parse`, or `s1 TAB s2`
lines; the TSV of `paranmt export --format scpn` too). A TSV's sentences without a parse are parsed with
`--parser` through the parse cache (`--parse-cache`, default DIR/parses.tsv with --output, else a temporary
file); its pairs are named `<file name>:<row>` (1-based data row). Pairs are taken in input order, the first
--max-pairs that have both sides and both parses (the others are counted as skipped). The SCPN model with its
parse generator is required; the plain model's row appears when --model also holds a plain paraphraser.
The back-translation baseline (row nmt-bt, models/generation/evaluate.py) draws each pair's output from POOL
(`--nmt-bt`, default the input itself): shards or a pair TSV of other translations, where a row whose ref is the
pair's input and whose id is not the pair's own is another system's translation of the same source (wmt-bt: the
other systems' outputs of a segment; build POOL with the input's read and clean stages so that refs compare equal).
Prints the table; with --output writes DIR/results.csv, DIR/results.md, DIR/outputs.jsonl (every system's output
per pair) and DIR/requests.jsonl (the SCPN rows of the template requests, kept or not, in `paranmt paraphrase`'s
columns). A DIR holding the results of an earlier run is refused unless `--overwrite` (which also deletes its parse
cache DIR/parses.tsv); one that is, holds or lies inside an input is refused; Ctrl-C, SIGTERM or a full disk stop it
in one line naming the rerun, leaving no results file (the parses made are kept in the cache).
Settings (EvalParaphraserConfig): defaults <- `--config FILE.yaml` (input, output, max_pairs, parse_cache; the
generator's settings under `paraphrase:` with ParaphraseConfig's keys, e.g. `paraphrase: {model: assets, beam: 4}`)
<- flags (`--beam` is paraphrase.beam) <- `--set KEY=VALUE` (`--set paraphrase.rerank=score`).
"""
from __future__ import annotations

import csv
import io
import json
import logging
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

from paranmt.models.generation.config import ParaphraseConfig
from paranmt.pipelines.runtime.arguments import check_generator_section
from paranmt.pipelines.runtime.command import Command, ResultsFolder
from paranmt.schemas.config import Config, bounded, check_ranges, setting
from paranmt.schemas.errors import ConfigError
from paranmt.schemas.paths import asset_path

LOG = logging.getLogger(__name__)
NEEDED = ["id", "ref", "bt", "ref_parse", "bt_parse"]
RESULTS = ("results.csv", "results.md", "outputs.jsonl", "requests.jsonl")
PARSES = "parses.tsv"           # the parse cache of a pair TSV input in --output (unless --parse-cache)


def is_pair_tsv(input_path: str) -> bool:
    """A single file that is not Parquet: read as `train-paraphraser`'s pair inputs; anything else is shards."""
    return Path(input_path).is_file() and not input_path.endswith(".parquet")


def shard_rows(input_path: str):
    """(id, ref, bt) of every row of shards (a directory or glob), read as they are consumed; a missing input or
    column is a ConfigError at once."""
    from paranmt.transforms.shards import check_columns, iter_row_batches, list_shards

    files = list_shards(input_path)
    check_columns(files, ["id", "ref", "bt"], "eval-paraphraser --nmt-bt")
    return ((row["id"], row["ref"], row["bt"]) for path in files
            for batch in iter_row_batches(path, ["id", "ref", "bt"]) for row in batch)


def tsv_rows(input_path: str):
    """(id, ref, bt) of every row of a pair TSV, ids `<file name>:<row>` as `read_tsv_pairs` names its pairs (the
    lines it rejects left out the same way)."""
    from paranmt.models.encoding import LineRejects
    from paranmt.models.generation.data import GenerationDataError, read_parsed_pairs

    try:
        rows = read_parsed_pairs([input_path], LineRejects())
    except (GenerationDataError, OSError) as error:
        raise ConfigError(f"--nmt-bt {input_path}: {error}") from None
    return [(f"{Path(input_path).name}:{i + 1}", pair.s1, pair.s2) for i, pair in enumerate(rows)]


def nmt_bt_pool(path: str):
    """The (id, ref, bt) rows of the NMT-BT pool: a pair TSV or shards, as --input is read."""
    return tsv_rows(path) if is_pair_tsv(path) else shard_rows(path)


def read_shard_pairs(input_path: str, max_pairs: int):
    """The first `max_pairs` shard rows with ref, bt and both parses, as EvalPairs; and the rows skipped."""
    from paranmt.models.generation.evaluate import EvalPair
    from paranmt.transforms.shards import check_columns, iter_row_batches, list_shards

    files = list_shards(input_path)
    check_columns(files, NEEDED, "eval-paraphraser")
    pairs, skipped = [], 0
    for path in files:
        for batch in iter_row_batches(path, NEEDED):
            for row in batch:
                if any(row[c] is None for c in NEEDED):
                    skipped += 1
                elif len(pairs) < max_pairs:
                    pairs.append(EvalPair(row["id"], row["ref"], row["bt"], row["ref_parse"], row["bt_parse"]))
    return pairs, skipped


@dataclass
class EvaluatedParaphrasers(ParaphraseConfig):
    """The generator settings of `paranmt eval-paraphraser` (its section `paraphrase:`): a ParaphraseConfig whose
    templates and n-best are those of the kept_in_template requests."""
    HELP: ClassVar[dict[str, str]] = {"n_best": "paraphrases per template request"}
    templates: str | None = setting("top10", help="templates of the kept_in_template requests, as `paranmt "
                                    "paraphrase --templates`")


@dataclass
class EvalParaphraserConfig(Config):
    """The settings of `paranmt eval-paraphraser`: the keys of `--config FILE.yaml` (the generator's under
    `paraphrase:`), the flags (one per field, and per field of the section: `--beam` sets paraphrase.beam) and
    `--set`."""
    RUN_FIELDS: ClassVar[tuple[str, ...]] = ("input", "output", "parse_cache", "nmt_bt")
    input: str = setting("", help="held-out shards (directory or glob) with parses, or a pair TSV (header ref, bt)")
    output: str | None = setting(None, help="directory for results.csv, results.md, outputs.jsonl, requests.jsonl")
    max_pairs: int = bounded(500, 1, help="pairs evaluated")
    parse_cache: str | None = setting(None, help="pair TSV input: parse cache TSV to reuse and extend (default "
                                      "DIR/parses.tsv with --output, else a temporary file)")
    nmt_bt: str | None = setting(None, help="shards or a pair TSV whose rows with a pair's input as ref are other "
                                 "translations of its source: the nmt-bt row's outputs (default: the input itself)")
    paraphrase: EvaluatedParaphrasers = field(default_factory=EvaluatedParaphrasers)

    def validate(self) -> "EvalParaphraserConfig":
        check_ranges(self)
        check_generator_section(self.paraphrase)
        return self


def run(c: EvalParaphraserConfig, args) -> int:
    from paranmt.models.generation.data import ParseCache
    from paranmt.models.generation.evaluate import evaluate, markdown_table, nmt_bt_candidates, read_tsv_pairs, report
    from paranmt.models.generation.models import ModelSetError, find_models
    from paranmt.transforms.io.model_cache import local_model_path

    run = c.paraphrase.resolve(local_model_path)
    try:
        plain_dir = str(find_models(asset_path(c.paraphrase.model), "plain", run.settings.arch).paraphraser.path)
    except ModelSetError:
        plain_dir = None
    output = Path(c.output) if c.output else None
    cache_path = Path(c.parse_cache) if c.parse_cache else output / PARSES if output else None
    pool = nmt_bt_pool(c.nmt_bt) if c.nmt_bt else None      # a wrong --nmt-bt: one line before any work
    if is_pair_tsv(c.input):
        with tempfile.TemporaryDirectory(prefix="paranmt-eval-") as scratch:
            pairs, skipped = read_tsv_pairs(c.input, c.max_pairs, ParseCache(cache_path or Path(scratch) / PARSES),
                                            asset_path(run.settings.parser))
    else:
        pairs, skipped = read_shard_pairs(c.input, c.max_pairs)
    if not pairs:
        raise ConfigError(f"{c.input} has no pair with ref, bt and both parses")
    LOG.info("%d evaluation pairs (%d input rows without ref, bt or a parse skipped)", len(pairs), skipped)
    nmt_bt = nmt_bt_candidates(pairs, nmt_bt_pool(c.input) if pool is None else pool)
    results, outputs, requests = evaluate(run, pairs, plain_dir, nmt_bt)
    table = markdown_table(results)
    if output:
        write_results(output, results, outputs, requests, report(run, c.input, pairs, skipped, table))
    print(table)
    return 0


def write_results(output: Path, results: list[dict], outputs: list[dict], requests: list[dict], report: str) -> None:
    """results.csv, results.md (`report`), outputs.jsonl and requests.jsonl in `output`, each written whole."""
    from paranmt.models.evaluation.tables import write_result_file
    from paranmt.models.generation.evaluate import METRICS
    from paranmt.transforms.io.paraphrases import write_paraphrases

    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, ["system", "pairs", *METRICS])
    writer.writeheader()
    writer.writerows(results)
    write_result_file(output / "results.csv", buffer.getvalue())
    write_result_file(output / "results.md", report)
    write_result_file(output / "outputs.jsonl", "".join(json.dumps(o, ensure_ascii=False) + "\n" for o in outputs))
    write_paraphrases(requests, str(output / "requests.jsonl"))


COMMAND = Command("eval-paraphraser", EvalParaphraserConfig, run, help="template match, BLEU, para_score, SIMILE and "
                  "kept paraphrases per template request of the paraphrasers on held-out pairs, with baselines",
                  description=__doc__.split("\n\n")[0], required=("input",), sections=("paraphrase",),
                  inputs=("input", "nmt_bt", "paraphrase.model", "paraphrase.parse_generator", "paraphrase.parser",
                          "paraphrase.encoder"), example="paraphrase.beam=2",
                  output=ResultsFolder(RESULTS, extra=lambda c: () if c.parse_cache else (PARSES,),
                                       overwrite_help="replace the results (and the parse cache DIR/parses.tsv) an "
                                       "earlier run left in --output (without --overwrite, an --output holding them "
                                       "is refused)"))
