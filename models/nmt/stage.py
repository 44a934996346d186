"""The translate stage as a pure PairStage (no Beam): dedup, length bucketing by a token budget, retries.

For a batch of rows:
1. rows whose `cs` is longer than `max_source_tokens` subword tokens become rejects (`source_too_long`);
2. identical `cs` strings are translated once (dedup);
3. the unique sources are sorted by subword length and cut into consecutive batches whose padded size
   (batch rows * longest source in the batch) stays within `batch_tokens` (length bucketing);
4. a batch that raises is split in halves and retried, down to single sentences; a sentence that still fails
   becomes a reject (`reason=error`, detail = the exception);
5. results are put back in the rows' original order: `bt`, `bt_score`, `bt_len` (tokens under the schema's
   tokenizer, paranmt.models.text.tokenize.count_tokens) and, when nbest > 0, `bt_nbest`.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

from paranmt.models.nmt.translator import Translation, Translator, open_translator
from paranmt.models.stage import PairStage
from paranmt.models.text.tokenize import count_tokens
from paranmt.schemas.records import INT16_MAX, reject_row


def raw_of(row: dict) -> str:
    return f"{row.get('cs', '')}\t{row.get('ref', '')}"


def token_budget_batches(lengths: list[int], batch_tokens: int) -> list[list[int]]:
    """Indices of `lengths` sorted by length (ascending, stable) and cut into consecutive batches such that
    len(batch) * max(length in batch) <= batch_tokens; a single item longer than the budget is a batch alone."""
    order = sorted(range(len(lengths)), key=lambda i: lengths[i])
    batches: list[list[int]] = []
    current: list[int] = []
    for index in order:
        if current and (len(current) + 1) * lengths[index] > batch_tokens:
            batches.append(current)
            current = []
        current.append(index)
    if current:
        batches.append(current)
    return batches


@dataclass
class TranslateStats:
    """What one process_batch call did (the Beam adapter turns these into metrics)."""
    sentences: int = 0            # rows in
    unique: int = 0               # distinct sources translated
    batches: int = 0              # model calls that succeeded
    splits: int = 0               # failing model calls that were split
    source_tokens: int = 0        # subword tokens of the unique sources (EOS included)
    seconds: float = 0.0          # time inside the model
    rejects: dict = field(default_factory=dict)


class TranslateStage(PairStage):
    """Back-translation of `cs` into `bt` (see the module docstring). The translator is loaded in setup()
    (or given, for tests and for Beam handlers that load it themselves)."""

    name = "translate"
    requires = ("cs",)

    def __init__(self, model: str, backend: str = "ctranslate2", beam: int = 12, nbest: int = 0,
                 batch_tokens: int = 4096, max_source_tokens: int = 250, device: str = "auto", threads: int = 0,
                 translator: Translator | None = None, source_lang: str = "cs", target_lang: str = "en"):
        self.model, self.backend, self.beam, self.nbest = model, backend, beam, nbest
        self.batch_tokens, self.max_source_tokens = batch_tokens, max_source_tokens
        self.device, self.threads = device, threads
        self.source_lang, self.target_lang = source_lang, target_lang
        self.translator = translator

    def setup(self) -> None:
        if self.translator is None:
            self.translator = open_translator(self.model, self.backend, self.device, self.threads,
                                              source_lang=self.source_lang, target_lang=self.target_lang)

    def translate_unique(self, sources: list[str], lengths: list[int],
                         stats: TranslateStats) -> list[Translation | Exception]:
        """Translations of `sources` (same order) with token-budget batches and split-and-retry; a sentence
        that fails alone gets its exception in place of a Translation."""
        results: list[Translation | Exception | None] = [None] * len(sources)

        def run(indices: list[int]) -> None:
            try:
                start = time.perf_counter()
                outputs = self.translator.translate([sources[i] for i in indices], self.beam, self.nbest)
                stats.seconds += time.perf_counter() - start
                if len(outputs) != len(indices):
                    raise RuntimeError(f"translator returned {len(outputs)} results for {len(indices)} sources")
            except Exception as error:  # noqa: BLE001 - a failing batch is split and retried, then rejected
                if len(indices) == 1:
                    results[indices[0]] = error
                    return
                stats.splits += 1
                middle = len(indices) // 2
                run(indices[:middle])
                run(indices[middle:])
                return
            stats.batches += 1
            for index, output in zip(indices, outputs):
                results[index] = output

        for batch in token_budget_batches(lengths, self.batch_tokens):
            run(batch)
        return results

    def process_batch(self, rows: list[dict]) -> list[dict]:
        return self.process_batch_with_stats(rows)[0]

    def process_batch_with_stats(self, rows: list[dict]) -> tuple[list[dict], TranslateStats]:
        """process_batch plus what it did (a method, not an attribute, so that it also works through the
        proxy of a model shared across processes)."""
        stats = TranslateStats(sentences=len(rows))
        if self.translator is None:
            self.setup()
        lengths_of_rows = self.translator.count_tokens([row["cs"] for row in rows])
        unique_index: dict[str, int] = {}
        sources, lengths = [], []
        for row, length in zip(rows, lengths_of_rows):
            if length <= self.max_source_tokens and row["cs"] not in unique_index:
                unique_index[row["cs"]] = len(sources)
                sources.append(row["cs"])
                lengths.append(length)
        stats.unique, stats.source_tokens = len(sources), sum(lengths)
        translations = self.translate_unique(sources, lengths, stats)
        outputs = []
        for row, length in zip(rows, lengths_of_rows):
            if length > self.max_source_tokens:
                outputs.append(reject_row(row["id"], self.name, "source_too_long",
                                          f"{length} subword tokens > max_source_tokens={self.max_source_tokens}",
                                          raw_of(row)))
                continue
            result = translations[unique_index[row["cs"]]]
            if isinstance(result, Exception):
                outputs.append(reject_row(row["id"], self.name, "error", f"{type(result).__name__}: {result}",
                                          raw_of(row)))
                continue
            updated = dict(row)
            updated["bt"] = result.text
            updated["bt_score"] = result.score
            updated["bt_len"] = min(count_tokens(result.text), INT16_MAX)
            updated["bt_nbest"] = ([{"text": h.text, "score": h.score} for h in result.nbest]
                                   if self.nbest > 0 else None)
            outputs.append(updated)
        for output in outputs:
            if "reason" in output:
                stats.rejects[output["reason"]] = stats.rejects.get(output["reason"], 0) + 1
        return outputs, stats
