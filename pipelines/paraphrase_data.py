"""`paranmt paraphrase-data`: the demo paraphrasers' training and held-out data from a ../shared/data-style folder.

    paranmt paraphrase-data --data ../shared/data --output DIR [--parser assets/parser-en] [--parse-cache FILE]
                            [--held-out-per-mille 50] [--max-words 30] [--max-sentences N]

Writes (models/generation/corpora.py says what goes in and how the held-out split is made):
    DIR/pairs-train/pairs.parquet      human paraphrase pairs as shard rows (ref = s1, bt = s2, parses, templates)
    DIR/pairs-held-out/pairs.parquet   the held-out pairs, same layout (`eval-paraphraser --input`)
    DIR/sentences.train.txt            English sentences for `train-paraphraser --sentences`
    DIR/sentences.held-out.txt
    DIR/parses.tsv                     the parse cache (sentence TAB parse), unless --parse-cache names another
Every sentence is parsed once with the configured parser (pairs first); a rerun reuses the cache.
"""
from __future__ import annotations

import json
import logging
from pathlib import Path

from paranmt.schemas.config import ConfigError, asset_path, make_output_dir

log = logging.getLogger(__name__)


def run(args) -> int:
    import pyarrow.parquet as pq

    from paranmt.models.generation.corpora import pair_rows, split_corpora
    from paranmt.models.generation.data import ParseCache
    from paranmt.models.parsing.parser import ParserModelError, model_files
    from paranmt.schemas.records import pairs_to_table

    parser_dir = asset_path(args.parser)
    try:
        model_files(parser_dir)
        corpora = split_corpora(args.data, args.held_out_per_mille, args.max_words, args.max_sentences)
    except (ParserModelError, FileNotFoundError) as error:
        raise ConfigError(str(error)) from None
    output = make_output_dir(args.output)
    cache = ParseCache(args.parse_cache or output / "parses.tsv")
    pair_sentences = [s for name in ("pairs_train", "pairs_held_out") for p in corpora[name] for s in (p.s1, p.s2)]
    cache.parse(pair_sentences, parser_dir)
    for name, folder in (("pairs_train", "pairs-train"), ("pairs_held_out", "pairs-held-out")):
        (output / folder).mkdir(exist_ok=True)
        pq.write_table(pairs_to_table(pair_rows(corpora[name], cache.parses)), output / folder / "pairs.parquet",
                       compression="zstd")
    for name, file in (("sentences_held_out", "sentences.held-out.txt"), ("sentences_train", "sentences.train.txt")):
        (output / file).write_text("".join(s + "\n" for s in corpora[name]), encoding="utf-8")
    cache.parse(corpora["sentences_train"] + corpora["sentences_held_out"], parser_dir)
    counts = {name: len(values) for name, values in corpora.items()}
    (output / "paraphrase_data.json").write_text(json.dumps(
        {"data": str(args.data), "parser": args.parser, "held_out_per_mille": args.held_out_per_mille,
         "max_words": args.max_words, "max_sentences": args.max_sentences, "counts": counts}, indent=2) + "\n")
    log.info("paraphrase data in %s: %s", output, counts)
    return 0


def register(subparsers) -> None:
    parser = subparsers.add_parser("paraphrase-data", help="assemble paraphraser training / held-out data "
                                   "(human paraphrase pairs, English sentences) from ../shared/data, parsed",
                                   description=__doc__)
    parser.add_argument("--data", required=True, help="the data folder (../shared/data layout)")
    parser.add_argument("--output", required=True, help="output directory")
    parser.add_argument("--parser", default="assets/parser-en", help="parser model directory (default %(default)s)")
    parser.add_argument("--parse-cache", help="parse cache TSV to reuse and extend (default OUTPUT/parses.tsv)")
    parser.add_argument("--held-out-per-mille", type=int, default=50, help="held-out share in 1/1000 (default 50)")
    parser.add_argument("--max-words", type=int, default=30, help="drop longer sentences (default 30)")
    parser.add_argument("--max-sentences", type=int, default=0, help="keep at most N training sentences (0: all)")
    parser.set_defaults(func=run)
