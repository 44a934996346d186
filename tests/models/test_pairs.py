"""The reader of local files of pairs (models/pairs.py): the trainers' formats, shards with carried columns, and
the errors naming a file that cannot be read."""
import pyarrow.parquet as pq
import pytest

from paranmt.models.encoding import LineRejects
from paranmt.models.generation.data import read_parsed_pairs
from paranmt.models.pairs import TrainingDataError, read_pairs, tsv_pairs
from paranmt.schemas.records import empty_row, pairs_to_table


def test_read_pairs_formats(bitext, tmp_path):
    pairs, counts = read_pairs([str(bitext / "newssyscomb2009")])
    assert counts.read == 502 and len(pairs) == counts.kept
    english = (bitext / "newssyscomb2009.eng").read_text(encoding="utf-8").splitlines()
    assert pairs[0][0] == english[0].strip(), "English is side 1 of auto-detected bitext"
    (tmp_path / "p.tsv").write_text("a b\tc d\nonly one side\n\tx\n")
    pairs, counts = read_pairs([str(tmp_path / "p.tsv")])
    assert pairs == [("a b", "c d")] and counts.skipped == {"empty_side": 1}
    assert counts.rejects.by_reason == {"read/wrong_column_count": 1}, "one column: a reject, as in `paranmt build`"
    (tmp_path / "x.en").write_text("a\nb\n")
    (tmp_path / "x.cs").write_text("a\n")
    with pytest.raises(TrainingDataError, match="lines"):
        read_pairs([str(tmp_path / "x")])
    with pytest.raises(TrainingDataError, match="not found"):
        read_pairs([str(tmp_path / "missing")])


def test_read_pairs_from_shards_skips_untranslated_rows(tmp_path):
    rows = [dict(empty_row("c:f:1", "c", "Ahoj.", "Hello."), bt="Hi."), empty_row("c:f:2", "c", "x", "y")]
    (tmp_path / "rejects").mkdir()
    pq.write_table(pairs_to_table(rows), tmp_path / "part-0.parquet")
    pq.write_table(pairs_to_table(rows), tmp_path / "rejects" / "ignored.parquet")
    pairs, counts = read_pairs([str(tmp_path)])
    assert pairs == [("Hello.", "Hi.")] and counts.read == 2


def test_read_pairs_carries_a_shard_column_and_names_a_missing_one(tmp_path):
    rows = [dict(empty_row("c:1", "c", "x", "Hello."), bt="Hi.", para_score=0.8),
            dict(empty_row("c:2", "c", "y", "Bye."), bt="See you.")]
    pq.write_table(pairs_to_table(rows), tmp_path / "corpus.parquet")
    pairs, _ = read_pairs([str(tmp_path / "corpus.parquet")], carry=("para_score",))
    assert pairs == [("Hello.", "Hi.", pytest.approx(0.8)), ("Bye.", "See you.", None)]
    with pytest.raises(TrainingDataError, match="has no column no_such_score"):
        read_pairs([str(tmp_path / "corpus.parquet")], carry=("no_such_score",))
    (tmp_path / "pairs.tsv").write_text("a\tb\n")
    with pytest.raises(TrainingDataError, match="file of pairs: it has no column para_score"):
        read_pairs([str(tmp_path / "pairs.tsv")], carry=("para_score",))
    (tmp_path / "broken.parquet").write_bytes(b"not parquet")
    with pytest.raises(TrainingDataError, match="not a readable Parquet file"):
        read_pairs([str(tmp_path / "broken.parquet")])


def test_the_trainers_the_paraphrasers_and_the_nmt_recipe_read_a_pair_tsv_alike(tmp_path):
    path = tmp_path / "pairs.tsv"
    path.write_bytes(b'a b\tc d\n\xff\tx\n\nonly one side\n"Hi," he said.\tok\n')    # not UTF-8, blank, one column
    expected = [("a b", "c d"), ('"Hi," he said.', "ok")]
    rejects = {"read/invalid_utf8": 1, "read/empty_line": 1, "read/wrong_column_count": 1}
    pairs, counts = read_pairs([str(path)])
    assert pairs == expected and counts.rejects.by_reason == rejects
    seen = LineRejects()
    assert [(p.s1, p.s2) for p in read_parsed_pairs([str(path)], seen)] == expected and seen.by_reason == rejects
    seen = LineRejects()
    assert [(row["source"], row["target"]) for row in tsv_pairs(path, seen, ("source", "target"))] == expected
    assert seen.by_reason == rejects
