"""Training instances of the paraphrasers (SPEC §2, §7) and the inputs they are made from.

Tasks (an instance is `source`, `condition`, `target`):
- `scpn`:            (s1, linearized target parse p2) -> s2, and the reversed pair (s2, p1) -> s1;
- `parse-generator`: (p1, target template t2) -> p2, and the reversed (p2, t1) -> p1;
- `plain`:           s1 -> s2 (ref -> bt; no reversed pair: the ParaNMT-50M §6 model maps references to
                     back-translations), condition None.
Parses are paranmt's linearized parses without leaves (`(S(NP(PRP))(VP(VBD)(NP(NN)))(.))`), templates their
top two levels (`(S(NP)(VP)(.))`), as in the shards (models/parsing/trees.py).

Pairs are kept for `scpn` and `parse-generator` only when the two sides differ at `require_different` level
(`template`: the shards' templates, the issue's choice for both tasks; `parse`: the full de-leafed parses, the
SCPN authors' code for SCPN; `none`: every parsed pair), decided by the `template` filter of models/filters.
A pair without both parses cannot make such an instance and is counted as `no_parse`.

Sentence-only training (`sentence_instances`, SynPG, Huang & Chang 2021): each English sentence s with its parse p
gives (shuffle(s), p) -> s for `scpn`, and shuffle(s) -> s for `plain`; the words (whitespace tokens) of the source
are shuffled anew every time the instance is drawn (`Instance.shuffle_source`), so the model has to take the
order from the parse. `parse-generator` needs pairs (a sentence alone gives no target parse different from its
own) and is refused.

Inputs (`read_parsed_pairs`; `detect_input`; read with models/pairs.py, the reader of local files of pairs):
- shards: a `paranmt build` output directory (top-level *.parquet) or one Parquet file with its columns
  `ref, bt` and, when parsed, `ref_parse, bt_parse` (templates are derived from the parses);
- scpn TSV: the output of `paranmt export --format scpn` (header `source TAB target_parse TAB target_template TAB
  target`, parses in the SCPN authors' format); every line is already one directed instance (both directions are
  in the file), so no reversed pair is added;
- pair TSV: `s1 TAB s2` per line (plain lines: split at the tabs, nothing unquoted); or with a header line naming
  the columns `ref`, `bt` and optionally `ref_parse`, `bt_parse` (paranmt form, e.g. `filter --tsv`'s pairs.tsv).
  A TSV with a header (either kind) is a table TSV (schemas/tsv.py): a field in double quotes is unquoted, as
  pandas and Python's csv module read it;
- sentences: a text file, one English sentence per line, read by the commands (transforms/io/streams.py
  `read_sentences`).
TSV lines are read as `paranmt build` reads lines (models/encoding.py `LineRejects`): a line that is not UTF-8, a
blank line and a line without the columns of its layout are rejects, counted under the build's reasons
(`read/invalid_utf8`, `read/empty_line`, `read/wrong_column_count`), never pairs of U+FFFD characters. A TSV that is
mostly not UTF-8 text (a binary file given by mistake; models/files.require_text) is an error naming it, as is a
Parquet file that cannot be read.
Sentences without a parse are parsed with the configured parser (assets/parser-en by default) through
`ParseCache`, a TSV `sentence TAB parse` (empty parse = the parser failed) that is appended to as parsing goes,
so a killed run or a second task reuses it.
"""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from paranmt.models.encoding import LineRejects
from paranmt.models.files import DataFileError
from paranmt.models.generation.templates import template_of
from paranmt.models.pairs import shard_rows, tsv_pairs
from paranmt.schemas import tsv

TASKS = ("scpn", "parse-generator", "plain")
REQUIRE_DIFFERENT = ("template", "parse", "none")


class GenerationDataError(ValueError):
    """A training input that cannot be used (missing file, unknown layout, task that needs something absent)."""


@dataclass(frozen=True)
class Instance:
    source: str
    condition: str | None
    target: str
    shuffle_source: bool = False

    def drawn(self, rng: random.Random) -> "Instance":
        """The instance as the model sees it this time: the source words shuffled when `shuffle_source`."""
        if not self.shuffle_source:
            return self
        words = self.source.split()
        rng.shuffle(words)
        return Instance(" ".join(words), self.condition, self.target, False)


