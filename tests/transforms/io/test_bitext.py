"""Readers on the real shared bitext, the CzEng-layout fixtures, and deliberately broken files."""
import bz2
import gzip
import lzma
import shutil
from collections import Counter
from pathlib import Path

import pytest
import zstandard

from paranmt.transforms.io.bitext import read_file
from paranmt.transforms.io.read_plan import ReadOptions, plan_inputs

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


def read_all(paths, fmt, **options):
    options = ReadOptions(format=fmt, **options)
    rows, rejects, counts = [], [], Counter()
    suffixes = options.suffixes
    for unit in plan_inputs([str(p) for p in paths], fmt, suffixes):
        for shard, record in read_file(unit, options):
            if "_count" in record:
                counts[shard] += record["_count"]["read"]
                counts["_separators"] += record["_count"]["separators"]
            elif "reason" in record:
                rejects.append(record)
            else:
                rows.append(record)
    return rows, rejects, counts


def test_moses_reads_every_real_pair(bitext):
    sources = sorted(bitext.glob("*.ces"))
    rows, rejects, counts = read_all(sources, "moses", suffixes=("ces", "eng"), shard_rows=5000)
    expected = sum(1 for p in sources for _ in open(p, encoding="utf-8"))
    assert len(rows) + len(rejects) == expected == 46128
    assert sum(v for k, v in counts.items() if k != "_separators") == expected
    assert counts["tatoeba-test-v2021-08-07.00002"] == 13824 - 2 * 5000
    first = next(r for r in rows if r["id"] == "newstest2017:newstest2017.ces:1")
    assert first["cs"].startswith("Osmadvacetiletý šéfkuchař")
    assert first["ref"] == open(bitext / "newstest2017.eng", encoding="utf-8").readline().rstrip("\n")
    assert len({r["id"] for r in rows + rejects}) == expected


def test_tsv_default_and_custom_columns(tmp_path, bitext):
    cs = (bitext / "multi30k_test_2016_flickr.ces").read_text(encoding="utf-8").splitlines()[:50]
    en = (bitext / "multi30k_test_2016_flickr.eng").read_text(encoding="utf-8").splitlines()[:50]
    (tmp_path / "pairs.tsv").write_text("".join(f"{c}\t{e}\n" for c, e in zip(cs, en)), encoding="utf-8")
    (tmp_path / "swapped.tsv").write_text("".join(f"x\t{e}\t{c}\n" for c, e in zip(cs, en)), encoding="utf-8")
    rows, rejects, _ = read_all([tmp_path / "pairs.tsv"], "tsv")
    assert not rejects and [r["cs"] for r in rows] == cs and [r["ref"] for r in rows] == en
    assert rows[4]["id"] == "pairs:pairs.tsv:5" and rows[4]["corpus"] == "pairs"
    rows, _, _ = read_all([tmp_path / "swapped.tsv"], "tsv", columns={"cs": 2, "ref": 1}, corpus="m30k")
    assert [r["cs"] for r in rows] == cs and {r["corpus"] for r in rows} == {"m30k"}


def test_czeng16_export_block():
    rows, rejects, _ = read_all([FIXTURES / "czeng" / "czeng16-block001.gz"], "czeng16")
    assert not rejects and len(rows) == 20
    assert rows[0]["id"] == "subtitlesM-b1-00train-f000000-s1" and rows[0]["corpus"] == "subtitles"
    assert {r["corpus"] for r in rows} == {"subtitles", "fiction", "news", "techdoc"}
    assert rows[0]["source_scores"] == {"filter_score": pytest.approx(0.6619)}
    assert rows[0]["ref"] == "Athena is the goddess of wisdom."


def test_czeng20_document_separators_are_structure():
    rows, rejects, counts = read_all([FIXTURES / "czeng" / "czeng20-part.tsv"], "czeng20")
    assert not rejects and len(rows) == 20 and counts["_separators"] == 3
    assert rows[5]["id"] == "czeng16-d0001-s1" and rows[5]["corpus"] == "czeng16"
    assert set(rows[0]["source_scores"]) == {"adq_score", "cs_lang_score", "en_lang_score"}


@pytest.mark.parametrize("compress,suffix", [(gzip.compress, ".gz"), (bz2.compress, ".bz2"),
                                              (lzma.compress, ".xz"), (zstandard.ZstdCompressor().compress, ".zst"),
                                              (lambda b: b, "")])
def test_compressed_inputs_read_the_same(tmp_path, compress, suffix):
    data = (FIXTURES / "czeng" / "czeng20-part.tsv").read_bytes()
    path = tmp_path / f"part.tsv{suffix}"
    path.write_bytes(compress(data))
    rows, rejects, _ = read_all([path], "czeng20")
    assert len(rows) == 20 and not rejects


def test_compression_detected_by_magic_bytes(tmp_path):
    path = tmp_path / "block.dat"
    path.write_bytes(gzip.compress((FIXTURES / "czeng" / "czeng20-part.tsv").read_bytes()))
    rows, _, _ = read_all([path], "czeng20")
    assert len(rows) == 20


