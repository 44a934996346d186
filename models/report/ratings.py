"""The ratings a person made on the rating sheet of `paranmt report --rate` (a CSV the page saves: one line per
rated pair, columns `RATING_COLUMNS`), turned into the per-band table of P18 Table 3.

Per band: the pairs rated, the share of each answer 1/2/3 to the two questions (paraphrase, fluency) and the mean
trigram overlap of the rated pairs. Several CSV files (one per annotator) pool their answers: a pair rated by two
people counts twice, as the paper's two annotators' percentages do (SPEC §12.2 AMBIG).

Beside P18 Table 3 (bands of para_score only): P18 drew 100 pairs from each of five para-score bins
(`P18_TABLE3`); the report's bands are tenths, so each P18 bin pools the tenths inside it, each weighted by its
rows in the corpus (`band_rows`, which the CSV carries): share = sum_b rows_b * share_b / sum_b rows_b over the
rated bands b of the bin, the estimate of the bin's share that a uniform sample of the bin would give.
"""
from __future__ import annotations

import csv
import io
import math

from paranmt.models.report.page import QUESTIONS, RATING_COLUMNS

REQUIRED = ("pair_id", "band", "band_low", "band_high", "band_rows", "paraphrase", "fluency")
ANSWERS = ("1", "2", "3")
# P18 Table 3 (= T Table 27; SPEC §12.2): para-score bin (low, high], pairs in the bin (millions), mean trigram
# overlap ± sd, paraphrase 1/2/3 and fluency 1/2/3 (% of the 100 rated pairs)
P18_TABLE3 = (
    ((-0.1, 0.2), 4.0, (0.00, 0.0), (92, 6, 2), (1, 5, 94)),
    ((0.2, 0.4), 3.8, (0.02, 0.1), (53, 32, 15), (1, 12, 87)),
    ((0.4, 0.6), 6.9, (0.07, 0.1), (22, 45, 33), (2, 9, 89)),
    ((0.6, 0.8), 14.4, (0.17, 0.2), (1, 43, 56), (11, 0, 89)),
    ((0.8, 1.0), 18.0, (0.35, 0.2), (1, 13, 86), (3, 0, 97)),
)
EDGE_TOLERANCE = 1e-6


def read_ratings(text: str, name: str) -> list[dict]:
    """The rated pairs of one CSV (`name` for messages): ValueError naming the line for a missing column, a value
    of the wrong kind, an answer other than 1-3 or a pair rated twice. A line with neither answer is skipped."""
    reader = csv.DictReader(io.StringIO(text))
    missing = [column for column in REQUIRED if column not in (reader.fieldnames or [])]
    if missing:
        raise ValueError(f"{name} is not a ratings CSV of `paranmt report --rate`: no column(s) {', '.join(missing)} "
                         f"(expected {','.join(RATING_COLUMNS)})")
    ratings, seen = [], set()
    for line, record in enumerate(reader, 2):
        answers = {question: (record.get(question) or "").strip() for question in QUESTIONS}
        if not any(answers.values()):
            continue
        bad = [f"{question}={value!r}" for question, value in answers.items() if value and value not in ANSWERS]
        if bad:
            raise ValueError(f"{name} line {line}: answers are 1, 2 or 3 (or empty), got {', '.join(bad)}")
        if record["pair_id"] in seen:
            raise ValueError(f"{name} line {line}: pair {record['pair_id']!r} is rated twice in one file")
        seen.add(record["pair_id"])
        try:
            low, high, rows = float(record["band_low"]), float(record["band_high"]), int(record["band_rows"])
            overlap = float(record["trigram_overlap"]) if (record.get("trigram_overlap") or "").strip() else None
        except ValueError as error:
            raise ValueError(f"{name} line {line}: {error}") from None
        ratings.append({"pair_id": record["pair_id"], "by": record.get("by") or "", "band": record["band"],
                        "low": low, "high": high, "band_rows": rows, "trigram_overlap": overlap, **answers})
    return ratings


def _shares(ratings: list[dict], question: str) -> dict:
    answered = [r[question] for r in ratings if r[question]]
    return {"answered": len(answered), **{answer: answered.count(answer) for answer in ANSWERS}}


def per_band(ratings: list[dict]) -> list[dict]:
    """One row per (column, band), in band order: rows of the band, pairs rated, answers per question, overlap."""
    bands: dict[tuple, list[dict]] = {}
    for rating in ratings:
        bands.setdefault((rating["by"], rating["low"], rating["high"], rating["band"]), []).append(rating)
    table = []
    for (by, low, high, band), rated in sorted(bands.items()):
        overlaps = [r["trigram_overlap"] for r in rated if r["trigram_overlap"] is not None]
        mean = sum(overlaps) / len(overlaps) if overlaps else None
        sd = math.sqrt(max(0.0, sum(o * o for o in overlaps) / len(overlaps) - mean * mean)) if overlaps else None
        table.append({"by": by, "band": band, "low": low, "high": high, "band_rows": max(r["band_rows"] for r in rated),
                      "rated": len(rated), "overlap_mean": mean, "overlap_sd": sd,
                      **{question: _shares(rated, question) for question in QUESTIONS}})
    return table


