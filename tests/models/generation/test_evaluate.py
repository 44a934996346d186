"""The NMT-BT baseline's draw (models/generation/evaluate.py `nmt_bt_candidates`) on real WMT22 cs-en rows: each
pair's output is another system's translation of the same source segment, never the pair's own row, the same
whatever the order of the pool, spread over the other systems, and None where the source has no other
translation."""
import csv
import gzip
import random

import pytest

from paranmt.models.generation.evaluate import EvalPair, nmt_bt_candidates

SEGMENTS = 6


@pytest.fixture(scope="module")
def wmt_rows(shared_data) -> list[dict]:
    """Every system's output of the first SEGMENTS segments of WMT22 cs-en (id, ref, bt, system, segment)."""
    with gzip.open(shared_data / "wmt-bt" / "wmt22.cs-en.tsv.gz", "rt", encoding="utf-8", newline="") as handle:
        rows = [row for row in csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE)
                if int(row["id"].split(".")[2]) < SEGMENTS]
    for row in rows:
        row["segment"] = int(row["id"].split(".")[2])
    return rows


def pool_of(rows):
    return [(row["id"], row["ref"], row["bt"]) for row in rows]


def test_the_output_is_another_system_of_the_same_segment(wmt_rows):
    systems = {row["system"] for row in wmt_rows}
    assert len(systems) >= 5 and len(wmt_rows) == SEGMENTS * len(systems)     # 5-19 systems per segment
    pairs = [EvalPair(row["id"], row["ref"], row["bt"], "", "") for row in wmt_rows]
    drawn = nmt_bt_candidates(pairs, pool_of(wmt_rows))
    by_id = {row["id"]: row for row in wmt_rows}
    for pair, (row_id, text) in zip(pairs, drawn):
        other = by_id[row_id]
        assert row_id != pair.id and other["segment"] == by_id[pair.id]["segment"]
        assert other["system"] != by_id[pair.id]["system"] and text == other["bt"]
    # a seeded draw per pair, not the first or the last system of the pool for everyone
    assert len({by_id[row_id]["system"] for row_id, _ in drawn}) >= len(systems) // 2
    shuffled = pool_of(wmt_rows)
    random.Random(1).shuffle(shuffled)
    assert nmt_bt_candidates(pairs, shuffled) == drawn


def test_a_source_with_one_translation_has_no_nmt_bt_output(wmt_rows):
    first = [row for row in wmt_rows if row["system"] == wmt_rows[0]["system"]]
    pairs = [EvalPair(row["id"], row["ref"], row["bt"], "", "") for row in first]
    assert nmt_bt_candidates(pairs, pool_of(first)) == [None] * len(first)
    others = [row for row in wmt_rows if row["system"] != first[0]["system"]]
    assert all(found is not None for found in nmt_bt_candidates(pairs, pool_of(others)))
    empty_bt = [(row_id, ref, " ") for row_id, ref, _ in pool_of(others)]
    assert nmt_bt_candidates(pairs, empty_bt) == [None] * len(first)
