"""`paranmt mine`: margin-based bitext mining between a Czech and an English monolingual corpus (Artetxe &
Schwenk 2019 ratio margin over k nearest neighbours, candidates by forward/backward/intersection/max), with a
bilingual sentence encoder and faiss. Inputs: one sentence per line, plain or compressed (.gz, .bz2, .xz, .zst),
any filesystem Beam knows; `--source-column`/`--target-column` take one tab-separated column instead of the line.
Writes DIR/mined.parquet and DIR/mined.tsv (cs, en, margin, cos; best first; the TSV has no header line, so
`paranmt build --format tsv --columns cs=0,ref=1` reads it) and DIR/mine.json (counts and settings).

The output contract (pipelines/runtime/outputs.py): a DIR that is, holds or lies inside an input (the corpora, the
encoder) is refused, and so is a DIR holding an earlier mining unless `--overwrite` (which deletes it first); each
file is written atomically, so Ctrl-C, SIGTERM or a full disk end in one line (exit 130 / 143 / 1) naming the
command to rerun, with no temporary left (the sentence and vector files of the work directory included).
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import logging
import math
import os
import shutil
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

from paranmt.models.mining.calibrate import Calibration, calibrate_threshold
from paranmt.models.mining.corpus import EncodedCorpus, encode_corpus
from paranmt.models.mining.knn import INDEXES, SearchConfig
from paranmt.models.mining.margin import STRATEGIES, MinedPairs, mine_vectors
from paranmt.pipelines.runtime import outputs
from paranmt.pipelines.runtime.arguments import add_config_arguments, load_command_config
from paranmt.schemas.config import Config, bounded, check_choice, check_ranges
from paranmt.schemas.errors import ConfigError
from paranmt.schemas.paths import asset_path

log = logging.getLogger(__name__)

AUTO = "auto"              # the default threshold: calibrated on the margins of the data (models/mining/calibrate.py)
DEFAULT_ENCODER = "assets/encoder-sp"
WRITE_ROWS = 100_000
RESULTS = ("mined.parquet", "mined.tsv", "mine.json")       # what a mining writes into DIR (mine.json last)


@dataclasses.dataclass
class MiningSettings(Config):
    """The encoder, selection and search settings of `mine` and `eval-xling` (their flags: SEARCH_HELP).
    `threshold`: `auto` or a number (text, so that YAML and --set take either)."""
    strategy: str = "max"
    threshold: str = AUTO
    encoder: str = DEFAULT_ENCODER
    k: int = 4
    index: str = "auto"
    ef_search: int = bounded(64, 1)
    block_size: int = 65_536
    batch_size: int = bounded(1024, 1)
    threads: int = bounded(1, 1)

    def validate(self):
        check_choice("strategy", self.strategy, STRATEGIES)
        check_choice("index", self.index, INDEXES)
        if self.k < 1:
            raise ConfigError(f"--k must be >= 1, not {self.k}")
        if self.block_size < 1:
            raise ConfigError(f"--block-size must be >= 1, not {self.block_size}")
        if self.threshold_value() != AUTO and not math.isfinite(self.threshold_value()):
            raise ConfigError(f"--threshold must be a finite number or {AUTO}, not {self.threshold}")
        check_ranges(self)
        return self

    def threshold_value(self):
        """`auto` or the number."""
        try:
            return threshold_argument(self.threshold)
        except argparse.ArgumentTypeError as error:
            raise ConfigError(f"--threshold: {error}") from None


@dataclasses.dataclass
class MineConfig(MiningSettings):
    """The settings of `paranmt mine`: flags, `--config` YAML keys and `--set` (FLAG_HELP)."""
    RUN_FIELDS: ClassVar[tuple[str, ...]] = ("source", "target", "output", "work_dir")
    source: str = ""
    target: str = ""
    output: str = ""
    source_column: int | None = None
    target_column: int | None = None
    work_dir: str | None = None


# the flags of the search settings (MiningSettings), shared with `eval-xling`
SEARCH_HELP = {
    "strategy": "candidate strategy",
    "threshold": "minimum margin, or auto: calibrated on the margins of the data at hand (docs/mining.md)",
    "encoder": "bilingual encoder directory",
    "k": "neighbours for the margin and the candidates",
    "index": "k-NN search: exact (blocked), hnsw (approximate), auto (exact up to 4e9 = ~63k x 63k sentence pairs, "
             "hnsw above)",
    "ef_search": "hnsw: search candidate list size",
    "block_size": "sentences per encode/search block",
    "batch_size": "sentences per encoder call",
    "threads": "torch and faiss threads",
}
SEARCH_CHOICES = {"strategy": STRATEGIES, "index": INDEXES}
SEARCH_FLAGS = {"threshold": {"type": lambda text: str(threshold_argument(text))}}
FLAG_HELP = {
    "source": "Czech sentences, one a line (plain or compressed)",
    "target": "English sentences, one a line (plain or compressed)",
    "output": "output directory",
    "source_column": "take this 0-based tab-separated column of each line",
    "target_column": "take this 0-based tab-separated column of each line",
    "work_dir": "directory for the temporary sentence/vector files (default: --output)",
    **SEARCH_HELP,
}


def read_sentences(path: str, column: int | None = None, counts: dict | None = None,
                   max_line_bytes: int = 1 << 20) -> Iterator[str]:
    """Lines of `path` (decompressed), or their tab-separated `column`; lines that are not UTF-8, too long, or
    lack the column are counted in `counts` (by reason) and skipped. A file whose lines are mostly not UTF-8 (a
    binary file given by mistake) is a ConfigError naming it, after its last line."""
    from paranmt.transforms.io.streams import CorruptFile, file_lines

    counts = counts if counts is not None else {}
    lines = 0
    try:
        for lines, (raw, too_long) in enumerate(file_lines(path, max_line_bytes), 1):
            if too_long:
                counts["line_too_long"] = counts.get("line_too_long", 0) + 1
                continue
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                counts["invalid_utf8"] = counts.get("invalid_utf8", 0) + 1
                continue
            if column is not None:
                fields = text.split("\t")
                if len(fields) <= column:
                    counts["missing_column"] = counts.get("missing_column", 0) + 1
                    continue
                text = fields[column]
            yield text
    except CorruptFile as error:
        raise ConfigError(f"{path}: corrupt or truncated compressed file ({error})") from None
    if counts.get("invalid_utf8", 0) * 2 > lines:
        raise ConfigError(f"{path} is not UTF-8 text: {counts['invalid_utf8']} of {lines} lines are not (a binary "
                          f"file, or text in another encoding: convert it first, e.g. with iconv)")


def encode_file(path: str, column: int | None, encoder, work: Path, name: str, block_size: int,
                batch_size: int) -> EncodedCorpus:
    if "://" not in path and not Path(path).is_file():
        raise ConfigError(f"input {path} is not a file")
    skipped: dict[str, int] = {}
    started = time.process_time()
    corpus = encode_corpus(read_sentences(path, column, skipped), lambda s: encoder.encode(s, batch_size),
                           encoder.dim, work, name, block_size)
    corpus.counts.update({"skipped": skipped, "encode_cpu_s": round(time.process_time() - started, 2)})
    log.info("%s: %d lines read, %d distinct sentences encoded", path, corpus.counts["read"], len(corpus))
    return corpus


def write_outputs(output: Path, pairs: MinedPairs, cs: EncodedCorpus, en: EncodedCorpus) -> None:
    """mined.parquet and mined.tsv, best first, written in chunks of WRITE_ROWS pairs, each atomically
    (transforms/shards.py `atomic_file`: under its final name only when complete)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from paranmt.transforms.shards import atomic_file

    schema = pa.schema([("cs", pa.string()), ("en", pa.string()), ("margin", pa.float32()), ("cos", pa.float32())])
    with atomic_file(str(output.resolve() / "mined.parquet")) as parquet_file, \
            atomic_file(str(output.resolve() / "mined.tsv")) as tsv_file, \
            pq.ParquetWriter(parquet_file, schema) as parquet:
        if len(pairs) == 0:
            parquet.write_table(schema.empty_table())
        for start in range(0, len(pairs), WRITE_ROWS):
            part = slice(start, start + WRITE_ROWS)
            cs_texts, en_texts = cs.texts(pairs.source[part]), en.texts(pairs.target[part])
            margins, cosines = pairs.margin[part], pairs.cos[part]
            parquet.write_table(pa.table({"cs": cs_texts, "en": en_texts, "margin": margins, "cos": cosines},
                                         schema=schema))
            tsv_file.write("".join(f"{c}\t{e}\t{m:.6f}\t{x:.6f}\n" for c, e, m, x in zip(
                cs_texts, en_texts, margins.tolist(), cosines.tolist())).encode("utf-8"))