def beside_p18(bands: list[dict]) -> list[dict]:
    """P18 Table 3's rows, each with the pooled shares of the para_score bands inside its bin (module docstring)."""
    rows = []
    for (low, high), millions, overlap, paraphrase, fluency in P18_TABLE3:
        inside = [b for b in bands if b["by"] == "para_score" and b["low"] >= low - EDGE_TOLERANCE
                  and b["high"] <= high + EDGE_TOLERANCE]
        ours = {}
        for question in QUESTIONS:
            weighted = [(b["band_rows"], b[question]) for b in inside if b[question]["answered"]]
            total = sum(rows_ for rows_, _ in weighted)
            ours[question] = {answer: sum(rows_ * s[answer] / s["answered"] for rows_, s in weighted) / total
                              for answer in ANSWERS} if total else None
        rows.append({"bin": f"({low:g}, {high:g}]", "p18": {"pairs_millions": millions, "overlap": overlap,
                                                            "paraphrase": paraphrase, "fluency": fluency},
                     "bands": [b["band"] for b in inside], "rated": sum(b["rated"] for b in inside),
                     "rows": sum(b["band_rows"] for b in inside), **ours})
    return rows


def percent_triple(counts: dict | None) -> str:
    """`a/b/c`: the shares of answers 1/2/3 in percent (counts with `answered`, or shares in [0, 1])."""
    if not counts:
        return "–"
    if "answered" in counts:
        return "/".join(f"{100 * counts[a] / counts['answered']:.0f}" for a in ANSWERS) if counts["answered"] else "–"
    return "/".join(f"{100 * counts[a]:.0f}" for a in ANSWERS)


def markdown(bands: list[dict], p18: list[dict]) -> str:
    """The two tables as Markdown (what the command prints)."""
    lines = ["| band | rows | rated | mean tri. overlap | paraphrase 1/2/3 % | fluency 1/2/3 % |",
             "|---|---|---|---|---|---|"]
    for b in bands:
        overlap = "–" if b["overlap_mean"] is None else f"{b['overlap_mean']:.2f} ± {b['overlap_sd']:.2f}"
        lines.append(f"| {b['by']} {b['band']} | {b['band_rows']:,} | {b['rated']} | {overlap} | "
                     f"{percent_triple(b['paraphrase'])} | {percent_triple(b['fluency'])} |")
    if any(row["rated"] for row in p18):
        lines += ["", "| P18 bin | P18 pairs (M) | P18 paraphrase | ours (rows-weighted) | P18 fluency | ours | "
                      "rated (bands) |", "|---|---|---|---|---|---|---|"]
        for row in p18:
            p = row["p18"]
            lines.append(f"| {row['bin']} | {p['pairs_millions']} | {'/'.join(map(str, p['paraphrase']))} | "
                         f"{percent_triple(row['paraphrase'])} | {'/'.join(map(str, p['fluency']))} | "
                         f"{percent_triple(row['fluency'])} | {row['rated']} ({', '.join(row['bands']) or '–'}) |")
    return "\n".join(lines) + "\n"


def render_ratings(bands: list[dict], p18: list[dict], files: list[str]) -> str:
    """The tables as a self-contained page (ratings.html)."""
    from paranmt.models.report.page import h, number, page, table

    def overlap(b):
        return "–" if b["overlap_mean"] is None else f"{b['overlap_mean']:.2f} ± {b['overlap_sd']:.2f}"

    ours = table(["band", "rows", "rated", "mean tri. overlap", "paraphrase 1/2/3 %", "fluency 1/2/3 %"],
                 [[f"{b['by']} {b['band']}", number(b["band_rows"]), number(b["rated"]), overlap(b),
                   percent_triple(b["paraphrase"]), percent_triple(b["fluency"])] for b in bands], id="bands")
    beside = table(["P18 bin", "P18 pairs (M)", "P18 tri. overlap", "P18 paraphrase 1/2/3 %", "ours",
                    "P18 fluency 1/2/3 %", "ours", "rated pairs (bands)"],
                   [[row["bin"], row["p18"]["pairs_millions"], "{:.2f} ± {:.1f}".format(*row["p18"]["overlap"]),
                     "/".join(map(str, row["p18"]["paraphrase"])), percent_triple(row["paraphrase"]),
                     "/".join(map(str, row["p18"]["fluency"])), percent_triple(row["fluency"]),
                     f"{row['rated']} ({', '.join(row['bands']) or '–'})"] for row in p18], id="p18")
    body = [h("section", h("h2", "Ratings per band"),
              h("p", "Share of each answer among the rated pairs of the band (paraphrase: 3 same meaning, 2 roughly "
                     "equivalent, 1 not equivalent; fluency of the translation: 3 no grammatical error, 2 one or "
                     "two, 1 more or not natural English).", class_="dim"), ours, id="ratings",
              data_rated=sum(b["rated"] for b in bands)),
            h("section", h("h2", "Beside P18 Table 3"),
              h("p", "P18 rated 100 pairs per para-score bin. Ours: the tenths inside each bin pooled, each weighted "
                     "by its rows in the corpus.", class_="dim"), beside, id="table3")]
    header = h("div", h("h1", "Ratings"), h("p", "from " + ", ".join(files), class_="dim"))
    return page("paranmt ratings", "ratings", [], header, body)
