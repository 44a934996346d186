"""Record schemas of paranmt shards (pyarrow), version 2.

One shard row per input pair that survived reading and cleaning. Columns of PAIR_SCHEMA (v2):

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
xsim            float32, null. cos(g(cs), g(ref)) for the bilingual encoder g of the `xsim` stage (run before
                translate); in [-1, 1]. Low values flag misaligned pairs (`xsim.min_xsim` rejects them).
simile          float32, null. SIMILE of bt against ref: para_score * LP**0.25 (models/scoring/simile.py).
bt_repetition   float32, null. Share of repeated word n-grams in bt (models/scoring/repetition.py); 0 = none.
unigram_f1      float32, null. Unigram F1 of ref and bt tokens (models/scoring/diversity.py); in [0, 1].
kendall_tau     float32, null. Kendall tau of the order of the words ref and bt share; in [-1, 1].
cs_lang, ref_lang, bt_lang                string, null. ISO 639-1 language label of each side (models/scoring/langid.py)
cs_lang_conf, ref_lang_conf, bt_lang_conf float32, null. The identifier's confidence in that label, in [0, 1].
ref_len, bt_len int16. Token counts under the sacremoses English tokenizer (named in the file metadata);
                bt_len is null until `bt` is filled.
ref_parse, bt_parse        string, null. Linearized constituency parse without leaves, e.g.
                           `(S(NP(PRP))(VP(VBD)(NP(NN)))(.))`.
ref_template, bt_template  string, null. The top two levels of that parse below ROOT, e.g. `(S(NP)(VP)(.))`.
parse_skipped   string, null. Why the parse stage left this row's parse columns null without trying: `only_if`
                (the row did not satisfy `parse.only_if`; the condition is in the shard's config). Null when the
                row was parsed (a sentence the parser could not parse still has null parse columns: too long,
                empty or a parser error, counted as `parse/null_<reason>`) or the parse stage did not run.
                `build --format shards --stages parse` parses these rows later (docs/parsing.md). Added to v2
                later: shards written before it read it back as null (`upgrade_table`).
bt_nbest        list<struct<text: string, score: float32>>, null. The n-best list (best first) when asked for.
source_scores   list<struct<name: string, score: float32>>, null. The corpus's own per-pair scores: CzEng 1.6
                `filter_score`; CzEng 2.0 `adq_score`, `cs_lang_score`, `en_lang_score`. (v1 stored a
                map<string, float32>, a type Hugging Face `datasets` cannot load; a list of structs loads in
                every tool, and rows as Python dicts keep `{name: score}`.)
src_lang        string, null. Source language of `cs` (ISO 639-1): the input's `src_lang` column where it has one,
                else the build's `source_lang`. Added to v2 later: shards written before it read it back as
                null (`upgrade_table`), meaning the `source_lang` in their config.yaml.
bt_source       string, null. Where `bt` came from: `input` (the input's `bt` column, "bring your own
                translations": the translate stage leaves such rows as they are) or `translate` (the translate
                stage). Null when bt is null, and in shards written before it (`upgrade_table`).

Migration v1 -> v2: v2 adds the signal columns above (null in v1 shards) and changes the type of source_scores.
`upgrade_table` brings a v1 table to v2, so filter, stats, export and `build --format shards` read both.

REJECT_SCHEMA: one row per input record that did not become a shard row:
id (as above), stage (`read`, `clean`, `translate`, ...), reason (a short stable code, e.g. `empty_side`),
detail (human-readable explanation), raw (the raw input, decoded with replacement characters, truncated to
RAW_MAX_CHARS characters; `detail` says when it was truncated).
"""
from __future__ import annotations

import pyarrow as pa

SCHEMA_VERSION = "2"
TOKENIZER = "sacremoses.MosesTokenizer(lang='en', escape=False)"
RAW_MAX_CHARS = 4096

NBEST_TYPE = pa.list_(pa.struct([("text", pa.string()), ("score", pa.float32())]))
SOURCE_SCORES_TYPE = pa.list_(pa.struct([("name", pa.string()), ("score", pa.float32())]))

