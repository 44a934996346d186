"""The sections of `paranmt report`'s page, from the report dict (`render_report`): the build, distributions,
statistics (P18 Table 1 and the score-bin table, through models/stats), template pairs, samples per band (with the
rating controls of `--rate`), filter previews, and for `paranmt paraphrase` shards the paraphrases.

Each section is `<section id=NAME>` with its counts in data attributes (`data-rows`, `data-read`, ...), which the
tests compare with the shards' own counts; each shown pair is `<article class="pair">` with its id, band and the
band's row count in data attributes, which the rating script writes into the ratings CSV. A blind rating sheet
(`--rate --blind`) is the samples section alone, as one shuffled numbered list of pairs that show their two texts
only, the CSV's fields sealed (page.py `seal`).
"""
from __future__ import annotations

import hashlib
import json
import random

from paranmt.models.report.diff import differing
from paranmt.models.report.page import QUESTIONS, Safe, h, histogram, number, page, seal, share, table

SCORE_COLUMNS = ("para_score", "trigram_overlap", "bt_score", "simile", "xsim")


def marked(pieces: list[tuple[str, bool]]) -> Safe:
    return h("span", *(h("mark", piece) if differs else piece for piece, differs in pieces))


def rating_fields(row: dict, band: dict, by: str) -> dict[str, str]:
    """What the ratings CSV carries of a sampled pair besides its answers (RATING_COLUMNS), as the page's text."""
    values = {"pair_id": row.get("id"), "by": by, "band": band["band"], "band_low": band["low"],
              "band_high": band["high"], "band_rows": band["rows"], "trigram_overlap": row.get("trigram_overlap")}
    return {column: "" if value is None else str(value) for column, value in values.items()}


def pair_article(row: dict, band: dict | None = None, by: str = "", rate: bool = False, index: int = 0,
                 extra: Safe | None = None, blind_key: str | None = None) -> Safe:
    """One pair: reference beside translation with the differing words marked, its scores, and with `rate` the
    two questions of the paper's manual evaluation. With `blind_key` (a blind rating sheet: the report's id) it is
    pair number index + 1 and shows the two texts and the questions only: no id, corpus, language, score or marks;
    its rating fields are sealed with the key (page.py `seal`)."""
    controls = []
    if rate:
        for question, (title, answers) in QUESTIONS.items():
            controls.append(h("fieldset", h("legend", title), *(
                h("label", h("input", type="radio", name=f"{question}-{index}", value=value,
                             data_question=question), f" {value} ", h("span", meaning, class_="dim"))
                for value, meaning in answers.items()), class_="rate", data_question=question))
    fields = rating_fields(row, band, by) if band is not None else {}
    if blind_key is not None:
        return h("article", h("div", h("b", f"Pair {index + 1}"), class_="dim"),
                 h("div", h("div", h("b", "reference"), row.get("ref") or "", class_="side"),
                   h("div", h("b", "translation"), row.get("bt") or "", class_="side"), class_="sides"),
                 *controls, class_="pair", data_id=index + 1, data_rate=rate or None,
                 data_sealed=seal(fields, blind_key))
    ref, bt = differing(row.get("ref") or "", row.get("bt") or "")
    scores = [f"{name} {number(row[name])}" for name in SCORE_COLUMNS if row.get(name) is not None]
    if by and by not in SCORE_COLUMNS and row.get(by) is not None:
        scores.append(f"{by} {number(row[by])}")
    return h("article",
             h("div", h("span", row.get("id"), class_="mono"), " · ", row.get("corpus") or "",
               (f" · {row['src_lang']}" if row.get("src_lang") else ""), class_="dim"),
             h("div", h("div", h("b", "reference"), marked(ref), class_="side"),
               h("div", h("b", "translation"), marked(bt), class_="side"), class_="sides"),
             h("div", " · ".join(scores), class_="scores"), extra, *controls,
             class_="pair", data_id=row.get("id"), data_rate=rate or None,
             **{f"data_{column}": value for column, value in fields.items()})