@dataclass
class ParsedPair:
    s1: str
    s2: str
    p1: str | None = None
    p2: str | None = None
    directed: bool = False        # an scpn-TSV line: (s1, p2) -> s2 only

    @property
    def t1(self) -> str | None:
        return template_of(self.p1)

    @property
    def t2(self) -> str | None:
        return template_of(self.p2)


UNUSABLE = ("empty_side", "empty", "too_long", "no_parse")    # skips for the data's fault (a build rejects such rows),
#                                                              not for a training choice (same_template, duplicate)


@dataclass
class DataCounts:
    read: int = 0
    instances: int = 0
    skipped: Counter = field(default_factory=Counter)

    @property
    def unusable(self) -> int:
        """The records skipped for a reason in UNUSABLE."""
        return sum(self.skipped[reason] for reason in UNUSABLE)

    def as_dict(self) -> dict:
        return {"read": self.read, "instances": self.instances, "skipped": dict(self.skipped)}


# -- reading ----------------------------------------------------------------------------------------------------
def detect_input(path: str) -> str:
    """`shards` (a directory or .parquet), `scpn-tsv` (export --format scpn), `pair-tsv`; GenerationDataError for
    a missing path."""
    p = Path(path)
    if p.is_dir() or p.suffix == ".parquet":
        return "shards"
    if not p.is_file():
        raise GenerationDataError(f"training input {path} not found")
    with p.open("rb") as handle:
        first = handle.readline().rstrip(b"\r\n")
    return "scpn-tsv" if first == tsv.header(tsv.SCPN_COLUMNS).rstrip("\n").encode() else "pair-tsv"


def _shard_pairs(path: str) -> list[ParsedPair]:
    return [ParsedPair(ref or "", bt or "", ref_parse, bt_parse) for ref, bt, ref_parse, bt_parse
            in shard_rows(path, tsv.PAIRS_COLUMNS, ("ref_parse", "bt_parse"), GenerationDataError)]


def _tsv_pairs(path: str, kind: str, rejects: LineRejects) -> list[ParsedPair]:
    from paranmt.models.parsing.trees import TreeFormatError, from_scpn

    if kind != "scpn-tsv":
        return [ParsedPair(row["ref"], row["bt"], row.get("ref_parse") or None, row.get("bt_parse") or None)
                for row in tsv_pairs(path, rejects, tsv.PAIRS_COLUMNS, ("ref_parse", "bt_parse"), GenerationDataError)]
    pairs = []
    for row in list(tsv_pairs(path, rejects, tsv.SCPN_COLUMNS, error=GenerationDataError)):
        try:
            parse = from_scpn(row["target_parse"]) if row["target_parse"].strip() else None
        except TreeFormatError:
            parse = None
        pairs.append(ParsedPair(row["source"], row["target"], None, parse, directed=True))
    return pairs


def read_parsed_pairs(paths: list[str], rejects: LineRejects | None = None) -> list[ParsedPair]:
    """Every pair of `paths` (layouts in the module docstring), in order; parses may be None. The TSV lines that
    are rejects are counted in `rejects`."""
    pairs, rejects = [], LineRejects() if rejects is None else rejects
    for path in paths:
        kind = detect_input(path)
        pairs += _shard_pairs(path) if kind == "shards" else _tsv_pairs(path, kind, rejects)
    return pairs


# -- parsing ----------------------------------------------------------------------------------------------------
def check_depth(parse: str, where: str) -> str:
    """`parse` itself, or a DataFileError at `where` when it is nested deeper than a tree may be (trees.MAX_DEPTH;
    only a parse with that many brackets is read, so a large cache is checked at the speed of str.count)."""
    from paranmt.models.parsing.trees import MAX_DEPTH, TreeDepthError, TreeFormatError, parse_bracketed

    if parse.count("(") > MAX_DEPTH:
        try:
            parse_bracketed(parse)
        except TreeDepthError as error:
            raise DataFileError(f"{where}: a parse {error}") from None
        except TreeFormatError:
            pass            # not a tree: read as no template where it is used (templates.template_of)
    return parse


