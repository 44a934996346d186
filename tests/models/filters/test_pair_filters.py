"""Row filters (score + accept on whole Arrow tables) on real sentences, their configuration errors, and the
presets."""
from pathlib import Path

import pyarrow as pa
import pytest

from paranmt.models.filters.base import describe_scores
from paranmt.models.filters.config import PRESETS_DIR, load_filter_config
from paranmt.models.filters.english import looks_english
from paranmt.models.filters.pair_filters import (EnglishFilter, LengthRatioFilter, QuantileFilter, RangeFilter,
                                                 TemplateFilter, TokenCountFilter, build_filter)
from paranmt.models.text.tokenize import count_tokens
from paranmt.schemas.errors import ConfigError

# Real pairs from sts/stsbenchmark/sts-train.csv (scores = gold / 5).
PLANE = {"id": "a", "ref": "A plane is taking off.", "bt": "An air plane is taking off.", "para_score": 1.0,
         "trigram_overlap": 0.75, "bt_score": -0.3}
FLUTE = {"id": "b", "ref": "A man is playing a large flute.", "bt": "A man is playing a flute.", "para_score": 0.76,
         "trigram_overlap": 0.5, "bt_score": -0.6}


def with_lengths(row):
    return {**row, "ref_len": count_tokens(row["ref"]), "bt_len": count_tokens(row["bt"])}


def table(*rows: dict) -> pa.Table:
    """Rows as an Arrow table with the shard column types (float32 scores, int16 lengths)."""
    types = {"para_score": pa.float32(), "trigram_overlap": pa.float32(), "bt_score": pa.float32(),
             "ref_len": pa.int16(), "bt_len": pa.int16()}
    names = list(dict.fromkeys(name for row in rows for name in row))
    return pa.table({name: pa.array([row.get(name) for row in rows], types.get(name, pa.string()))
                     for name in names})


def accepted(pair_filter, *rows: dict) -> list[bool]:
    return pair_filter.check(table(*rows))[0].tolist()


def test_range_filter_thresholds_are_inclusive_and_null_or_nan_is_rejected():
    para = RangeFilter("para_score", min=0.75)  # scores are float32 as in shards; 0.75 is exact there
    keep, score = para.check(table({**FLUTE, "para_score": 0.75}, {**FLUTE, "para_score": 0.7499},
                                   {**FLUTE, "para_score": None}, {**FLUTE, "para_score": float("nan")}))
    assert keep.tolist() == [True, False, False, False]
    assert describe_scores(score).to_pylist()[1:3] == ["score=0.7499", "score=null"]
    overlap = RangeFilter("trigram_overlap", max=0.5)
    assert accepted(overlap, FLUTE, PLANE) == [True, False]
    assert accepted(RangeFilter("bt_score", min=-0.5, max=0.0), PLANE) == [True]
    assert RangeFilter("para_score", min=0.5).requires == ("para_score",)


@pytest.mark.parametrize("kwargs, message", [
    ({"column": "para_score", "min": 7}, r"min 7 is outside the values para_score can take, \[-1, 1\]"),
    ({"column": "para_score", "max": -1.5}, "max -1.5 is outside"),
    ({"column": "trigram_overlap", "max": 20}, r"\[0, 1\]"),
    ({"column": "bt_score", "min": 0.5}, r"bt_score can take, \[-inf, 0\]"),
    ({"column": "xsim", "min": 2}, "outside"),
])
def test_a_threshold_outside_the_column_range_is_a_config_error(kwargs, message):
    with pytest.raises(ConfigError, match=message):
        RangeFilter(**kwargs)


@pytest.mark.parametrize("kwargs, message", [
    ({"column": "ref_len", "min": 1}, "column must be one of"),
    ({"column": "para_score"}, "give min, max or both"),
    ({"column": "para_score", "min": 0.9, "max": 0.1}, "min 0.9 > max 0.1"),
    ({"column": "para_score", "min": "high"}, "must be a number"),
])
def test_range_filter_rejects_bad_configuration(kwargs, message):
    with pytest.raises(ConfigError, match=message):
        RangeFilter(**kwargs)


