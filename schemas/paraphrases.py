"""The record schema of generated paraphrases (`paranmt paraphrase`, its Beam stage, `paranmt adversarial`).

One row per candidate paraphrase (one per source x template x n-best rank), or one row per source that could
not be paraphrased (paraphrase null, `reason` says why). Columns of PARAPHRASE_SCHEMA:

source_id        string, not null. The input's id: `<line>` (1-based) of a text input, the pair id of a shard
                 row (`<id>` for ref, `<id>#bt` when the bt side is paraphrased).
source           string, not null. The sentence paraphrased.
source_template  string, null. Template (top two parse levels) of the source; null when it has no parse.
template         string, null. The target template asked for, paranmt notation `(S(NP)(VP)(.))`; null for a
                 plain (uncontrolled) paraphraser.
target_parse     string, null. The full linearized target parse SCPN was given: the parse generator's output
                 for (source parse, template), or a gold parse in evaluation; null for a plain paraphraser.
rank             int16, not null. 0-based n-best rank of the paraphrase among the hypotheses of its
                 (source, template) (0 = the best).
paraphrase       string, null. The generated sentence (null when `reason` is a source or generation problem).
score            float32, null. The generator's length-normalized log-probability of `paraphrase` (mean per
                 output unit, end-of-sequence included).
paraphrase_parse string, null. Linearized parse of the re-parsed paraphrase (null: unparseable or not parsed).
template_match   bool, null. Whether the re-parsed paraphrase's top two levels equal `template` (thesis Table
                 60's exact template match); null for a plain paraphraser or an unparsed paraphrase.
overlap          float32, null. Word-trigram overlap of source and paraphrase (models/scoring/overlap.py).
para_score       float32, null. Cosine of the post-filter encoder's embeddings of source and paraphrase.
kept             bool, not null. True when the row passed the post-filter (see reason).
reason           string, null. Null for kept rows; else one of SOURCE_REASONS (the source was not paraphrased:
                 no parse, no text, or not English: models/generation/pipeline.py `min_english`),
                 `generation_failed` (the model raised on this input), `bad_target_parse` (the parse
                 generator's output is empty or not a tree), or the post-filter's
                 `empty_paraphrase`, `copy`, `repeated_word`, `unbalanced`, `lowercase_start`,
                 `doubled_punctuation`, `low_overlap`, `low_similarity` (models/generation/postfilter.py).
"""
from __future__ import annotations

import pyarrow as pa

SOURCE_REASONS = ("source_unparsed", "source_empty", "not_english")
PARAPHRASE_SCHEMA = pa.schema([
    pa.field("source_id", pa.string(), nullable=False),
    pa.field("source", pa.string(), nullable=False),
    pa.field("source_template", pa.string()),
    pa.field("template", pa.string()),
    pa.field("target_parse", pa.string()),
    pa.field("rank", pa.int16(), nullable=False),
    pa.field("paraphrase", pa.string()),
    pa.field("score", pa.float32()),
    pa.field("paraphrase_parse", pa.string()),
    pa.field("template_match", pa.bool_()),
    pa.field("overlap", pa.float32()),
    pa.field("para_score", pa.float32()),
    pa.field("kept", pa.bool_(), nullable=False),
    pa.field("reason", pa.string()),
])
COLUMNS = tuple(PARAPHRASE_SCHEMA.names)


def paraphrases_to_table(rows: list[dict]) -> pa.Table:
    """Rows (dicts with the columns above; float NaN becomes null) -> an Arrow table in PARAPHRASE_SCHEMA."""
    def clean(value):
        return None if isinstance(value, float) and value != value else value

    return pa.Table.from_pylist([{name: clean(row.get(name)) for name in COLUMNS} for row in rows],
                                schema=PARAPHRASE_SCHEMA)
