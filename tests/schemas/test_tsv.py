"""Every TSV paranmt writes reads back unchanged: table TSVs with pandas (`pd.read_csv(path, sep="\\t")`, plus
`keep_default_na=False` for fields such as "NA"), csv.DictReader and paranmt's own readers; plain lines with the
read call schemas/tsv.py names (issue 33, item 5)."""
import csv

import pandas as pd
import pyarrow as pa
import pytest

from paranmt.models.generation.data import read_parsed_pairs
from paranmt.models.pairs import read_pairs as read_training_pairs
from paranmt.models.text.clean import normalize_text
from paranmt.schemas import tsv
from paranmt.schemas.tsv import one_line

# a quote opening a field, closing it, doubled, alone; apostrophes, backslashes, a hash, typographic quotes
QUOTED = ['"Hi," he said.', 'He said "hi"', '"', '""', '"quoted"', "'single' \\n C:\\dir\\", "# not a comment",
          "„Ahoj“, řekl.", 'ends with a quote"', '" leading quote and space']
# whitespace that must not survive into a field: writers make each run one space
SPACED = ["tab\tinside", "line\nbreak", " padded  twice ", "crlf\r\nend"]
NA_LIKE = ["NA", "null", "nan", "None", "N/A"]


def read_table(path, **options) -> list[dict]:
    return pd.read_csv(path, sep="\t", **options).to_dict("records")


@pytest.mark.parametrize("text", QUOTED + SPACED + NA_LIKE)
def test_a_table_line_reads_back_with_the_csv_module(text):
    line = tsv.header(["a", "b"]) + tsv.table_line([text, "x"])
    assert list(csv.DictReader(line.splitlines(keepends=True), delimiter="\t")) == [{"a": one_line(text), "b": "x"}]


def test_only_a_field_that_begins_with_a_quote_is_quoted():
    assert tsv.table_line(['"a" b', 'c "d"', "e"]) == '"""a"" b"\tc "d"\te\n'
    assert tsv.plain_line(['"a" b', "c\td"]) == '"a" b\tc d\n'
    array = pa.array(['"a" b', 'c "d"', None])
    assert tsv.quote_array(array).to_pylist() == ['"""a"" b"', 'c "d"', None]


def test_the_filter_pairs_tsv_reads_back_with_pandas_defaults(tmp_path):
    from paranmt.transforms.filter import tsv_lines

    refs = QUOTED + SPACED
    bts = list(reversed(refs))
    path = tmp_path / "pairs.tsv"
    path.write_bytes(tsv.header(tsv.PAIRS_COLUMNS).encode() + tsv_lines(pa.table({"ref": refs, "bt": bts})))
    expected = [{"ref": one_line(r), "bt": one_line(b)} for r, b in zip(refs, bts)]
    assert read_table(path) == expected                      # pandas' defaults: no line swallowed, nothing changed
    assert [(p.s1, p.s2) for p in read_parsed_pairs([str(path)])] == [(e["ref"], e["bt"]) for e in expected]
    training_pairs, counts = read_training_pairs([str(path)])    # `paranmt train --format tsv` (auto)
    assert counts.read == len(refs) and training_pairs == [(e["ref"], e["bt"]) for e in expected]
    plain = tmp_path / "plain.tsv"                               # no header: plain lines, a quote is text
    plain.write_text('"Hi," he said.\tok\nnext\tline\n')
    assert [(p.s1, p.s2) for p in read_parsed_pairs([str(plain)])] == [('"Hi," he said.', "ok"), ("next", "line")]
    assert read_training_pairs([str(plain)])[0] == [('"Hi," he said.', "ok"), ("next", "line")]


def test_na_like_sentences_need_keep_default_na_false(tmp_path):
    from paranmt.transforms.filter import tsv_lines

    path = tmp_path / "pairs.tsv"
    path.write_bytes(tsv.header(tsv.PAIRS_COLUMNS).encode() + tsv_lines(pa.table({"ref": NA_LIKE,
                                                                                   "bt": ['"x"'] * 5})))
    assert read_table(path, keep_default_na=False) == [{"ref": text, "bt": '"x"'} for text in NA_LIKE]


def test_the_export_formats_read_back_as_their_docs_say(tmp_path):
    from paranmt.transforms.export import HEADERS, paranmt_line, scpn_lines

    parse = "(ROOT(S(NP(PRP))(VP(VBD))(.)))"
    rows = [{"ref": ref, "bt": f"{ref} again", "para_score": 0.5, "ref_parse": parse,
             "bt_parse": "(ROOT(S(NP(NN))(VP(VBZ))(.)))", "ref_template": "(ROOT(S))", "bt_template": "(ROOT(S))"}
            for ref in QUOTED + SPACED]
    scpn = tmp_path / "scpn.tsv"
    scpn.write_text(HEADERS["scpn"] + "".join(scpn_lines(row, lowercase=False)[0] for row in rows))
    table = read_table(scpn)
    assert [r["source"] for r in table[::2]] == [one_line(row["ref"]) for row in rows]
    assert [r["target"] for r in table[1::2]] == [one_line(row["ref"]) for row in rows]
    assert [p.s1 for p in read_parsed_pairs([str(scpn)])][::2] == [one_line(row["ref"]) for row in rows]

    text = tmp_path / "para-nmt.txt"
    text.write_text(HEADERS["paranmt-txt"] + "".join(paranmt_line(row, lowercase=False)[0] for row in rows))
    plain = read_table(text, header=None, names=["ref", "bt", "para_score"], quoting=csv.QUOTE_NONE,
                       keep_default_na=False)
    assert [r["ref"] for r in plain] == [one_line(row["ref"]) for row in rows]
    assert [line.split("\t")[0] for line in text.read_text().splitlines()] == [one_line(r["ref"]) for r in rows]


def test_the_paraphrase_tsv_output_reads_back_with_pandas(tmp_path):
    from paranmt.transforms.io.paraphrases import write_paraphrases

    rows = [{"source_id": str(i), "source": text, "rank": 0, "paraphrase": f'"{text}"', "score": -1.5,
             "kept": True} for i, text in enumerate(QUOTED + SPACED)]
    path = tmp_path / "out.tsv"
    write_paraphrases(rows, str(path))
    table = read_table(path, keep_default_na=False, dtype=str)
    assert [(r["source"], r["paraphrase"], r["kept"]) for r in table] == [
        (one_line(row["source"]), one_line(row["paraphrase"]), "true") for row in rows]


def test_the_lexicon_tsv_reads_back_with_pandas_and_the_paragram_reader(tmp_path):
    from paranmt.models.training.paragram import read_lexicon_pairs
    from paranmt.pipelines.lexicon import tsv_line

    words = ['"', "''", '"quote', "na", "plain"]
    entries = [{"u": u, "v": "word", "cross_count": 3, "pmi_cross": 1.0, "pmi_within": 0.5, "pmi_adj": 0.25 * (i + 1)}
               for i, u in enumerate(words)]
    path = tmp_path / "lexicon-00000-of-00001.tsv"
    path.write_text(tsv.header(tsv.LEXICON_COLUMNS) + "".join(tsv_line(e) for e in entries))
    assert [r["u"] for r in read_table(path, keep_default_na=False)] == words
    assert read_lexicon_pairs(tmp_path) == [(u, "word") for u in reversed(words)]


def test_cleaning_leaves_no_tab_or_line_break_for_a_field():
    for text in SPACED:
        cleaned = normalize_text(text, "en", punctuation=False)
        assert "\t" not in cleaned and "\n" not in cleaned and "\r" not in cleaned and cleaned == one_line(text)
