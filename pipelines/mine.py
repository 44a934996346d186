"""`paranmt mine`: margin-based bitext mining between two monolingual corpora, `--source` in `--source-lang`
(default cs) and `--target` in `--target-lang` (default en) (Artetxe & Schwenk 2019 ratio margin over k nearest
neighbours, candidates by forward/backward/intersection/max), with a bilingual or multilingual sentence encoder
(one whose MANIFEST.json lists its languages must list both) and faiss. Inputs: one sentence per line, plain or
compressed (.gz, .bz2, .xz, .zst), any filesystem Beam knows; `--source-column`/`--target-column` take one
tab-separated column instead of the line. Writes DIR/mined.parquet and DIR/mined.tsv (source, target, margin, cos;
best first; the Parquet columns are named by the languages, `cs`, `en` by default; the TSV has no header line, so
`paranmt build --format tsv --columns cs=0,ref=1` reads it) and DIR/mine.json (counts and settings).

The output contract (pipelines/runtime/outputs.py): a DIR that is, holds or lies inside an input (the corpora, the
encoder) is refused, and so is a DIR holding an earlier mining unless `--overwrite` (which deletes it first); each
file is written atomically, so Ctrl-C, SIGTERM or a full disk end in one line (exit 130 / 143 / 1) naming the
command to rerun, with no temporary left (the sentence and vector files of the work directory included).
"""
from __future__ import annotations

import dataclasses
import json
import logging
import os
import shutil
import tempfile
import time
from pathlib import Path
from typing import ClassVar

from paranmt.models.mining.corpus import EncodedCorpus, encode_corpus
from paranmt.models.mining.margin import MinedPairs, mine_vectors
from paranmt.models.mining.settings import MiningSettings, choose_pairs
from paranmt.pipelines.runtime.command import Command, ResultsFolder
from paranmt.schemas.config import setting
from paranmt.schemas.paths import asset_path
from paranmt.transforms.io.streams import read_sentences

log = logging.getLogger(__name__)

WRITE_ROWS = 100_000
RESULTS = ("mined.parquet", "mined.tsv", "mine.json")       # what a mining writes into DIR (mine.json last)


@dataclasses.dataclass
class MineConfig(MiningSettings):
    """The settings of `paranmt mine`: flags (one per field), `--config` YAML keys and `--set`."""
    RUN_FIELDS: ClassVar[tuple[str, ...]] = ("source", "target", "output", "work_dir")
    source: str = setting("", help="sentences in --source-lang, one a line (plain or compressed)")
    target: str = setting("", help="sentences in --target-lang, one a line (plain or compressed)")
    output: str = setting("", help="output directory")
    source_column: int | None = setting(None, help="take this 0-based tab-separated column of each line")
    target_column: int | None = setting(None, help="take this 0-based tab-separated column of each line")
    work_dir: str | None = setting(None, help="directory for the temporary sentence/vector files (default: --output)")


def encode_file(path: str, column: int | None, encoder, work: Path, name: str, block_size: int,
                batch_size: int) -> EncodedCorpus:
    skipped: dict[str, int] = {}
    sentences = read_sentences(path, column, skipped)
    started = time.process_time()
    corpus = encode_corpus(sentences, lambda s: encoder.encode(s, batch_size),
                           encoder.dim, work, name, block_size)
    corpus.counts.update({"skipped": skipped, "encode_cpu_s": round(time.process_time() - started, 2)})
    log.info("%s: %d lines read, %d distinct sentences encoded", path, corpus.counts["read"], len(corpus))
    return corpus


