"""STS evaluation over the real layouts in ../shared/data/sts."""
import csv
import shutil

import numpy as np
import pytest

from paranmt.models.evaluation.sts import (SCORED_LEADING_LINES, STSDataset, STSResult, discover_datasets,
                                          papers_mean, score_dataset, write_results, year_means)
from paranmt.pipelines.cli import main


@pytest.fixture(scope="module")
def discovered(shared_data):
    datasets, skipped = discover_datasets(shared_data / "sts")
    return {d.name: d for d in datasets}, skipped


def test_discovers_every_layout_with_the_right_pair_counts(discovered):
    datasets, skipped = discovered
    assert len(datasets["STS2015-test/images"].gold) == 750, "1,500 lines, 750 scored (empty gold lines skipped)"
    assert len(datasets["STS2017/track5.en-en"].gold) == 250, "STS2017 gold lives in the sibling STS2017.gs/"
    assert {n for n in datasets if n.startswith("STS2017/")} == {
        "STS2017/track1.ar-ar", "STS2017/track2.ar-en", "STS2017/track3.es-es", "STS2017/track4a.es-en",
        "STS2017/track4b.es-en", "STS2017/track5.en-en", "STS2017/track6.tr-en"}
    assert skipped == []
    assert len(datasets["stsbenchmark/sts-dev"].gold) == 1500, "lines with extra columns are kept"
    assert len(datasets["SICK/SICK_test_annotated"].gold) == 4927
    assert datasets["stsbenchmark/sts-dev"].s1[0] == "A man with a hard hat is dancing."
    assert sum(n.startswith("STS2014-test/") for n in datasets) == 6


def test_score_dataset_correlations_with_known_values():
    # three pairs whose cosines are 1, 0 and -1 (vectors chosen per sentence)
    vectors = {"a": [1.0, 0.0], "b": [1.0, 0.0], "c": [0.0, 1.0], "d": [0.0, -1.0], "": [0.0, 0.0]}
    dataset = STSDataset("x/y", "x", ["a", "a", "c", "a"], ["b", "c", "d", ""], np.array([5.0, 2.5, 0.0, 2.0]))
    result = score_dataset(lambda s: np.array([vectors[x] for x in s]), dataset)
    # predictions 1, 0, -1, 0 (undefined cosine -> 0) against gold 5, 2.5, 0, 2
    assert result.n == 4
    assert result.pearson == pytest.approx(np.corrcoef([1, 0, -1, 0], [5, 2.5, 0, 2])[0, 1])
    assert result.spearman == pytest.approx(0.9486832980505138)


def test_year_means_and_written_files(tmp_path):
    results = [STSResult("STS2012-test/a", 10, 0.6, 0.5), STSResult("STS2012-test/b", 10, 0.8, 0.7),
               STSResult("STS2013-test/c", 10, 0.5, 0.5), STSResult("STS2017/track5.en-en", 250, 0.9, 0.9)]
    assert year_means(results) == pytest.approx({"2012": 0.7, "2013": 0.5, "mean": 0.6})
    write_results(results, ["z: skipped"], tmp_path)
    rows = list(csv.reader((tmp_path / "results.csv").open()))
    assert rows[0] == ["dataset", "n", "pearson", "spearman"] and rows[4] == ["STS2017/track5.en-en", "250",
                                                                             "0.900000", "0.900000"]
    summary = (tmp_path / "summary.md").read_text()
    assert "| 70.0 | 50.0 | 60.0 |" in summary and "z: skipped" in summary
    assert "not the papers' 2012-2016 mean: 2014, 2015, 2016 missing" in summary


def test_sts2017_tr_en_scores_its_first_250_lines(discovered, shared_data):
    datasets, _ = discovered
    tr_en = datasets["STS2017/track6.tr-en"]
    assert len(tr_en.gold) == 250 == SCORED_LEADING_LINES["track6.tr-en"]
    # line 3 is a translation pair with gold 5.0; line 253 (unscored half) would be mis-paired with it
    assert (tr_en.s1[2], tr_en.s2[2], tr_en.gold[2]) == ("People are having a meeting.",
                                                         "İnsanlar bir toplantı yapıyor.", 5.0)
    lines = (shared_data / "sts/STS2017/STS2017.eval.v1.1/STS.input.track6.tr-en.txt").read_text().splitlines()
    assert len(lines) == 500 and tr_en.s1[-1] == lines[249].split("\t")[0]


def write_sts2016(folder, pairs):
    """The official STS2016 layout: STS2016.input.<name>.txt (s1 TAB s2 [TAB sources]) + STS2016.gs.<name>.txt."""
    folder.mkdir(parents=True)
    (folder / "STS2016.input.headlines.txt").write_text("".join(f"{a}\t{b}\tsource-a\tsource-b\n" for a, b, _ in pairs))
    (folder / "STS2016.gs.headlines.txt").write_text("".join(f"{g}\n" for _, _, g in pairs))


def test_sts2016_official_layout_and_the_papers_mean(shared_data, tmp_path, capsys, repo):
    root = tmp_path / "sts"
    root.mkdir()
    for year in (2012, 2013, 2014, 2015):
        shutil.copytree(shared_data / "sts" / f"STS{year}-test", root / f"STS{year}-test")
    # five real STS Benchmark dev pairs in the 2016 release layout, one unscored (empty gold line)
    stsb = [line.split("\t") for line in (shared_data / "sts/stsbenchmark/sts-dev.csv").read_text().splitlines()[:5]]
    pairs = [(r[5], r[6], r[4]) for r in stsb]
    pairs[1] = (pairs[1][0], pairs[1][1], "")
    write_sts2016(root / "sts2016-english-with-gs-v1.0", pairs)
    datasets, skipped = discover_datasets(root)
    by_name = {d.name: d for d in datasets}
    sts2016 = by_name["sts2016-english-with-gs-v1.0/headlines"]
    assert skipped == [] and len(sts2016.gold) == 4 and sts2016.s1[1] == pairs[2][0]
    assert sts2016.gold.tolist() == [float(pairs[i][2]) for i in (0, 2, 3, 4)]
    results = [STSResult(d.name, len(d.gold), 0.5 + 0.01 * i, 0.0) for i, d in enumerate(datasets)]
    means = year_means(results)
    assert list(means) == ["2012", "2013", "2014", "2015", "2016", "mean"]
    assert papers_mean(means) == pytest.approx(np.mean([means[y] for y in ("2012", "2013", "2014", "2015", "2016")]))
    assert papers_mean(year_means(results[:-1])) is None, "2016 missing: not the papers' number"

    out = tmp_path / "eval"
    assert main(["eval", "--model", str(repo / "assets" / "encoder-sp"), "--sts-dir", str(root),
                 "--output", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "mean of the five year means (STS 2012-2016, the papers' number)" in printed
    assert "the papers' number" in (out / "summary.md").read_text()