def build_section(report: dict) -> Safe:
    build = report["build"]
    accounting, manifest = build.get("accounting"), build.get("manifest") or {}
    rows = report["rows"]
    parts = [h("h2", "The build")]
    attrs = {"data_rows": rows}
    if accounting:
        balanced = accounting["read"] == accounting["written"] + accounting["rejected"]
        attrs.update(data_read=accounting["read"], data_written=accounting["written"],
                     data_rejected=accounting["rejected"])
        parts.append(h("p", "read ", h("b", number(accounting["read"])), " = written ",
                       h("b", number(accounting["written"])), " + rejected ", h("b", number(accounting["rejected"])),
                       " ", h("span", "balanced" if balanced else "MISMATCH", class_="good" if balanced else "bad"),
                       class_="accounting"))
        parts.append(h("p", f"{number(rows)} rows in the {report['shards']} shard file(s) read; the manifest's "
                            f"shards wrote {number(accounting['written'])}",
                       h("span", "" if rows == accounting["written"] else " (not all of the build's shards were "
                                 "read, or the shards changed since)", class_="bad"), class_="dim"))
    else:
        why = ("its manifest lists no finished shard (a build still running, or stopped: `--resume` finishes it)"
               if manifest else "no build manifest (__paranmt__/manifest.json) beside them")
        parts.append(h("p", f"{number(rows)} rows in {report['shards']} shard file(s); {why}, so no accounting of "
                            "the rows read and rejected.", class_="dim"))
    if manifest:
        parts.append(h("p", "Stages: ", h("b", ", ".join(manifest.get("stages", []))), f" · input "
                            f"{manifest.get('input', '')} ({manifest.get('format', '')}, "
                            f"{len(manifest.get('input_files', {}))} file(s)) · config hash "
                            f"{manifest.get('config_hash', '')} · paranmt {manifest.get('package_version', '')}, "
                            f"schema v{manifest.get('schema_version', '')}"))
        models = manifest.get("models") or {}
        if models:
            parts.append(table(["stage", "model", "sha256"],
                               [[stage, info.get("path", ""), h("span", (info.get("sha256") or "")[:16], class_="mono")]
                                for stage, info in sorted(models.items()) if isinstance(info, dict)]))
    filter_report = build.get("filter_report")
    if filter_report:
        parts.append(h("div", h("h3", "The filter that made this corpus"),
                       h("p", f"{number(filter_report.get('rows_in'))} rows in, "
                              f"{number(filter_report.get('rows_kept'))} kept"),
                       table(["step", "keeps", "seen", "kept", "dropped"],
                             [[step["filter"], (filter_report.get("keeps") or {}).get(step["filter"], ""),
                               number(step["seen"]), number(step["kept"]), number(step["dropped"])]
                              for step in filter_report.get("filters", [])]),
                       id="filter-report", data_rows_in=filter_report.get("rows_in"),
                       data_kept=filter_report.get("rows_kept")))
    summary = (build.get("paraphrase_summary") or {}).get("totals")
    if summary:
        reasons = {k: v for k, v in summary.items() if k not in ("candidates", "kept", "sources") and v}
        attrs.update(data_candidates=summary.get("candidates"), data_kept=summary.get("kept"))
        parts.append(h("p", f"paranmt paraphrase of {build['paraphrase_summary'].get('input', '')} "
                            f"({build['paraphrase_summary'].get('column', '')} column): "
                            f"{number(summary.get('sources'))} sources, {number(summary.get('candidates'))} "
                            f"candidates, {number(summary.get('kept'))} kept; not kept: "
                            + (", ".join(f"{k} {number(v)}" for k, v in sorted(reasons.items())) or "none")
                            + (". The shards hold the kept candidates only (paraphrase without --all)."
                               if summary.get("candidates") != rows else "."), class_="accounting-note"))
    pairs = report.get("pairs") or {}
    if pairs.get("corpora"):
        parts += [h("h3", "Per source corpus and language"),
                  h("div", table(["corpus", "rows", "share"], [[c, number(n), share(n, rows)]
                                                            for c, n in pairs["corpora"].items()]),
                    table(["source language", "rows", "share"],
                          [[lang or "(not set)", number(n), share(n, rows)] for lang, n in pairs["languages"].items()]),
                    class_="grid")]
    rejects = build.get("rejects")
    if rejects is not None:
        total = sum(entry["rows"] for entry in rejects)
        parts.append(h("h3", f"Rejects by stage and reason ({number(total)} rows in __paranmt__/rejects)"))
        parts.append(h("div", *(h("details", h("summary", h("b", entry["reason"]), f": {number(entry['rows'])}"),
                                  table(["id", "detail", "raw input"],
                                        [[h("span", ex.get("id"), class_="mono"), ex.get("detail") or "",
                                          h("span", ex.get("raw") or "", class_="raw")] for ex in entry["examples"]]),
                                  class_="reject", data_reason=entry["reason"], data_rows=entry["rows"],
                                  open=True) for entry in rejects), id="rejects", data_rows=total))
    return h("section", *parts, id="build", **attrs)


