"""TranslateStage on real sentences with the tiny model: dedup, token-budget batches, order, retries, rejects."""
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from paranmt.models.nmt.stage import TranslateStage, token_budget_batches
from paranmt.models.nmt.translator import open_translator
from paranmt.schemas.build_config import TranslateConfig
from paranmt.schemas.records import empty_row, is_reject

TINY = Path(__file__).resolve().parents[2] / "fixtures" / "nmt-tiny"


@given(st.lists(st.integers(min_value=1, max_value=300), max_size=60), st.integers(min_value=1, max_value=2000))
def test_token_budget_batches_cover_everything_sorted_within_budget(lengths, budget):
    batches = token_budget_batches(lengths, budget)
    flat = [i for batch in batches for i in batch]
    assert sorted(flat) == list(range(len(lengths)))
    assert [lengths[i] for i in flat] == sorted(lengths)
    for batch in batches:
        assert len(batch) == 1 or len(batch) * max(lengths[i] for i in batch) <= budget


class CountingTranslator:
    """The real tiny translator, recording every call; optionally failing on one poisoned source."""

    def __init__(self, poison: str | None = None):
        self.inner = open_translator(str(TINY), "ctranslate2", device="cpu", threads=1, max_target_tokens=60)
        self.calls: list[list[str]] = []
        self.poison = poison

    def count_tokens(self, sentences):
        return self.inner.count_tokens(sentences)

    def translate(self, sources, beam=12, nbest=0):
        self.calls.append(list(sources))
        if self.poison in sources:
            raise RuntimeError("poisoned sentence")
        return self.inner.translate(sources, beam, nbest)


@pytest.fixture(scope="module")
def rows(bitext):
    cs = (bitext / "newstest2017.ces").read_text(encoding="utf-8").splitlines()[:12]
    en = (bitext / "newstest2017.eng").read_text(encoding="utf-8").splitlines()[:12]
    unique = [empty_row(f"nt17:{i}", "newstest2017", c, e) for i, (c, e) in enumerate(zip(cs, en))]
    repeats = [dict(row, id=row["id"] + ":dup") for row in unique[:5]]
    return unique[:6] + repeats + unique[6:]


def stage_with(translator, **kwargs):
    config = TranslateConfig(beam=4, batch_tokens=kwargs.pop("batch_tokens", 200), **kwargs)
    return TranslateStage(str(TINY), config, "cs", "en", translator=translator)


def test_dedup_bucketing_and_order(rows):
    translator = CountingTranslator()
    stage = stage_with(translator, nbest=2)
    outputs, stats = stage.process_batch(rows), stage.last_counts
    assert [o["id"] for o in outputs] == [r["id"] for r in rows]
    assert stats["sentences"] == 17 and stats["unique_sentences"] == 12
    assert stats["model_batches"] == len(translator.calls) > 1
    assert sorted(s for call in translator.calls for s in call) == sorted({r["cs"] for r in rows})
    lengths = [translator.count_tokens(call) for call in translator.calls]
    assert [n for call in lengths for n in call] == sorted(n for call in lengths for n in call)
    assert all(len(call) * max(n) <= 200 or len(call) == 1 for call, n in zip(translator.calls, lengths))
    first = [r["cs"] for r in rows[:6]]
    direct = dict(zip(first, translator.inner.translate(first, 4)))
    for output in outputs:
        if output["cs"] in direct:                                 # same as translating them directly
            assert output["bt"] == direct[output["cs"]].text
        assert output["bt_score"] < 0 and output["bt_len"] >= 1 and len(output["bt_nbest"]) == 2
        assert output["ref"] and output["cs"]                      # other columns are untouched
    by_source = {}
    for output in outputs:
        by_source.setdefault(output["cs"], set()).add((output["bt"], output["bt_score"]))
    assert all(len(v) == 1 for v in by_source.values())            # duplicates get the same translation


def test_a_failing_sentence_is_rejected_and_the_rest_translated(rows):
    poison = rows[3]["cs"]
    translator = CountingTranslator(poison=poison)
    stage = stage_with(translator, batch_tokens=10_000)
    outputs, stats = stage.process_batch(rows), stage.last_counts
    rejected = [o for o in outputs if is_reject(o)]
    assert {o["id"] for o in rejected} == {r["id"] for r in rows if r["cs"] == poison}
    assert all(o["stage"] == "translate" and o["reason"] == "error" and "poisoned sentence" in o["detail"]
               for o in rejected)
    assert stats["model_splits"] >= 1 and all(o["bt"] for o in outputs if not is_reject(o))


def test_too_long_sources_are_rejected_with_the_limit(rows):
    translator = CountingTranslator()
    lengths = translator.count_tokens([r["cs"] for r in rows])
    limit = sorted(lengths)[len(lengths) // 2]
    outputs = stage_with(translator, max_source_tokens=limit).process_batch(rows)
    for output, length in zip(outputs, lengths):
        if length > limit:
            assert output["reason"] == "source_too_long" and f"max_source_tokens={limit}" in output["detail"]
        else:
            assert output["bt"]
    assert any(n > limit for n in lengths)
    assert not any(translator.count_tokens([s])[0] > limit for call in translator.calls for s in call)


def test_rows_that_bring_their_own_translation_are_not_translated(rows):
    """A bt from the input (bt_source=input) is passed on as it is; the other rows of the batch are translated as
    if alone; a batch of given rows never calls the model. A bt an earlier translate run wrote is translated
    again (a rerun with a better model replaces it)."""
    given = {i: dict(rows[i], bt=f"own translation {i}", bt_len=3, bt_source="input") for i in (0, 2, 3, 9)}
    given[5] = dict(rows[5], bt="an earlier model's", bt_score=-2.0, bt_source="translate")
    mixed = [given.get(i, row) for i, row in enumerate(rows)]
    translator = CountingTranslator()
    stage = stage_with(translator)
    outputs = stage.process_batch(mixed)
    assert stage.last_counts["given"] == 4 and stage.last_counts["sentences"] == len(rows) - 4
    for i, output in enumerate(outputs):
        if i in given and i != 5:
            assert output == given[i]
        else:
            assert output["bt_source"] == "translate" and output["bt_score"] < 0
            assert output["bt"] != "an earlier model's"
    called = {s for call in translator.calls for s in call}
    assert rows[3]["cs"] == rows[9]["cs"] not in called, "given in both its rows: never translated"
    alone = stage_with(CountingTranslator()).process_batch([r for i, r in enumerate(rows) if i not in given or i == 5])
    assert [o["bt"] for i, o in enumerate(outputs) if i not in given or i == 5] == [o["bt"] for o in alone]
    translator.calls.clear()
    assert stage.process_batch([given[0], given[2]]) == [given[0], given[2]] and not translator.calls
    assert stage.last_counts == {"given": 2}


def test_a_row_in_another_source_language_is_a_reject_unless_it_brings_its_bt(rows):
    translator = CountingTranslator()
    mixed = [dict(rows[0], src_lang="de"), dict(rows[1], src_lang="de", bt="Own.", bt_source="input"),
             dict(rows[2], src_lang="cs"), rows[3]]
    outputs = stage_with(translator).process_batch(mixed)
    assert outputs[0]["reason"] == "other_source_lang" and "src_lang de" in outputs[0]["detail"]
    assert outputs[1] == mixed[1] and outputs[2]["bt_source"] == outputs[3]["bt_source"] == "translate"
    assert sorted(s for call in translator.calls for s in call) == sorted([rows[2]["cs"], rows[3]["cs"]])
