"""ParseStage with the shipped parser: columns filled, dedup, null parses with counted reasons, bt may be null."""
import pytest

from paranmt.models.parsing.stage import ParseStage
from paranmt.schemas.build_config import ParseConfig
from paranmt.schemas.records import empty_row


@pytest.fixture
def parser(shipped_parser, monkeypatch):
    """The shipped parser, recording how many sentences reach it (`sentences_parsed`)."""
    real_parse_all = shipped_parser._parse_all
    shipped_parser.sentences_parsed = 0

    def counting_parse_all(sentences):
        shipped_parser.sentences_parsed += len(sentences)
        return real_parse_all(sentences)

    monkeypatch.setattr(shipped_parser, "_parse_all", counting_parse_all)
    return shipped_parser


def row(number, ref, bt):
    return dict(empty_row(f"t:f:{number}", "t", "cs", ref), bt=bt)


def test_rows_get_parses_templates_and_counted_nulls(parser):
    stage = ParseStage(lambda: parser, ParseConfig(max_tokens=12, cache_size=10), keep_parsed=False)
    long_sentence = "This sentence is far too long for the configured cap of twelve tokens , sadly ."
    rows = [row(1, "She drove home.", "She went home."),
            row(2, "She drove home.", None),                 # repeated ref, no bt
            row(3, "He laughed.", "She drove home."),        # bt repeats a ref
            row(4, long_sentence, "It is long.")]
    before = parser.sentences_parsed
    outputs = stage.process_batch([dict(r) for r in rows])
    assert len(outputs) == 4 and [o["id"] for o in outputs] == [r["id"] for r in rows]
    assert outputs[0]["ref_parse"].startswith("(S(NP(PRP))(VP(VBD)")
    assert outputs[0]["ref_template"].startswith("(S(NP)(VP)")
    assert outputs[1]["ref_parse"] == outputs[0]["ref_parse"] == outputs[2]["bt_parse"]
    assert outputs[1]["bt_parse"] is None and outputs[1]["bt_template"] is None
    assert outputs[3]["ref_parse"] is None and outputs[3]["ref_template"] is None      # over max_tokens
    assert outputs[3]["bt_parse"] is not None
    assert outputs[0]["cs"] == "cs" and outputs[0]["ref"] == "She drove home."          # other columns kept
    # 7 sentences asked for; 4 distinct parseable ones reach the parser
    assert parser.sentences_parsed - before == 4
    assert stage.last_counts == {"sentences": 7, "parsed": 4, "dedup_hits": 2, "null_too_long": 1}
    # the next batch is served by the cache
    again = stage.process_batch([row(5, "He laughed.", "She went home.")])
    assert parser.sentences_parsed - before == 4
    assert again[0]["ref_parse"] == outputs[2]["ref_parse"] and stage.last_counts["dedup_hits"] == 2


def test_unparseable_text_gets_null(parser):
    stage = ParseStage(lambda: parser, ParseConfig(max_tokens=50, cache_size=0), keep_parsed=False)
    outputs = stage.process_batch([row(1, "   ", "Fine.")])
    assert outputs[0]["ref_parse"] is None and outputs[0]["bt_parse"] is not None
    assert stage.last_counts["null_empty"] == 1


def test_only_if_leaves_rows_unparsed_with_a_reason_and_a_later_run_fills_them(parser):
    rows = [dict(row(1, "She drove home.", "She went home."), para_score=0.9),
            dict(row(2, "He laughed.", "He smiled."), para_score=0.2),
            dict(row(3, "They sang.", None), para_score=None)]         # never scored: fails the condition
    stage = ParseStage(lambda: parser, ParseConfig(cache_size=0, only_if="para_score >= 0.5"), keep_parsed=False)
    before = parser.sentences_parsed
    first = stage.process_batch([dict(r) for r in rows])
    assert parser.sentences_parsed - before == 2                        # only row 1's two sentences
    assert first[0]["ref_template"] and first[0]["bt_template"] and first[0]["parse_skipped"] is None
    for skipped in first[1:]:
        assert skipped["parse_skipped"] == "only_if"
        assert [skipped[c] for c in ("ref_parse", "ref_template", "bt_parse", "bt_template")] == [None] * 4
    assert stage.last_counts == {"sentences": 2, "parsed": 2, "rows_skipped_only_if": 2}

    # a later parse-only run without the condition parses the skipped rows and keeps row 1's parses
    later = ParseStage(lambda: parser, ParseConfig(cache_size=0), keep_parsed=True)
    first[0]["ref_parse"] = "(S(kept))"                                  # proves the parse is kept, not redone
    before = parser.sentences_parsed
    second = later.process_batch(first)
    assert parser.sentences_parsed - before == 3                        # rows 2 (ref, bt) and 3 (ref)
    assert second[0]["ref_parse"] == "(S(kept))" and second[0]["bt_template"] == first[0]["bt_template"]
    assert all(r["parse_skipped"] is None and r["ref_template"] for r in second)
    assert second[1]["bt_template"] and second[2]["bt_parse"] is None
    assert later.last_counts == {"sentences": 3, "parsed": 3, "sides_kept": 2}


def test_without_keep_parsed_every_row_is_parsed_again(parser):
    """A build that rewrites ref or bt (clean, translate) parses again: an old parse may belong to an old text."""
    stale = dict(row(1, "She drove home.", "He laughed."), ref_parse="(S(stale))", bt_parse="(S(stale))")
    outputs = ParseStage(lambda: parser, ParseConfig(cache_size=0), keep_parsed=False).process_batch([stale])
    assert outputs[0]["ref_parse"].startswith("(S(NP(PRP))") and outputs[0]["bt_parse"] != "(S(stale))"


def test_a_kept_parse_survives_a_failing_condition(parser):
    parsed = dict(row(1, "She drove home.", None), ref_parse="(S(kept))", ref_template="(S)", para_score=0.1)
    stage = ParseStage(lambda: parser, ParseConfig(only_if="para_score >= 0.5"), keep_parsed=True)
    outputs = stage.process_batch([parsed])
    assert outputs[0]["ref_parse"] == "(S(kept))" and outputs[0]["parse_skipped"] is None
    assert stage.last_counts == {"sentences": 0, "sides_kept": 1}
