"""From merged `CorpusAccumulator`s to the statistics report of `paranmt stats`: a JSON-able dict, Markdown tables
(SPEC §1 Table 1, the score-bin table, the template frequency table) and PNG plots (paranmt.models.stats.plots).

IDF reference (AMBIG in the papers, which used Wikipedia sentences): the sentences given as `idf_reference`
(e.g. a plain-text file, one sentence per line, via `paranmt stats --idf-reference`); without one, the sampled
English references of all corpora together. The report names which one was used.
"""
from __future__ import annotations

import copy
from collections import Counter

from paranmt.models.stats.corpus_stats import CorpusAccumulator, Moments
from paranmt.models.stats.text_stats import IdfTable, entropy, words

ALL = "all"
TOP_TEMPLATES = 20
TOP_LANGUAGES = 5


def merged(accumulators: dict[str, CorpusAccumulator]) -> CorpusAccumulator:
    total = CorpusAccumulator(sample_size=max(a.sample_size for a in accumulators.values()))
    for accumulator in accumulators.values():
        total.merge(copy.deepcopy(accumulator))
    return total


def _moments(values) -> dict:
    moments = Moments()
    for value in values:
        if value is not None and value == value:
            moments.add(value)
    return moments.summary()


def table1_row(accumulator: CorpusAccumulator, idf: IdfTable, tokens_of: dict[str, list[str]]) -> dict:
    """SPEC §1 Table 1 for one corpus: lengths, IDF, vocabulary and parse entropy on its sample; para score and
    size on all its rows."""
    sample = accumulator.sample_rows()
    vocabulary = Counter()
    for row in sample:
        vocabulary.update(tokens_of[row["ref"]])
    templates = Counter(row["ref_template"] for row in sample if row["ref_template"])
    return {
        "rows": accumulator.rows,
        "sample_rows": len(sample),
        "ref_length": _moments(row["ref_len"] for row in sample),
        "bt_length": _moments(row["bt_len"] for row in sample),
        "ref_idf": _moments(idf.sentence_idf(tokens_of[row["ref"]]) for row in sample),
        "para_score": accumulator.para.summary(),
        "para_score_null": accumulator.para_null,
        "vocab_entropy": entropy(vocabulary),
        "vocab_size": len(vocabulary),
        "template_entropy": entropy(templates) if templates else None,
        "templated_sample_rows": sum(templates.values()),
        "same_template_share": accumulator.same_template / accumulator.both_parsed if accumulator.both_parsed
        else None,
        "both_parsed_rows": accumulator.both_parsed,
    }


def build_stats(accumulators: dict[str, CorpusAccumulator], idf_reference: list[str] | None = None,
                idf_reference_name: str = "") -> dict:
    """The whole report as a JSON-able dict: per corpus (and `all`) Table-1 statistics, score-bin table,
    histograms, 2-D histogram, top templates; plus which IDF reference was used."""
    corpora = dict(sorted(accumulators.items()))
    if len(corpora) > 1:
        corpora[ALL] = merged(accumulators)
    tokens_of: dict[str, list[str]] = {}
    for accumulator in corpora.values():
        for row in accumulator.sample_rows():
            if row["ref"] not in tokens_of:
                tokens_of[row["ref"]] = words(row["ref"])
    if idf_reference is None:
        reference_rows = (corpora[ALL] if ALL in corpora else next(iter(corpora.values()))).sample_rows()
        idf = IdfTable(tokens_of[row["ref"]] for row in reference_rows)
        idf_reference_name = "the sampled references of all corpora (no --idf-reference given)"
    else:
        idf = IdfTable(words(sentence) for sentence in idf_reference)
    report = {"idf_reference": {"name": idf_reference_name, "sentences": idf.documents}, "corpora": {}}
    for name, accumulator in corpora.items():
        report["corpora"][name] = {
            "table1": table1_row(accumulator, idf, tokens_of),
            "score_bins": accumulator.score_bin_table(),
            "para_histogram": accumulator.para_hist,
            "overlap_histogram": accumulator.overlap_hist,
            "para_overlap_histogram": accumulator.joint_hist,
            "templates_top": [{"template": t, "count": c} for t, c in
                              sorted(accumulator.templates.items(), key=lambda tc: (-tc[1], tc[0]))[:TOP_TEMPLATES]],
            "templates_distinct": len(accumulator.templates),
            "signal_histograms": accumulator.signal_hists,
            "languages": {column: dict(counts.most_common(TOP_LANGUAGES))
                          for column, counts in accumulator.languages.items()},
            "language_rows": {column: sum(counts.values()) for column, counts in accumulator.languages.items()},
            "templates_total": sum(accumulator.templates.values()),
            "parses": {"rows": accumulator.rows, "ref_parsed": accumulator.ref_parsed,
                       "skipped_only_if": accumulator.parse_skipped,
                       "not_parsed_other": accumulator.rows - accumulator.ref_parsed - accumulator.parse_skipped},
            "bt_score_sample": [r["bt_score"] for r in accumulator.sample_rows() if r["bt_score"] is not None],
            "ref_length_sample": [r["ref_len"] for r in accumulator.sample_rows() if r["ref_len"] is not None],
        }
    return report


