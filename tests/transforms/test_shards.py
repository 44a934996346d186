"""Shard listing, footer-only column checks, streaming Parquet writing and the dedup combiner."""
import pyarrow.parquet as pq
import pytest

from paranmt.models.text.tokenize import count_tokens
from paranmt.schemas.errors import ConfigError
from paranmt.schemas.layout import local_shards
from paranmt.schemas.records import PAIR_SCHEMA, empty_row, table_to_pairs
from paranmt.transforms.shards import (ParquetShardWriter, check_columns, concatenate_files, iter_row_batches,
                                       list_shards, read_shard_metadata, unique_shard_names)


@pytest.fixture
def real_rows(bitext):
    """Real cs-en pairs (newstest2017), bt left null as after `paranmt build --stages read,clean`."""
    cs = (bitext / "newstest2017.ces").read_text(encoding="utf-8").splitlines()[:300]
    en = (bitext / "newstest2017.eng").read_text(encoding="utf-8").splitlines()[:300]
    rows = []
    for number, (source, reference) in enumerate(zip(cs, en), 1):
        row = empty_row(f"news:newstest2017:{number}", "news", source, reference,
                        {"adq_score": 0.5} if number % 2 else None)
        row["ref_len"] = count_tokens(reference)
        rows.append(row)
    return rows


def write(rows, path, metadata=None, batch=128):
    writer = ParquetShardWriter(str(path), metadata=metadata)
    for start in range(0, len(rows), batch):
        writer.write_rows(rows[start:start + batch])
    writer.close()
    return writer


def test_streaming_writer_is_atomic_and_round_trips(real_rows, tmp_path):
    writer = write(real_rows, tmp_path / "news-00000.parquet", {"paranmt.schema_version": "1", "other": "x"})
    assert writer.rows == 300 and [p.name for p in tmp_path.iterdir()] == ["news-00000.parquet"]
    table = pq.read_table(tmp_path / "news-00000.parquet")
    assert table.schema.remove_metadata().equals(PAIR_SCHEMA)
    assert table_to_pairs(table) == real_rows
    assert read_shard_metadata(str(tmp_path / "news-00000.parquet")) == {"paranmt.schema_version": "1"}
    batches = list(iter_row_batches(str(tmp_path / "news-00000.parquet"), ["id", "source_scores"], 128))
    assert [len(b) for b in batches] == [128, 128, 44]
    assert batches[0][0] == {"id": "news:newstest2017:1", "source_scores": {"adq_score": 0.5}}


def test_listing_reads_top_level_shards_only(real_rows, tmp_path):
    write(real_rows[:10], tmp_path / "b.parquet")
    write(real_rows[10:20], tmp_path / "a.parquet")
    (tmp_path / "rejects").mkdir()
    write(real_rows[:5], tmp_path / "rejects" / "a.parquet")
    assert [p.rsplit("/", 1)[1] for p in list_shards(str(tmp_path))] == ["a.parquet", "b.parquet"]
    with pytest.raises(ConfigError, match="no shard files"):  # a glob into a side folder of either layout
        list_shards(str(tmp_path / "*" / "*.parquet"))
    (tmp_path / "more").mkdir()
    write(real_rows[:5], tmp_path / "more" / "c.parquet")
    assert [p.rsplit("/", 1)[1] for p in list_shards(str(tmp_path / "*" / "*.parquet"))] == ["c.parquet"]
    with pytest.raises(ConfigError, match="no shard files"):
        list_shards(str(tmp_path / "empty"))
    with pytest.raises(ConfigError, match="shard names repeat"):
        unique_shard_names([str(tmp_path / "a.parquet"), str(tmp_path / "rejects" / "a.parquet")])
    # the local listing of the Beam-free trainers (schemas/layout.local_shards) follows the same rule
    (tmp_path / "_tmp.parquet").write_bytes(b"")
    for listed in (tmp_path, tmp_path / "*.parquet", tmp_path / "*" / "*.parquet", tmp_path / "a.parquet"):
        assert local_shards(str(listed)) == list_shards(str(listed))
    assert local_shards(str(tmp_path / "empty")) == []


def test_column_checks_use_footers(real_rows, tmp_path):
    write(real_rows, tmp_path / "news.parquet")
    files = [str(tmp_path / "news.parquet")]
    check_columns(files, ["id", "ref", "ref_len"], "test")
    with pytest.raises(ConfigError, match=r"needs column\(s\) \['bt', 'para_score'\].*null in every row"):
        check_columns(files, ["ref", "bt", "para_score"], "test")
    with pytest.raises(ConfigError, match=r"\['ref_lemma'\], missing from shard"):
        check_columns(files, ["ref_lemma"], "test")


def test_concatenate_parts_in_order(tmp_path):
    parts = []
    for name, text in (("1.txt", "a\tb\n"), ("2.txt", ""), ("3.txt", "c\td\n")):
        (tmp_path / name).write_text(text)
        parts.append(str(tmp_path / name))
    assert concatenate_files(parts, str(tmp_path / "all.tsv"), "x\ty\n") == 12
    assert (tmp_path / "all.tsv").read_text() == "x\ty\na\tb\nc\td\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["all.tsv"]
