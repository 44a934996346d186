"""The curves of a training run: the shared loop's `<output>/metrics.jsonl` (models/loop.py) as
`<output>/metrics.png` (matplotlib, Agg backend, as models/stats/plots.py).

`read_records` reads the file, skipping a line that is not a JSON object (a run killed mid-write leaves a partial
last line); `run_curves` turns the records into the series drawn (`Curves`); `draw_curves` reads, draws and writes
the PNG atomically (`<png>.tmp`, then renamed), so an interrupted redraw never leaves a broken image. The loop
imports this module only when it first draws, so its own import cost does not change.

What is drawn: one panel per training field (the task's `shown` window fields, e.g. loss, megabatch, kl) against
the update number; one panel per dev metric (a key named `dev...`), a mapping metric (the encoders'
{"dev": {dataset: Pearson x100}}) as one line per value plus their mean when there are several, the best
evaluation of the kept metric (`best` = (key, "min" | "max"), the loop's keep-best: the first that beat every one
before it) marked; epoch ends as light vertical lines; in the title, the last update and, once the run is done,
why it stopped (a run that diverged: "stopped at update N: diverged"). A resumed run appends to the file, so its
curves are the whole history; a point at an update not after the previous point of its series (lines written after
the checkpoint a resume went back to) replaces the points from that update on.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402 - the backend must be chosen first
import numpy as np  # noqa: E402

COUNTERS = ("step", "epoch", "elapsed_s", "seconds")    # fields of a line that are not curves
MAX_EPOCH_LINES = 60                                    # more epoch ends than this are not drawn (clutter)
MAX_POINTS = 1000                                       # points of a line drawn at most (`thinned`)

Series = list[tuple[int, float]]


@dataclass
class Curves:
    """The series of a run: `train` (window field -> [(update, value)]), `dev` (dev metric -> its lines, each
    label -> [(update, value)]), `best` ((metric, update, value) of the best evaluation, or None), `epoch_ends`
    (the update of the first line after each epoch ended), `last_step`, `done` and `stopped` (the last line's:
    "patience" on a done line, "diverged" on the line of a run that diverged, not done)."""
    train: dict[str, Series] = field(default_factory=dict)
    dev: dict[str, dict[str, Series]] = field(default_factory=dict)
    best: tuple[str, int, float] | None = None
    epoch_ends: list[int] = field(default_factory=list)
    last_step: int = 0
    done: bool = False
    stopped: str | None = None


def read_records(path: Path) -> list[dict]:
    """The JSON-object lines of `path`, in order; a line that is not one (partly written, edited) is skipped."""
    records = []
    with open(path, encoding="utf-8", errors="replace") as lines:
        for line in lines:
            try:
                record = json.loads(line)
            except ValueError:
                continue
            if isinstance(record, dict):
                records.append(record)
    return records


def _add(series: Series, step: int, value: float) -> None:
    """Append (step, value); a step not after the last one's replaces the points from it on (a resume's rewind)."""
    while series and series[-1][0] >= step:
        series.pop()
    series.append((step, value))


def _number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def run_curves(records: list[dict], shown: tuple[str, ...] | None = None,
               best: tuple[str, str] | None = None) -> Curves:
    """The `Curves` of a run's metrics `records` (module docstring): training fields `shown` (None: every numeric
    field that is not a counter or dev metric), dev metrics = the keys starting with "dev" (and `best`'s key)."""
    curves = Curves()
    epochs: Series = []
    kept: dict[str, Series] = {}          # a dev metric's compared values (a mapping's mean)
    for record in records:
        step = record.get("step")
        if not _number(step):
            continue
        step = int(step)
        curves.last_step = step
        curves.done, curves.stopped = bool(record.get("done")), record.get("stopped")
        if "done" in record:              # the last line of a run (done, or stopped by a divergence): no point
            continue
        if _number(record.get("epoch")):
            _add(epochs, step, record["epoch"])
        for key, value in record.items():
            if key in COUNTERS:
                continue
            if key.startswith("dev") or (best is not None and key == best[0]):
                if isinstance(value, dict):
                    values = {f"{key}: {name}": v for name, v in value.items() if _number(v)}
                    if not values:
                        continue
                    mean = float(np.mean(list(values.values())))
                    if len(values) > 1:
                        values[f"{key}: mean"] = mean
                elif _number(value):
                    values, mean = {key: value}, value
                else:
                    continue
                for label, v in values.items():
                    _add(curves.dev.setdefault(key, {}).setdefault(label, []), step, float(v))
                _add(kept.setdefault(key, []), step, float(mean))
            elif _number(value) and (key in shown if shown is not None else True):
                _add(curves.train.setdefault(key, []), step, float(value))
    if shown is not None:
        curves.train = {key: curves.train[key] for key in shown if key in curves.train}
    if best is not None and kept.get(best[0]):
        pick = min if best[1] == "min" else max
        value = pick(v for _, v in kept[best[0]])
        step = next(s for s, v in kept[best[0]] if v == value)
        curves.best = (best[0], step, value)
    curves.epoch_ends = [s for (s, e), (_, before) in zip(epochs[1:], epochs) if e > before]
    return curves


def thinned(points: Series, most: int = MAX_POINTS) -> tuple[np.ndarray, np.ndarray]:
    """(updates, values) of `points` as drawn: more than `most` points are averaged in runs of consecutive ones
    (each at its run's last update), so a redraw of a long run's file costs about what a short one's does."""
    steps, values = np.asarray(points, dtype=float).T
    size = -(-len(points) // most)
    if size > 1:
        ends = np.arange(size, len(points) + size, size).clip(max=len(points)) - 1
        starts = np.arange(0, len(points), size)
        sums = np.add.reduceat(values, starts)
        steps, values = steps[ends], sums / (ends - starts + 1)
    return steps, values


def curves_figure(curves: Curves, title: str = "training"):
    """The figure of `curves`: training panels, then dev panels, sharing the update axis."""
    panels = [(name, {name: points}) for name, points in curves.train.items()] + list(curves.dev.items())
    rows = max(1, len(panels))
    height = 2.2 * rows + 0.8
    figure, axes = plt.subplots(rows, 1, figsize=(8, height), sharex=True, squeeze=False)
    figure.subplots_adjust(left=0.1, right=0.97, top=1 - 0.45 / height, bottom=0.45 / height, hspace=0.08)
    # fixed margins: a constrained or tight layout would double the cost of a redraw
    axes = axes[:, 0]
    for axis, (name, lines) in zip(axes, panels):
        for label, points in lines.items():
            steps, values = thinned(points)
            mean = label.endswith(": mean")
            axis.plot(steps, values, label=label, marker="o" if len(points) < 30 else None,
                      markersize=3, linewidth=2 if mean else 1, color="black" if mean else None)
        if curves.best is not None and curves.best[0] == name:
            _, step, value = curves.best
            axis.plot([step], [value], marker="*", markersize=14, color="red", linestyle="none",
                      label=f"best {value:.4g} at update {step}")
        axis.set_ylabel(name)
        axis.grid(alpha=0.3)
        if len(lines) > 1 or name in curves.dev:
            axis.legend(fontsize=7)
        if len(curves.epoch_ends) <= MAX_EPOCH_LINES:
            axis.vlines(curves.epoch_ends, 0, 1, transform=axis.get_xaxis_transform(), colors="tab:green",
                        alpha=0.35, linewidth=0.8, linestyles="--")
    if not panels:
        axes[0].text(0.5, 0.5, "no metrics lines yet", ha="center", va="center", transform=axes[0].transAxes,
                     color="gray")
    axes[-1].set_xlabel("update" + (" (dashed lines: epoch ends)" if 0 < len(curves.epoch_ends) <= MAX_EPOCH_LINES
                                    else ""))
    state = f"update {curves.last_step}"
    if curves.done:
        state = f"done at {state}" + (f", stopped: {curves.stopped}" if curves.stopped else "")
    elif curves.stopped:
        state = f"stopped at {state}: {curves.stopped}"
    figure.suptitle(f"{title} ({state})")
    return figure


def draw_curves(metrics: Path, png: Path, shown: tuple[str, ...] | None = None,
                best: tuple[str, str] | None = None, title: str = "training") -> Curves:
    """Read `metrics` (a run's metrics.jsonl, the whole file), draw its curves into `png` atomically (`<png>.tmp`,
    then renamed over it); returns the curves drawn."""
    curves = run_curves(read_records(metrics), shown, best)
    figure = curves_figure(curves, title)
    tmp = png.with_name(png.name + ".tmp")
    try:
        figure.savefig(tmp, format="png", dpi=90)
        os.replace(tmp, png)
    except BaseException:               # also a stop (KeyboardInterrupt) mid-write: no .tmp left behind
        tmp.unlink(missing_ok=True)
        raise
    finally:
        plt.close(figure)
    return curves
