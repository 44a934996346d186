"""Export formats of `paranmt export`, and the Beam DoFn that converts one shard file at a time (streaming).

paranmt-txt  one pair per line, `ref TAB bt TAB para_score` (the released para-nmt-50m.txt layout: no header, nothing
             quoted; schemas/tsv.py's plain lines); rows without bt or para_score are skipped (counted as
             `skipped_null`).
scpn         SCPN training instances, a table TSV (schemas/tsv.py: a sentence that begins with a double quote is
             quoted) with a header `source TAB target_parse TAB target_template TAB target`:
             (s1, p2) -> s2 and the reversed (s2, p1) -> s1, only for pairs whose full de-leafed parses differ
             (SCPN authors' code); parses and templates in SCPN's format `( ROOT ( S ( NP ) ... ) ) EOP`.
             Rows without both parses are `skipped_null`, rows with equal parses `skipped_same_parse`.
hf           Parquet files readable by `datasets.load_dataset("parquet", data_files=...)` / pyarrow: the shard
             columns, with the `source_scores` map stored as a JSON string (Hugging Face `datasets` has no map
             type); plus a dataset card (`dataset_card`) written by the launcher.
Text fields: any whitespace run inside a sentence (tabs, line breaks) becomes a space (cleaned shards have none);
`lowercase` lowercases sentences (the released ParaNMT and SCPN data are lowercased).
"""
from __future__ import annotations

import json
from collections import Counter

import apache_beam as beam
import pyarrow as pa
from apache_beam.io.filesystems import FileSystems

from paranmt.models.parsing.trees import to_scpn
from paranmt.schemas import tsv
from paranmt.schemas.records import PAIR_SCHEMA, SCHEMA_VERSION, scores_as_dict
from paranmt.transforms.shards import (ParquetShardWriter, iter_row_batches, iter_table_batches,
                                       read_shard_metadata, shard_name, shard_path)

FORMATS = ("paranmt-txt", "scpn", "hf")
HEADERS = {"paranmt-txt": "", "scpn": tsv.header(tsv.SCPN_COLUMNS)}
HF_SCHEMA = pa.schema([pa.field(f.name, pa.string()) if f.name == "source_scores" else f for f in PAIR_SCHEMA])
TEXT_COLUMNS = {"paranmt-txt": ["ref", "bt", "para_score"],
                "scpn": ["ref", "bt", "ref_parse", "bt_parse", "ref_template", "bt_template"],
                "hf": None}


def cased(text: str, lowercase: bool) -> str:
    return text.lower() if lowercase else text


def paranmt_line(row: dict, lowercase: bool) -> tuple[str | None, str]:
    """(line or None, count key)."""
    if row["bt"] is None or row["para_score"] is None:
        return None, "skipped_null"
    return tsv.plain_line([cased(row["ref"], lowercase), cased(row["bt"], lowercase), f"{row['para_score']:.6f}"]), \
        "written"


def scpn_lines(row: dict, lowercase: bool) -> tuple[str | None, str]:
    """Both SCPN instances of a pair: s1 + p2 -> s2 and s2 + p1 -> s1 (2 lines), or None with the reason."""
    if None in (row["bt"], row["ref_parse"], row["bt_parse"]):
        return None, "skipped_null"
    if row["ref_parse"] == row["bt_parse"]:
        return None, "skipped_same_parse"
    ref, bt = cased(row["ref"], lowercase), cased(row["bt"], lowercase)
    ref_template = to_scpn(row["ref_template"]) if row["ref_template"] else ""
    bt_template = to_scpn(row["bt_template"]) if row["bt_template"] else ""
    forward = tsv.table_line([ref, to_scpn(row["bt_parse"]), bt_template, bt])
    backward = tsv.table_line([bt, to_scpn(row["ref_parse"]), ref_template, ref])
    return forward + backward, "written"


def hf_table(table: pa.Table) -> pa.Table:
    """A shard batch in HF_SCHEMA: only `source_scores` (-> JSON object string) passes through Python."""
    index = table.schema.get_field_index("source_scores")
    scores = [None if pairs is None else json.dumps(scores_as_dict(pairs), sort_keys=True)
              for pairs in table.column(index).to_pylist()]
    return table.set_column(index, "source_scores", pa.array(scores, pa.string()))