def write_outputs(output: Path, pairs: MinedPairs, cs: EncodedCorpus, en: EncodedCorpus,
                  languages: tuple[str, str] = ("cs", "en")) -> None:
    """mined.parquet (text columns named by `languages`) and mined.tsv, best first, written in chunks of WRITE_ROWS
    pairs, each atomically (transforms/shards.py `atomic_file`: under its final name only when complete)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from paranmt.transforms.shards import atomic_file

    source, target = languages
    schema = pa.schema([(source, pa.string()), (target, pa.string()), ("margin", pa.float32()),
                        ("cos", pa.float32())])
    with atomic_file(str(output.resolve() / "mined.parquet")) as parquet_file, \
            atomic_file(str(output.resolve() / "mined.tsv")) as tsv_file, \
            pq.ParquetWriter(parquet_file, schema) as parquet:
        if len(pairs) == 0:
            parquet.write_table(schema.empty_table())
        for start in range(0, len(pairs), WRITE_ROWS):
            part = slice(start, start + WRITE_ROWS)
            cs_texts, en_texts = cs.texts(pairs.source[part]), en.texts(pairs.target[part])
            margins, cosines = pairs.margin[part], pairs.cos[part]
            parquet.write_table(pa.table([cs_texts, en_texts, margins, cosines], schema=schema))
            tsv_file.write("".join(f"{c}\t{e}\t{m:.6f}\t{x:.6f}\n" for c, e, m, x in zip(
                cs_texts, en_texts, margins.tolist(), cosines.tolist())).encode("utf-8"))


def check(config: MineConfig, args) -> None:
    """The encoder reads both languages (before the output is claimed)."""
    config.check_encoder_languages()


def run(config: MineConfig, args) -> int:
    return mine(config)


def mining_summary(args: MineConfig, cs, en, mined: int, calibration, search_cpu: float, cpu: float) -> dict:
    """mine.json: the settings, the threshold chosen, the sentences read, the pairs mined and the CPU seconds."""
    return {
        "source": args.source, "target": args.target, "source_lang": args.source_lang,
        "target_lang": args.target_lang, "encoder": os.path.abspath(asset_path(args.encoder)),
        "k": args.k, "strategy": args.strategy, "threshold": calibration.threshold,
        "threshold_mode": str(args.threshold), "calibration": dataclasses.asdict(calibration),
        "index": args.resolve(len(cs), len(en)), "ef_search": args.ef_search, "block_size": args.block_size,
        "source_counts": cs.counts, "target_counts": en.counts, "mined": mined,
        "search_cpu_s": round(search_cpu, 2), "cpu_s": round(cpu, 2),
    }


def mine(args: MineConfig) -> int:
    from paranmt.models.encoders import open_encoder
    from paranmt.transforms.shards import write_text_atomically

    output = Path(args.output)
    encoder = open_encoder(args.encoder, args.threads)
    work = Path(tempfile.mkdtemp(prefix=".mine-work-", dir=args.work_dir or output))
    started = time.process_time()
    try:
        cs = encode_file(args.source, args.source_column, encoder, work, "cs", args.block_size, args.batch_size)
        en = encode_file(args.target, args.target_column, encoder, work, "en", args.block_size, args.batch_size)
        search_started = time.process_time()
        pairs, calibration = choose_pairs(mine_vectors(cs.vectors, en.vectors, args.k, args.strategy, search=args),
                                          args.threshold_value())
        search_cpu = time.process_time() - search_started
        write_outputs(output, pairs, cs, en, (args.source_lang, args.target_lang))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    summary = mining_summary(args, cs, en, len(pairs), calibration, search_cpu, time.process_time() - started)
    write_text_atomically(str(output.resolve() / "mine.json"), json.dumps(summary, indent=2) + "\n")
    print(f"mined {len(pairs)} pairs from {len(cs)} {args.source_lang} x {len(en)} {args.target_lang} sentences "
          f"(k={args.k}, {args.strategy}, {calibration.describe()}, {summary['index']} search) -> "
          f"{output / 'mined.parquet'}, {output / 'mined.tsv'}")
    return 0


COMMAND = Command("mine", MineConfig, run, help="mine sentence pairs (cs-en by default) from two monolingual corpora",
                  description=__doc__, required=("source", "target", "output"), example="k=8", check=check,
                  inputs=("source", "target", "encoder"),
                  output=ResultsFolder(RESULTS, held="an earlier mining", kept=True, overwrite_help=(
                      "replace an earlier mining in --output (without it, an --output holding one is refused)")))
