"""XsimStage: cross-lingual cosine of cs and ref with the shipped bilingual encoder, opt-in low_xsim rejects."""
import pytest

from paranmt.models.scoring.xsim import XsimStage, language_key
from paranmt.schemas.build_config import XsimConfig
from paranmt.schemas.errors import ConfigError
from paranmt.schemas.records import empty_row, is_reject


@pytest.fixture(scope="module")
def pairs(bitext):
    cs = (bitext / "newstest2017.ces").read_text(encoding="utf-8").splitlines()[2000:2100]
    en = (bitext / "newstest2017.eng").read_text(encoding="utf-8").splitlines()[2000:2100]
    return cs, en


def rows_of(cs, en):
    return [empty_row(f"t:{i}", "t", c, e) for i, (c, e) in enumerate(zip(cs, en))]


def test_aligned_pairs_score_above_shuffled_ones_and_empty_sides_are_null(repo, pairs):
    cs, en = pairs
    stage = XsimStage(str(repo / "assets" / "encoder-xling"), XsimConfig(), None)
    aligned = stage.process_batch(rows_of(cs, en))
    shuffled = stage.process_batch(rows_of(cs, en[1:] + en[:1]))
    good = [r["xsim"] for r in aligned]
    bad = [r["xsim"] for r in shuffled]
    assert all(isinstance(v, float) and -1 <= v <= 1 for v in good + bad)
    assert sum(good) / len(good) > 0.45 > 0.1 > sum(bad) / len(bad)
    assert sum(g > b for g, b in zip(good, bad)) >= 95
    assert [r["id"] for r in aligned] == [f"t:{i}" for i in range(100)]
    assert aligned[0]["cs"] == cs[0] and aligned[0]["ref"] == en[0]
    empty = stage.process_batch([empty_row("e:1", "t", "", en[0]), empty_row("e:2", "t", cs[0], "   "),
                                 dict(empty_row("e:3", "t", cs[0], en[0]), ref=None)])
    assert [r["xsim"] for r in empty] == [None, None, None]
    assert stage.process_batch([]) == []


def test_min_xsim_rejects_low_pairs_with_the_value_and_keeps_the_rest(repo, pairs):
    cs, en = pairs
    en_mixed = list(en)
    en_mixed[::10] = en[5::10]                     # every 10th pair misaligned
    stage = XsimStage(str(repo / "assets" / "encoder-xling"), XsimConfig(min_xsim=0.2), None)
    outputs = stage.process_batch(rows_of(cs, en_mixed) + [empty_row("e:1", "t", "", "x")])
    assert len(outputs) == 101 and outputs[-1]["xsim"] is None
    rejected = {r["id"] for r in outputs if is_reject(r)}
    planted = {f"t:{i}" for i in range(0, 100, 10)}
    assert len(rejected & planted) >= 8 and len(rejected - planted) <= 5
    reject = next(r for r in outputs if is_reject(r))
    assert reject["stage"] == "xsim" and reject["reason"] == "low_xsim"
    value = float(reject["detail"].split("xsim=")[1].split()[0])
    assert value < 0.2 and "min_xsim=0.2" in reject["detail"]
    assert reject["raw"].split("\t")[0] in cs
    kept = [r for r in outputs if not is_reject(r) and r["xsim"] is not None]
    assert all(r["xsim"] >= 0.2 for r in kept)
    with pytest.raises(ConfigError, match="xsim.min_xsim must be between -1 and 1"):
        XsimStage("x", XsimConfig(min_xsim=2.0), None)


def test_rows_in_a_language_the_encoder_lacks_get_a_null_xsim_and_are_counted(repo, pairs):
    cs, en = pairs
    stage = XsimStage(str(repo / "assets" / "encoder-xling"), XsimConfig(min_xsim=0.99), ["cs", "en"])
    rows = [dict(row, src_lang="de" if i % 2 else "cs") for i, row in enumerate(rows_of(cs[:6], en[:6]))]
    outputs = stage.process_batch(rows)
    assert [r["xsim"] for r in outputs[1::2]] == [None] * 3, "never scored, so never rejected by min_xsim"
    assert all(is_reject(r) for r in outputs[::2]) and stage.last_counts["unsupported_language"] == 3
    assert stage.last_counts["unsupported_language/de"] == 3
    assert language_key("zh-Hant") == "zh-Hant" and language_key("Ein ganzer Satz, kein Code") == "other"


def test_wmt_bts_livonian_label_li_is_covered_by_an_encoder_listing_liv(repo, pairs):
    from paranmt.schemas.metadata import covers

    assert covers(["en", "liv"], "li") and covers(["en", "liv"], "liv") and covers(None, "li")
    assert not covers(["cs", "en"], "li") and not covers(["cs", "en"], "liv")
    cs, en = pairs
    stage = XsimStage(str(repo / "assets" / "encoder-xling"), XsimConfig(), ["en", "liv"])
    outputs = stage.process_batch([dict(row, src_lang="li") for row in rows_of(cs[:4], en[:4])])
    assert all(isinstance(r["xsim"], float) for r in outputs) and stage.last_counts["unsupported_language"] == 0


def test_the_build_refuses_xsim_for_a_source_language_its_encoder_lacks_in_one_line(repo):
    from paranmt.schemas.build_config import BuildConfig
    from paranmt.transforms.score import xsim_stage

    assert xsim_stage(BuildConfig().xsim, "cs").languages == ["cs", "en"]
    with pytest.raises(ConfigError) as error:
        xsim_stage(BuildConfig().xsim, "de")
    assert str(error.value) == ("xsim.encoder: assets/encoder-xling encodes cs, en (its MANIFEST.json), not "
                                "source_lang de: leave xsim out (e.g. --stages read,clean,translate,score,parse) or "
                                "give an encoder for de (--set xsim.encoder=DIR)")
