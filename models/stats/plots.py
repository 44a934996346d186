"""PNG plots of the statistics report (matplotlib, Agg backend; each function returns PNG bytes).

- score_histograms.png: 2x2 panels, one line per corpus, each normalized to its own total (share of rows):
  para score and trigram overlap (fixed bins, every row), bt_score and reference length (the stats sample).
- para_vs_overlap.png: 2-D histogram of para score x trigram overlap over every row of all corpora, log color
  scale (the relation behind T-Tab27: overlap grows with para score).
The para-score and overlap axes span the bins that hold data (`data_range`), within the column's possible range
(para score [-1, 1], overlap [0, 1]): a corpus whose cosines are all above -0.15 is not drawn over -1..1.
- templates.png: the 20 most frequent templates (horizontal bars).
- signals.png: one panel per pair signal of schema v2 (xsim, simile, bt_repetition, unigram_f1, kendall_tau),
  fixed bins over every row, one line per corpus, axes spanning the bins that hold data (skipped when a build
  filled none of them, e.g. schema v1 shards).
- probe.png (`paranmt probe`, models/training/probe.py): Pearson x100 per corpus or fold, one panel per STS dataset:
  one line per corpus and model over the folds when the corpora were cut into folds, else bars per corpus, one per
  model.
"""
from __future__ import annotations

import io

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402 - the backend must be chosen first
import numpy as np  # noqa: E402
from matplotlib.colors import LogNorm  # noqa: E402

from paranmt.models.stats.corpus_stats import (OVERLAP_BINS, OVERLAP_RANGE, PARA_BINS, PARA_RANGE,  # noqa: E402
                                               SIGNAL_RANGES)
from paranmt.models.stats.report import ALL  # noqa: E402


def _png(figure) -> bytes:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=110, bbox_inches="tight")
    plt.close(figure)
    return buffer.getvalue()


def _per_corpus(report: dict) -> dict:
    return {name: data for name, data in report["corpora"].items() if name != ALL}


def data_range(histograms: list[list[int]], value_range: tuple[float, float]) -> tuple[float, float]:
    """(lower edge of the first non-empty bin, upper edge of the last) over `histograms`, equal-width bins over
    `value_range` (so never outside it); `value_range` itself when every bin is empty."""
    counts = np.sum(np.asarray(histograms, dtype=float), axis=0) if len(histograms) else np.zeros(0)
    filled = np.flatnonzero(counts)
    if not len(filled):
        return value_range
    low, high = value_range
    width = (high - low) / len(counts)
    return low + filled[0] * width, low + (filled[-1] + 1) * width


def _fixed_bins(axis, counts, value_range, label):
    counts = np.asarray(counts, dtype=float)
    if counts.sum() == 0:
        return
    edges = np.linspace(value_range[0], value_range[1], len(counts) + 1)
    axis.stairs(counts / counts.sum(), edges, label=label)


def _sampled(axis, values, bins, label):
    if values:
        weights = np.full(len(values), 1.0 / len(values))
        axis.hist(values, bins=bins, weights=weights, histtype="step", label=label)


def score_histograms(report: dict) -> bytes:
    return _png(score_figure(report))


def score_figure(report: dict):
    corpora = _per_corpus(report)
    figure, axes = plt.subplots(2, 2, figsize=(11, 7.5), layout="constrained")
    samples_bt = [v for d in corpora.values() for v in d["bt_score_sample"]]
    bt_bins = np.linspace(min(samples_bt), 0.0, 31) if samples_bt else 30
    lengths = [v for d in corpora.values() for v in d["ref_length_sample"]]
    length_bins = np.arange(0, min(max(lengths), 120) + 2) if lengths else 30
    for name, data in corpora.items():
        _fixed_bins(axes[0, 0], data["para_histogram"], PARA_RANGE, name)
        _fixed_bins(axes[0, 1], data["overlap_histogram"], OVERLAP_RANGE, name)
        _sampled(axes[1, 0], data["bt_score_sample"], bt_bins, name)
        _sampled(axes[1, 1], [min(v, 120) for v in data["ref_length_sample"]], length_bins, name)
    titles = [("para score (all rows)", "cosine"), ("trigram overlap (all rows)", "overlap"),
              ("bt_score (sample)", "length-normalized log-prob"), ("reference length (sample)", "tokens")]
    for axis, (title, xlabel) in zip(axes.flat, titles):
        if not axis.has_data():
            axis.text(0.5, 0.5, "no values: the column is null in the input", ha="center", va="center",
                      transform=axis.transAxes, color="gray")
        axis.set_title(title)
        axis.set_xlabel(xlabel)
        axis.set_ylabel("share of rows")
        axis.grid(alpha=0.3)
    for axis in axes.flat:  # the first panel with data carries the legend
        if axis.get_legend_handles_labels()[0]:
            axis.legend(fontsize=8)
            break
    axes[0, 0].set_xlim(*data_range([d["para_histogram"] for d in corpora.values()], PARA_RANGE))
    axes[0, 1].set_xlim(*data_range([d["overlap_histogram"] for d in corpora.values()], OVERLAP_RANGE))
    figure.suptitle("Score and length distributions per corpus")
    return figure


def para_vs_overlap(report: dict) -> bytes:
    return _png(para_overlap_figure(report))


