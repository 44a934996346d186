"""The report's plots: the para-score and overlap axes span the data (within the column's possible range), on
real STS Benchmark pairs with para score = the cosine-like rescaling 2 * gold / 5 - 0.15 (all above -0.15)."""
import pytest

from paranmt.models.stats.corpus_stats import PARA_RANGE, CorpusAccumulator
from paranmt.models.stats.plots import PLOTS, data_range, para_overlap_figure, score_figure
from paranmt.models.stats.report import build_stats
from paranmt.models.stats.text_stats import words


@pytest.fixture(scope="module")
def report(shared_data):
    accumulators = {}
    lines = (shared_data / "sts" / "stsbenchmark" / "sts-train.csv").read_text(encoding="utf-8").splitlines()
    for number, line in enumerate(lines[::7], 1):
        fields = line.split("\t")
        if len(fields) < 7:
            continue
        ref, bt = fields[5], fields[6]
        ref_words, bt_words = words(ref), words(bt)
        shared = len(set(ref_words) & set(bt_words)) / max(1, min(len(set(ref_words)), len(set(bt_words))))
        row = {"id": f"stsb:{number}", "corpus": fields[0], "ref": ref, "bt": bt,
               "para_score": 0.4 * float(fields[4]) - 0.15, "trigram_overlap": 0.5 * shared, "bt_score": -1.0,
               "ref_len": len(ref_words), "bt_len": len(bt_words), "ref_template": None, "bt_template": None}
        accumulators.setdefault(row["corpus"], CorpusAccumulator()).add(row)
    return build_stats(accumulators)


def test_data_range_is_the_span_of_the_filled_bins():
    assert data_range([[0, 0, 3, 1], [0, 0, 0, 2]], (-1.0, 1.0)) == (0.0, 1.0)
    assert data_range([[0, 5, 0, 0]], (0.0, 1.0)) == (0.25, 0.5)
    assert data_range([[0, 0, 0, 0]], (-1.0, 1.0)) == (-1.0, 1.0)


def test_para_and_overlap_axes_span_the_data(report):
    low, high = score_figure(report).axes[0].get_xlim()
    assert low == pytest.approx(-0.15) and high == pytest.approx(1.0)          # 0.05-wide bins
    overlap_low, overlap_high = score_figure(report).axes[1].get_xlim()
    assert (overlap_low, overlap_high) == pytest.approx((0.0, 0.55))   # overlap <= 0.5; 0.5 opens the bin [0.5, 0.55)
    joint = para_overlap_figure(report).axes[0]
    assert joint.get_xlim() == pytest.approx((low, high))
    assert PARA_RANGE[0] < low
    images = {name: plot(report) for name, plot in PLOTS.items()}
    assert images.pop("signals.png") is None             # no signal columns in these rows: no empty plot
    assert all(image[:8] == b"\x89PNG\r\n\x1a\n" for image in images.values())
