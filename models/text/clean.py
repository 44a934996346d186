"""The clean stage: text normalization and sanity checks of a pair (pure; `RunStage` runs it on Beam).

Normalization, per side, in this order:
1. Unicode NFC;
2. format characters that carry nothing (BOM U+FEFF, zero-width space/joiners U+200B-U+200D, U+2060, soft hyphen
   U+00AD) are removed; tabs, newlines and other Unicode whitespace become a single space; leading/trailing
   space is stripped;
3. Moses punctuation normalization (sacremoses MosesPunctNormalizer, the source language's rules for the
   source: the row's `src_lang`, else the build's `source_lang`; `target_lang` for the reference), when
   `normalize_punctuation` is on.
A translation the input brought (`bt_source` = `input`) is normalized like the reference and checked for control
characters and emptiness; its `bt_len` is counted again. A bt the translate stage made is left as it is.
Other control characters (C0 except tab/newline, DEL, C1) are not guessed at: the pair is rejected
(`control_characters`).

Checks, in this order, each a reject reason: `control_characters`, `empty_side`, `too_many_chars` (either side
longer than `max_chars` characters), `too_few_tokens` / `too_many_tokens` (either side outside
[min_tokens, max_tokens] Moses tokens), `length_ratio` (max(n_cs, n_ref) / min(n_cs, n_ref) > max_length_ratio;
0 disables). Surviving rows get `ref_len` (Moses tokens of the reference, the schema's tokenizer). The tokens of
the checks are counted with each side's language (`count_units`: Moses rules, or characters for a language written
without spaces, such as ja and zh).
"""
from __future__ import annotations

import re
import unicodedata

from paranmt.models.stage import PairStage
from paranmt.models.text.tokenize import count_units, length_column, punct_normalizer
from paranmt.schemas.build_config import CleanConfig
from paranmt.schemas.records import INT16_MAX, reject_row

_INVISIBLE = re.compile("[\ufeff\u200b\u200c\u200d\u2060\u00ad]")
_SPACE = re.compile(r"[\s\u00a0\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+")
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def normalize_text(text: str, lang: str, punctuation: bool = True) -> str:
    """Steps 1-3 of the module docstring (control characters are left for `find_control_character`)."""
    text = _INVISIBLE.sub("", unicodedata.normalize("NFC", text))
    text = _SPACE.sub(" ", text).strip()
    if punctuation and text:
        text = punct_normalizer(lang).normalize(text).strip()
    return text


def find_control_character(text: str) -> str | None:
    match = _CONTROL.search(text)
    return None if match is None else f"U+{ord(match.group(0)):04X} at character {match.start()}"


class CleanStage(PairStage):
    """Normalize both sides and reject pairs that fail the configured checks (see the module docstring)."""

    name = "clean"

    def __init__(self, config: CleanConfig, source_lang: str, target_lang: str):
        """`config`: the build's `clean` section; the language pair picks each side's punctuation rules."""
        self.normalize_punctuation = config.normalize_punctuation
        self.min_tokens, self.max_tokens = config.min_tokens, config.max_tokens
        self.max_length_ratio, self.max_chars = config.max_length_ratio, config.max_chars
        self.langs = (source_lang, target_lang)

    def process_batch(self, rows: list[dict]) -> list[dict]:
        return [self.clean(row) for row in rows]

    def clean(self, row: dict) -> dict:
        raw = f"{row['cs']}\t{row['ref']}"
        source_lang = row.get("src_lang") or self.langs[0]
        sides = ("cs", "ref", "bt") if row.get("bt_source") == "input" and row.get("bt") else ("cs", "ref")

        def reject(reason: str, detail: str) -> dict:
            return reject_row(row["id"], self.name, reason, detail, raw)

        for side in sides:
            problem = find_control_character(row[side])
            if problem:
                return reject("control_characters", f"{side}: control character {problem}")
        texts = {side: normalize_text(row[side], source_lang if side == "cs" else self.langs[1],
                                      self.normalize_punctuation) for side in sides}
        for side, text in texts.items():
            if not text:
                return reject("empty_side", f"{side} is empty after normalization")
            if side != "bt" and len(text) > self.max_chars:
                return reject("too_many_chars", f"{side} has {len(text)} characters > max_chars={self.max_chars}")
        cs, ref = texts["cs"], texts["ref"]
        n_cs, n_ref = count_units(cs, source_lang), count_units(ref, self.langs[1])
        for side, n in (("cs", n_cs), ("ref", n_ref)):
            if n < self.min_tokens:
                return reject("too_few_tokens", f"{side} has {n} tokens < min_tokens={self.min_tokens}")
            if n > self.max_tokens:
                return reject("too_many_tokens", f"{side} has {n} tokens > max_tokens={self.max_tokens}")
        if self.max_length_ratio and max(n_cs, n_ref) > self.max_length_ratio * min(n_cs, n_ref):
            return reject("length_ratio", f"token ratio {max(n_cs, n_ref) / min(n_cs, n_ref):.2f} "
                                          f"(cs {n_cs}, ref {n_ref}) > max_length_ratio={self.max_length_ratio}")
        cleaned = {**row, "cs": cs, "ref": ref, "ref_len": min(n_ref, INT16_MAX)}
        if "bt" in texts:
            cleaned.update(bt=texts["bt"], bt_len=length_column(texts["bt"]))
        return cleaned
