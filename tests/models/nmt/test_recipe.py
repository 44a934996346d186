"""The NMT recipe's config loading, fairseq flag building and data preparation on the real bitext."""
import os
from pathlib import Path

import pytest

from paranmt.models.nmt.recipe import (NMTRecipe, RecipeConfig, RecipeData, bitext_files, fairseq_flags,
                                       load_recipe_config, prepare_data)
from paranmt.schemas.errors import ConfigError

REPO = Path(__file__).resolve().parents[3]


def test_fairseq_flags_turn_booleans_into_bare_flags_and_drop_false():
    flags = fairseq_flags({"encoder_layers": 3, "share_all_embeddings": True, "fp16": False, "lr": 0.0007,
                           "adam_betas": "(0.9, 0.98)"})
    assert flags == ["--encoder-layers", "3", "--share-all-embeddings", "--lr", "0.0007",
                     "--adam-betas", "(0.9, 0.98)"]


def test_shipped_recipe_config_loads_and_builds_a_cpu_training_command():
    config = load_recipe_config(str(REPO / "configs/nmt/cs-en-small.yaml"))
    assert config.data.heldout == ["newstest2017"] and config.sentencepiece.vocab_size == 8000
    args = NMTRecipe(config).train_args()
    assert "--share-all-embeddings" in args and "--cpu" in args
    assert args[args.index("--encoder-layers") + 1] == "3"
    assert args[args.index("--num-workers") + 1] == "0"


def test_threads_zero_gives_the_fairseq_subprocesses_one_thread_per_core_and_a_negative_count_is_refused():
    recipe_file = str(REPO / "configs/nmt/cs-en-small.yaml")
    assert NMTRecipe(load_recipe_config(recipe_file))._env()["OMP_NUM_THREADS"] == "1"     # the recipe pins 1
    every_core = NMTRecipe(load_recipe_config(recipe_file, {"threads": 0}))._env()
    assert every_core["OMP_NUM_THREADS"] == every_core["MKL_NUM_THREADS"] == str(os.cpu_count())
    assert RecipeConfig().threads == 0
    with pytest.raises(ConfigError, match="threads must be >= 0, not -1"):
        load_recipe_config(recipe_file, {"threads": -1})


def test_unknown_keys_and_missing_inputs_are_config_errors(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("data: {inputs: [x], valid: v}\nmodle: {}\n")
    with pytest.raises(ConfigError, match=r"unknown nmt recipe config key 'modle' \(did you mean 'model'\?\); "
                                          r"top-level keys: .*model"):
        load_recipe_config(str(bad))
    missing = tmp_path / "missing.yaml"
    missing.write_text(f"data: {{inputs: [{tmp_path / 'nowhere'}], valid: v}}\n")
    with pytest.raises(ConfigError, match="does not exist"):
        load_recipe_config(str(missing))


def test_prepare_data_holds_out_the_test_set_and_splits_valid(bitext, tmp_path):
    config = RecipeConfig(data=RecipeData(
        inputs=[str(bitext / "newssyscomb2009.ces"), str(bitext / "newstest2017.ces")],
        suffixes=["ces", "eng"], heldout=["newstest2017"], valid="newstest2017", valid_lines=100))
    stats = prepare_data(config, tmp_path)
    assert (stats["train"], stats["valid"], stats["test"]) == (502, 100, 2905)
    train_cs = (tmp_path / "train.cs").read_text(encoding="utf-8").splitlines()
    test_en = (tmp_path / "test.en").read_text(encoding="utf-8").splitlines()
    heldout_en = (bitext / "newstest2017.eng").read_text(encoding="utf-8").splitlines()
    assert len(train_cs) == 502 and len(test_en) == 2905
    assert test_en[0] == heldout_en[100].strip()     # test = the held-out file after the validation lines
    assert not set(train_cs) & set((bitext / "newstest2017.ces").read_text(encoding="utf-8").splitlines())


def test_mismatched_two_file_input_is_an_error(tmp_path):
    (tmp_path / "a.ces").write_text("jedna\ndva\n", encoding="utf-8")
    (tmp_path / "a.eng").write_text("one\n", encoding="utf-8")
    (tmp_path / "v.ces").write_text("tři\n", encoding="utf-8")
    (tmp_path / "v.eng").write_text("three\n", encoding="utf-8")
    config = RecipeConfig(data=RecipeData(inputs=[str(tmp_path)], valid="v", valid_lines=1))
    assert [stem for stem, _, _ in bitext_files(config.data)] == ["a", "v"]
    with pytest.raises(ValueError, match="has 2 lines but .* has 1"):
        prepare_data(config, tmp_path / "out")
