"""`paranmt export` in its three formats, end to end from the CLI."""
import pyarrow.dataset as ds
import pyarrow.parquet as pq
import pytest
import yaml

from paranmt.models.parsing.trees import from_scpn
from paranmt.pipelines.cli import main
from paranmt.schemas.records import table_to_pairs

LOCAL = ["--runner=DirectRunner", "--direct_running_mode=in_memory"]


@pytest.fixture(scope="module")
def rows(corpus_shards):
    return [r for path in sorted(corpus_shards.glob("*.parquet")) for r in table_to_pairs(pq.read_table(path))]


def test_paranmt_text_format(corpus_shards, rows, tmp_path):
    output = tmp_path / "para-nmt.txt"
    assert main(["export", "--format", "paranmt-txt", "--input", str(corpus_shards), "--output", str(output),
                 *LOCAL]) == 0
    lines = output.read_text(encoding="utf-8").splitlines()
    assert len(lines) == len(rows)
    ref, bt, score = lines[0].split("\t")
    first = rows[0]  # shards are concatenated in name order: captions-00000 first
    assert (ref, bt) == (first["ref"].lower(), first["bt"].lower()) and float(score) == pytest.approx(
        first["para_score"], abs=1e-6)
    assert not list(tmp_path.glob("_export_parts*"))


def test_scpn_format_has_both_directions_of_pairs_with_different_parses(corpus_shards, rows, tmp_path):
    output = tmp_path / "scpn.tsv"
    assert main(["export", "--format", "scpn", "--input", str(corpus_shards), "--output", str(output),
                 "--no-lowercase", *LOCAL]) == 0
    lines = output.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "source\ttarget_parse\ttarget_template\ttarget"
    parsed = [r for r in rows if r["ref_parse"] and r["bt_parse"] and r["ref_parse"] != r["bt_parse"]]
    assert len(parsed) == 12 and len(lines) == 1 + 2 * len(parsed)
    by_source = {line.split("\t")[0]: line.split("\t") for line in lines[1:]}
    for row in parsed:
        source, parse, template, target = by_source[row["ref"]]
        assert target == row["bt"] and from_scpn(parse) == row["bt_parse"]
        assert template.startswith("( ROOT ") and template.endswith(" EOP")
        assert by_source[row["bt"]][3] == row["ref"] and from_scpn(by_source[row["bt"]][1]) == row["ref_parse"]


def test_hf_layout_loads_with_pyarrow_and_has_a_dataset_card(corpus_shards, rows, tmp_path):
    output = tmp_path / "hf"
    assert main(["export", "--format", "hf", "--input", str(corpus_shards), "--output", str(output), *LOCAL]) == 0
    table = ds.dataset(str(output / "data"), format="parquet").to_table()
    assert table.num_rows == len(rows)
    assert sorted(table.column("id").to_pylist()) == sorted(r["id"] for r in rows)
    assert str(table.schema.field("source_scores").type) == "string"
    card = (output / "README.md").read_text()
    header = yaml.safe_load(card.split("---")[1])
    assert header["configs"][0]["data_files"][0] == {"split": "train", "path": "data/*.parquet"}
    assert header["size_categories"] == ["1K<n<10K"] and "`para_score`" in card