def check_output(config: MineConfig, overwrite: bool) -> None:
    """The output contract: DIR apart from the inputs, an earlier mining in it only with --overwrite (deleted
    first), DIR writable."""
    output = Path(config.output)
    outputs.check_apart(config.output, [config.source, config.target, asset_path(config.encoder)])
    if output.exists() and not output.is_dir():
        raise ConfigError(f"--output {config.output} is a file; mine writes a directory")
    outputs.replace_earlier(config.output, outputs.left_in(config.output, RESULTS), overwrite, "an earlier mining")
    try:
        output.mkdir(parents=True, exist_ok=True)
        probe = tempfile.NamedTemporaryFile(dir=output, prefix=".write-test-")
        probe.close()
    except OSError as error:
        raise ConfigError(f"--output {config.output} is not writable: {error}") from None


def run(args) -> int:
    config = load_command_config(MineConfig, args, FLAG_HELP, "mine config", required=("source", "target", "output"))
    check_output(config, args.overwrite)
    with outputs.rerun_stops(config.output, getattr(args, "argv", None), "mine"):
        return mine(config)


def mine(args: MineConfig) -> int:
    from paranmt.models.encoders import open_encoder
    from paranmt.transforms.shards import write_text_atomically

    output = Path(args.output)
    encoder = open_encoder(args.encoder, args.threads)
    search = SearchConfig(index=args.index, block_size=args.block_size, ef_search=args.ef_search, threads=args.threads)
    work = Path(tempfile.mkdtemp(prefix=".mine-work-", dir=args.work_dir or output))
    started = time.process_time()
    try:
        cs = encode_file(args.source, args.source_column, encoder, work, "cs", args.block_size, args.batch_size)
        en = encode_file(args.target, args.target_column, encoder, work, "en", args.block_size, args.batch_size)
        search_started = time.process_time()
        pairs, calibration = choose_pairs(mine_vectors(cs.vectors, en.vectors, args.k, args.strategy, search=search),
                                          args.threshold_value())
        threshold = calibration.threshold
        search_cpu = time.process_time() - search_started
        write_outputs(output, pairs, cs, en)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    summary = {
        "source": args.source, "target": args.target, "encoder": os.path.abspath(asset_path(args.encoder)),
        "k": args.k, "strategy": args.strategy, "threshold": threshold, "threshold_mode": str(args.threshold),
        "calibration": dataclasses.asdict(calibration),
        "index": search.resolve(len(cs), len(en)), "ef_search": args.ef_search, "block_size": args.block_size,
        "source_counts": cs.counts, "target_counts": en.counts, "mined": len(pairs),
        "search_cpu_s": round(search_cpu, 2), "cpu_s": round(time.process_time() - started, 2),
    }
    write_text_atomically(str(output.resolve() / "mine.json"), json.dumps(summary, indent=2) + "\n")
    print(f"mined {len(pairs)} pairs from {len(cs)} cs x {len(en)} en sentences "
          f"(k={args.k}, {args.strategy}, {calibration.describe()}, {summary['index']} search) -> "
          f"{output / 'mined.parquet'}, {output / 'mined.tsv'}")
    return 0


def choose_pairs(candidates: MinedPairs, threshold) -> tuple[MinedPairs, Calibration]:
    """The candidates with margin >= `threshold`, a number, or, for `auto`, the threshold calibrated on their
    margins (models/mining/calibrate.py); and that Calibration (a given number: only `threshold` set)."""
    calibration = calibrate_threshold(candidates.margin) if threshold == AUTO else \
        Calibration(float(threshold), len(candidates))
    return candidates.at_least(calibration.threshold), calibration


def threshold_argument(text: str):
    """`--threshold`: `auto` or a number (argparse type)."""
    if text == AUTO:
        return AUTO
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number or {AUTO}, got {text!r}") from None


def register(subparsers) -> None:
    parser = subparsers.add_parser("mine", help="mine cs-en sentence pairs from two monolingual corpora",
                                   description=__doc__)
    add_config_arguments(parser, MineConfig, FLAG_HELP, SEARCH_CHOICES, SEARCH_FLAGS, example="k=8")
    parser.add_argument("--overwrite", action="store_true", help="replace an earlier mining in --output (without "
                        "it, an --output holding one is refused)")
    parser.set_defaults(func=run)
