"""Bring your own translations: TSV columns by number and by header name (bt, bt_score, id, corpus, src_lang), the
header line (never a record, never a reject, also in blocks planned mid-file), and the rejects of bad fields; on
real rows of ../shared/data/wmt-bt (`id src_lang source ref bt system`)."""
import gzip
import json
from collections import Counter

import pytest

from paranmt.models.text.tokenize import length_column
from paranmt.schemas.errors import ConfigError
from paranmt.transforms.io.bitext import read_file
from paranmt.transforms.io.read_plan import ReadOptions, plan_inputs, plan_reads

NAMED = {"id": "id", "cs": "source", "ref": "ref", "bt": "bt"}


@pytest.fixture(scope="module")
def wmt_lines(shared_data):
    """The header and the first 40 records of the WMT22 cs-en system outputs."""
    with gzip.open(shared_data / "wmt-bt" / "wmt22.cs-en.tsv.gz", "rt", encoding="utf-8") as handle:
        return [next(handle).rstrip("\n") for _ in range(41)]


def read(paths, planned=False, **options):
    """(rows, rejects, records counted) of reading `paths` as tsv, in one pass or by planned blocks."""
    options = ReadOptions(format="tsv", **options)
    units = plan_inputs([str(p) for p in paths], "tsv")
    tasks = plan_reads(units, options) if planned else [None] * len(units)
    rows, rejects, counts = [], [], Counter()
    for task in tasks:
        unit = task.unit if task else units[0]
        for _, record in read_file(unit, options, task=task):
            if "_count" in record:
                counts["read"] += record["_count"]["read"]
            else:
                (rejects if "reason" in record else rows).append(record)
    return rows, rejects, counts["read"]


def test_named_columns_read_the_header_as_names_not_as_a_record(tmp_path, wmt_lines):
    path = tmp_path / "wmt22.cs-en.tsv"
    path.write_text("\n".join(wmt_lines) + "\n", encoding="utf-8")
    rows, rejects, read_count = read([path], columns=NAMED)
    assert not rejects and len(rows) == read_count == 40
    first = wmt_lines[1].split("\t")
    assert rows[0]["id"] == first[0] == "wmt22.cs-en.0.ALMAnaCH-Inria"
    assert (rows[0]["cs"], rows[0]["ref"], rows[0]["bt"]) == tuple(first[2:5])
    assert rows[0]["bt_source"] == "input" and rows[0]["bt_score"] is None and rows[0]["src_lang"] == "cs"
    assert all(r["bt_len"] == length_column(r["bt"]) for r in rows)
    # the same by planned blocks of 7 records: blocks after the first start mid-file and still know the header
    assert read([path], planned=True, columns=NAMED, shard_rows=7) == (rows, rejects, 40)
    # and from a compressed file (read from its start, one task)
    with gzip.open(tmp_path / "c.tsv.gz", "wt", encoding="utf-8") as handle:
        handle.write("\n".join(wmt_lines) + "\n")
    zipped, _, _ = read([tmp_path / "c.tsv.gz"], planned=True, columns=NAMED, corpus="wmt22")
    assert [(r["id"], r["bt"]) for r in zipped] == [(r["id"], r["bt"]) for r in rows]


def test_numbered_columns_with_and_without_a_header(tmp_path, wmt_lines):
    path = tmp_path / "wmt.tsv"
    path.write_text("\n".join(wmt_lines[1:]) + "\n", encoding="utf-8")
    rows, rejects, _ = read([path], columns={"cs": 2, "ref": 3, "bt": 4, "corpus": 5, "src_lang": 1})
    assert not rejects and len(rows) == 40 and rows[0]["id"] == "wmt:wmt.tsv:1"
    assert rows[0]["corpus"] == "ALMAnaCH-Inria" and rows[0]["bt"] == wmt_lines[1].split("\t")[4]
    headed = tmp_path / "headed.tsv"
    headed.write_text("\n".join(wmt_lines) + "\n", encoding="utf-8")
    as_record, _, count = read([headed], columns={"cs": 2, "ref": 3, "bt": 4})
    assert count == 41 and as_record[0]["cs"] == "source", "without a header flag the first line is a record"
    skipped, _, count = read([headed], planned=True, columns={"cs": 2, "ref": 3, "bt": 4}, header=True,
                             shard_rows=16)
    assert count == 40 and [r["cs"] for r in skipped] == [r["cs"] for r in rows]
    assert skipped[0]["id"] == "headed:headed.tsv:2", "ids are the file's line numbers, header included"


def test_bad_fields_are_rejects_with_reasons_and_an_empty_bt_is_no_bt(tmp_path):
    path = tmp_path / "own.tsv"
    path.write_text("sid\tbt_score\tcs\ten\tmt\textra\n"
                    "a\t-0.5\tAhoj.\tHello.\tHi.\tx\n"
                    "b\tmuch\tAhoj.\tHello.\tHi.\tx\n"
                    "c\t-1\tAhoj.\tHello.\t  \tx\n"
                    "\t\tAhoj.\tHello.\t\tx\n"
                    "e\tnan\tAhoj.\tHello.\tHi.\tx\n"
                    "f\t\tAhoj.\tHello.\tHi.\tx\ty\n", encoding="utf-8")
    columns = {"id": "sid", "bt_score": "bt_score", "cs": "cs", "ref": "en", "bt": "mt"}
    rows, rejects, count = read([path], columns=columns)
    assert count == 6 == len(rows) + len(rejects)
    assert [(r["id"], r["reason"]) for r in rejects] == [("b", "bad_score"), ("c", "bt_score_without_bt"),
                                                          ("e", "bad_score")]
    by_id = {r["id"]: r for r in rows}
    assert by_id["a"]["bt_score"] == -0.5 and by_id["a"]["bt_source"] == "input"
    assert by_id["own:own.tsv:5"]["bt"] is None and by_id["own:own.tsv:5"]["bt_source"] is None
    assert by_id["f"]["bt_score"] is None
    _, strict, _ = read([path], columns=columns, strict_columns=True)
    assert [(r["id"], r["reason"]) for r in strict if r["reason"] == "extra_columns"] == [("own:own.tsv:7",
                                                                                         "extra_columns")]
    assert "the header has 6" in strict[-1]["detail"]


