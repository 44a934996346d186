"""`paranmt paraphrase-data`: the demo paraphrasers' training and held-out data from a ../shared/data-style folder.

    paranmt paraphrase-data --data ../shared/data --output DIR [--parser assets/parser-en] [--parse-cache FILE]
                            [--held-out-per-mille 50] [--max-words 30] [--max-sentences N]

Writes (models/generation/corpora.py says what goes in and how the held-out split is made):
    DIR/pairs-train/pairs.parquet      human paraphrase pairs as shard rows (ref = s1, bt = s2, parses, templates)
    DIR/pairs-held-out/pairs.parquet   the held-out pairs, same layout (`eval-paraphraser --input`)
    DIR/sentences.train.txt            English sentences for `train-paraphraser --sentences`
    DIR/sentences.held-out.txt
    DIR/parses.tsv                     the parse cache (sentence TAB parse), unless --parse-cache names another
Every sentence is parsed once with the configured parser (pairs first); the parse cache is appended to batch by
batch, so a stopped run keeps what was parsed. Lines of the data folder that are not UTF-8 or lack columns are
rejects (models/generation/corpora.py), said on stderr and counted in DIR/paraphrase_data.json; `--max-reject-rate`
(of the lines read) stops the run before it parses, exit 1, as in `paranmt build`.

The output contract (pipelines/runtime/outputs.py): a DIR that is, holds or lies inside the data folder or the
parser is refused; a DIR holding the data of a finished run is refused unless `--overwrite` (which writes every file
again; the parse cache stays, so nothing is parsed twice: delete it, or give another `--parse-cache`, to parse with
another parser), a DIR holding an unfinished run (a parse cache, no paraphrase_data.json) unless `--resume`
(continue it: the sentences already in the cache are not parsed again) or `--overwrite`. Each file is written
atomically, paraphrase_data.json last; Ctrl-C, SIGTERM or a full disk end in one line (exit 130 / 143 / 1) naming
the `--resume` command, with no temporary left.
"""
from __future__ import annotations

import dataclasses
import json
import logging
from pathlib import Path
from typing import ClassVar

from paranmt.models.encoding import LineRejects
from paranmt.pipelines.runtime.command import Command, RunFolder, RunLayout
from paranmt.pipelines.runtime.rejects import EXIT_REJECTS, over_reject_rate, report_rejects
from paranmt.schemas.config import Config, bounded, check_ranges, setting
from paranmt.schemas.errors import ConfigError
from paranmt.schemas.paths import asset_path, make_output_dir

log = logging.getLogger(__name__)
SUMMARY = "paraphrase_data.json"                 # written last: the run is finished
PAIR_FOLDERS = {"pairs_train": "pairs-train", "pairs_held_out": "pairs-held-out"}
SENTENCE_FILES = {"sentences_held_out": "sentences.held-out.txt", "sentences_train": "sentences.train.txt"}
PARSE_CACHE = "parses.tsv"


@dataclasses.dataclass
class ParaphraseDataConfig(Config):
    """The settings of `paranmt paraphrase-data`: flags (one per field), `--config` YAML keys and `--set`."""
    RUN_FIELDS: ClassVar[tuple[str, ...]] = ("data", "output", "parse_cache")
    data: str = setting("", help="the data folder (../shared/data layout)")
    output: str = setting("", help="output directory")
    parser: str = setting("assets/parser-en", help="parser model directory")
    parse_cache: str | None = setting(None, help="parse cache TSV to reuse and extend (default OUTPUT/parses.tsv)")
    held_out_per_mille: int = bounded(50, 0, 1000, help="held-out share in 1/1000")
    max_words: int = bounded(30, 1, help="drop longer sentences")
    max_sentences: int = bounded(0, 0, help="keep at most N training sentences (0: all)")

    def validate(self) -> "ParaphraseDataConfig":
        check_ranges(self)
        return self


def held_output(output: Path) -> tuple[str | None, bool]:
    """What `output` holds of an earlier run, for `outputs.claim`: a description, and whether it is unfinished."""
    if (output / SUMMARY).is_file():
        return "the paraphrase data of a finished run", False
    written = [name for name in (PARSE_CACHE, *PAIR_FOLDERS.values(), *SENTENCE_FILES.values())
               if (output / name).exists()]
    if written:
        return f"an unfinished run ({', '.join(written)}; no {SUMMARY})", True
    return None, False


def check(config: ParaphraseDataConfig, args) -> None:
    """The parser loads and the data folder reads before the output is claimed: its corpora and the lines it
    rejected, for `run` as `args.corpora` (`read_data`)."""
    from paranmt.models.parsing.parser import ParserModelError, loadable_model_files

    try:
        loadable_model_files(asset_path(config.parser))
    except (ParserModelError, FileNotFoundError) as error:
        raise ConfigError(str(error)) from None
    args.corpora = read_data(config)


