"""ParseStage with the shipped parser: columns filled, dedup, null parses with counted reasons, bt may be null."""
import pytest

from paranmt.models.parsing.stage import ParseStage
from paranmt.schemas.config import ParseConfig
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
    stage = ParseStage(lambda: parser, ParseConfig(max_tokens=12, cache_size=10))
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
    stage = ParseStage(lambda: parser, ParseConfig(max_tokens=50, cache_size=0))
    outputs = stage.process_batch([row(1, "   ", "Fine.")])
    assert outputs[0]["ref_parse"] is None and outputs[0]["bt_parse"] is not None
    assert stage.last_counts["null_empty"] == 1
