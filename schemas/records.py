"""Record schemas of paranmt shards (pyarrow), version 1.

One shard row per input pair that survived reading and cleaning. Columns of PAIR_SCHEMA (v1):

id              string, not null. Stable unique id `<corpus>:<file>:<line>` (line is 1-based, file is the input
                file's base name; for two-file corpora the source-side file) or the corpus's own sentence id
                (CzEng 1.6 / 2.0 ids).
corpus          string, not null. Corpus or section name (CzEng 2.0 source corpus from the id, CzEng 1.6 section
                such as `subtitles`, or the configured / file-derived name for other formats).
cs              string, not null. Source sentence (Czech, or any source language) after cleaning.
ref             string, not null. English reference after cleaning.
bt              string, null. Back-translation of `cs` (best hypothesis of the beam), detokenized.
bt_score        float32, null. Length-normalized log-probability of `bt` given `cs`:
                    bt_score = (1 / |y|) * sum_{t=1..|y|} log p(y_t | y_<t, x)
                where y is the hypothesis in the model's subword units with the end-of-sentence token included
                (|y| counts it), i.e. the mean positional log-probability (fairseq hub `score` with lenpen 1,
                Nematus `normalize`). Always <= 0; closer to 0 is more confident. A forced target-language
                token (M2M-100 `__en__`, NLLB `eng_Latn`) is not part of y. Per backend (translate.backend):
                fairseq: its hypothesis score (lenpen 1); ctranslate2: its score with length_penalty 1 (sum of
                log-probs incl. EOS / length incl. EOS), times (|y| + P) / |y| when a P-token target prefix was
                forced (the prefix adds 0 to the sum but counts in CTranslate2's length); transformers: the
                mean of log_softmax(logits)[y_t] of one teacher-forced pass over the returned hypothesis.
                Measured equal within 1e-3 (fairseq vs ctranslate2) and 0.01 (transformers vs ctranslate2,
                which drops Marian's never-generated <pad> from the softmax). A hypothesis cut at the length
                limit has no EOS and is averaged over the tokens it has.
trigram_overlap float32, null. Word-trigram overlap of `ref` and `bt`:
                    T(s) = set of word trigrams of s (tokens: sacremoses English tokenizer, lowercased)
                    trigram_overlap = |T(ref) & T(bt)| / min(|T(ref)|, |T(bt)|)
                in [0, 1]. A sentence with fewer than 3 tokens is compared by its whole token sequence instead
                (T(s) = {tuple(tokens)}), so two identical short sentences score 1.0 and different ones 0.0;
                an empty side gives null.
para_score      float32, null. cos(f(ref), f(bt)) for the configured paraphrastic encoder f; in [-1, 1].
ref_len, bt_len int16. Token counts under the sacremoses English tokenizer (named in the file metadata);
                bt_len is null until `bt` is filled.
ref_parse, bt_parse        string, null. Linearized constituency parse without leaves, e.g.
                           `(S(NP(PRP))(VP(VBD)(NP(NN)))(.))`.
ref_template, bt_template  string, null. The top two levels of that parse below ROOT, e.g. `(S(NP)(VP)(.))`.
bt_nbest        list<struct<text: string, score: float32>>, null. The n-best list (best first) when asked for.
source_scores   map<string, float32>, null. The corpus's own per-pair scores: CzEng 1.6 `filter_score`;
                CzEng 2.0 `adq_score`, `cs_lang_score`, `en_lang_score`.

REJECT_SCHEMA: one row per input record that did not become a shard row:
id (as above), stage (`read`, `clean`, `translate`, ...), reason (a short stable code, e.g. `empty_side`),
detail (human-readable explanation), raw (the raw input, decoded with replacement characters, truncated to
RAW_MAX_CHARS characters; `detail` says when it was truncated).
"""
from __future__ import annotations

import pyarrow as pa

SCHEMA_VERSION = "1"
TOKENIZER = "sacremoses.MosesTokenizer(lang='en', escape=False)"
RAW_MAX_CHARS = 4096

NBEST_TYPE = pa.list_(pa.struct([("text", pa.string()), ("score", pa.float32())]))

PAIR_SCHEMA = pa.schema([
    pa.field("id", pa.string(), nullable=False),
    pa.field("corpus", pa.string(), nullable=False),
    pa.field("cs", pa.string(), nullable=False),
    pa.field("ref", pa.string(), nullable=False),
    pa.field("bt", pa.string()),
    pa.field("bt_score", pa.float32()),
    pa.field("trigram_overlap", pa.float32()),
    pa.field("para_score", pa.float32()),
    pa.field("ref_len", pa.int16()),
    pa.field("bt_len", pa.int16()),
    pa.field("ref_parse", pa.string()),
    pa.field("bt_parse", pa.string()),
    pa.field("ref_template", pa.string()),
    pa.field("bt_template", pa.string()),
    pa.field("bt_nbest", NBEST_TYPE),
    pa.field("source_scores", pa.map_(pa.string(), pa.float32())),
])

REJECT_SCHEMA = pa.schema([
    pa.field("id", pa.string(), nullable=False),
    pa.field("stage", pa.string(), nullable=False),
    pa.field("reason", pa.string(), nullable=False),
    pa.field("detail", pa.string()),
    pa.field("raw", pa.string()),
])

PAIR_COLUMNS = tuple(PAIR_SCHEMA.names)
INT16_MAX = 32767


def empty_row(id: str, corpus: str, cs: str, ref: str, source_scores: dict | None = None) -> dict:
    """A pair row with every optional column null (the shape every stage passes on)."""
    row = dict.fromkeys(PAIR_COLUMNS)
    row.update(id=id, corpus=corpus, cs=cs, ref=ref, source_scores=source_scores)
    return row


def reject_row(id: str, stage: str, reason: str, detail: str = "", raw: str = "") -> dict:
    """A reject row; `raw` is truncated to RAW_MAX_CHARS characters and the truncation is noted in `detail`."""
    if len(raw) > RAW_MAX_CHARS:
        detail = f"{detail} [raw truncated from {len(raw)} to {RAW_MAX_CHARS} chars]".strip()
        raw = raw[:RAW_MAX_CHARS]
    return {"id": id, "stage": stage, "reason": reason, "detail": detail, "raw": raw}


def is_reject(record: dict) -> bool:
    """True for reject rows (they carry `stage` and `reason`, pair rows never do)."""
    return "reason" in record and "stage" in record


def pairs_to_table(rows: list[dict]) -> pa.Table:
    """Rows (dicts with PAIR_COLUMNS keys; missing keys are null) as a PAIR_SCHEMA table."""
    columns = {name: [row.get(name) for row in rows] for name in PAIR_COLUMNS}
    for name in ("source_scores",):
        columns[name] = [list(v.items()) if isinstance(v, dict) else v for v in columns[name]]
    return pa.Table.from_pydict(columns, schema=PAIR_SCHEMA)


def rejects_to_table(rows: list[dict]) -> pa.Table:
    return pa.Table.from_pylist([{k: r.get(k) for k in REJECT_SCHEMA.names} for r in rows], schema=REJECT_SCHEMA)


def table_to_pairs(table: pa.Table) -> list[dict]:
    """The inverse of pairs_to_table (maps come back as dicts)."""
    rows = table.to_pylist()
    for row in rows:
        if isinstance(row.get("source_scores"), list):
            row["source_scores"] = dict(row["source_scores"])
    return rows