def test_a_name_the_header_lacks_is_a_config_error_before_any_work(tmp_path, wmt_lines):
    path = tmp_path / "wmt.tsv"
    path.write_text("\n".join(wmt_lines[:3]) + "\n", encoding="utf-8")
    options = ReadOptions(format="tsv", columns={"cs": "source", "ref": "reference"})
    with pytest.raises(ConfigError, match=r"the header line has no column 'reference' \(read.columns.ref\); its "
                                          r"columns: id, src_lang, source, ref, bt, system$"):
        plan_reads(plan_inputs([str(path)], "tsv"), options)


@pytest.fixture
def wmt_records(wmt_lines):
    """The first 12 WMT22 cs-en records as dicts under the file's own column names."""
    head = wmt_lines[0].split("\t")
    return [dict(zip(head, line.split("\t"))) for line in wmt_lines[1:13]]


def read_records(path, fmt, planned=True, **options):
    options = ReadOptions(format=fmt, **options)
    rows, rejects = [], []
    for task in plan_reads(plan_inputs([str(path)], fmt), options) if planned else [None]:
        unit = task.unit if task else plan_inputs([str(path)], fmt)[0]
        for _, record in read_file(unit, options, task=task):
            if "_count" not in record:
                (rejects if "reason" in record else rows).append(record)
    return rows, rejects


def test_parquet_and_jsonl_read_fields_by_their_names(tmp_path, wmt_records):
    import pyarrow as pa
    import pyarrow.parquet as pq

    own = [{"cs": r["source"], "ref": r["ref"], "bt": r["bt"], "src_lang": r["src_lang"], "id": i,
            "bt_score": -0.25 if i % 2 else None} for i, r in enumerate(wmt_records)]
    pq.write_table(pa.Table.from_pylist(own), tmp_path / "own.parquet", row_group_size=5)
    rows, rejects = read_records(tmp_path / "own.parquet", "parquet", shard_rows=4)
    assert not rejects and [r["cs"] for r in rows] == [r["source"] for r in wmt_records]
    assert rows[1]["id"] == "1" and rows[1]["bt_score"] == -0.25 and rows[0]["bt_score"] is None
    assert {r["bt_source"] for r in rows} == {"input"} and rows[0]["corpus"] == "own"
    # the file's own names, mapped: only the mapped ones and the fields under their own names are read
    pq.write_table(pa.Table.from_pylist(wmt_records), tmp_path / "wmt.parquet")
    mapped = {"cs": "source", "ref": "ref", "bt": "bt"}
    rows, _ = read_records(tmp_path / "wmt.parquet", "parquet", columns=mapped)
    assert [(r["id"], r["cs"], r["bt"], r["src_lang"]) for r in rows] == [
        (r["id"], r["source"], r["bt"], "cs") for r in wmt_records]
    (tmp_path / "wmt.jsonl").write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in wmt_records)
                                        + '[1]\n{"source": "Ahoj."}\n{nope\n', encoding="utf-8")
    lines, rejects = read_records(tmp_path / "wmt.jsonl", "jsonl", columns=mapped, shard_rows=5)
    assert [(r["id"], r["cs"], r["bt"]) for r in lines] == [(r["id"], r["cs"], r["bt"]) for r in rows]
    assert [(r["id"], r["reason"]) for r in rejects] == [("wmt:wmt.jsonl:13", "bad_json"),
                                                         ("wmt:wmt.jsonl:14", "missing_field"),
                                                         ("wmt:wmt.jsonl:15", "bad_json")]


def test_parquet_problems_are_config_errors_or_rejects(tmp_path, wmt_records):
    import pyarrow as pa
    import pyarrow.parquet as pq

    pq.write_table(pa.Table.from_pylist(wmt_records), tmp_path / "wmt.parquet")
    with pytest.raises(ConfigError, match=r"wmt.parquet has no column cs \(cs\) \(read.columns\); its columns: id, "):
        read_records(tmp_path / "wmt.parquet", "parquet")
    with pytest.raises(ConfigError, match=r"has no column mt \(bt\)"):
        read_records(tmp_path / "wmt.parquet", "parquet", columns={"cs": "source", "bt": "mt"})
    with pytest.raises(ConfigError, match=r"Parquet and JSONL fields are named, not numbered"):
        read_records(tmp_path / "wmt.parquet", "parquet", columns={"cs": 2, "ref": 3})
    (tmp_path / "text.parquet").write_text("not parquet\n")
    with pytest.raises(ConfigError, match=r"text.parquet is not a Parquet file"):
        read_records(tmp_path / "text.parquet", "parquet", columns={"cs": "source"})
    data = (tmp_path / "wmt.parquet").read_bytes()
    (tmp_path / "cut.parquet").write_bytes(data[:8] + bytes(len(data) - 8 - 600) + data[-600:])
    rows, rejects = read_records(tmp_path / "cut.parquet", "parquet", planned=False, columns={"cs": "source"})
    assert [r["reason"] for r in rejects] == ["corrupt_file"] and not rows
