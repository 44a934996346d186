"""Keys for deduplication and deterministic sampling, computed on whole Arrow arrays.

normalize_texts(s) = lowercase(NFKC(s)) with every run of non-letter, non-digit characters replaced by one space,
stripped (Arrow compute: utf8_normalize NFKC, utf8_lower (per-character mapping), an RE2 `[^\\p{L}\\p{N}]+`
replacement, trim). So "Hello, World!" and "hello world" share a key; "Hello world 2" and "Hello world 3" do not.

text_hashes(s) is a 64-bit hash of the UTF-8 bytes of each string, vectorized with numpy over the Arrow buffers:
the bytes of a string of n bytes are read as w = ceil(n / 8) little-endian 64-bit words b_0 .. b_{w-1} (the last
zero-padded), and

    h(s) = fmix64( (sum_{j<w} fmix64(b_j + (j + 1) * K1)) mod 2^64  XOR  n * K2 )

with fmix64 the bijective finalizer of MurmurHash3 and K1, K2 odd constants. Dedup keys: `ref` -> h(ref),
`bt` -> h(bt), `pair` -> fmix64(h(ref) * K1 + h(bt)) (normalized first when dedup_normalization is `normalized`);
a null side gives no key (such rows are never duplicates of anything). Two different texts share a key with
probability about n^2 / 2^65 for n distinct texts (7e-5 for 50M), which would wrongly merge one pair of rows;
that risk is accepted and documented in docs/filtering.md.

dedup order: within a group of duplicates the row with the highest para_score wins (null or NaN counts as lowest,
i.e. -inf), ties broken by the smaller id: a total order, so the winner does not depend on row order or sharding.

sample_hash(id, seed) is a 64-bit BLAKE2b digest of `seed:id` (also the sample order of `paranmt stats`): the same
id and seed always give the same value, so "the N rows with the smallest hash" is a deterministic sample that does
not depend on row order or sharding.
"""
from __future__ import annotations

import hashlib

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

DEDUP_FIELDS = ("pair", "ref", "bt")
NORMALIZATIONS = ("exact", "normalized")
NON_WORD_RUN = r"[^\p{L}\p{N}]+"
K1 = np.uint64(0x9E3779B97F4A7C15)
K2 = np.uint64(0xC2B2AE3D27D4EB4F)
# TAIL_MASKS[v] keeps the v low bytes of a little-endian word (v = 0..8).
TAIL_MASKS = np.array([(1 << (8 * v)) - 1 for v in range(9)], dtype=np.uint64)


def normalize_texts(texts: pa.Array) -> pa.Array:
    lowered = pc.utf8_lower(pc.utf8_normalize(texts, "NFKC"))
    return pc.utf8_trim(pc.replace_substring_regex(lowered, NON_WORD_RUN, " "), " ")


def fmix64(x: np.ndarray) -> np.ndarray:
    """MurmurHash3's 64-bit finalizer (a bijection of uint64), elementwise."""
    x = x ^ (x >> np.uint64(33))
    x = x * np.uint64(0xFF51AFD7ED558CCD)
    x = x ^ (x >> np.uint64(33))
    x = x * np.uint64(0xC4CEB93FE1A85EC5)
    return x ^ (x >> np.uint64(33))


def text_hashes(texts: pa.Array) -> np.ndarray:
    """h(s) of the module docstring for every string of `texts` (uint64; a null slot gets the hash of "")."""
    texts = texts.combine_chunks() if isinstance(texts, pa.ChunkedArray) else texts
    if not pa.types.is_large_string(texts.type):
        texts = texts.cast(pa.large_string())
    count = len(texts)
    _, offsets_buffer, data_buffer = texts.buffers()
    offsets = np.frombuffer(offsets_buffer, dtype=np.int64)[texts.offset: texts.offset + count + 1]
    starts, lengths = offsets[:-1], np.diff(offsets)
    if texts.null_count:
        lengths = np.where(texts.is_valid().to_numpy(zero_copy_only=False), lengths, 0)
    words = (lengths + 7) // 8
    total = int(words.sum())
    sums = np.zeros(count, dtype=np.uint64)
    if total:
        low, high = int(offsets[0]), int(offsets[-1])
        data = np.zeros(high - low + 8, dtype=np.uint8)
        data[: high - low] = np.frombuffer(data_buffer, dtype=np.uint8)[low:high]
        # every 8-byte window of the data, read unaligned: window[q] = bytes q .. q+7 as one little-endian word
        window = np.ndarray(shape=(high - low + 1,), dtype="<u8", buffer=data, strides=(1,))
        first_word = np.cumsum(words) - words
        index = np.arange(total, dtype=np.int64) - np.repeat(first_word, words)
        values = window[np.repeat(starts - low, words) + 8 * index]
        nonempty = words > 0
        last_word = (first_word + words - 1)[nonempty]
        values[last_word] &= TAIL_MASKS[(lengths - 8 * (words - 1))[nonempty]]
        mixed = fmix64(values + (index.astype(np.uint64) + np.uint64(1)) * K1)
        sums[nonempty] = np.add.reduceat(mixed, first_word[nonempty])
    return fmix64(sums ^ (lengths.astype(np.uint64) * K2))


def dedup_keys(table: pa.Table, field: str, normalization: str) -> tuple[np.ndarray, np.ndarray]:
    """(keys uint64, has_key bool) of every row of `table` for dedup of `field`: `pair` = ref and bt together,
    `ref`, or `bt`; has_key is False where a needed side is null."""
    sides = ("ref", "bt") if field == "pair" else (field,)
    columns = [table.column(side).combine_chunks() for side in sides]
    has_key = np.ones(table.num_rows, dtype=bool)
    for column in columns:
        if column.null_count:
            has_key &= column.is_valid().to_numpy(zero_copy_only=False)
    if normalization == "normalized":
        columns = [normalize_texts(column) for column in columns]
    hashes = [text_hashes(column) for column in columns]
    keys = hashes[0] if len(hashes) == 1 else fmix64(hashes[0] * K1 + hashes[1])
    return keys, has_key


def dedup_scores(table: pa.Table) -> np.ndarray:
    """para_score as float32 with null and NaN as -inf: the first key of the dedup order (higher wins)."""
    scores = table.column("para_score").combine_chunks().cast(pa.float32())
    values = scores.fill_null(float("-inf")).to_numpy(zero_copy_only=False).astype(np.float32)
    return np.where(np.isnan(values), np.float32("-inf"), values)


def sample_hash(row_id: str, seed: str) -> int:
    return int.from_bytes(hashlib.blake2b(f"{seed}:{row_id}".encode("utf-8"), digest_size=8).digest(), "big")
