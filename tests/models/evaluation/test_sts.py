"""STS evaluation over the real layouts in ../shared/data/sts."""
import csv

import numpy as np
import pytest

from paranmt.models.evaluation.sts import (STSDataset, STSResult, discover_datasets, score_dataset, write_results,
                                          year_means)


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
        "STS2017/track4b.es-en", "STS2017/track5.en-en"}
    assert skipped == ["STS2017/track6.tr-en: 500 input lines but 250 gold lines"]
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
