"""Row filters (score + accept) on real sentences, their configuration errors, and the presets."""
from pathlib import Path

import pytest

from paranmt.models.filters.config import PRESETS_DIR, load_filter_config
from paranmt.models.filters.english import looks_english
from paranmt.models.filters.pair_filters import (EnglishFilter, LengthRatioFilter, QuantileFilter, RangeFilter,
                                                 TemplateFilter, TokenCountFilter, build_filter)
from paranmt.models.text.tokenize import count_tokens
from paranmt.schemas.config import ConfigError

# Real pairs from sts/stsbenchmark/sts-train.csv (scores = gold / 5).
PLANE = {"id": "a", "ref": "A plane is taking off.", "bt": "An air plane is taking off.", "para_score": 1.0,
         "trigram_overlap": 0.75, "bt_score": -0.3}
FLUTE = {"id": "b", "ref": "A man is playing a large flute.", "bt": "A man is playing a flute.", "para_score": 0.76,
         "trigram_overlap": 0.5, "bt_score": -0.6}


def with_lengths(row):
    return {**row, "ref_len": count_tokens(row["ref"]), "bt_len": count_tokens(row["bt"])}


def test_range_filter_thresholds_are_inclusive_and_null_is_rejected():
    para = RangeFilter("para_score", min=0.76)
    assert para.check(FLUTE) == (True, 0.76)
    assert para.check({**FLUTE, "para_score": 0.7599})[0] is False
    assert para.check({**FLUTE, "para_score": None}) == (False, None)
    overlap = RangeFilter("trigram_overlap", max=0.5)
    assert overlap.accept(overlap.score(FLUTE)) and not overlap.accept(overlap.score(PLANE))
    assert RangeFilter("bt_score", min=-0.5, max=0.0).accept(-0.3)
    assert RangeFilter("para_score", min=0.5).requires == ("para_score",)


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
    assert TokenCountFilter(max_tokens=6, sides=["ref"]).check(plane) == (True, (6,))
    assert TokenCountFilter(max_tokens=6).check(plane) == (False, (6, 7))
    assert not TokenCountFilter(min_tokens=1, max_tokens=30).accept((None, 4))
    assert LengthRatioFilter(max_ratio=1.2).check(plane) == (True, 7 / 6)
    assert not LengthRatioFilter(max_ratio=1.1).accept(7 / 6)
    assert LengthRatioFilter(2).score({"ref_len": 0, "bt_len": 3}) == 3.0
    with pytest.raises(ConfigError, match="sides"):
        TokenCountFilter(max_tokens=30, sides=["cs"])
    with pytest.raises(ConfigError, match="max_ratio"):
        LengthRatioFilter(0.5)


def test_template_filter_differ_and_equal_on_real_templates():
    row = {"ref_template": "(S(NP)(VP)(.))", "bt_template": "(S(FRAG)(:)(S)(.))",
           "ref_parse": "(S(NP(PRP))(VP(VBD))(.))", "bt_parse": "(S(NP(PRP))(VP(VBD))(.))"}
    assert TemplateFilter("differ").check(row)[0]
    assert not TemplateFilter("equal").check(row)[0]
    assert TemplateFilter("equal", level="parse").check(row)[0]
    assert not TemplateFilter("differ").check({**row, "bt_template": None})[0]
    assert TemplateFilter("differ", level="parse").requires == ("ref_parse", "bt_parse")


def _lines(path: Path, limit: int | None = None) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()[:limit]


def test_english_heuristic_separates_english_from_czech_on_real_test_sets(bitext):
    for name, english_min, czech_max in (("tatoeba-test-v2021-08-07", 0.98, 0.06), ("newstest2017", 0.95, 0.02)):
        english = _lines(bitext / f"{name}.eng", 3000)
        czech = _lines(bitext / f"{name}.ces", 3000)
        assert sum(map(looks_english, english)) / len(english) >= english_min, name
        assert sum(map(looks_english, czech)) / len(czech) <= czech_max, name
    english_filter = EnglishFilter(sides=["bt"])
    copied_czech = {"ref": "The report was published today.", "bt": _lines(bitext / "newstest2017.ces", 1)[0]}
    assert english_filter.check(copied_czech) == (False, (False,))
    assert not looks_english("")


def test_quantile_filter_needs_bounds_and_keeps_the_closed_range():
    unbound = QuantileFilter("para_score", lower=0.8, upper=1.0)
    with pytest.raises(RuntimeError, match="before its bounds"):
        unbound.accept(0.9)
    bound = unbound.with_bounds(0.8, 1.0)
    assert bound.accept(0.8) and bound.accept(1.0) and not bound.accept(0.79) and not bound.accept(None)
    assert unbound.bounds is None
    with pytest.raises(ConfigError, match="0 <= lower < upper <= 1"):
        QuantileFilter("para_score", lower=0.9, upper=0.8)


def test_build_filter_errors_name_the_problem():
    assert isinstance(build_filter({"type": "range", "column": "para_score", "min": 0.5}), RangeFilter)
    with pytest.raises(ConfigError, match="unknown filter type 'langid'"):
        build_filter({"type": "langid"})
    with pytest.raises(ConfigError, match="filter 'tokens'.*unexpected keyword"):
        build_filter({"type": "tokens", "maximum": 30})
    with pytest.raises(ConfigError, match="mapping with a `type`"):
        build_filter("para >= 0.5")


def test_presets_load_and_say_what_the_papers_say():
    plans = {path.stem: load_filter_config(str(path), {"input": "x", "output": "y"}).validate().plan()
             for path in sorted(PRESETS_DIR.glob("*.yaml"))}
    assert set(plans) == {"paranmt-5m", "simile", "lexicon"}
    assert [f.describe() for f in plans["paranmt-5m"].filters] == [
        "para_score between its 0.8 and 1 quantiles", "1 <= tokens <= 30 on ref, bt"]
    assert [f.describe() for f in plans["simile"].filters] == ["0.5 <= para_score <= inf",
                                                               "-inf <= trigram_overlap <= 0.2"]
    assert [f.describe() for f in plans["lexicon"].filters] == ["0.35 <= para_score <= inf",
                                                                "1 <= tokens <= 30 on ref, bt"]
    assert load_filter_config("simile").filters == load_filter_config(str(PRESETS_DIR / "simile.yaml")).filters


@pytest.mark.parametrize("overrides, message", [
    ({"filters": [{"type": "range", "column": "para_score", "min": 0.1}] * 2}, "filter names must be unique"),
    ({"dedup": ["cs"]}, "dedup must be a list drawn from"),
    ({"sample": 0}, "sample must be a positive integer"),
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