def distributions_section(distributions: dict, title: str = "Distributions") -> Safe:
    figures = []
    for name, d in distributions.items():
        caption = (f"{name}: {number(d['values'])} values, mean {number(d['mean'])} ± {number(d['sd'])}"
                   + (f", {number(d['nulls'])} null" if d["nulls"] else ""))
        figures.append(h("figure", histogram(d["counts"], tuple(d["range"]), caption), h("figcaption", caption),
                         class_="distribution", data_column=name, data_values=d["values"]))
    return h("section", h("h2", title),
             h("p", "Every row counted (values beyond an axis end in its end bar); columns null in every row are left "
                    "out.", class_="dim"), h("div", *figures, class_="grid"), id="distributions")


def _pm(summary: dict, digits: int = 2) -> str:
    return "–" if summary.get("mean") is None else f"{summary['mean']:.{digits}f} ± {summary['sd']:.{digits}f}"


def statistics_section(stats: dict | None) -> Safe:
    if not stats:
        return h("section", h("h2", "Statistics"), h("p", "No rows."), id="statistics")
    corpora = stats["corpora"]
    table1 = table(["corpus", "avg. length", "avg. IDF", "avg. para. score", "vocab. entropy", "parse entropy",
                    "size", "sample rows", "same template (Table 2)"],
                   [[name, _pm(t["ref_length"], 1), _pm(t["ref_idf"], 1), _pm(t["para_score"]),
                     number(t["vocab_entropy"], 1), number(t["template_entropy"], 1), number(t["rows"]),
                     number(t["sample_rows"]),
                     "–" if t["same_template_share"] is None else
                     f"{t['same_template_share']:.1%} of {number(t['both_parsed_rows'])}"]
                    for name, t in ((n, d["table1"]) for n, d in corpora.items())])
    top = "all" if "all" in corpora else next(iter(corpora))
    bins = table(["para. score bin", "# pairs", "mean tri. overlap"],
                 [[entry["bin"], number(entry["rows"]),
                   "–" if entry["overlap_mean"] is None else
                   f"{entry['overlap_mean']:.2f} ± {entry['overlap_sd']:.2f}"]
                  for entry in corpora[top]["score_bins"]])
    parses = corpora[top]["parses"]
    languages = corpora[top]["languages"]
    return h("section", h("h2", "Statistics (P18 Tables 1 and 3)"),
             h("p", "Table 1 of ParaNMT-50M as paranmt stats computes it (models/stats): length, IDF and entropies "
                    "on a seeded sample of the references per corpus (", h("i", "sample rows"), "), para score and "
                    "size on every row; entropies in nats; same template: the share of the rows with both "
                    "templates whose reference and translation templates are equal (P18 Table 2); IDF reference: "
                    f"{stats['idf_reference']['name']}.",
               class_="dim"),
             table1, h("h3", f"Rows and trigram overlap per para-score bin ({top}; the bins of P18 Table 3)"), bins,
             h("p", f"Parses ({top}): {number(parses['ref_parsed'])} of {number(parses['rows'])} references parsed, "
                    f"{number(parses['skipped_only_if'])} skipped by parse.only_if, "
                    f"{number(parses['not_parsed_other'])} not parsed for another reason."),
             h("p", "Languages (top labels per side): " + "; ".join(
                 f"{column} " + ", ".join(f"{label} {number(count)}" for label, count in counts.items())
                 for column, counts in languages.items() if counts) if any(languages.values()) else
               "No language labels."), id="statistics", data_rows=corpora[top]["table1"]["rows"],
             data_same_template=corpora[top]["table1"]["same_template_share"])


