"""The translate stage as a pure PairStage (no Beam): dedup, length bucketing by a token budget, retries.

For a batch of rows:
1. rows whose `cs` is longer than `max_source_tokens` subword tokens become rejects (`source_too_long`);
2. identical `cs` strings are translated once (dedup);
3. the unique sources are sorted by subword length and cut into consecutive batches whose padded size
   (batch rows * longest source in the batch) stays within `batch_tokens` (length bucketing);
4. a model call that raises is split in halves and retried (`models.stage.split_retry`), down to single
   sentences; a sentence that still fails becomes a reject (`reason=error`, detail = the exception);
5. results are put back in the rows' original order: `bt`, `bt_score`, `bt_len` (tokens under the schema's
   tokenizer, paranmt.models.text.tokenize.length_column), `bt_source` = `translate` and, when nbest > 0,
   `bt_nbest`.
Rows that brought their own translation (`bt_source` = `input`, set by the reader) skip all of this and are
passed on unchanged (bring your own translations, docs/translate.md). A row to translate whose own `src_lang`
(from the input) is not the build's `source_lang`, the one language the stage's model is opened for, becomes a
reject (`other_source_lang`).
"""
from __future__ import annotations

import time
from collections import Counter

from paranmt.models.nmt.translator import Translation, Translator, open_translator
from paranmt.models.stage import PairStage, process_model, raw_of, split_retry
from paranmt.models.text.tokenize import length_column
from paranmt.schemas.build_config import TranslateConfig
from paranmt.schemas.records import reject_row


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


class TranslateStage(PairStage):
    """Back-translation of `cs` into `bt` (see the module docstring). The translator is loaded in setup()
    (or given, for tests and for Beam handlers that load it themselves)."""

    name = "translate"
    requires = ("cs",)

    def __init__(self, model: str, config: TranslateConfig, source_lang: str, target_lang: str,
                 translator: Translator | None = None):
        """`model`: the resolved model location; `config`: the build's `translate` section; the language pair maps
        to the model family's language tokens."""
        self.model, self.backend, self.beam, self.nbest = model, config.backend, config.beam, config.nbest
        self.batch_tokens, self.max_source_tokens = config.batch_tokens, config.max_source_tokens
        self.device, self.threads, self.use_vmap = config.device, config.threads, config.use_vmap
        self.compute_type = config.compute_type
        self.source_lang, self.target_lang = source_lang, target_lang
        self.translator = translator

    def load_translator(self) -> Translator:
        return open_translator(self.model, self.backend, self.device, self.threads,
                               source_lang=self.source_lang, target_lang=self.target_lang, use_vmap=self.use_vmap,
                               compute_type=self.compute_type)

    def identity(self) -> tuple:
        """What the translator is made from: the key of the one copy a process (or machine) shares."""
        return ("translate", self.model, self.backend, self.device, self.threads, self.source_lang, self.target_lang,
                self.use_vmap, self.compute_type)

    def setup(self) -> None:
        """The translator, loaded once per process (`process_model`)."""
        if self.translator is None:
            self.translator = process_model(self.identity(), self.load_translator)

    def translate_unique(self, sources: list[str], lengths: list[int]) -> list[Translation | Exception]:
        """Translations of `sources` (same order) with token-budget batches and split-and-retry; a sentence
        that fails alone gets its exception in place of a Translation. Counts go to `last_counts`."""
        def run(indices: list[int]) -> list[Translation]:
            start = time.perf_counter()
            outputs = self.translator.translate([sources[i] for i in indices], self.beam, self.nbest)
            self.last_counts["model_ms"] += int(1000 * (time.perf_counter() - start))
            self.last_counts["model_batches"] += 1
            return outputs

        def split() -> None:
            self.last_counts["model_splits"] += 1

        results: list[Translation | Exception | None] = [None] * len(sources)
        for batch in token_budget_batches(lengths, self.batch_tokens):
            for index, result in zip(batch, split_retry(batch, run, lambda _, error: error, split)):
                results[index] = result
        return results

    def process_batch(self, rows: list[dict]) -> list[dict]:
        """See the module docstring. Rows whose bt came from the input (`bt_source` = `input`) are passed on as
        they are, counted as `given`. `last_counts`: given, sentences (rows translated), unique_sentences,
        source_tokens (subword tokens of the unique sources, EOS included), model_batches, model_splits,
        model_ms."""
        todo = [i for i, row in enumerate(rows) if not (row.get("bt_source") == "input" and row.get("bt"))]
        outputs = list(rows)
        other = [i for i in todo if rows[i].get("src_lang") not in (None, "", self.source_lang)]
        for i in other:
            outputs[i] = reject_row(rows[i]["id"], self.name, "other_source_lang",
                                    f"src_lang {rows[i]['src_lang']}: the translate stage translates the build's "
                                    f"source_lang {self.source_lang} -> {self.target_lang}", raw_of(rows[i]))
        todo = sorted(set(todo) - set(other))
        if todo:
            for index, output in zip(todo, self.translate_rows([rows[i] for i in todo])):
                outputs[index] = output
        else:
            self.last_counts = Counter()
        self.last_counts["given"] += len(rows) - len(todo)
        return outputs

    def translate_rows(self, rows: list[dict]) -> list[dict]:
        """Steps 1-5 of the module docstring over `rows`, which all get translated."""
        self.setup()
        self.last_counts = Counter(sentences=len(rows))
        lengths_of_rows = self.translator.count_tokens([row["cs"] for row in rows])
        unique_index: dict[str, int] = {}
        sources, lengths = [], []
        for row, length in zip(rows, lengths_of_rows):
            if length <= self.max_source_tokens and row["cs"] not in unique_index:
                unique_index[row["cs"]] = len(sources)
                sources.append(row["cs"])
                lengths.append(length)
        self.last_counts["unique_sentences"] += len(sources)
        self.last_counts["source_tokens"] += sum(lengths)
        translations = self.translate_unique(sources, lengths)
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
            updated["bt_len"] = length_column(result.text)
            updated["bt_source"] = "translate"
            updated["bt_nbest"] = ([{"text": h.text, "score": h.score} for h in result.nbest]
                                   if self.nbest > 0 else None)
            outputs.append(updated)
        return outputs