def _pm(summary: dict, digits: int = 2) -> str:
    if summary["mean"] is None:
        return "-"
    return f"{summary['mean']:.{digits}f} ± {summary['sd']:.{digits}f}"


def _num(value, digits: int = 2) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _share(share, rows: int) -> str:
    return "-" if share is None else f"{share:.1%} of {rows}"


def render_markdown(report: dict, plots: list[str]) -> str:
    corpora = report["corpora"]
    lines = ["# Corpus statistics", "",
             "Table 1 of ParaNMT-50M (SPEC §1). Length, IDF and entropies on a deterministic sample of up to "
             "100K rows per corpus (see `sample rows`); para score and size on every row. Entropies in nats. "
             f"IDF reference: {report['idf_reference']['name']} ({report['idf_reference']['sentences']} "
             "sentences). `same template`: share of the rows with both templates whose ref and bt templates (top "
             "two parse levels) are equal, over every row.", "",
             "| Corpus | Avg. Length | Avg. IDF | Avg. Para. Score | Vocab. Entropy | Parse Entropy | Size | "
             "sample rows | same template |",
             "|---|---|---|---|---|---|---|---|---|"]
    for name, data in corpora.items():
        t = data["table1"]
        lines.append(f"| {name} | {_pm(t['ref_length'], 1)} | {_pm(t['ref_idf'], 1)} | {_pm(t['para_score'])} | "
                     f"{_num(t['vocab_entropy'], 1)} | {_num(t['template_entropy'], 1)} | {t['rows']} | "
                     f"{t['sample_rows']} | {_share(t['same_template_share'], t['both_parsed_rows'])} |")
    for name, data in corpora.items():
        lines += ["", f"## Score bins: {name}", "",
                  "Rows and mean trigram overlap per paraphrase-score bin (T-Tab27), over every row.", "",
                  "| Para. score bin | # pairs | Mean tri. overlap |", "|---|---|---|"]
        for entry in data["score_bins"]:
            overlap = "-" if entry["overlap_mean"] is None else \
                f"{entry['overlap_mean']:.2f} ± {entry['overlap_sd']:.2f}"
            lines.append(f"| {entry['bin']} | {entry['rows']} | {overlap} |")
    top_name = ALL if ALL in corpora else next(iter(corpora))
    top = corpora[top_name]
    lines += ["", f"## Top {TOP_TEMPLATES} templates ({top_name}; ref and bt templates counted together)", "",
              f"{top['templates_distinct']} distinct templates in {top['templates_total']} parsed sentences.", "",
              "| # | Template | Count | Share |", "|---|---|---|---|"]
    for rank, entry in enumerate(top["templates_top"], 1):
        share = entry["count"] / top["templates_total"]
        lines.append(f"| {rank} | `{entry['template']}` | {entry['count']} | {share:.1%} |")
    lines += ["", "## Parses", "",
              "Rows whose reference has a parse, rows the parse stage skipped (`parse.only_if`; `build --format "
              "shards --stages parse` parses them later) and rows without a parse for another reason (too long, "
              "empty, a parser error, or no parse stage).", "",
              "| Corpus | Rows | Parsed | Skipped (only_if) | Not parsed (other) |", "|---|---|---|---|---|"]
    for name, data in corpora.items():
        p = data["parses"]
        lines.append(f"| {name} | {p['rows']} | {p['ref_parsed']} | {p['skipped_only_if']} | "
                     f"{p['not_parsed_other']} |")
    lines += ["", f"## Languages ({top_name}; top {TOP_LANGUAGES} labels per side, share of rows with a label)", "",
              "| Side | Labels |", "|---|---|"]
    for column, counts in top["languages"].items():
        total = top["language_rows"][column]
        labels = ", ".join(f"{label} {count / total:.1%}" for label, count in counts.items()) if total else "-"
        lines.append(f"| {column} | {labels} |")
    lines += ["", "## Plots", ""] + [f"![{name}]({name})" for name in plots]
    return "\n".join(lines) + "\n"
