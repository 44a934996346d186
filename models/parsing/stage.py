"""The parse stage as a `PairStage` (pure Python; the Beam adapter is `paranmt.transforms.parse`).

For each pair row it fills `ref_parse`, `ref_template` and, when `bt` is filled, `bt_parse`, `bt_template`
(`trees.linearize` / `trees.template` of the parser's tree). Per batch:
1. every sentence (ref and non-null bt) is PTB-tokenized (`tokenize.ptb_tokenize`);
2. identical sentences are parsed once: the batch is deduplicated by text, and a per-worker LRU cache of the last
   `cache_size` distinct sentences' results also serves repeats across batches;
3. a sentence with more than `max_tokens` tokens, with no token, or that the parser fails on gets null parse and
   template; the pair itself always survives (a missing parse is never a reject).
`last_counts` holds the batch's counts: `sentences` (parse requests), `dedup_hits` (requests answered from the
batch or the cache), and for the other, distinct sentences one of `parsed`, `null_too_long`, `null_empty`,
`null_parser_error`; so sentences = dedup_hits + parsed + null_*.

Which rows are parsed (per row, before step 1):
- `parse.only_if` set and the row does not satisfy it (schemas/row_condition.py; a null score fails): no sentence
  of the row is parsed, its parse columns are null and `parse_skipped` = `only_if` (counted `rows_skipped_only_if`);
- when the build runs no stage that rewrites `ref` or `bt` (`keep_parsed`: neither clean nor translate among the
  stages, e.g. `build --format shards --stages parse`), a side whose parse is already filled keeps its parse and
  template (counted `sides_kept`), so a later run only parses what an earlier one skipped (or left null);
- otherwise every side with text is parsed, and `parse_skipped` is cleared.
"""
from __future__ import annotations

from collections import Counter, OrderedDict
from typing import Callable

from paranmt.models.parsing.parser import Parser
from paranmt.models.parsing.tokenize import ptb_tokenize
from paranmt.models.parsing.trees import linearize, template
from paranmt.models.stage import PairStage
from paranmt.schemas.build_config import ParseConfig

SIDES = (("ref", "ref_parse", "ref_template"), ("bt", "bt_parse", "bt_template"))


class ParseStage(PairStage):
    name = "parse"
    requires = ("ref",)

    def __init__(self, load_parser: Callable[[], Parser], config: ParseConfig, keep_parsed: bool):
        """`load_parser` is called once, in `setup()` (so the stage stays cheap to construct and to pickle);
        `config`: the build's `parse` section; `keep_parsed`: keep parses already filled (see the module
        docstring)."""
        self.load_parser = load_parser
        self.only_if = config.condition()
        self.keep_parsed = keep_parsed
        self.max_tokens = config.max_tokens
        self.cache_size = config.cache_size
        self.parser: Parser | None = None
        self.cache: OrderedDict[str, tuple[str | None, str | None]] = OrderedDict()
        self.last_counts: Counter = Counter()

    def setup(self) -> None:
        if self.parser is None:
            self.parser = self.load_parser()

    def _remember(self, text: str, result: tuple[str | None, str | None]) -> None:
        if self.cache_size <= 0:
            return
        self.cache[text] = result
        if len(self.cache) > self.cache_size:
            self.cache.popitem(last=False)

    def parse_texts(self, texts: list[str]) -> tuple[dict[str, tuple[str | None, str | None]], Counter]:
        """{text: (linearized parse, template)} for the distinct `texts` (None, None where there is no parse),
        and the counts by reason (see the module docstring)."""
        self.setup()
        counts: Counter = Counter(sentences=len(texts))
        results: dict[str, tuple[str | None, str | None]] = {}
        to_parse: dict[str, list[str]] = {}
        for text in texts:
            if text in results or text in to_parse:
                counts["dedup_hits"] += 1
                continue
            if text in self.cache:
                self.cache.move_to_end(text)
                results[text] = self.cache[text]
                counts["dedup_hits"] += 1
                continue
            tokens = ptb_tokenize(text)
            if not tokens or len(tokens) > self.max_tokens:
                reason = "null_empty" if not tokens else "null_too_long"
                results[text] = (None, None)
                self._remember(text, (None, None))
                counts[reason] += 1
                continue
            to_parse[text] = tokens
        if to_parse:
            trees = self.parser.parse(list(to_parse.values()))
            for text, tree in zip(to_parse, trees):
                if tree is None:  # not cached: a failure may be transient (e.g. out of GPU memory)
                    results[text] = (None, None)
                    counts["null_parser_error"] += 1
                else:
                    results[text] = (linearize(tree), template(tree))
                    self._remember(text, results[text])
                    counts["parsed"] += 1
        return results, counts

    def process_batch(self, rows: list[dict]) -> list[dict]:
        plans = []   # per row: (sides parsed now, sides kept as they are, did the row fail only_if)
        for row in rows:
            kept = [side for side in SIDES if self.keep_parsed and row.get(side[0]) and row.get(side[1])]
            skipped = self.only_if is not None and not self.only_if(row)
            todo = [side for side in SIDES if row.get(side[0]) and side not in kept and not skipped]
            plans.append((todo, kept, skipped and any(row.get(s[0]) and s not in kept for s in SIDES)))
        texts = [row[side] for row, (todo, _, _) in zip(rows, plans) for side, _, _ in todo]
        results, self.last_counts = self.parse_texts(texts)
        outputs = []
        for row, (todo, kept, skipped) in zip(rows, plans):
            row = dict(row)
            for side in SIDES:
                _, parse_column, template_column = side
                if side in todo:
                    row[parse_column], row[template_column] = results[row[side[0]]]
                elif side not in kept:
                    row[parse_column], row[template_column] = None, None
            row["parse_skipped"] = "only_if" if skipped else None
            if kept:
                self.last_counts["sides_kept"] += len(kept)
            if skipped:
                self.last_counts["rows_skipped_only_if"] += 1
            outputs.append(row)
        return outputs