def test_token_count_and_length_ratio_use_the_shard_token_counts():
    plane = with_lengths(PLANE)
    assert (plane["ref_len"], plane["bt_len"]) == (6, 7)
    assert accepted(TokenCountFilter(max_tokens=6, sides=["ref"]), plane) == [True]
    keep, score = TokenCountFilter(max_tokens=6).check(table(plane, {**plane, "ref_len": None}))
    assert keep.tolist() == [False, False]
    assert describe_scores(score).to_pylist() == ["ref_len=6, bt_len=7", "ref_len=null, bt_len=7"]
    keep, ratio = LengthRatioFilter(max_ratio=1.2).check(table(plane))
    assert keep.tolist() == [True] and ratio.to_pylist() == [7 / 6]
    assert accepted(LengthRatioFilter(max_ratio=1.1), plane) == [False]
    zero = {"ref_len": 0, "bt_len": 3}
    assert LengthRatioFilter(2).score(table(zero)).to_pylist() == [3.0]
    assert accepted(LengthRatioFilter(2), {"ref_len": None, "bt_len": 3}) == [False]
    with pytest.raises(ConfigError, match="sides"):
        TokenCountFilter(max_tokens=30, sides=["cs"])
    with pytest.raises(ConfigError, match="max_ratio"):
        LengthRatioFilter(0.5)


def test_template_filter_differ_and_equal_on_real_templates():
    row = {"ref_template": "(S(NP)(VP)(.))", "bt_template": "(S(FRAG)(:)(S)(.))",
           "ref_parse": "(S(NP(PRP))(VP(VBD))(.))", "bt_parse": "(S(NP(PRP))(VP(VBD))(.))"}
    assert accepted(TemplateFilter("differ"), row, {**row, "bt_template": None}) == [True, False]
    assert accepted(TemplateFilter("equal"), row) == [False]
    assert accepted(TemplateFilter("equal", level="parse"), row) == [True]
    assert TemplateFilter("differ", level="parse").requires == ("ref_parse", "bt_parse")


def _lines(path: Path, limit: int | None = None) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()[:limit]


def test_english_heuristic_separates_english_from_czech_on_real_test_sets(bitext):
    for name, english_min, czech_max in (("tatoeba-test-v2021-08-07", 0.98, 0.06), ("newstest2017", 0.95, 0.02)):
        english = _lines(bitext / f"{name}.eng", 3000)
        czech = _lines(bitext / f"{name}.ces", 3000)
        assert looks_english(pa.array(english)).mean() >= english_min, name
        assert looks_english(pa.array(czech)).mean() <= czech_max, name
    english_filter = EnglishFilter(sides=["bt"])
    copied_czech = {"ref": "The report was published today.", "bt": _lines(bitext / "newstest2017.ces", 1)[0]}
    keep, score = english_filter.check(table(copied_czech, {**copied_czech, "bt": None}))
    assert keep.tolist() == [False, False] and describe_scores(score).to_pylist()[0] == "bt=false"
    assert looks_english(pa.array(["", None, "12 34", "It is."])).tolist() == [False, False, False, True]


def _looks_english_by_hand(sentence: str) -> bool:
    """The module docstring's definition, one sentence at a time in plain Python (the reference)."""
    import regex

    from paranmt.models.filters.english import ENGLISH_FUNCTION_WORDS
    function_words = set(ENGLISH_FUNCTION_WORDS.to_pylist())
    letters = regex.findall(r"\p{L}", sentence)
    words = regex.findall(r"\p{L}+", sentence.lower())
    ascii_ratio = sum(bool(regex.match("[A-Za-z]", c)) for c in letters) / len(letters) if letters else 0.0
    if ascii_ratio < 0.97:
        return False
    return len(words) < 4 or sum(w in function_words for w in words) / len(words) >= 0.15


def test_vectorized_english_check_equals_the_definition_sentence_by_sentence(bitext):
    sentences = _lines(bitext / "newstest2017.eng", 500) + _lines(bitext / "newstest2017.ces", 500) + \
        ["", "Don't!", "ＡＢＣ is the one.", "Ça va bien, merci."]
    assert looks_english(pa.array(sentences)).tolist() == [_looks_english_by_hand(s) for s in sentences]


def test_quantile_filter_needs_bounds_and_keeps_the_closed_range():
    unbound = QuantileFilter("para_score", lower=0.8, upper=1.0)
    scores = table(*({"para_score": value} for value in (0.8, 1.0, 0.79, None)))
    with pytest.raises(RuntimeError, match="before its bounds"):
        unbound.check(scores)
    bound = unbound.with_bounds(0.8, 1.0)
    assert bound.check(scores)[0].tolist() == [True, True, False, False]
    assert unbound.bounds is None
    with pytest.raises(ConfigError, match="0 <= lower < upper <= 1"):
        QuantileFilter("para_score", lower=0.9, upper=0.8)