class ParseCache:
    """Linearized parses of sentences, kept in a TSV file (`sentence TAB parse`, one line per distinct sentence;
    an empty parse = the parser gave none) that `parse` appends to batch by batch. A last line without its newline
    is an append that was cut short (a full disk, a kill) and is parsed again; a file that is not UTF-8 text, or a
    parse nested deeper than a tree may be (models/parsing/trees.py MAX_DEPTH: a damaged or crafted cache), is a
    DataFileError naming the file (and the line; models/files.py)."""

    def __init__(self, path: str | Path):
        from paranmt.models.files import read_text

        self.path = Path(path)
        self.parses: dict[str, str | None] = {}
        self.cut_short = 0          # bytes of a last line cut short, removed before the next append
        if self.path.is_file():
            lines = read_text(self.path, "parse cache").split("\n")
            for number, line in enumerate(lines[:-1], 1):   # the last: "" after a final newline, else cut short
                sentence, _, parse = line.partition("\t")
                self.parses[sentence] = check_depth(parse, f"{self.path}:{number}") or None
            self.cut_short = len(lines[-1].encode("utf-8"))

    def missing(self, sentences) -> list[str]:
        return [s for s in dict.fromkeys(sentences) if s and s not in self.parses and "\t" not in s]

    def parse(self, sentences, parser_dir: str, device: str = "auto", batch_size: int = 256,
              max_tokens: int = 100, progress: bool = True) -> dict[str, str | None]:
        """Parse the sentences not in the cache (the parse stage's rules: PTB tokens, <= max_tokens, a failure
        gives None) and return the cache's mapping."""
        todo = self.missing(sentences)
        if not todo:
            return self.parses
        from tqdm import tqdm

        from paranmt.models.parsing.parser import StanzaParser
        from paranmt.models.parsing.stage import ParseStage
        from paranmt.schemas.build_config import ParseConfig

        stage = ParseStage(lambda: StanzaParser(parser_dir, device=device, threads=1),   # 1: RESULTS, parser comparison
                           ParseConfig(max_tokens=max_tokens, cache_size=0), keep_parsed=False)
        stage.setup()           # a parser that cannot load is one line before the progress bar starts
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if self.cut_short:
            with self.path.open("rb+") as handle:
                handle.truncate(self.path.stat().st_size - self.cut_short)
            self.cut_short = 0
        with self.path.open("a", encoding="utf-8") as out, tqdm(total=len(todo), desc="parse", unit="sent",
                                                                 disable=not progress, dynamic_ncols=True) as bar:
            for start in range(0, len(todo), batch_size):
                batch = todo[start:start + batch_size]
                results, _ = stage.parse_texts(batch)
                for sentence in batch:
                    parse = results[sentence][0]
                    self.parses[sentence] = parse
                    out.write(f"{sentence}\t{parse or ''}\n")
                out.flush()
                bar.update(len(batch))
        return self.parses


def fill_parses(pairs: list[ParsedPair], cache: ParseCache | None, parser_dir: str | None, task: str,
                progress: bool = True) -> None:
    """Give every pair the parses its task needs (in place): from the cache, parsing what is missing."""
    if task == "plain":
        return
    wanted = []
    for pair in pairs:
        if pair.p2 is None and not pair.directed and pair.s2:
            wanted.append(pair.s2)
        if pair.p1 is None and pair.s1 and (not pair.directed or task == "parse-generator"):
            wanted.append(pair.s1)
    if not wanted:
        return
    if cache is None or parser_dir is None:
        raise GenerationDataError(f"{len(wanted)} sentences have no parse and no parser is configured")
    parses = cache.parse(wanted, parser_dir, progress=progress)
    for pair in pairs:
        if pair.p1 is None:
            pair.p1 = parses.get(pair.s1)
        if pair.p2 is None and not pair.directed:
            pair.p2 = parses.get(pair.s2)


