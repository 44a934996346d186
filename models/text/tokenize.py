"""The project's tokenizers, named once so that every column that counts tokens counts the same thing.

`count_tokens` / `tokenize` use sacremoses' Moses tokenizer (escape=False), the tokenizer named in the Parquet
metadata (`paranmt.schemas.records.TOKENIZER`); instances are cached per language.
"""
from __future__ import annotations

from functools import lru_cache

from sacremoses import MosesPunctNormalizer, MosesTokenizer

from paranmt.schemas.records import INT16_MAX


@lru_cache(maxsize=8)
def moses_tokenizer(lang: str) -> MosesTokenizer:
    return MosesTokenizer(lang=lang)


@lru_cache(maxsize=8)
def punct_normalizer(lang: str) -> MosesPunctNormalizer:
    return MosesPunctNormalizer(lang=lang)


def tokenize(text: str, lang: str = "en") -> list[str]:
    return moses_tokenizer(lang).tokenize(text, escape=False)


def count_tokens(text: str, lang: str = "en") -> int:
    return len(tokenize(text, lang))


UNSEGMENTED_LANGUAGES = ("ja", "zh", "th", "lo", "km", "my")   # written without spaces between words


def count_units(text: str, lang: str) -> int:
    """The length of a sentence in `lang` as clean's token checks count it: `count_tokens`, except for languages
    written without spaces between words (UNSEGMENTED_LANGUAGES), which Moses does not segment: there the
    characters other than whitespace. (On WMT22 ja-en and zh-en system outputs, Moses tokens made 63% and 46% of
    2,000 pairs fail clean's length ratio of 5 against the English reference; characters: 1 in ~430 pairs over it,
    median 1.8 and 1.3 characters per English token.)"""
    if lang in UNSEGMENTED_LANGUAGES:
        return sum(not character.isspace() for character in text)
    return count_tokens(text, lang)


def length_column(text: str, lang: str = "en") -> int:
    """The value of a `*_len` column (ref_len, bt_len): `count_tokens`, capped at the int16 column's maximum."""
    return min(count_tokens(text, lang), INT16_MAX)


# Entries of each per-process cache of a sentence's tokens, words or trigrams (this module, models/scoring/overlap.py,
# diversity.py). Measured on built rows: ~1.1, 0.35 and 2.4 kB per entry, so at 65,536 entries each the three held
# ~245 MB per worker process once it had seen that many distinct sentences (memory growing with the input);
# 4,096 entries (~15 MB) still hold a score batch's sentences, which the pair signals read several times, and the
# sentences that keep repeating (benchmarks/RESULTS.md, "Flat memory with all stages (issue 25)").
SENTENCE_CACHE_ENTRIES = 1 << 12


@lru_cache(maxsize=SENTENCE_CACHE_ENTRIES)
def lowercase_tokens(text: str, lang: str = "en") -> tuple[str, ...]:
    """`tokenize(text, lang)` lowercased, cached per process (the pair signals read each sentence several times)."""
    return tuple(token.lower() for token in tokenize(text, lang))