def test_build_filter_errors_name_the_problem():
    assert isinstance(build_filter({"type": "range", "column": "para_score", "min": 0.5}), RangeFilter)
    with pytest.raises(ConfigError, match="unknown filter type 'langid'"):
        build_filter({"type": "langid"})
    with pytest.raises(ConfigError, match="mapping with a `type`"):
        build_filter("para >= 0.5")


@pytest.mark.parametrize("spec, message", [
    # issue 24 item 8: a key typo names the key, its near match and the filter's valid keys (not a TypeError text)
    ({"type": "range", "column": "para_score", "mx": 0.5},
     "filter 'range': unknown key 'mx' (did you mean 'max'?); valid keys of a 'range' filter: type, column, min, max, "
     "name"),
    ({"type": "tokens", "maximum": 30}, "filter 'tokens': unknown key 'maximum'; valid keys of a 'tokens' filter: "
                                        "type, min_tokens, max_tokens, sides, name"),
    ({"type": "range", "max": 0.5}, "filter 'range': missing key(s) column; valid keys"),
    ({"type": "rnage", "column": "xsim"}, "unknown filter type 'rnage' (did you mean range or language?)"),
    ({"type": "tokens", "max_tokens": [30]}, "filter 'tokens': a value has the wrong type"),
    ({"type": "os.path:join"}, "is not a subclass of paranmt.models.filters.base.PairFilter"),
    ({"type": "no_such_package.filters:Mine"}, "cannot import module 'no_such_package.filters'"),
])
def test_filter_mapping_mistakes_are_one_line_naming_the_key(spec, message):
    with pytest.raises(ConfigError) as error:
        build_filter(spec)
    assert message in str(error.value) and "\n" not in str(error.value)


def test_a_preset_name_typo_lists_the_presets_and_the_near_match():
    with pytest.raises(ConfigError) as error:
        load_filter_config("paranmt-5n")
    assert str(error.value).startswith("filter config 'paranmt-5n' is neither a file nor a preset (did you mean "
                                       "'paranmt-5m'?); presets: lexicon, paranmt-5m, simile")


def test_bt_copy_filter_drops_back_translations_that_are_the_reference():
    table = pa.table({"ref": ["I don't know.", "Her father died.", "It rains.", None],
                      "bt": ["i don't know", "Her father is dead.", "It rains.", "x"]})
    assert build_filter({"type": "bt_copy"}).check(table)[0].tolist() == [False, True, False, False]
    assert build_filter({"type": "bt_copy", "normalization": "exact"}).check(table)[0].tolist() == [
        True, True, False, False]


def test_presets_load_and_say_what_the_papers_say():
    plans = {path.stem: load_filter_config(str(path), {"input": "x", "output": "y"}).validate().plan()
             for path in sorted(PRESETS_DIR.glob("*.yaml"))}
    assert set(plans) == {"paranmt-5m", "simile", "lexicon"}
    guards = ["-inf <= bt_repetition <= 0.2", "ref is en (confidence >= 0)", "bt is en (confidence >= 0)"]
    assert [f.describe() for f in plans["paranmt-5m"].filters] == [
        "para_score between its 0.8 and 1 quantiles", "1 <= tokens <= 30 on ref, bt",
        "bt differs from ref (normalized)", "-inf <= bt_repetition <= 0", *guards[1:]]
    assert [f.describe() for f in plans["simile"].filters] == ["0.5 <= para_score <= inf",
                                                               "-inf <= trigram_overlap <= 0.2", *guards]
    assert [f.describe() for f in plans["lexicon"].filters] == ["0.35 <= para_score <= inf",
                                                                "1 <= tokens <= 30 on ref, bt", guards[0]]
    assert load_filter_config("simile").filters == load_filter_config(str(PRESETS_DIR / "simile.yaml")).filters


