"""The HTML of the report: an element builder that escapes every value (`h`), inline SVG histograms (`histogram`)
and the page shell with its inline style and script (`page`). The page needs no network: no external style,
script, font or image.

Escaping: the data is untrusted text (sentences, ids, parses, details of rejects). `h(name, *children, **attrs)`
escapes every child and attribute value with html.escape unless it is `Safe` (markup `h` itself made), so a value
can only ever be text. The script reads the page through data attributes and `textContent`, and writes only
`textContent`, `checked`, localStorage and a CSV download: no `innerHTML`, no `eval`.

A blind rating sheet (`paranmt report --rate --blind`) shows its reader the two texts of each pair only; what the
ratings CSV carries of a pair (its id, band, the band's rows, its trigram overlap) is in the page sealed (`seal`):
JSON whose bytes are XORed with the report's id and written in base64, so that neither a reader's eye nor one
reading the page's source (a language-model reader) meets a score, band or id in it. Sealed is not encrypted: the
page's script unseals it for the CSV, and so can anyone who sets out to.
"""
from __future__ import annotations

import base64
import html
import json

RATING_COLUMNS = ("pair_id", "by", "band", "band_low", "band_high", "band_rows", "trigram_overlap", "paraphrase",
                  "fluency")
# P18 §3.2 / SPEC §12.2: the two questions of the manual evaluation, 3 = best
QUESTIONS = {
    "paraphrase": ("Paraphrase", {"1": "not equivalent", "2": "roughly equivalent, important information missing or "
                                  "slightly different", "3": "same meaning, unimportant details may differ"}),
    "fluency": ("Fluency of the translation", {"1": "more than two grammatical errors, or not natural English",
                                               "2": "one or two grammatical errors", "3": "no grammatical error"}),
}


def seal(fields: dict[str, str], key: str) -> str:
    """`fields` sealed with `key` (an ASCII string): their JSON (ASCII), each byte XORed with the key's byte at the
    same position modulo its length, in base64 (the module docstring; the script's `unseal` undoes it)."""
    data, mask = json.dumps(fields).encode("ascii"), key.encode("ascii")
    return base64.b64encode(bytes(byte ^ mask[i % len(mask)] for i, byte in enumerate(data))).decode("ascii")


class Safe(str):
    """Markup made by `h` (or a constant of this module): inserted as it is."""


def text(value) -> Safe:
    """A value as escaped text (None -> empty)."""
    return Safe(html.escape("" if value is None else str(value), quote=True))


def join(parts) -> Safe:
    """Children joined, each escaped unless Safe."""
    return Safe("".join(part if isinstance(part, Safe) else text(part) for part in parts if part is not None))


def h(tag: str, /, *children, **attrs) -> Safe:
    """`<tag attrs>children</tag>`: attribute names with `_` for `-` (`class_` -> `class`, `data_id` ->
    `data-id`); a value True is a bare attribute, None or False leaves it out."""
    rendered = []
    for key, value in attrs.items():
        if value is None or value is False:
            continue
        key = key.rstrip("_").replace("_", "-")
        rendered.append(f" {key}" if value is True else f' {key}="{text(value)}"')
    opening = f"<{tag}{''.join(rendered)}>"
    if tag in ("input", "br", "meta"):
        return Safe(opening)
    return Safe(f"{opening}{join(children)}</{tag}>")


def number(value, digits: int = 2) -> str:
    """A count with thousands separators, a float with `digits` decimals, None as a dash."""
    if value is None:
        return "–"
    if isinstance(value, int):
        return f"{value:,}"
    return f"{value:.{digits}f}"


def share(part: int, whole: int) -> str:
    return f"{part / whole:.1%}" if whole else "–"


def table(header: list, rows: list[list], **attrs) -> Safe:
    return h("table", h("thead", h("tr", *(h("th", cell) for cell in header))),
             h("tbody", *(h("tr", *(h("td", cell) for cell in row)) for row in rows)), **attrs)


