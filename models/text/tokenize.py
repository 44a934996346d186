"""The project's tokenizers, named once so that every column that counts tokens counts the same thing.

`count_tokens` / `tokenize` use sacremoses' Moses tokenizer (escape=False), the tokenizer named in the Parquet
metadata (`paranmt.schemas.records.TOKENIZER`); instances are cached per language.
"""
from __future__ import annotations

from functools import lru_cache

from sacremoses import MosesPunctNormalizer, MosesTokenizer


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


@lru_cache(maxsize=1 << 16)
def lowercase_tokens(text: str, lang: str = "en") -> tuple[str, ...]:
    """`tokenize(text, lang)` lowercased, cached per process (the pair signals read each sentence several times)."""
    return tuple(token.lower() for token in tokenize(text, lang))
