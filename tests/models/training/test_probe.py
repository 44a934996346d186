"""The corpus probe's parts: folds of a ranking, the seeded draw, corpus names, extra columns read with the pairs,
the config's checks."""
import pytest

from paranmt.models.training.probe import ProbeConfig, corpus_names, draw, rank_folds
from paranmt.schemas.config import load_config
from paranmt.schemas.errors import ConfigError


def test_folds_cut_the_ranking_in_equal_parts_lowest_first_and_leave_out_nulls():
    rows = [(f"a{i}", f"b{i}", value) for i, value in enumerate([0.5, None, 0.1, 0.9, 0.3, 0.7, 0.3, 0.2, float('nan')])]
    folds, null = rank_folds(rows, 3)
    assert null == 2
    assert folds == [[("a2", "b2"), ("a7", "b7"), ("a4", "b4")],     # 0.1 0.2 0.3 (ties keep corpus order)
                     [("a6", "b6"), ("a0", "b0")],                   # 0.3 0.5
                     [("a5", "b5"), ("a3", "b3")]]                   # 0.7 0.9


def test_the_draw_is_seeded_keeps_corpus_order_and_takes_all_of_a_small_corpus():
    pairs = [(str(i), str(i)) for i in range(100)]
    first = draw(pairs, 10, seed=1)
    assert first == draw(pairs, 10, seed=1) != draw(pairs, 10, seed=2)
    assert len(set(first)) == 10 and first == sorted(first, key=lambda p: int(p[0]))
    assert draw(pairs, 500, seed=1) == pairs


def test_corpus_names_drop_the_suffix_and_refuse_two_inputs_of_one_name(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "news.tsv").write_text("x\ty\n")
    (tmp_path / "shards").mkdir()
    assert corpus_names([str(tmp_path / "a" / "news.tsv"), str(tmp_path / "shards")]) == ["news", "shards"]
    (tmp_path / "news.parquet").write_text("")
    with pytest.raises(ConfigError, match="both be corpus 'news'"):
        corpus_names([str(tmp_path / "a" / "news.tsv"), str(tmp_path / "news.parquet")])


def probe_config(**overrides) -> ProbeConfig:
    return load_config(ProbeConfig, None, {"input": ["x"], "output": "o", "sts_dir": "s", **overrides}).validate()


def test_probe_config_defaults_and_checks():
    config = probe_config()
    assert (config.pairs, config.models, config.train.epochs, config.folds) == (100_000, ["word", "trigram"], 1, None)
    assert probe_config(by="para_score").folds == 10                  # the paper's tenths
    assert probe_config(**{"train.dim": "50"}).run_config("lstm").dim == 50
    for overrides, message in [({"folds": 4}, "folds needs by"), ({"models": ["word", "word"]}, "twice"),
                               ({"models": ["wrod"]}, "unknown encoder 'wrod'"), ({"pairs": 0}, "pairs must be >= 1"),
                               ({"train.encoder": "sp"}, "set per run by models"), ({"input": []}, "no input")]:
        with pytest.raises(ConfigError, match=message):
            probe_config(**overrides)


def test_config_differences_name_the_changed_keys_outside_the_run_fields():
    old = probe_config(input=["a"]).to_dict()
    assert probe_config(input=["b"], models=["word"]).differences(old) == []
    assert probe_config(**{"train.epochs": 2, "pairs": 10}).differences(old) == ["pairs: 100000 -> 10",
                                                                                "train.epochs: 1 -> 2"]