# -- instances --------------------------------------------------------------------------------------------------
def differ(pairs: list[ParsedPair], level: str) -> list[bool]:
    """Per pair: do its sides differ at `level` (template / parse), by the `template` filter of models/filters
    (a null on either side is never kept)."""
    import pyarrow as pa

    from paranmt.models.filters.pair_filters import TemplateFilter

    table = pa.table({f"ref_{level}": [p.p1 if level == "parse" else p.t1 for p in pairs],
                      f"bt_{level}": [p.p2 if level == "parse" else p.t2 for p in pairs]},
                     schema=pa.schema([(f"ref_{level}", pa.string()), (f"bt_{level}", pa.string())]))
    keep, _ = TemplateFilter("differ", level).check(table)
    return keep.tolist()


def pair_instances(task: str, pairs: list[ParsedPair], require_different: str = "template",
                   max_words: int = 60) -> tuple[list[Instance], DataCounts]:
    """The instances of `task` from parsed pairs (module docstring), with counts of what was skipped and why."""
    if task not in TASKS:
        raise GenerationDataError(f"unknown task {task!r}; choose one of {', '.join(TASKS)}")
    if require_different not in REQUIRE_DIFFERENT:
        raise GenerationDataError(f"require_different must be one of {', '.join(REQUIRE_DIFFERENT)}")
    counts = DataCounts(read=len(pairs))
    usable = []
    for pair in pairs:
        s1, s2 = pair.s1.strip(), pair.s2.strip()
        if not s1 or not s2:
            counts.skipped["empty_side"] += 1
        elif max(len(s1.split()), len(s2.split())) > max_words:
            counts.skipped["too_long"] += 1
        elif task != "plain" and (pair.p2 is None or (pair.p1 is None and not pair.directed)):
            counts.skipped["no_parse"] += 1
        else:
            usable.append(pair)
    if task != "plain" and require_different != "none":
        undirected = [p for p in usable if not p.directed]
        keep = dict(zip(map(id, undirected), differ(undirected, require_different))) if undirected else {}
        kept = [p for p in usable if p.directed or keep[id(p)]]
        counts.skipped[f"same_{require_different}"] += len(usable) - len(kept)
        usable = kept
    instances = []
    for pair in usable:
        if task == "plain":
            instances.append(Instance(pair.s1, None, pair.s2))
        elif task == "scpn":
            instances.append(Instance(pair.s1, pair.p2, pair.s2))
            if not pair.directed:
                instances.append(Instance(pair.s2, pair.p1, pair.s1))
        else:
            if pair.p1 is None or pair.t2 is None:
                counts.skipped["no_parse"] += 1
                continue
            instances.append(Instance(pair.p1, pair.t2, pair.p2))
            if not pair.directed:
                instances.append(Instance(pair.p2, pair.t1, pair.p1))
    counts.instances = len(instances)
    return instances, counts


def sentence_instances(task: str, sentences: list[str], parses: dict[str, str | None],
                       max_words: int = 60) -> tuple[list[Instance], DataCounts]:
    """SynPG instances from single sentences: (shuffle(s), parse(s)) -> s (scpn) or shuffle(s) -> s (plain)."""
    if task == "parse-generator":
        raise GenerationDataError("the parse generator needs pairs (p1, t2) -> p2; sentences alone train scpn "
                                  "or plain")
    if task not in TASKS:
        raise GenerationDataError(f"unknown task {task!r}; choose one of {', '.join(TASKS)}")
    counts = DataCounts(read=len(sentences))
    instances = []
    for sentence in dict.fromkeys(sentences):
        words = sentence.split()
        if not words:
            counts.skipped["empty"] += 1
        elif len(words) > max_words:
            counts.skipped["too_long"] += 1
        elif task == "scpn" and not parses.get(sentence):
            counts.skipped["no_parse"] += 1
        else:
            instances.append(Instance(sentence, parses.get(sentence) if task == "scpn" else None, sentence, True))
    counts.skipped["duplicate"] = len(sentences) - len(dict.fromkeys(sentences))
    counts.instances = len(instances)
    return instances, counts


def top_templates(parses, n: int = 20) -> list[tuple[str, int]]:
    """The `n` most frequent templates of the given linearized parses (ties: first seen first)."""
    counter = Counter(t for t in (template_of(p) for p in parses) if t)
    return counter.most_common(n)
