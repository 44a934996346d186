"""`paranmt report` on a real build (pairs of the bundled sample through every stage with the shipped models, a
blank reference and surplus Czech lines among them, so that the build has rejects): every section's counts are
the shards' and the manifest's own, the samples are seeded, the filter preview keeps what `paranmt filter`
keeps, and the command keeps the output contract."""
import json
import re
import shutil
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from paranmt.pipelines.cli import main

LOCAL = ["--direct_running_mode=in_memory", "--direct_num_workers=1"]
REPO = Path(__file__).resolve().parents[3]


class Sections(HTMLParser):
    """The data attributes of every element with an id or one of the report's classes, and the attributes of any
    tag that would fetch something (`src=`, `<link href=>`)."""

    def __init__(self, page: str):
        super().__init__()
        self.by_id, self.by_class, self.external = {}, {}, []
        self.feed(page)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        data = {k[5:]: v for k, v in attrs.items() if k.startswith("data-")}
        if attrs.get("id"):
            self.by_id[attrs["id"]] = data
        for name in (attrs.get("class") or "").split():
            self.by_class.setdefault(name, []).append(data)
        if attrs.get("src") or (tag == "link" and attrs.get("href")):
            self.external.append(attrs)


def report(*args) -> int:
    return main(["report", *map(str, args)])


def test_every_section_counts_what_the_shards_and_the_manifest_hold(report_build, tmp_path, capsys):
    assert report("--input", report_build, "--output", tmp_path / "r", "--where", "para_score >= 0.5") == 0
    out = capsys.readouterr().out
    assert re.search(rf"\d+ rows of 1 shard file\(s\), \d+ pairs shown in \d+ bands of para_score -> "
                     rf"{re.escape(str(tmp_path / 'r'))}/index.html", out)
    assert sorted(p.name for p in (tmp_path / "r").iterdir()) == ["index.html"]
    page = (tmp_path / "r" / "index.html").read_text(encoding="utf-8")
    found = Sections(page)
    assert not found.external                              # nothing to fetch: no src=, no <link href>
    manifest = json.loads((report_build / "__paranmt__" / "manifest.json").read_text())
    read, written, rejected = (sum(s[k] for s in manifest["shards"]) for k in ("read", "written", "rejected"))
    table = pq.read_table(report_build).to_pandas()
    lines = len((report_build.parent / "in" / "tatoeba.cs").read_text(encoding="utf-8").splitlines())
    assert (read, written, rejected) == (lines, len(table), 3)
    build = found.by_id["build"]
    assert (int(build["read"]), int(build["written"]), int(build["rejected"]), int(build["rows"])) == (
        read, written, rejected, len(table))
    by_reason = Counter()
    for shard in manifest["shards"]:
        by_reason.update(shard["rejects_by_reason"])
    assert {r["reason"]: int(r["rows"]) for r in found.by_class["reject"]} == by_reason == {
        "clean/empty_side": 1, "read/line_count_mismatch": 2}
    assert int(found.by_id["rejects"]["rows"]) == rejected
    assert page.count('class="reject"') == 2 and "read/line_count_mismatch" in page
    # samples: every band's rows are the shards' rows in that tenth of para_score, at most 10 shown
    bands = found.by_class["band"]
    scores = table["para_score"].dropna()
    assert sum(int(b["rows"]) for b in bands) == len(scores) == int(found.by_id["samples"]["rows"])
    for band in bands:
        low, high = map(float, re.findall(r"-?\d+\.\d+", band["band"]))
        inside = ((scores > low) | (low == -1.0) & (scores >= low)) & (scores <= high + 1e-7)
        assert int(band["rows"]) == int(inside.sum()) and int(band["shown"]) == min(10, int(band["rows"]))
    shown = [a for a in found.by_class["pair"] if "band" in a]
    assert {a["pair-id"] for a in shown} <= set(table["id"])
    assert len(shown) == int(found.by_id["samples"]["shown"])
    # statistics and templates: every row counted
    assert int(found.by_id["statistics"]["rows"]) == len(table)
    both = table.dropna(subset=["ref_template", "bt_template"])
    assert float(found.by_id["statistics"]["same-template"]) == pytest.approx(
        (both["ref_template"] == both["bt_template"]).mean())
    assert 0 < int(found.by_id["templates"]["pairs"]) <= 20
    figures = {f["column"]: int(f["values"]) for f in found.by_class["distribution"]}
    assert figures == {column: int(table[column].notna().sum()) for column in (
        "para_score", "trigram_overlap", "simile", "xsim", "bt_score", "ref_len", "bt_len", "cs_lang_conf",
        "ref_lang_conf", "bt_lang_conf")}
    # filter previews: one per preset and --where; the --where preview keeps what the condition keeps
    previews = {p["name"]: p for p in found.by_class["preview"]}
    assert set(previews) == {"--config lexicon", "--config paranmt-5m", "--config simile",
                             "--where para_score >= 0.5"}
    assert int(previews["--where para_score >= 0.5"]["kept"]) == int((table["para_score"] >= 0.5).sum())
    assert all(int(p["kept"]) + int(p["dropped"]) == len(table) for p in previews.values())