def histogram(counts: list[int], value_range: tuple[float, float], title: str, width: int = 320,
              height: int = 120) -> Safe:
    """Bars of `counts` over `value_range` as an inline SVG with its axis ends, its highest count above the bars
    and a title per bar."""
    top, bins, above = max(counts) or 1, len(counts), 14
    low, high = value_range
    step, bar = (high - low) / bins, width / bins
    bars = [h("rect", h("title", f"[{low + i * step:g}, {low + (i + 1) * step:g}): {count:,}"),
              x=f"{i * bar:.2f}", y=f"{above + height - count / top * height:.2f}", width=f"{max(bar - 1, 1):.2f}",
              height=f"{count / top * height:.2f}") for i, count in enumerate(counts)]
    axis = [h("text", f"{low:g}", x="0", y=str(above + height + 14)),
            h("text", f"{high:g}", x=str(width), y=str(above + height + 14), text_anchor="end"),
            h("text", f"highest bar {top:,}", x=str(width), y="10", text_anchor="end")]
    total = above + height + 18
    return h("svg", h("title", title), *bars, *axis, xmlns="http://www.w3.org/2000/svg", role="img",
             viewBox=f"0 0 {width} {total}", width=str(width), height=str(total), class_="histogram")


STYLE = Safe("""
:root { color-scheme: light; --line: #d0d4da; --soft: #f4f6f8; --mark: #ffe28a; --ink: #1d232b; --dim: #5b6572; }
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); margin: 0; }
header, main { max-width: 1150px; margin: 0 auto; padding: 0 18px; }
header { padding-top: 18px; }
nav { position: sticky; top: 0; background: #fff; border-bottom: 1px solid var(--line); padding: 6px 18px; z-index: 2; }
nav a { margin-right: 14px; color: #1a56a8; text-decoration: none; }
h1 { font-size: 1.5em; margin: 0 0 4px; } h2 { margin-top: 34px; border-bottom: 2px solid var(--line); }
h3 { margin-top: 22px; } .dim { color: var(--dim); } .mono, code { font-family: ui-monospace, Menlo, monospace;
font-size: 0.88em; }
table { border-collapse: collapse; margin: 8px 0 14px; } th, td { border: 1px solid var(--line); padding: 3px 8px;
vertical-align: top; text-align: left; } th { background: var(--soft); } td.n, th.n { text-align: right; }
.accounting { font-size: 1.2em; } .bad { color: #b00020; font-weight: 600; } .good { color: #17692f; }
.grid { display: flex; flex-wrap: wrap; gap: 18px; } figure { margin: 0; } figcaption { font-size: 0.9em; }
svg.histogram rect { fill: #4c78a8; } svg.histogram text { font-size: 10px; fill: var(--dim); }
article.pair { border: 1px solid var(--line); border-radius: 6px; padding: 8px 10px; margin: 8px 0;
break-inside: avoid; } .sides { display: grid; grid-template-columns: 1fr 1fr; gap: 12px; }
.side b { display: block; font-size: 0.8em; color: var(--dim); font-weight: 600; } mark { background: var(--mark); }
.scores { font-size: 0.85em; color: var(--dim); } fieldset.rate { display: inline-block; border: 1px solid var(--line);
margin: 6px 8px 0 0; padding: 2px 8px; } fieldset.rate label { margin-right: 10px; font-size: 0.9em; }
#rating-bar { position: sticky; bottom: 0; background: #fff; border-top: 1px solid var(--line); padding: 8px 18px; }
button { font: inherit; padding: 3px 10px; } details { margin: 6px 0; } .kept { color: #17692f; }
.dropped { color: #b00020; } .raw { white-space: pre-wrap; word-break: break-word; }
@media print { nav, #rating-bar, button { display: none; } article.pair { page-break-inside: avoid; }
h2 { page-break-after: avoid; } }
""")

