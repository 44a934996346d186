"""Keys for deduplication and deterministic sampling.

normalize_text(s) = lowercase(NFKC(s)) with every run of non-letter, non-digit characters replaced by one space,
stripped. So "Hello, World!" and "hello world" share a key; "Hello world 2" and "Hello world 3" do not.

Dedup keys are 64-bit BLAKE2b digests of the (normalized or exact) text, so the shuffle carries 8-byte ints instead
of sentences. Two different texts share a key with probability about n^2 / 2^65 for n distinct texts (7e-5 for
50M), which would wrongly merge one pair of rows; that risk is accepted and documented in docs/filtering.md.

sample_hash(id, seed) is a 64-bit BLAKE2b digest of `seed:id`: the same id and seed always give the same value, so
"the N rows with the smallest hash" is a deterministic sample that does not depend on row order or sharding.
"""
from __future__ import annotations

import hashlib
import unicodedata

import regex

NON_WORD_RUN = regex.compile(r"[^\p{L}\p{N}]+")
DEDUP_FIELDS = ("pair", "ref", "bt")
NORMALIZATIONS = ("exact", "normalized")


def normalize_text(text: str) -> str:
    return NON_WORD_RUN.sub(" ", unicodedata.normalize("NFKC", text).lower()).strip()


def hash64(text: str) -> int:
    return int.from_bytes(hashlib.blake2b(text.encode("utf-8"), digest_size=8).digest(), "big")


def dedup_key(row: dict, field: str, normalization: str) -> int | None:
    """Key of `row` for dedup of `field` (`pair` = ref and bt together, `ref`, or `bt`); None when a needed side
    is null (such rows are never duplicates of anything)."""
    texts = (row.get("ref"), row.get("bt")) if field == "pair" else (row.get(field),)
    if any(text is None for text in texts):
        return None
    if normalization == "normalized":
        texts = tuple(normalize_text(text) for text in texts)
    return hash64("\t".join(texts))


def dedup_rank(row: dict) -> tuple[float, str]:
    """Order within a group of duplicates: the smallest rank wins, i.e. the highest para_score (null counts as
    lowest), ties broken by the smaller id. A total order, so the winner does not depend on row order."""
    score = row.get("para_score")
    return (-score if score is not None else float("inf"), row["id"])


def sample_hash(row_id: str, seed: str) -> int:
    return hash64(f"{seed}:{row_id}")