def test_a_filter_preview_keeps_what_the_filter_keeps_and_the_filtered_corpus_says_so(report_build, tmp_path):
    assert report("--input", report_build, "--output", tmp_path / "r") == 0
    found = Sections((tmp_path / "r" / "index.html").read_text(encoding="utf-8"))
    assert main(["filter", "--config", "paranmt-5m", "--input", str(report_build), "--output", str(tmp_path / "f"),
                 *LOCAL]) == 0
    kept = pq.read_table(tmp_path / "f").num_rows
    preview = next(p for p in found.by_class["preview"] if p["name"] == "--config paranmt-5m")
    assert int(preview["kept"]) == kept
    # the filtered corpus's own report says what the filter kept, and shows its rows
    assert report("--input", tmp_path / "f", "--output", tmp_path / "rf") == 0
    filtered = Sections((tmp_path / "rf" / "index.html").read_text(encoding="utf-8"))
    assert (int(filtered.by_id["filter-report"]["rows-in"]), int(filtered.by_id["filter-report"]["kept"])) == (
        pq.read_table(report_build).num_rows, kept)
    assert int(filtered.by_id["build"]["rows"]) == kept and "read" not in filtered.by_id["build"]


def test_samples_follow_the_seed_and_the_band_column(report_build, tmp_path):
    def shown(*args):
        output = tmp_path / f"r{len(list(tmp_path.iterdir()))}"
        assert report("--input", report_build, "--output", output, *args) == 0
        found = Sections((output / "index.html").read_text(encoding="utf-8"))
        return [a["pair-id"] for a in found.by_class["pair"] if "band" in a], found

    first, _ = shown("--per-band", 2, "--seed", "a")
    again, _ = shown("--per-band", 2, "--seed", "a")
    other, _ = shown("--per-band", 2, "--seed", "b")
    assert first == again and first != other
    lengths, found = shown("--by", "ref_len", "--per-band", 3)
    assert found.by_id["samples"]["by"] == "ref_len"
    assert all(int(b["shown"]) <= 3 for b in found.by_class["band"])
    table = pq.read_table(report_build, columns=["ref_len"]).to_pandas()
    assert sum(int(b["rows"]) for b in found.by_class["band"]) == len(table)


def test_the_output_contract_and_mistakes_in_one_line(report_build, tmp_path, one_line):
    output = tmp_path / "r"
    assert report("--input", report_build, "--output", output) == 0
    assert report("--input", report_build, "--output", output) == 2
    assert "already holds the results of an earlier run (1 file(s)); give --overwrite" in one_line("report")
    assert report("--input", report_build, "--output", output, "--overwrite") == 0
    assert report("--input", report_build, "--output", report_build / "report") == 2
    assert "is inside the input" in one_line("report")
    assert report("--input", report_build, "--output", output, "--overwrite", "--where", "para_score >> 1") == 2
    assert "--where 'para_score >> 1'" in one_line("report")
    assert report("--input", tmp_path / "nothing", "--output", output, "--overwrite") == 2
    assert "no shard files" in one_line("report")
    assert report("--input", report_build, "--ratings", "r.csv", "--output", output, "--overwrite") == 2
    assert "not both" in one_line("report")


def test_the_committed_wmt_bt_ratings_give_the_table_of_results(tmp_path, capsys):
    """The ratings of issue 44 item 2 (benchmarks/data/ratings, a filled rating sheet of the wmt-bt corpus) read back
    by `paranmt report --ratings`: every pair of the sheet carries both answers, every band its whole sample (100,
    or all the rows of a smaller band), and the tables printed are those benchmarks/RESULTS.md shows."""
    ratings = REPO / "benchmarks" / "data" / "ratings" / "wmt-bt-p18-table3.csv"
    assert report("--ratings", ratings, "--output", tmp_path / "r") == 0
    printed = capsys.readouterr().out
    bands = json.loads((tmp_path / "r" / "ratings.json").read_text(encoding="utf-8"))["bands"]
    assert len(bands) == 12 and sum(b["rated"] for b in bands) == 1158
    for band in bands:
        assert band["rated"] == min(100, band["band_rows"])
        assert band["paraphrase"]["answered"] == band["fluency"]["answered"] == band["rated"]
    assert printed.strip() in (REPO / "benchmarks" / "RESULTS.md").read_text(encoding="utf-8")


def test_a_corrupt_side_file_is_one_line_and_no_page(report_build, tmp_path, one_line):
    copy = tmp_path / "shards"
    shutil.copytree(report_build, copy)
    (copy / "__paranmt__" / "manifest.json").write_text('{"shards": [', encoding="utf-8")
    assert report("--input", copy, "--output", tmp_path / "r") == 2
    assert "manifest.json is not a JSON file" in one_line("report")
    assert not (tmp_path / "r" / "index.html").exists()
