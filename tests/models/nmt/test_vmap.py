"""CTranslate2's vocabulary map on the tiny fixture model (tests/fixtures/nmt-tiny): built from real bitext in the
model's pieces, written in CTranslate2's format, loaded by the ctranslate2 backend with use_vmap, and the
restricted decoding agrees with the unrestricted one on held-out sentences at the measured rate."""
import json
import shutil
from pathlib import Path

import pytest

from paranmt.models.nmt.model_dir import ModelDirError
from paranmt.models.nmt.translator import open_translator
from paranmt.models.nmt.vmap import VmapError, build_vmap, make_vmap, target_vocabulary, write_vmap
from paranmt.pipelines.cli import main

TINY = Path(__file__).resolve().parents[2] / "fixtures" / "nmt-tiny"


@pytest.fixture(scope="module")
def tiny_copy(tmp_path_factory):
    model = tmp_path_factory.mktemp("nmt-tiny") / "model"
    shutil.copytree(TINY, model)
    return model


@pytest.fixture(scope="module")
def held_out(bitext):
    return (bitext / "newstest2017.ces").read_text(encoding="utf-8").splitlines()[:40]   # held out of nmt-tiny


def test_build_vmap_ranks_by_association_and_copies_known_pieces():
    pairs = [(["▁pes", "▁štěká"], ["▁the", "▁dog", "▁barks"]), (["▁pes"], ["▁the", "▁dog"]),
             (["▁kočka"], ["▁the", "▁cat"]), (["▁Praha"], ["▁Prague"])]
    always, mapping = build_vmap(pairs, ["▁the", "▁dog", "▁barks", "▁cat", "▁Prague", "▁pes"], per_source=1,
                                 common=1, min_count=1)
    assert always == ["▁the"]
    assert mapping["▁pes"] == ["▁dog", "▁pes"]          # best Dice, plus itself (in the target vocabulary)
    assert mapping["▁štěká"] == ["▁barks"] and mapping["▁Praha"] == ["▁Prague"]
    with pytest.raises(VmapError, match="no sentence pairs"):
        build_vmap([], ["▁the"])


def test_convert_writes_a_vmap_the_backend_decodes_with(tiny_copy, bitext, held_out):
    written = make_vmap(str(tiny_copy), bitext / "newstest2012.ces", bitext / "newstest2012.eng", max_pairs=3000)
    assert written == tiny_copy / "ct2" / "vmap.txt"
    lines = written.read_text(encoding="utf-8").splitlines()
    vocabulary = set(target_vocabulary(tiny_copy / "ct2"))
    assert lines[0].startswith("\t") and len(lines[0].split()) == 300           # the always-candidates
    assert all(len(line.split("\t")) == 2 and set(line.split("\t")[1].split()) <= vocabulary for line in lines)
    full = open_translator(str(tiny_copy), device="cpu", threads=1).translate(held_out, beam=4)
    restricted = open_translator(str(tiny_copy), device="cpu", threads=1, use_vmap=True).translate(held_out, beam=4)
    agreement = sum(a.text == b.text for a, b in zip(full, restricted)) / len(held_out)
    assert agreement >= 0.6      # measured 0.725 (29 of 40) on this model, vmap from 3,000 newstest2012 pairs


def test_use_vmap_restricts_the_output_to_the_map(tiny_copy, held_out, tmp_path):
    """A map holding only a few always-candidates: every output piece comes from them (the map is loaded)."""
    model = tmp_path / "model"
    shutil.copytree(tiny_copy, model)
    always = ["▁the", "▁of", "▁a", "."]
    write_vmap(model / "ct2", always, {})
    translator = open_translator(str(model), device="cpu", threads=1, use_vmap=True)
    sources = held_out[:5]
    outputs = translator.ct2.translate_batch(translator.source_tokens(sources), beam_size=2, use_vmap=True,
                                             max_decoding_length=20)
    pieces = {piece for output in outputs for piece in output.hypotheses[0]}
    assert pieces and pieces <= set(always) | {"<unk>", "</s>", "<s>"}


def test_use_vmap_needs_a_map_and_the_ctranslate2_backend(tmp_path):
    model = tmp_path / "model"
    shutil.copytree(TINY, model)
    with pytest.raises(ModelDirError, match="no vocabulary map .*vmap.txt"):
        open_translator(str(model), use_vmap=True)
    with pytest.raises(ModelDirError, match="ctranslate2 backend setting"):
        open_translator(str(model), backend="fairseq", use_vmap=True)


def test_convert_nmt_vmap_flags_are_checked(tmp_path, capsys):
    assert main(["convert-nmt", "--output", str(tmp_path / "o"), "--fairseq-checkpoint", "x.pt",
                 "--vmap-source", "a", "--vmap-target", "b"]) == 2
    assert "--vmap-source needs a model directory" in capsys.readouterr().err
    assert main(["convert-nmt", "--output", str(tmp_path / "o"), "--transformers", str(tmp_path),
                 "--vmap-pairs", "0"]) == 2
    assert "--vmap-pairs must be >= 1" in capsys.readouterr().err


def test_convert_nmt_transformers_writes_the_vmap(hf_models, bitext, tmp_path, capsys):
    cs, en = tmp_path / "train.cs", tmp_path / "train.en"
    cs.write_text("\n".join((bitext / "newstest2012.ces").read_text(encoding="utf-8").splitlines()[:300]) + "\n")
    en.write_text("\n".join((bitext / "newstest2012.eng").read_text(encoding="utf-8").splitlines()[:300]) + "\n")
    out = tmp_path / "marian-ct2"
    assert main(["convert-nmt", "--transformers", str(hf_models["marian"]), "--output", str(out), "--quantization",
                 "float32", "--vmap-source", str(cs), "--vmap-target", str(en)]) == 0
    assert f"wrote {out / 'vmap.txt'}" in capsys.readouterr().out
    translator = open_translator(str(out), use_vmap=True, device="cpu", threads=1)
    assert len(translator.translate(["Dobrý den."], beam=2)) == 1


def test_translate_stage_checks_the_map_before_any_work(tmp_path):
    from paranmt.schemas.config import BuildConfig, ConfigError
    from paranmt.transforms.stage import build_stage

    config = BuildConfig()
    config.translate.model, config.translate.use_vmap = str(TINY), True
    with pytest.raises(ConfigError, match="translate.model: no vocabulary map"):
        build_stage("translate", config)
