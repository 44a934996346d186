"""Bring your own translations: TSV columns by number and by header name (bt, bt_score, id, corpus, src_lang), the
header line (never a record, never a reject, also in blocks planned mid-file), and the rejects of bad fields; on
real rows of ../shared/data/wmt-bt (`id src_lang source ref bt system`)."""
import gzip
from collections import Counter

import pytest

from paranmt.models.text.tokenize import length_column
from paranmt.schemas.config import ConfigError
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