def read_data(config: ParaphraseDataConfig) -> tuple[dict, LineRejects]:
    """The corpora of the data folder (models/generation/corpora.py `split_corpora`) and the lines it rejected."""
    from paranmt.models.generation.corpora import split_corpora

    rejects = LineRejects()
    try:
        return split_corpora(config.data, config.held_out_per_mille, config.max_words, config.max_sentences,
                             rejects), rejects
    except FileNotFoundError as error:
        raise ConfigError(str(error)) from None


def run(config: ParaphraseDataConfig, args) -> int:
    """Say the lines of the data folder rejected (EXIT_REJECTS over --max-reject-rate) and write the data into the
    claimed output."""
    corpora, rejects = args.corpora
    output = make_output_dir(config.output)
    report_rejects("paraphrase-data", rejects, rejects.lines_read, str(output / SUMMARY))
    if over_reject_rate("paraphrase-data", rejects.total, rejects.lines_read, args.max_reject_rate):
        return EXIT_REJECTS
    write_data(config, corpora, asset_path(config.parser), output, cache_path(config), rejects)
    return 0


def cache_path(config: ParaphraseDataConfig) -> Path:
    """The parse cache: `--parse-cache`, else OUTPUT/parses.tsv."""
    return Path(config.parse_cache) if config.parse_cache else Path(config.output) / PARSE_CACHE


class DataLayout(RunLayout):
    """The output (module docstring): a parse cache extended batch by batch, the files written whole,
    paraphrase_data.json last; --overwrite writes every file again, the parse cache stays."""
    again = "run the same command again (the parse cache is reused)"

    def __init__(self, config: ParaphraseDataConfig, args):
        self.directory, self.output, self.cache = config.output, Path(config.output), cache_path(config)

    def held(self) -> tuple[str | None, bool]:
        return held_output(self.output)

    def replaced(self) -> list[Path]:
        return [self.output / name for name in (SUMMARY, *PAIR_FOLDERS.values(), *SENTENCE_FILES.values())]

    def status(self) -> str:
        return f"the sentences parsed so far are kept in {self.cache}"

    def resumable(self) -> bool:
        return held_output(self.output)[1]


def write_data(config: ParaphraseDataConfig, corpora: dict, parser_dir: str, output: Path, cache_path: Path,
               rejects: LineRejects) -> None:
    """Parse what the cache lacks, then write the files of the module docstring, each atomically (the summary with
    the lines `rejects` counted)."""
    import pyarrow.parquet as pq

    from paranmt.models.generation.corpora import pair_rows
    from paranmt.models.generation.data import ParseCache
    from paranmt.schemas.records import pairs_to_table
    from paranmt.transforms.shards import atomic_file, write_text_atomically

    cache = ParseCache(cache_path)
    pair_sentences = [s for name in PAIR_FOLDERS for p in corpora[name] for s in (p.s1, p.s2)]
    cache.parse(pair_sentences, parser_dir)
    for name, folder in PAIR_FOLDERS.items():
        (output / folder).mkdir(exist_ok=True)
        with atomic_file(str((output / folder / "pairs.parquet").resolve())) as handle:
            pq.write_table(pairs_to_table(pair_rows(corpora[name], cache.parses)), handle, compression="zstd")
    for name, file in SENTENCE_FILES.items():
        write_text_atomically(str((output / file).resolve()), "".join(s + "\n" for s in corpora[name]))
    cache.parse(corpora["sentences_train"] + corpora["sentences_held_out"], parser_dir)
    counts = {name: len(values) for name, values in corpora.items()}
    write_text_atomically(str((output / SUMMARY).resolve()), json.dumps(
        {"data": str(config.data), "parser": config.parser, "held_out_per_mille": config.held_out_per_mille,
         "max_words": config.max_words, "max_sentences": config.max_sentences, "counts": counts,
         "lines_read": rejects.lines_read, "rejected": rejects.by_reason, "not_utf8": rejects.advice()},
        indent=2) + "\n")
    log.info("paraphrase data in %s: %s", output, counts)


COMMAND = Command("paraphrase-data", ParaphraseDataConfig, run, help="assemble paraphraser training / held-out data "
                  "(human paraphrase pairs, English sentences) from ../shared/data, parsed", description=__doc__,
                  required=("data", "output"), rejects=True, example="max_sentences=30000", check=check,
                  inputs=("data", "parser"), output=RunFolder(
                      DataLayout, "write the data of an earlier run in --output again (its parse cache is reused); "
                      "without --resume or --overwrite, an --output holding one is refused",
                      "continue the run that stopped in --output (the sentences in its parse cache are not parsed "
                      "again); refused when there is none"))