def templates_section(pairs: dict) -> Safe:
    rows = [[i, h("code", t["ref_template"]), h("code", t["bt_template"]), number(t["rows"]), f"{t['share']:.1%}",
             h("div", h("div", t["example"]["ref"]), h("div", t["example"]["bt"], class_="dim"))]
            for i, t in enumerate(pairs["template_pairs"], 1)]
    return h("section", h("h2", "Template pairs"),
             h("p", f"The {len(rows)} most frequent (reference template, translation template) pairs of "
                    f"{number(pairs['template_pairs_rows'])} rows with both templates "
                    f"({number(pairs['template_pairs_distinct'])} distinct pairs); example: the first row of each.",
               class_="dim"),
             table(["#", "reference template", "translation template", "rows", "share", "example"], rows)
             if rows else h("p", "No row has both templates (was the parse stage run?)."),
             id="templates", data_pairs=len(rows))


def samples_section(bands: dict, per_band: int, seed: str, rate: bool, blind_key: str | None = None) -> Safe:
    """The sampled pairs band by band; with `blind_key` (`--rate --blind`) the rating sheet's one numbered list
    instead: the pairs of every band in an order shuffled with `random.Random(seed)`, each shown blind."""
    column, parts, index = bands["column"], [], 0
    if blind_key is not None:
        drawn = [(band, row) for band in bands["bands"] for row in band["samples"]]
        random.Random(seed).shuffle(drawn)
        return h("section", h("h2", "Rating sheet"),
                 h("p", f"{len(drawn)} pairs, numbered. Rate each on the two questions below it.", class_="dim"),
                 *(pair_article(row, band, column, rate, index, blind_key=blind_key)
                   for index, (band, row) in enumerate(drawn)), id="samples", data_shown=len(drawn))
    for band in bands["bands"]:
        if not band["rows"]:
            continue
        articles = []
        for row in band["samples"]:
            articles.append(pair_article(row, band, column, rate, index))
            index += 1
        rows = number(band["rows"]) + (" row" if band["rows"] == 1 else " rows")
        parts.append(h("div", h("h3", f"{column} {band['band']}: {rows}, {len(band['samples'])} shown"), *articles,
                       class_="band", data_band=band["band"], data_rows=band["rows"], data_shown=len(band["samples"])))
    cut = "tenths of its range" if bands["kind"] == "tenths" else "deciles over the input"
    return h("section", h("h2", "Samples per band"),
             h("p", f"Bands of {column} ({cut}); in each, up to {per_band} pairs drawn with seed {seed!r} (the "
                    "rows with the smallest seeded hash of their id: the same pairs whatever the sharding). Words "
                    "that differ between reference and translation are marked." +
               (f" {number(bands['null'])} rows have no {column}." if bands["null"] else ""), class_="dim"),
             *parts, id="samples", data_by=column, data_rows=sum(b["rows"] for b in bands["bands"]),
             data_shown=index)


def filters_section(previews: list[dict]) -> Safe:
    parts = []
    for preview in previews:
        rows = preview["rows"]
        if preview["missing_columns"]:
            body = [h("p", f"Not applicable: needs {', '.join(preview['missing_columns'])}, null in every row of "
                           "the input (paranmt filter refuses it).", class_="dim")]
        else:
            steps = [[h("span", "kept", class_="kept"), number(preview["kept"]), share(preview["kept"], rows)]]
            steps += [[h("span", f"dropped: {d['reason']}", class_="dropped"), number(d["rows"]),
                       share(d["rows"], rows)]
                      for d in preview["dropped"]]
            body = [table(["verdict", "rows", "share"], steps),
                    h("details", h("summary", f"kept: {len(preview['kept_samples'])} samples"),
                      *(pair_article(row) for row in preview["kept_samples"]))]
            body += [h("details", h("summary", f"dropped by {d['reason']}: {len(d['samples'])} samples"),
                       *(pair_article(row) for row in d["samples"])) for d in preview["dropped"] if d["samples"]]
        parts.append(h("div", h("h3", preview["name"]), h("ul", *(h("li", line) for line in preview["describe"])),
                       *body, class_="preview", data_name=preview["name"], data_rows=rows,
                       data_kept=preview["kept"], data_dropped=rows - preview["kept"]))
    return h("section", h("h2", "Filter previews"),
             h("p", "What each shipped preset of paranmt filter --config NAME (and the --where condition) keeps "
                    "and drops on these rows: each row is dropped by the first filter that rejects it, as the "
                    "filter does; quantile bounds are exact over the input. Dedup and sampling steps are not "
                    "previewed.", class_="dim"), *parts, id="filters", data_previews=len(previews))