@pytest.mark.parametrize("overrides, message", [
    ({"filters": [{"type": "range", "column": "para_score", "min": 0.1}] * 2}, "filter names must be unique"),
    ({"dedup": ["cs"]}, "dedup must be a list drawn from"),
    ({"sample": 0}, "sample must be >= 1, not 0"),
    ({"dedup_normalization": "fuzzy"}, "dedup_normalization"),
    ({"output": ""}, "no output"),
])
def test_config_validation_fails_fast_with_one_message(overrides, message):
    with pytest.raises(ConfigError, match=message):
        load_filter_config(None, {"input": "x", "output": "y", **overrides}).validate()


def test_unknown_config_key_is_an_error(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("filters: []\nthreshold: 0.5\n")
    with pytest.raises(ConfigError, match="unknown filter config key"):
        load_filter_config(str(path))


def test_language_filter_keeps_the_labels_asked_for_above_the_confidence():
    import pyarrow as pa

    table = pa.table({"bt_lang": ["en", "en", "sk", None], "bt_lang_conf": pa.array([0.9, 0.2, 0.99, None],
                                                                                    pa.float32())})
    assert build_filter({"type": "language", "side": "bt", "languages": ["en"]}).accept(
        build_filter({"type": "language", "side": "bt", "languages": ["en"]}).score(table)).tolist() == [
        True, True, False, False]
    strict = build_filter({"type": "language", "side": "bt", "languages": ["en", "sk"], "min_conf": 0.5})
    assert strict.accept(strict.score(table)).tolist() == [True, False, True, False]
    for bad, message in (({"side": "de", "languages": ["en"]}, "side must be"), ({"side": "bt", "languages": []},
                         "languages must be"), ({"side": "bt", "languages": ["en"], "min_conf": 2}, "outside")):
        with pytest.raises(ConfigError, match=message):
            build_filter({"type": "language", **bad})


def test_split_filter_keeps_groups_together_and_its_parts_cover_the_input_once(shared_data):
    """Real ids of ../shared/data/wmt-bt: the system outputs of one source segment never straddle two parts."""
    import gzip

    with gzip.open(shared_data / "wmt-bt" / "wmt22.cs-en.tsv.gz", "rt", encoding="utf-8") as handle:
        ids = [line.split("\t", 1)[0] for line in list(handle)[1:]]
    ids_table = pa.table({"id": ids})
    config = {"type": "split", "group": r"^[^.]+\.[^.]+\.[0-9]+", "parts": {"train": 0.9, "dev": 0.05, "test": 0.05}}
    kept = {part: build_filter({**config, "keep": part}).check(ids_table)[0] for part in ("train", "dev", "test")}
    assert (kept["train"].astype(int) + kept["dev"] + kept["test"] == 1).all()
    shares = {part: mask.mean() for part, mask in kept.items()}
    assert 0.85 < shares["train"] < 0.95 and 0.02 < shares["dev"] < 0.08 and 0.02 < shares["test"] < 0.08
    segment = {}
    for row_id, is_dev in zip(ids, kept["dev"]):       # "Allegro.eu" has a dot: the group is the first three fields
        segment.setdefault(".".join(row_id.split(".")[:3]), set()).add(bool(is_dev))
    assert all(len(parts) == 1 for parts in segment.values())
    assert build_filter({**config, "keep": "dev", "seed": "other"}).check(ids_table)[0].tolist() != kept["dev"].tolist()
    with pytest.raises(ConfigError, match="sum to 1"):
        build_filter({"type": "split", "keep": "dev", "parts": {"train": 0.9, "dev": 0.2}})
    with pytest.raises(ConfigError, match="keep must be one of"):
        build_filter({"type": "split", "keep": "validation"})
    with pytest.raises(ConfigError, match="not a regular expression"):
        build_filter({"type": "split", "keep": "dev", "group": "(("})


def test_values_filter_keeps_rows_by_a_text_column_and_refuses_numeric_columns():
    rows = pa.table({"corpus": ["de", "ja", None, "cs"], "id": ["a", "b", "c", "d"]})
    assert build_filter({"type": "values", "column": "corpus", "values": ["de", "cs"]}).check(rows)[0].tolist() == [
        True, False, False, True]
    assert build_filter({"type": "values", "column": "corpus", "values": "ja", "exclude": True}).check(rows)[0] \
        .tolist() == [True, False, False, True]
    with pytest.raises(ConfigError, match="must be a text column"):
        build_filter({"type": "values", "column": "para_score", "values": ["1"]})
    with pytest.raises(ConfigError, match="non-empty list of strings"):
        build_filter({"type": "values", "column": "corpus", "values": []})