def test_broken_lines_become_rejects_with_reasons(tmp_path):
    lines = [
        "Dobrý den.\tGood morning.",
        "jen jeden sloupec",                      # wrong column count
        "",                                       # blank line
        "Ahoj.\tHi.",
    ]
    raw = ("\n".join(lines) + "\n").encode() + b"Zlom\xff\xfe\tBroken bytes\n" + b"x" * (1 << 20) + b"\tlong\n"
    raw += "Na shledanou.\tGoodbye.\n".encode()
    (tmp_path / "bad.tsv").write_bytes(raw)
    rows, rejects, counts = read_all([tmp_path / "bad.tsv"], "tsv")
    assert [r["ref"] for r in rows] == ["Good morning.", "Hi.", "Goodbye."]
    reasons = {r["id"]: r["reason"] for r in rejects}
    assert reasons == {"bad:bad.tsv:2": "wrong_column_count", "bad:bad.tsv:3": "empty_line",
                       "bad:bad.tsv:5": "invalid_utf8", "bad:bad.tsv:6": "line_too_long"}
    long_reject = next(r for r in rejects if r["reason"] == "line_too_long")
    assert len(long_reject["raw"]) <= 4096 and "truncated" in long_reject["detail"]
    assert counts["bad.tsv.00000"] == 7 == len(rows) + len(rejects)


def test_truncated_gzip_keeps_intact_lines_and_rejects_the_rest(tmp_path, bitext):
    cs = (bitext / "newstest2013.ces").read_text(encoding="utf-8").splitlines()[:2000]
    en = (bitext / "newstest2013.eng").read_text(encoding="utf-8").splitlines()[:2000]
    data = gzip.compress("".join(f"{c}\t{e}\n" for c, e in zip(cs, en)).encode())
    (tmp_path / "cut.tsv.gz").write_bytes(data[: len(data) // 2])
    rows, rejects, counts = read_all([tmp_path / "cut.tsv.gz"], "tsv")
    assert 0 < len(rows) < 2000
    assert [r["ref"] for r in rows] == en[: len(rows)]
    assert len(rejects) == 1 and rejects[0]["reason"] == "corrupt_file"
    assert rejects[0]["id"] == f"cut:cut.tsv.gz:{len(rows) + 1}"
    assert counts["cut.tsv.00000"] == len(rows) + 1


def test_moses_mismatched_line_counts_reject_the_surplus(tmp_path, bitext):
    shutil.copy(bitext / "newssyscomb2009.ces", tmp_path / "sys.cs")
    en = (bitext / "newssyscomb2009.eng").read_text(encoding="utf-8").splitlines()
    (tmp_path / "sys.en").write_text("\n".join(en[:-3]) + "\n", encoding="utf-8")
    rows, rejects, _ = read_all([tmp_path / "sys.cs"], "moses", suffixes=("cs", "en"))
    assert len(rows) == 499 and [r["reason"] for r in rejects] == ["line_count_mismatch"] * 3
    assert rejects[0]["id"] == "sys:sys.cs:500" and "ended before line 500" in rejects[0]["detail"]


def test_same_base_name_in_two_folders_gets_distinct_shards(tmp_path):
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "part.tsv").write_text("Ano.\tYes.\n", encoding="utf-8")
    units = plan_inputs([str(tmp_path / "a" / "part.tsv"), str(tmp_path / "b" / "part.tsv")], "tsv")
    assert len({u.stem for u in units}) == 2 and all(u.stem.startswith("part.tsv-") for u in units)


def test_skipped_shards_are_read_past_but_not_emitted(bitext):
    options = ReadOptions(format="moses", suffixes=("ces", "eng"), shard_rows=1000)
    unit = plan_inputs([str(bitext / "newstest2012.ces")], "moses", ("ces", "eng"))[0]
    emitted = list(read_file(unit, options, skip_shards=frozenset({"newstest2012.00000", "newstest2012.00002"})))
    shards = Counter(shard for shard, record in emitted if "_count" not in record)
    assert shards == {"newstest2012.00001": 1000, "newstest2012.00003": 3}
    assert emitted[1000] == ("newstest2012.00001", {"_count": {"read": 1000, "separators": 0}})
    assert emitted[1001][1]["id"] == "newstest2012:newstest2012.ces:3001"


@pytest.mark.parametrize("fmt,shard_rows", [("moses", 700), ("czeng20", 200), ("czeng20", 300)])
def test_planned_blocks_read_exactly_what_one_pass_reads(bitext, tmp_path, fmt, shard_rows):
    """plan_reads cuts a plain file into one task per shard by byte offsets; the tasks together yield the same
    (shard, record) stream, ids and counts as one read from the start (czeng20 with 300 rows per shard: the
    trailing blank lines make a last shard of separators only)."""
    from paranmt.transforms.io.read_plan import plan_reads
    if fmt == "moses":
        paths, options = [str(bitext / "newstest2012.ces")], ReadOptions(format="moses", suffixes=["ces", "eng"],
                                                                                shard_rows=shard_rows)
    else:
        lines = (bitext / "newstest2012.ces").read_text().splitlines()[:900]
        text = "".join(f"d-{i}\t0.9\t1.0\t1.0\t{line}\tx\n" + ("\n" if i % 7 == 0 else "")
                       for i, line in enumerate(lines))
        (tmp_path / "c.tsv").write_text("\n" + text + "\n\n")
        paths, options = [str(tmp_path / "c.tsv")], ReadOptions(format="czeng20", shard_rows=shard_rows)
    [unit] = plan_inputs(paths, fmt, options.suffixes)
    tasks = plan_reads([unit], options)
    assert len(tasks) > 2 and all(t.start is not None for t in tasks)
    planned = [item for task in tasks for item in read_file(unit, options, task=task)]
    assert planned == list(read_file(unit, options))
    assert [name for task in tasks for name in task.shard_names()] == list(
        dict.fromkeys(shard for shard, _ in planned))
