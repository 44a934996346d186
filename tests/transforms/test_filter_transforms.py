"""The filter's Beam pieces on their own: the smallest-hashes combiner, the TSV lines, the spill dedup over
shards (partitioned or not, the same losers as one in-memory group-by)."""
import random

import numpy as np
import pyarrow as pa

from paranmt.models.filters.plan import KEPT, FilterPlan, dedup_losers
from paranmt.transforms.filter import SmallestHashes, _PartitionLosersFn, _SpillCandidatesFn, shard_losers, tsv_lines
from paranmt.transforms.shards import ParquetShardWriter


def test_smallest_hashes_is_order_free_and_exact():
    values = np.random.default_rng(3).integers(0, 2 ** 63, 1000, dtype=np.uint64)
    combiner = SmallestHashes(10)
    one = combiner.add_input(combiner.create_accumulator(), values)
    parts = [combiner.add_input(combiner.create_accumulator(), chunk) for chunk in np.array_split(values, 7)]
    merged = combiner.merge_accumulators([parts[3], combiner.create_accumulator(), *parts[:3], *parts[4:]])
    assert combiner.extract_output(one).tolist() == combiner.extract_output(merged).tolist() == \
        sorted(values.tolist())[:10]


def test_tsv_lines_collapse_whitespace_like_str_split():
    table = pa.table({"ref": ["a  b\tc ", " x\u2028y"], "bt": [None, "z\x85w\n"]})
    assert tsv_lines(table) == b"a b c\t\nx y\tz w\n"
    assert tsv_lines(table.slice(1)) == b"x y\tz w\n" and tsv_lines(table.slice(0, 0)) == b""


def test_spilled_dedup_gives_the_losers_of_one_in_memory_group_by(bitext, tmp_path):
    sentences = (bitext / "newstest2017.eng").read_text(encoding="utf-8").splitlines()[:60]
    rng = random.Random(7)
    rows = [{"id": f"news:{i:04d}", "corpus": "news", "cs": "x", "ref": rng.choice(sentences), "bt": "y",
             "para_score": rng.choice([0.5, 0.6, None])} for i in range(600)]
    paths = []
    for number in range(3):
        path = tmp_path / "in" / f"news-{number:05d}.parquet"
        path.parent.mkdir(exist_ok=True)
        writer = ParquetShardWriter(str(path))
        writer.write_rows(rows[number::3])
        writer.close()
        paths.append(str(path))
    plan = FilterPlan([], dedup=["ref"], dedup_normalization="exact")
    whole = pa.Table.from_pylist(rows)
    expected = set(dedup_losers(plan.dedup_candidates(whole, np.full(len(rows), KEPT, np.int16)))
                   .column("id").to_pylist())
    assert 0 < len(expected) < len(rows)
    for partitions in (1, 4):
        work = str(tmp_path / f"work{partitions}")
        spill = _SpillCandidatesFn(plan, ["id", "para_score", "ref"], work, partitions)
        written = sorted({number for path in paths for number in spill.process(path, {})})
        assert written == list(range(partitions))
        for number in written:
            list(_PartitionLosersFn(work).process(number))
        losers = pa.concat_tables([shard_losers(work, path) for path in paths])
        assert set(losers.column("id").to_pylist()) == expected and losers.num_rows == len(expected)