def paraphrases_section(paraphrases: dict) -> Safe:
    rows = paraphrases["rows"]
    reasons = table(["verdict", "candidates", "share"],
                    [[h("span", "kept", class_="kept"), number(paraphrases["kept"]), share(paraphrases["kept"], rows)]]
                    + [[h("span", reason, class_="dropped"), number(n), share(n, rows)]
                       for reason, n in paraphrases["reasons"].items()])
    samples = []
    for sample in paraphrases["samples"]:
        candidates = table(["asked template", "rank", "paraphrase", "verdict", "para_score", "overlap",
                            "template match"],
                           [[h("code", c["template"] or "(none)"), c["rank"], c["paraphrase"] or "",
                             h("span", "kept", class_="kept") if c["kept"]
                             else h("span", c["reason"] or "", class_="dropped"),
                             number(c["para_score"]), number(c["overlap"]),
                             "–" if c["template_match"] is None else ("yes" if c["template_match"] else "no")]
                            for c in sample["candidates"]])
        samples.append(h("div", h("p", h("span", sample["source_id"], class_="mono"), ": ", h("b", sample["source"]),
                                  " ", h("code", sample["source_template"] or "")), candidates,
                         class_="source", data_source=sample["source_id"], data_candidates=len(sample["candidates"])))
    match = paraphrases["template_match"]
    return h("section", h("h2", "Paraphrases"),
             h("p", f"{number(rows)} candidates of {number(paraphrases['sources'])} sources: "
                    f"{number(paraphrases['kept'])} kept, {number(paraphrases['dropped'])} dropped by the post-filter "
                    f"or before it. Template match (re-parsed paraphrase in the asked template): "
                    f"{number(match.get('true', 0))} yes, {number(match.get('false', 0))} no, "
                    f"{number(match.get('none', 0))} not known."),
             reasons, h("h3", f"{len(samples)} sources with every candidate (seeded sample)"), *samples,
             id="paraphrases", data_rows=rows, data_kept=paraphrases["kept"], data_sources=paraphrases["sources"])


def report_id(report: dict) -> str:
    """A short id of the report (its input, band column, seed, sample and blindness), the key of its ratings in the
    browser and of a blind sheet's seal."""
    key = json.dumps([report["input"], report.get("seed"), report.get("by"), report.get("per_band"),
                      *(["blind"] if report.get("blind") else [])])
    return hashlib.blake2b(key.encode(), digest_size=8).hexdigest()


def render_report(report: dict) -> str:
    """The page of a report dict (pipelines/report.py assembles it from the collectors' summaries)."""
    body, nav = [build_section(report)], [("build", "Build")]
    pairs, paraphrases = report.get("pairs"), report.get("paraphrases")
    if pairs and report.get("blind"):       # the rating sheet alone: no section shows a score or a sampled pair
        body, nav = [samples_section(pairs["bands"], report["per_band"], report["seed"], True, report_id(report))], []
    elif pairs:
        body += [distributions_section(pairs["distributions"]), statistics_section(pairs["statistics"]),
                 templates_section(pairs), samples_section(pairs["bands"], report["per_band"], report["seed"],
                                                           report["rate"]),
                 filters_section(pairs["filters"])]
        nav += [("distributions", "Distributions"), ("statistics", "Statistics"), ("templates", "Templates"),
                ("samples", "Samples"), ("filters", "Filters")]
    if paraphrases:
        body += [paraphrases_section(paraphrases), distributions_section(paraphrases["distributions"])]
        nav += [("paraphrases", "Paraphrases"), ("distributions", "Distributions")]
    header = h("div", h("h1", f"Corpus report: {report['input']}"),
               h("p", f"{number(report['rows'])} rows · {report['shards']} shard file(s) · made by ",
                 h("code", report["command"]), class_="dim"))
    footer = None
    if report["rate"] and pairs:
        footer = h("div", h("b", "Rating sheet"), " · ", h("span", "", id="rating-progress"), " · ",
                   h("button", "Download ratings CSV", id="rating-download", type="button"), " ",
                   h("button", "Clear all ratings", id="rating-clear", type="button"), " ",
                   h("span", "Ratings stay in this browser until cleared; ",
                     h("code", "paranmt report --ratings ratings.csv --output DIR"),
                     " turns the CSV into the per-band table.", class_="dim"), id="rating-bar")
    return page(f"paranmt report: {report['input']}", report_id(report), nav, header, body, footer)