class ExportShardFn(beam.DoFn):
    """path -> writes the shard in `fmt` (text formats: a part file PARTS/<shard>.txt; hf: DATA/<shard>.parquet);
    yields {"shard", "rows", <count key>: n ...}."""

    def __init__(self, fmt: str, target_dir: str, lowercase: bool):
        self.fmt, self.target_dir, self.lowercase = fmt, target_dir, lowercase

    def process(self, path):
        name = shard_name(path)
        counts = Counter()
        if self.fmt == "hf":
            with ParquetShardWriter(shard_path(self.target_dir, name), HF_SCHEMA,
                                    read_shard_metadata(path)) as writer:
                for table in iter_table_batches(path):
                    writer.write_table(hf_table(table))
                    counts["rows"] += table.num_rows
            counts["written"] = writer.rows
        else:
            format_row = paranmt_line if self.fmt == "paranmt-txt" else scpn_lines
            with FileSystems.create(FileSystems.join(self.target_dir, f"{name}.txt")) as handle:
                for batch in iter_row_batches(path, TEXT_COLUMNS[self.fmt]):
                    lines = []
                    for row in batch:
                        text, key = format_row(row, self.lowercase)
                        counts[key] += 1
                        if text:
                            lines.append(text)
                    counts["rows"] += len(batch)
                    handle.write("".join(lines).encode("utf-8"))
        yield {"shard": name, **counts}


COLUMN_DOCS = {
    "id": "stable id `<corpus>:<file>:<line>` or the corpus's own sentence id",
    "corpus": "corpus / section name",
    "cs": "source sentence (Czech)",
    "ref": "English reference",
    "bt": "back-translation of `cs` (English)",
    "bt_score": "length-normalized log-probability of `bt` given `cs`",
    "trigram_overlap": "word-trigram overlap of ref and bt",
    "para_score": "cosine of the paraphrastic encoder's embeddings of ref and bt",
    "ref_len": "tokens in ref (Moses tokenizer)",
    "bt_len": "tokens in bt (Moses tokenizer)",
    "ref_parse": "linearized constituency parse of ref, leaves removed",
    "bt_parse": "linearized constituency parse of bt, leaves removed",
    "ref_template": "top two levels of ref_parse",
    "bt_template": "top two levels of bt_parse",
    "bt_nbest": "n-best back-translations with scores (when built with n-best)",
    "source_scores": "the bitext's own per-pair scores, as a JSON object string",
}


def dataset_card(rows: int, shards: int, metadata: dict[str, str]) -> str:
    """README.md of the `hf` export: YAML header (data_files for `datasets`), columns, provenance."""
    columns = "\n".join(f"| `{f.name}` | {f.type} | {COLUMN_DOCS.get(f.name, '')} |" for f in HF_SCHEMA)
    provenance = "\n".join(f"- `{key}`: `{value}`" for key, value in sorted(metadata.items()))
    return f"""---
configs:
- config_name: default
  data_files:
  - split: train
    path: data/*.parquet
language:
- en
- cs
task_categories:
- sentence-similarity
- text2text-generation
pretty_name: ParaNMT-style paraphrase corpus
size_categories:
- {size_category(rows)}
---

# ParaNMT-style paraphrase corpus

English paraphrase pairs (`ref`, `bt`) made by back-translating the Czech side (`cs`) of Czech-English bitext,
with per-pair scores and constituency parses, exported by `paranmt export --format hf` (schema version
{SCHEMA_VERSION}). {rows} rows in {shards} Parquet files under `data/`.

```python
import datasets
corpus = datasets.load_dataset("parquet", data_files="data/*.parquet", split="train")
```

## Columns

| column | type | meaning |
|---|---|---|
{columns}

## Provenance (Parquet metadata of the first shard)

{provenance or "- (no paranmt metadata found)"}

## Licence

The pairs inherit the terms of the bitext they were built from; check the licence of your input corpus
(e.g. CzEng is for non-commercial research use) before redistributing.
"""


def size_category(rows: int) -> str:
    for limit, label in ((1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K"),
                         (1_000_000, "100K<n<1M"), (10_000_000, "1M<n<10M"), (100_000_000, "10M<n<100M")):
        if rows < limit:
            return label
    return "n>100M"