def para_overlap_figure(report: dict):
    corpora = report["corpora"]
    data = corpora[ALL] if ALL in corpora else next(iter(corpora.values()))
    matrix = np.asarray(data["para_overlap_histogram"], dtype=float)
    figure, axis = plt.subplots(figsize=(7, 5.5))
    if matrix.sum() > 0:
        image = axis.imshow(matrix.T, origin="lower", aspect="auto", cmap="viridis",
                            extent=(*PARA_RANGE, *OVERLAP_RANGE), norm=LogNorm(vmin=1, vmax=max(1.0, matrix.max())))
        figure.colorbar(image, ax=axis, label="rows")
    axis.set_xlim(*data_range([matrix.sum(axis=1)], PARA_RANGE))
    axis.set_ylim(*data_range([matrix.sum(axis=0)], OVERLAP_RANGE))
    axis.set_xlabel(f"para score ({(PARA_RANGE[1] - PARA_RANGE[0]) / PARA_BINS:g}-wide bins)")
    axis.set_ylabel(f"trigram overlap ({(OVERLAP_RANGE[1] - OVERLAP_RANGE[0]) / OVERLAP_BINS:g}-wide bins)")
    axis.set_title(f"Para score vs trigram overlap ({int(matrix.sum())} rows)")
    return figure


def templates(report: dict) -> bytes:
    corpora = report["corpora"]
    data = corpora[ALL] if ALL in corpora else next(iter(corpora.values()))
    top = data["templates_top"]
    figure, axis = plt.subplots(figsize=(9, 0.35 * max(len(top), 4) + 1.2))
    if top:
        names = [entry["template"] for entry in top][::-1]
        counts = [entry["count"] for entry in top][::-1]
        bars = axis.barh(range(len(top)), counts)
        axis.bar_label(bars, padding=2, fontsize=7)
        axis.set_yticks(range(len(top)), names, fontsize=8, family="monospace")
    axis.set_xlabel("ref + bt sentences")
    axis.set_title(f"Top {len(top)} templates of {data['templates_distinct']}")
    return _png(figure)


def signals(report: dict) -> bytes | None:
    corpora = _per_corpus(report) or report["corpora"]
    filled = [c for c in SIGNAL_RANGES if any(sum(d.get("signal_histograms", {}).get(c, [])) for d in corpora.values())]
    if not filled:
        return None
    columns = min(3, len(filled))
    rows = -(-len(filled) // columns)
    figure, axes = plt.subplots(rows, columns, figsize=(4.2 * columns, 3.2 * rows), squeeze=False,
                                layout="constrained")
    for index, column in enumerate(filled):
        axis = axes[index // columns][index % columns]
        value_range = SIGNAL_RANGES[column][0]
        for name, data in corpora.items():
            _fixed_bins(axis, data["signal_histograms"][column], value_range, name)
        axis.set_xlim(*data_range([d["signal_histograms"][column] for d in corpora.values()], value_range))
        axis.set_title(column)
        if index % columns == 0:
            axis.set_ylabel("share of rows")
    for index in range(len(filled), rows * columns):
        axes[index // columns][index % columns].axis("off")
    axes[0][0].legend(fontsize=7)
    figure.suptitle("Pair signals per corpus (every row)")
    return _png(figure)


def probe_plot(rows: list[dict]) -> bytes:
    return _png(probe_figure(rows))


def probe_figure(rows: list[dict]):
    """The probe's results.csv rows (corpus, fold, model, pairs, dataset, pearson as text) as a figure."""
    datasets = list(dict.fromkeys(r["dataset"] for r in rows))
    corpora = list(dict.fromkeys(r["corpus"] for r in rows))
    models = list(dict.fromkeys(r["model"] for r in rows))
    figure, axes = plt.subplots(1, len(datasets), figsize=(6.5 * len(datasets), 4.5), squeeze=False,
                                layout="constrained")
    folded = any(r["fold"].isdigit() for r in rows)
    for axis, dataset in zip(axes[0], datasets):
        score = {(r["corpus"], r["fold"], r["model"]): 100 * float(r["pearson"]) for r in rows
                 if r["dataset"] == dataset}
        if folded:
            for corpus in corpora:
                for model in models:
                    points = sorted((int(f), v) for (c, f, m), v in score.items() if c == corpus and m == model)
                    if points:
                        axis.plot(*zip(*points), marker="o",
                                  label=model if len(corpora) == 1 else f"{corpus} {model}")
            axis.set_xlabel("fold (0 = lowest values)")
            axis.xaxis.get_major_locator().set_params(integer=True)
        else:
            width = 0.8 / len(models)
            for index, model in enumerate(models):
                heights = [score.get((corpus, "all", model), np.nan) for corpus in corpora]
                bars = axis.bar(np.arange(len(corpora)) + (index - (len(models) - 1) / 2) * width, heights, width,
                                label=model)
                axis.bar_label(bars, fmt="%.1f", padding=2, fontsize=7)
            axis.set_xticks(range(len(corpora)), corpora, rotation=30 if len(corpora) > 4 else 0, ha="right"
                            if len(corpora) > 4 else "center")
        axis.set_title(dataset)
        axis.set_ylabel("Pearson r x 100")
        axis.grid(alpha=0.3)
        axis.legend(fontsize=8)
    figure.suptitle("Corpus probe: STS of an encoder trained on each corpus" + (" fold" if folded else ""))
    return figure


PLOTS = {"score_histograms.png": score_histograms, "para_vs_overlap.png": para_vs_overlap,
         "templates.png": templates, "signals.png": signals}
