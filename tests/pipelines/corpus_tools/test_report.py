"""`paranmt report` on a real build (pairs of the bundled sample through every stage with the shipped models, a
blank reference and surplus Czech lines among them, so that the build has rejects): every section's counts are
the shards' and the manifest's own, the samples are seeded, the filter preview keeps what `paranmt filter`
keeps, and the command keeps the output contract."""
import base64
import csv
import io
import json
import re
import shutil
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from paranmt.models.report.page import QUESTIONS, RATING_COLUMNS
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


class Sheet(HTMLParser):
    """A rating sheet as its script and its reader meet it: the report id (`data-report`), every rated pair's data
    attributes in page order, and what a reader reads: the page's text and attribute values outside its style and
    script, a pair's sealed fields left out."""

    def __init__(self, page: str):
        super().__init__()
        self.report, self.pairs, self.read, self.skipping = None, [], [], False
        self.feed(page)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.report = attrs.get("data-report", self.report)
        if tag == "article" and "data-rate" in attrs:
            self.pairs.append({k[5:]: v for k, v in attrs.items() if k.startswith("data-")})
        self.skipping = tag in ("style", "script")
        self.read += [value for key, value in attrs.items() if value and key != "data-sealed"]

    def handle_endtag(self, tag):
        self.skipping = False

    def handle_data(self, data):
        if not self.skipping:
            self.read.append(data)

    def fields(self, pair: dict) -> dict:
        """What the script writes into the CSV of a pair: its data attributes, or its sealed fields unsealed with
        the report id (models/report/page.py seal)."""
        if "sealed" not in pair:
            return {column: pair.get(column.replace("_", "-"), "") for column in RATING_COLUMNS[:-len(QUESTIONS)]}
        data, key = base64.b64decode(pair["sealed"]), self.report.encode("ascii")
        return json.loads(bytes(byte ^ key[i % len(key)] for i, byte in enumerate(data)))

    def saved_csv(self, answers: dict) -> str:
        """The ratings.csv the sheet's script saves once each pair id of `answers` has its answers (a tuple in the
        order of QUESTIONS), in page order."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\r\n")
        writer.writerow(RATING_COLUMNS)
        for pair in self.pairs:
            fields = self.fields(pair)
            if fields["pair_id"] in answers:
                writer.writerow([*(fields[c] for c in RATING_COLUMNS[:-len(QUESTIONS)]), *answers[fields["pair_id"]]])
        return out.getvalue()


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


def test_a_blind_rating_sheet_hides_scores_bands_and_ids_and_saves_the_same_csv(report_build, tmp_path, capsys,
                                                                                 one_line):
    """--rate --blind: every pair of the sheet in one list shuffled with --seed, numbered, showing its two texts
    only; the CSV it saves carries each pair's id, band and scores as the sheet without --blind saves them, so
    `--ratings` gives the same table for the same answers."""
    sheets = {}
    for name, flags in (("open", []), ("blind", ["--blind"]), ("again", ["--blind"]),
                        ("other", ["--blind", "--seed", "b"])):
        assert report("--input", report_build, "--output", tmp_path / name, "--rate", "--per-band", 3, *flags) == 0
        sheets[name] = Sheet((tmp_path / name / "index.html").read_text(encoding="utf-8"))
    capsys.readouterr()
    shown, blind = sheets["open"], sheets["blind"]
    ids = [shown.fields(p)["pair_id"] for p in shown.pairs]
    order = [blind.fields(p)["pair_id"] for p in blind.pairs]
    assert len(ids) > 5 and sorted(order) == sorted(ids) and order != ids       # the same pairs, shuffled
    assert [p["id"] for p in blind.pairs] == [str(n) for n in range(1, len(ids) + 1)]
    assert order == [sheets["again"].fields(p)["pair_id"] for p in sheets["again"].pairs]
    other = [sheets["other"].fields(p)["pair_id"] for p in sheets["other"].pairs]
    assert other != order
    # nothing a reader reads names a pair's id, corpus, band or score: no number with a decimal point but in the texts
    rows = pq.read_table(report_build).to_pandas().set_index("id").loc[ids]
    read = "\n".join(blind.read)
    for text in (*rows["ref"], *rows["bt"]):
        read = read.replace(text, "")
    assert not set(ids) & set(re.findall(r"\S+", read))
    assert not {shown.fields(p)["band"] for p in shown.pairs} & set(re.findall(r"\(\S+, \S+\]", read))
    assert not re.search(r"\d\.\d|para_score|trigram", read), read
    assert not set(rows["corpus"]) & set(re.findall(r"\w+", read))
    assert 'class="scores"' not in blind.rawdata and "<mark>" not in blind.rawdata
    # the same answers give the same CSV lines and the same table
    answers = {pair_id: (str(1 + i % 3), str(1 + i // 3 % 3)) for i, pair_id in enumerate(ids)}
    tables = []
    for name, sheet in (("open", shown), ("blind", blind)):
        saved = tmp_path / f"{name}.csv"
        saved.write_text(sheet.saved_csv(answers), encoding="utf-8")
        assert report("--ratings", saved, "--output", tmp_path / f"{name}-table") == 0
        tables.append((sorted(saved.read_text(encoding="utf-8").splitlines()), capsys.readouterr().out,
                       json.loads((tmp_path / f"{name}-table" / "ratings.json").read_text())["bands"]))
    assert tables[0] == tables[1]
    assert sum(band["rated"] for band in tables[1][2]) == len(ids)
    assert report("--input", report_build, "--output", tmp_path / "x", "--blind") == 2
    assert "--blind is a mode of the rating sheet: give --rate --blind" in one_line("report")
