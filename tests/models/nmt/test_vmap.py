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
    assert "vmap_pairs must be >= 1" in capsys.readouterr().err
    assert main(["convert-nmt", "--output", str(tmp_path / "o"), "--transformers", str(tmp_path),
                 "--vmap-common", "0"]) == 2
    assert "vmap_common must be >= 1, not 0" in capsys.readouterr().err


def test_convert_nmt_transformers_writes_the_vmap(hf_models, bitext, tmp_path, capsys):
    cs, en = tmp_path / "train.cs", tmp_path / "train.en"
    cs.write_text("\n".join((bitext / "newstest2012.ces").read_text(encoding="utf-8").splitlines()[:300]) + "\n")
    en.write_text("\n".join((bitext / "newstest2012.eng").read_text(encoding="utf-8").splitlines()[:300]) + "\n")
    out = tmp_path / "marian-ct2"
    assert main(["convert-nmt", "--transformers", str(hf_models["marian"]), "--output", str(out), "--quantization",
                 "float32", "--vmap-source", str(cs), "--vmap-target", str(en), "--vmap-common", "50",
                 "--vmap-per-source", "3"]) == 0
    assert f"wrote {out / 'vmap.txt'}" in capsys.readouterr().out
    lines = (out / "vmap.txt").read_text(encoding="utf-8").splitlines()
    assert len(lines[0].split()) == 50 and max(len(line.split("\t")[1].split()) for line in lines[1:]) <= 3 + 1
    translator = open_translator(str(out), use_vmap=True, device="cpu", threads=1)
    assert len(translator.translate(["Dobrý den."], beam=2)) == 1


def test_translate_stage_checks_the_map_before_any_work(tmp_path):
    from paranmt.schemas.build_config import BuildConfig
    from paranmt.schemas.errors import ConfigError
    from paranmt.transforms.stage import build_stage

    config = BuildConfig()
    config.translate.model, config.translate.use_vmap = str(TINY), True
    with pytest.raises(ConfigError, match="translate.model: no vocabulary map"):
        build_stage("translate", config)


def test_a_map_from_the_models_own_translations_lists_what_it_produces(bitext, held_out, tmp_path):
    """Without a target side the map comes from the model's own unrestricted translations of monolingual source
    text: its always-candidates are the pieces found in the most of those outputs, taken as the model produced
    them; the map loads and decodes."""
    from collections import Counter

    model = tmp_path / "model"
    shutil.copytree(TINY, model, ignore=shutil.ignore_patterns("fairseq", "MANIFEST.json"))
    sources = [line.strip() for line in (bitext / "newstest2012.ces").read_text(encoding="utf-8").splitlines()[:200]]
    source_file = tmp_path / "mono.cs"
    source_file.write_text("\n".join(sources) + "\n", encoding="utf-8")
    make_vmap(str(model), source_file, None, max_pairs=200, beam=4, threads=1)
    always = (model / "ct2" / "vmap.txt").read_text(encoding="utf-8").splitlines()[0].split()
    produced = open_translator(str(model), device="cpu", threads=1).best_pieces(sources, beam=4)
    in_outputs = Counter(piece for pieces in produced for piece in set(pieces))
    assert set(always) == set(in_outputs) if len(in_outputs) <= 300 else set(always) <= set(in_outputs)
    assert in_outputs.most_common(1)[0][0] in always
    assert len(open_translator(str(model), device="cpu", threads=1, use_vmap=True).translate(held_out[:4], 4)) == 4


def test_convert_nmt_builds_the_map_from_source_text_alone(hf_models, bitext, tmp_path, capsys):
    cs = tmp_path / "mono.cs"
    cs.write_text("\n".join((bitext / "newstest2012.ces").read_text(encoding="utf-8").splitlines()[:30]) + "\n")
    out = tmp_path / "marian-ct2"
    assert main(["convert-nmt", "--transformers", str(hf_models["marian"]), "--output", str(out), "--quantization",
                 "float32", "--vmap-source", str(cs)]) == 0
    assert f"wrote {out / 'vmap.txt'} from {cs} / the model's own translations of it" in capsys.readouterr().out
    assert open_translator(str(out), use_vmap=True, device="cpu", threads=1).translate(["Dobrý den."], beam=2)
    assert main(["convert-nmt", "--transformers", str(hf_models["marian"]), "--output", str(tmp_path / "o"),
                 "--vmap-target", str(cs)]) == 2
    assert "--vmap-target needs --vmap-source" in capsys.readouterr().err


def test_eval_nmt_decodes_with_the_map_when_asked(tiny_copy, bitext, tmp_path, capsys):
    model = tmp_path / "model"
    shutil.copytree(TINY, model, ignore=shutil.ignore_patterns("fairseq", "MANIFEST.json"))
    args = ["eval-nmt", "--model", str(model), "--source", str(bitext / "newstest2017.ces"), "--reference",
            str(bitext / "newstest2017.eng"), "--limit", "8", "--beam", "2", "--threads", "1", "--device", "cpu",
            "--simile-encoder", "", "--use-vmap"]
    assert main(args) == 2
    assert "no vocabulary map" in capsys.readouterr().err
    write_vmap(model / "ct2", ["▁the", "▁of", "."], {})
    hypotheses = tmp_path / "hyp.txt"
    assert main(args + ["--hypotheses", str(hypotheses)]) == 0
    assert json.loads(capsys.readouterr().out)["backend"] == "ctranslate2+vmap"
    text = hypotheses.read_text(encoding="utf-8")
    assert text.strip() and set(text) <= set("theof. \n")       # only the map's pieces
