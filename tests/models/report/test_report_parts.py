"""The pure parts of `paranmt report` (models/report): seeded samples that do not depend on sharding, bands,
differing words, escaping of untrusted text, and the ratings CSV -> per-band table beside P18 Table 3."""
import re

import numpy as np
import pyarrow as pa
import pytest

from paranmt.models.report.diff import differing
from paranmt.models.report.page import RATING_COLUMNS, h
from paranmt.models.report.ratings import P18_TABLE3, beside_p18, markdown, per_band, read_ratings
from paranmt.models.report.sampling import Bands, BottomK, seeded_hashes
from paranmt.models.report.sections import pair_article


def sentences(shared_data, n):
    lines = (shared_data / "bitext" / "cs-en" / "newstest2017.eng").read_text(encoding="utf-8").splitlines()
    return lines[:n]


def test_a_sample_is_the_same_whatever_the_batching(shared_data):
    refs = sentences(shared_data, 300)
    table = pa.table({"id": [f"news:{i}" for i in range(len(refs))], "ref": refs})
    keys = np.arange(len(refs)) % 3

    def sample(batch_rows):
        bottom = BottomK(5)
        for start in range(0, len(refs), batch_rows):
            part = table.slice(start, batch_rows)
            bottom.offer(keys[start:start + batch_rows], seeded_hashes(part.column("id"), "s1"), part)
        return [[row["id"] for row in bottom.rows(key)] for key in range(3)]

    whole = sample(300)
    assert whole == sample(7) == sample(64)
    assert all(len(ids) == 5 for ids in whole)
    hashes = dict(zip(table.column("id").to_pylist(), seeded_hashes(table.column("id"), "s1").tolist()))
    for key, ids in enumerate(whole):      # the 5 smallest hashes of the key's rows, smallest first
        members = sorted((hashes[f"news:{i}"], f"news:{i}") for i in range(len(refs)) if i % 3 == key)
        assert ids == [row_id for _, row_id in members[:5]]
    other = BottomK(5)
    other.offer(keys, seeded_hashes(table.column("id"), "s2"), table)
    assert [row["id"] for row in other.rows(0)] != whole[0]       # another seed, another sample


def test_tenths_put_a_stored_score_in_the_band_it_closes():
    bands = Bands.tenths("para_score")
    assert len(bands) == 20 and bands.labels()[18] == "(0.80, 0.90]"
    values = np.array([np.float32(0.8), np.float32(0.8001), -1.0, 1.0, np.nan, 0.05], dtype=np.float64)
    assert bands.index(values).tolist() == [17, 18, 0, 19, -1, 10]
    assert len(Bands.tenths("trigram_overlap")) == 10
    deciles = Bands.deciles("ref_len", [3, 5, 5, 7, 9, 9, 9, 12, 15, 20, 41])
    assert deciles.edges == (3, 5, 7, 9, 12, 15, 20, 41) and deciles.labels()[0] == "(3, 5]"


def test_differing_words_are_marked_and_the_text_is_kept():
    ref, bt = differing("The cat sat on the mat.", "the dog sat on a mat!")
    assert "".join(p for p, _ in ref) == "The cat sat on the mat."
    assert [p for p, d in ref if d] == ["cat", "the", "."]
    assert [p for p, d in bt if d] == ["dog", "a", "!"]


def test_untrusted_text_is_escaped_everywhere():
    evil = '<script>alert(1)</script>" onmouseover="x'
    row = {"id": evil, "corpus": "<b>", "ref": evil, "bt": "fine <img src=x onerror=alert(2)>", "para_score": 0.5}
    band = {"band": evil, "low": 0.4, "high": 0.5, "rows": 3}
    markup = pair_article(row, band, "para_score", rate=True)
    assert "<script>" not in markup and "<img" not in markup and "<b>·" not in markup
    assert "&lt;b&gt;" in markup
    assert 'onmouseover="x' not in markup and "&lt;script&gt;" in markup
    blind = pair_article(row, band, "para_score", rate=True, index=4, blind_key="0123abcd")    # --rate --blind
    assert "<script>" not in blind and "<img" not in blind and "&lt;script&gt;" in blind and "Pair 5" in blind
    assert 'onmouseover="x' not in blind and "0.5" not in blind and "&lt;b&gt;" not in blind    # no id, score or corpus
    assert h("td", "a & b", title='"') == '<td title="&quot;">a &amp; b</td>'


def test_ratings_csv_round_trips_into_the_per_band_table():
    header = ",".join(RATING_COLUMNS)
    lines = [header]
    # 10 pairs in (0.8, 0.9] (2,000 rows), 10 in (0.9, 1.0] (6,000 rows), 4 in (0.3, 0.4]
    for i in range(10):
        lines.append(f"a{i},para_score,\"(0.80, 0.90]\",0.8,0.9,2000,0.3,{'3' if i < 6 else '2'},3")
        lines.append(f"b{i},para_score,\"(0.90, 1.00]\",0.9,1.0,6000,0.5,3,{'3' if i else '1'}")
    for i in range(4):
        lines.append(f"c{i},para_score,\"(0.30, 0.40]\",0.3,0.4,500,,1,")
    lines.append("d0,para_score,\"(0.30, 0.40]\",0.3,0.4,500,,,")        # not rated: left out
    ratings = read_ratings("\n".join(lines) + "\n", "r.csv")
    assert len(ratings) == 24
    bands = per_band(ratings)
    assert [(b["band"], b["rated"]) for b in bands] == [("(0.30, 0.40]", 4), ("(0.80, 0.90]", 10),
                                                        ("(0.90, 1.00]", 10)]
    top = bands[1]
    assert top["paraphrase"] == {"answered": 10, "1": 0, "2": 4, "3": 6} and top["overlap_mean"] == pytest.approx(0.3)
    assert bands[0]["fluency"]["answered"] == 0
    p18 = beside_p18(bands)
    assert [row["bin"] for row in p18] == [f"({low:g}, {high:g}]" for (low, high), *_ in P18_TABLE3]
    last = p18[-1]
    assert last["bands"] == ["(0.80, 0.90]", "(0.90, 1.00]"] and last["rated"] == 20
    # rows-weighted: (2000 * 0.6 + 6000 * 1.0) / 8000 = 0.9 rated 3
    assert last["paraphrase"]["3"] == pytest.approx(0.9) and last["paraphrase"]["2"] == pytest.approx(0.1)
    assert p18[1]["paraphrase"] == {"1": 1.0, "2": 0.0, "3": 0.0} and p18[1]["fluency"] is None
    table = markdown(bands, p18)
    assert "| para_score (0.80, 0.90] | 2,000 | 10 | 0.30 ± 0.00 | 0/40/60 | 0/0/100 |" in table
    assert re.search(r"\| \(0\.8, 1\] \| 18\.0 \| 1/13/86 \| 0/10/90 \|", table)


@pytest.mark.parametrize("text, message", [
    ("pair_id,band\nx,1\n", "no column(s) band_low"),
    (",".join(RATING_COLUMNS) + "\nx,para_score,b,0.8,0.9,10,,4,3\n", "line 2: answers are 1, 2 or 3"),
    (",".join(RATING_COLUMNS) + "\nx,para_score,b,0.8,0.9,10,,3,3\nx,para_score,b,0.8,0.9,10,,2,3\n",
     "line 3: pair 'x' is rated twice"),
    (",".join(RATING_COLUMNS) + "\nx,para_score,b,low,0.9,10,,3,3\n", "line 2: could not convert"),
])
def test_a_broken_ratings_csv_is_named(text, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        read_ratings(text, "r.csv")
