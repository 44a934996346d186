"""The clean stage on real sentence pairs and on each kind of bad pair."""
import pytest

from paranmt.models.text.clean import CleanStage, normalize_text
from paranmt.models.text.tokenize import count_tokens
from paranmt.schemas.build_config import CleanConfig
from paranmt.schemas.records import empty_row, is_reject


def pair(cs, ref, id="t:f:1"):
    return empty_row(id, "t", cs, ref)


def test_real_pairs_pass_and_get_ref_len(bitext):
    cs = (bitext / "newstest2014.ces").read_text(encoding="utf-8").splitlines()[:300]
    en = (bitext / "newstest2014.eng").read_text(encoding="utf-8").splitlines()[:300]
    out = CleanStage(CleanConfig(), "cs", "en").process_batch([pair(c, e, f"n:f:{i}") for i, (c, e) in enumerate(zip(cs, en))])
    kept = [r for r in out if not is_reject(r)]
    assert len(out) == 300 and len(kept) >= 295
    assert all(isinstance(r["ref_len"], int) and r["ref_len"] >= 1 for r in kept)
    assert [r["id"] for r in out] == [f"n:f:{i}" for i in range(300)]


def test_normalization_of_whitespace_invisibles_and_punctuation():
    assert normalize_text("\ufeffHello\u200b  big\tworld!\u00a0 ", "en") == "Hello big world!"
    assert normalize_text("„Konečně se mu začalo dařit.“", "cs") == '"Konečně se mu začalo dařit."'
    assert normalize_text("a\u00adb", "en", punctuation=False) == "ab"


@pytest.mark.parametrize("cs,ref,reason", [
    ("Ahoj\x07 světe.", "Hello world.", "control_characters"),
    ("   ", "Hello.", "empty_side"),
    ("Ahoj.", "\u200b", "empty_side"),
    ("slovo " * 250, "word " * 250, "too_many_tokens"),
    ("Ano.", "Yes, I really do think that this is a rather long answer to give.", "length_ratio"),
    ("x" * 2500, "y" * 2500, "too_many_chars"),
])
def test_bad_pairs_are_rejected_with_reason(cs, ref, reason):
    [out] = CleanStage(CleanConfig(max_length_ratio=3.0), "cs", "en").process_batch([pair(cs, ref)])
    assert is_reject(out) and out["reason"] == reason and out["stage"] == "clean"
    assert out["raw"].startswith(cs[:20]) and out["detail"]


def test_min_tokens_and_disabled_ratio():
    stage = CleanStage(CleanConfig(min_tokens=3, max_length_ratio=0), "cs", "en")
    [short] = stage.process_batch([pair("Ano.", "Yes.")])
    assert short["reason"] == "too_few_tokens"
    [kept] = stage.process_batch([pair("Ano , ano , ano .", "Yes , yes , yes , yes , yes , yes , yes .")])
    assert not is_reject(kept)


def test_each_row_is_cleaned_in_its_source_language_and_an_input_bt_like_the_reference(shared_data):
    """Real WMT22 ja-en system outputs: with the row's src_lang (ja: characters, which Moses does not segment) the
    pairs pass the length ratio; counted as Moses tokens many would fail. An input bt is normalized and re-counted;
    a bt the translate stage made is left as it is."""
    import gzip

    with gzip.open(shared_data / "wmt-bt" / "wmt22.ja-en.tsv.gz", "rt", encoding="utf-8") as handle:
        records = [next(handle).rstrip("\n").split("\t") for _ in range(201)][1:]
    rows = [dict(pair(r[2], r[3], r[0]), src_lang=r[1]) for r in records]
    stage = CleanStage(CleanConfig(), "cs", "en")
    assert sum(is_reject(r) for r in stage.process_batch(rows)) <= 2
    moses = [(count_tokens(r["cs"], "ja"), count_tokens(r["ref"])) for r in rows]
    assert sum(max(n) > 5 * min(n) for n in moses) > 60
    given = dict(pair("Ahoj.", "Hello."), bt=" „Hi“ ,\u200b there ", bt_len=9, bt_source="input")
    made = dict(given, bt_source="translate")
    cleaned = stage.process_batch([given, made])
    assert [(r["bt"], r["bt_len"]) for r in cleaned] == [('"Hi" , there', 5), (made["bt"], 9)]
    [bad] = stage.process_batch([dict(given, bt="x\x07")])
    assert bad["reason"] == "control_characters" and bad["detail"].startswith("bt:")