SCRIPT = Safe("""
"use strict";
(function () {
  var COLUMNS = %(columns)s;
  var key = "paranmt-ratings:" + document.body.getAttribute("data-report");
  var store = {};
  try { store = JSON.parse(window.localStorage.getItem(key) || "{}") || {}; } catch (error) { store = {}; }
  var pairs = Array.prototype.slice.call(document.querySelectorAll("article.pair[data-rate]"));
  function progress() {
    var done = 0;
    pairs.forEach(function (pair) {
      var answers = store[pair.getAttribute("data-id")];
      if (answers && answers.paraphrase && answers.fluency) { done += 1; }
    });
    var out = document.getElementById("rating-progress");
    if (out) { out.textContent = done + " of " + pairs.length + " pairs rated"; }
  }
  function save() {
    try { window.localStorage.setItem(key, JSON.stringify(store)); } catch (error) { /* private mode: kept here */ }
    progress();
  }
  pairs.forEach(function (pair) {
    var id = pair.getAttribute("data-id");
    Array.prototype.forEach.call(pair.querySelectorAll("input[type=radio]"), function (input) {
      var question = input.getAttribute("data-question");
      if (store[id] && String(store[id][question]) === input.value) { input.checked = true; }
      input.addEventListener("change", function () {
        store[id] = store[id] || {};
        store[id][question] = input.value;
        save();
      });
    });
  });
  function field(value) {
    value = value === undefined || value === null ? "" : String(value);
    return /[",\\r\\n]/.test(value) ? "\\"" + value.replace(/"/g, "\\"\\"") + "\\"" : value;
  }
  function unseal(pair) {     // the CSV fields of a blind sheet's pair (page.py seal)
    var data = window.atob(pair.getAttribute("data-sealed")), key = document.body.getAttribute("data-report");
    var json = "";
    for (var i = 0; i < data.length; i += 1) {
      json += String.fromCharCode(data.charCodeAt(i) ^ key.charCodeAt(i %% key.length));
    }
    return JSON.parse(json);
  }
  function csv() {
    var lines = [COLUMNS.join(",")];
    pairs.forEach(function (pair) {
      var answers = store[pair.getAttribute("data-id")] || {};
      if (!answers.paraphrase && !answers.fluency) { return; }
      var sealed = pair.hasAttribute("data-sealed") ? unseal(pair) : null;
      lines.push(COLUMNS.map(function (column) {
        if (column === "paraphrase" || column === "fluency") { return field(answers[column]); }
        return field(sealed ? sealed[column] : pair.getAttribute("data-" + column.replace(/_/g, "-")));
      }).join(","));
    });
    return lines.join("\\r\\n") + "\\r\\n";
  }
  var download = document.getElementById("rating-download");
  if (download) {
    download.addEventListener("click", function () {
      var link = document.createElement("a");
      link.href = URL.createObjectURL(new Blob([csv()], {type: "text/csv;charset=utf-8"}));
      link.download = "ratings.csv";
      document.body.appendChild(link);
      link.click();
      link.remove();
    });
  }
  var clear = document.getElementById("rating-clear");
  if (clear) {
    clear.addEventListener("click", function () {
      store = {};
      Array.prototype.forEach.call(document.querySelectorAll("article.pair input[type=radio]"), function (input) {
        input.checked = false;
      });
      save();
    });
  }
  window.addEventListener("beforeprint", function () {      // a printed page shows every folded sample
    Array.prototype.forEach.call(document.querySelectorAll("details"), function (details) { details.open = true; });
  });
  progress();
})();
""" % {"columns": "[" + ", ".join(f'"{column}"' for column in RATING_COLUMNS) + "]"})


def page(title: str, report_id: str, nav: list[tuple[str, str]], header: Safe, body: list[Safe],
         footer: Safe | None = None) -> str:
    """The whole self-contained HTML document."""
    links = h("nav", *(h("a", label, href=f"#{anchor}") for anchor, label in nav)) if nav else None
    document = h("html", h("head", h("meta", charset="utf-8"),
                           h("meta", name="viewport", content="width=device-width, initial-scale=1"),
                           h("title", title), h("style", STYLE)),
                 h("body", h("header", header), links, h("main", *body), footer, h("script", SCRIPT),
                   data_report=report_id), lang="en")
    return "<!DOCTYPE html>\n" + document + "\n"