PAIR_SCHEMA = pa.schema([
    pa.field("id", pa.string(), nullable=False),
    pa.field("corpus", pa.string(), nullable=False),
    pa.field("cs", pa.string(), nullable=False),
    pa.field("ref", pa.string(), nullable=False),
    pa.field("bt", pa.string()),
    pa.field("bt_score", pa.float32()),
    pa.field("trigram_overlap", pa.float32()),
    pa.field("para_score", pa.float32()),
    pa.field("xsim", pa.float32()),
    pa.field("simile", pa.float32()),
    pa.field("bt_repetition", pa.float32()),
    pa.field("unigram_f1", pa.float32()),
    pa.field("kendall_tau", pa.float32()),
    pa.field("ref_len", pa.int16()),
    pa.field("bt_len", pa.int16()),
    pa.field("ref_parse", pa.string()),
    pa.field("bt_parse", pa.string()),
    pa.field("ref_template", pa.string()),
    pa.field("bt_template", pa.string()),
    pa.field("parse_skipped", pa.string()),
    pa.field("cs_lang", pa.string()),
    pa.field("cs_lang_conf", pa.float32()),
    pa.field("ref_lang", pa.string()),
    pa.field("ref_lang_conf", pa.float32()),
    pa.field("bt_lang", pa.string()),
    pa.field("bt_lang_conf", pa.float32()),
    pa.field("bt_nbest", NBEST_TYPE),
    pa.field("source_scores", SOURCE_SCORES_TYPE),
    pa.field("src_lang", pa.string()),
    pa.field("bt_source", pa.string()),
])
BT_SOURCES = ("input", "translate")   # the values of bt_source

REJECT_SCHEMA = pa.schema([
    pa.field("id", pa.string(), nullable=False),
    pa.field("stage", pa.string(), nullable=False),
    pa.field("reason", pa.string(), nullable=False),
    pa.field("detail", pa.string()),
    pa.field("raw", pa.string()),
])

PAIR_COLUMNS = tuple(PAIR_SCHEMA.names)
INT16_MAX = 32767


def empty_row(id: str, corpus: str, cs: str, ref: str, source_scores: dict | None = None,
              src_lang: str | None = None) -> dict:
    """A pair row with every optional column null (the shape every stage passes on)."""
    row = dict.fromkeys(PAIR_COLUMNS)
    row.update(id=id, corpus=corpus, cs=cs, ref=ref, source_scores=source_scores, src_lang=src_lang)
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
    columns["source_scores"] = [[{"name": k, "score": s} for k, s in v.items()] if isinstance(v, dict) else v
                                for v in columns["source_scores"]]
    return pa.Table.from_pydict(columns, schema=PAIR_SCHEMA)


def rejects_to_table(rows: list[dict]) -> pa.Table:
    return pa.Table.from_pylist([{k: r.get(k) for k in REJECT_SCHEMA.names} for r in rows], schema=REJECT_SCHEMA)


def scores_as_dict(value) -> dict | None:
    """source_scores of a row as {name: score}: from v2 (list of {name, score}), v1 (list of (key, value) pairs
    as pyarrow returns maps) or a dict."""
    if value is None or isinstance(value, dict):
        return value
    return {(item["name"] if isinstance(item, dict) else item[0]): (item["score"] if isinstance(item, dict)
                                                                    else item[1]) for item in value}


def table_to_pairs(table: pa.Table) -> list[dict]:
    """The inverse of pairs_to_table (source_scores come back as dicts; v1 tables are upgraded first)."""
    rows = upgrade_table(table).to_pylist()
    for row in rows:
        row["source_scores"] = scores_as_dict(row["source_scores"])
    return rows


def upgrade_table(table: pa.Table, columns: list[str] | None = None) -> pa.Table:
    """A shard table of schema v1 (or v2) as v2: the map source_scores becomes a list of {name, score} structs
    (same entries, same order), and each of `columns` (default: all of PAIR_SCHEMA) that a v1 shard lacks is
    added as nulls of its v2 type. Columns are returned in PAIR_SCHEMA order, other columns after them."""
    if "source_scores" in table.column_names and pa.types.is_map(table.schema.field("source_scores").type):
        old = table.column("source_scores").combine_chunks()
        entries = pa.StructArray.from_arrays([old.keys, old.items], ["name", "score"])
        new = pa.ListArray.from_arrays(old.offsets, entries, mask=old.is_null())
        table = table.set_column(table.schema.get_field_index("source_scores"), "source_scores",
                                 new.cast(SOURCE_SCORES_TYPE))
    wanted = PAIR_COLUMNS if columns is None else columns
    missing = [PAIR_SCHEMA.field(n) for n in wanted if n in PAIR_SCHEMA.names and n not in table.column_names]
    if not missing:
        return table
    for f in missing:
        table = table.append_column(f, pa.nulls(table.num_rows, f.type))
    order = [n for n in PAIR_COLUMNS if n in table.column_names]
    return table.select(order + [n for n in table.column_names if n not in order])
