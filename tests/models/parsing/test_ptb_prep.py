"""PTB preprocessing: splits, treebank and CoNLL-U files from real .mrg files."""
from paranmt.models.parsing.ptb import PTB_TO_UPOS, read_mrg, split_files, write_conllu, write_treebank
from paranmt.models.parsing.trees import parse_one


def test_split_and_write(shared_data, tmp_path):
    files = sorted((shared_data / "treebank" / "ptb-sample").glob("wsj_*.mrg"))
    splits = split_files(files, dev=range(150, 160), test=range(160, 180))
    assert [len(splits[s]) for s in ("train", "dev", "test")] == [149, 10, 20]
    assert splits["test"][0].name == "wsj_0160.mrg"
    trees = read_mrg(files[0]) + read_mrg(files[1])
    write_treebank(trees, tmp_path / "t.mrg")
    lines = (tmp_path / "t.mrg").read_text().splitlines()
    assert [parse_one(line) for line in lines] == trees
    write_conllu(trees, tmp_path / "t.conllu")
    rows = [line.split("\t") for line in (tmp_path / "t.conllu").read_text().splitlines()
            if line and not line.startswith("#")]
    assert len(rows) == sum(len(t.leaves()) for t in trees)
    assert all(len(row) == 10 for row in rows)
    assert rows[0][:5] == ["1", "Pierre", "_", "PROPN", "NNP"]
    assert all(row[4] in PTB_TO_UPOS for row in rows)
