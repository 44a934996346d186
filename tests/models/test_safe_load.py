"""No file paranmt reads runs code: every loader of a torch file gets a crafted checkpoint whose unpickling would
write a marker file (its `__reduce__` calls os.system), and refuses it in one line naming the file, exit 2, with
the marker never written (models/safe_load.py)."""
import os
import shlex
import shutil
import subprocess
import sys

import pytest
import torch
import yaml

from paranmt.models.safe_load import UnsafeFileError, load_weights_only
from paranmt.pipelines.cli import main


class Payload:
    def __init__(self, marker):
        self.marker = str(marker)

    def __reduce__(self):
        return os.system, (f"touch {shlex.quote(self.marker)}",)


def craft(path, marker, **content):
    """A torch file (torch.save, as a real checkpoint) holding `content` and the payload; returns `path`."""
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.save({**content, "model": {"w": torch.zeros(2)}, "extra": Payload(marker)}, path)
    return path


@pytest.fixture
def marker(tmp_path):
    path = tmp_path / "PAYLOAD-RAN"
    yield path
    assert not path.exists(), "the crafted file's code ran"


def refused_in_one_line(argv, path, capsys) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and str(path) in err and "refused" in err, err


def test_the_payload_runs_when_unpickled_in_full_and_is_refused_weights_only(tmp_path):
    """The crafted file is a real attack (a plain torch.load would run it), so the tests below can fail."""
    ran = tmp_path / "ran"
    path = craft(tmp_path / "x.pt", ran)
    torch.load(path, weights_only=False)
    assert ran.exists()
    ran.unlink()
    with pytest.raises(UnsafeFileError, match=r"x\.pt: refused: .*\(posix\.system\)"):
        load_weights_only(path)
    assert not ran.exists()


def test_the_shipped_torch_files_load_weights_only(repo):
    for name in ("pos.pt", "pretrain.pt", "constituency.pt"):
        assert load_weights_only(repo / "assets" / "parser-en" / name)
    from paranmt.models.nmt.export import load_checkpoint

    assert "model" in load_checkpoint(repo / "tests" / "fixtures" / "nmt-tiny" / "fairseq" / "model.pt")


def nmt_config(tmp_path, bitext, **keys):
    data = tmp_path / "data"
    data.mkdir(exist_ok=True)
    for side in ("ces", "eng"):
        lines = (bitext / f"newstest2017.{side}").read_text(encoding="utf-8").splitlines()
        (data / f"valid.{side}").write_text("\n".join(lines[:4]) + "\n", encoding="utf-8")
    config = {"work_dir": str(tmp_path / "work"), "nice": 0,
              "data": {"inputs": [str(data)], "suffixes": ["ces", "eng"], "valid": "valid", "valid_lines": 2},
              **keys}
    path = tmp_path / "nmt.yaml"
    path.write_text(yaml.safe_dump(config))
    return path


def tiny_model_with(tmp_path, repo, marker):
    model = tmp_path / "model"
    shutil.copytree(repo / "tests" / "fixtures" / "nmt-tiny", model,      # a changed model has no manifest (one
                    ignore=shutil.ignore_patterns("MANIFEST.json"))        # would name the file before it loads)
    craft(model / "fairseq" / "model.pt", marker)
    return model


def test_train_nmt_refuses_a_crafted_init_from_model(tmp_path, repo, bitext, marker, capsys):
    model = tiny_model_with(tmp_path, repo, marker)
    config = nmt_config(tmp_path, bitext, init_from=str(model), objective="mrt")
    refused_in_one_line(["train-nmt", "--config", str(config)], model / "fairseq" / "model.pt", capsys)
    assert not (tmp_path / "work").exists()                   # refused before any step


def test_train_nmt_refuses_a_crafted_checkpoint_in_its_work_dir(tmp_path, bitext, marker, capsys):
    last = craft(tmp_path / "work" / "checkpoints" / "checkpoint_last.pt", marker)
    refused_in_one_line(["train-nmt", "--config", str(nmt_config(tmp_path, bitext)), "--resume"], last, capsys)


def test_fairseq_subprocesses_load_weights_only_whatever_the_environment(tmp_path, bitext, marker, monkeypatch):
    """fairseq-train's own torch.load (no weights_only argument) runs under the recipe's environment, which
    forces weights-only loading even when the user's environment asks for the opposite."""
    from paranmt.models.nmt.recipe import NMTRecipe, load_recipe_config

    monkeypatch.setenv("TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD", "1")
    path = craft(tmp_path / "c.pt", marker)
    env = NMTRecipe(load_recipe_config(str(nmt_config(tmp_path, bitext))))._env()
    done = subprocess.run([sys.executable, "-c", f"import torch; torch.load({str(path)!r})"], env=env,
                          capture_output=True, text=True)
    assert done.returncode != 0 and "Weights only load failed" in done.stderr


def test_convert_nmt_refuses_crafted_checkpoints(tmp_path, repo, marker, capsys):
    model = tiny_model_with(tmp_path, repo, marker)
    checkpoint = model / "fairseq" / "model.pt"
    refused_in_one_line(["convert-nmt", "--fairseq-checkpoint", str(checkpoint), "--output", str(tmp_path / "o1")],
                        checkpoint, capsys)
    run_dir = tmp_path / "run"
    last = craft(run_dir / "checkpoint_last.pt", marker)
    refused_in_one_line(["convert-nmt", "--checkpoints", str(run_dir), "--data-bin", str(model / "fairseq"),
                         "--spm", str(model / "spm.model"), "--output", str(tmp_path / "o2")], last, capsys)


def test_the_fairseq_backend_refuses_a_crafted_model(tmp_path, repo, marker, capsys, monkeypatch):
    monkeypatch.setenv("TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD", "1")    # the old opt-in changes nothing
    model = tiny_model_with(tmp_path, repo, marker)
    text = tmp_path / "s.txt"
    text.write_text("Dobrý den.\n", encoding="utf-8")
    refused_in_one_line(["eval-nmt", "--model", str(model), "--backend", "fairseq", "--source", str(text),
                         "--reference", str(text), "--simile-encoder", ""], model / "fairseq" / "model.pt", capsys)


@pytest.mark.parametrize("name", ["parser/constituency.pt", "parser/checkpoint.pt", "tagger/pos.pt", "pretrain.pt"])
def test_train_parser_refuses_a_crafted_work_dir(tmp_path, marker, capsys, name):
    work = tmp_path / "work"
    crafted = craft(work / name, marker)
    (work / "parser" / "DONE").parent.mkdir(parents=True, exist_ok=True)
    (work / "parser" / "DONE").write_text("done")
    refused_in_one_line(["train-parser", "--work-dir", str(work), "--output", str(tmp_path / "out"), "--resume"],
                        crafted, capsys)
    assert not (tmp_path / "out").exists()


def test_the_parser_refuses_a_crafted_model_directory(tmp_path, repo, marker):
    from paranmt.models.parsing.parser import StanzaParser

    model = tmp_path / "parser"
    shutil.copytree(repo / "assets" / "parser-en", model, ignore=shutil.ignore_patterns("MANIFEST.json"))
    craft(model / "pos.pt", marker)
    with pytest.raises(UnsafeFileError, match=r"pos\.pt: refused"):
        StanzaParser(str(model), device="cpu")


def test_train_resume_refuses_a_crafted_trainer_state(tmp_path, sample_dir, marker, capsys):
    state = craft(tmp_path / "out" / "checkpoint" / "trainer_state.pt", marker)
    refused_in_one_line(["train", "--train", str(sample_dir / "tatoeba-every13th"), "--format", "moses",
                         "--output", str(tmp_path / "out"), "--encoder", "word", "--dim", "8", "--resume"],
                        state, capsys)


def test_the_paraphraser_and_bgt_trainers_refuse_a_crafted_trainer_state(tmp_path, paraphrase_pairs, repo, marker):
    from paranmt.models.bgt.trainer import BGTConfig, BGTTrainer
    from paranmt.models.generation.tiny import train_tiny_paraphraser

    state = craft(tmp_path / "para" / "checkpoint" / "trainer_state.pt", marker)
    with pytest.raises(UnsafeFileError, match="trainer_state.pt: refused"):
        train_tiny_paraphraser("plain", "scpn", tmp_path / "para", paraphrase_pairs, steps=2, resume=True)
    assert state.exists()
    config = BGTConfig(variant="bgt", sp_model=str(repo / "assets" / "encoder-sp" / "sp.model"), max_steps=1,
                       dim=8, latent=4, encoder_layers=1, decoder_layers=1, heads=2, ffn=16)
    trainer = BGTTrainer(config, tmp_path / "bgt")
    craft(tmp_path / "bgt" / "checkpoint.pt", marker)         # the single file train-bgt wrote before the loop
    pairs = [("A man plays a guitar.", "Muž hraje na kytaru."), ("The market fell.", "Trh klesl.")]
    with pytest.raises(UnsafeFileError, match="refused"):
        trainer.fit(pairs, resume=True)


@pytest.mark.parametrize("name", ["checkpoint/trainer_state.pt", "checkpoint.pt"])
def test_the_shared_training_loop_refuses_a_crafted_checkpoint(tmp_path, marker, name):
    """The loop's resume (train-words, finetune-sts, and the trainers moving onto it): its checkpoint directory
    and the old single-file checkpoint."""
    from paranmt.models.loop import find_checkpoint

    craft(tmp_path / name, marker)
    with pytest.raises(UnsafeFileError, match=f"{name}: refused"):
        find_checkpoint(tmp_path)


def test_hugging_face_directories_with_a_crafted_pytorch_model_bin_are_refused(tmp_path, bitext, marker, capsys):
    """transformers loads `pytorch_model.bin` weights-only; its refusal (wrapped in its own OSError) is one line for
    the transformers backend and for convert-nmt --transformers."""
    from paranmt.models.nmt.hf_build import build_hf_model

    lines = {side: (bitext / f"newstest2017.{side}").read_text(encoding="utf-8").splitlines()[:100]
             for side in ("ces", "eng")}
    model = build_hf_model("marian", str(tmp_path / "marian"), lines["ces"], lines["eng"], vocab_size=200,
                           d_model=8, layers=1, heads=2, ffn=16)
    (model / "model.safetensors").unlink()
    craft(model / "pytorch_model.bin", marker)
    text = tmp_path / "s.txt"
    text.write_text("Dobrý den.\n", encoding="utf-8")
    refused_in_one_line(["eval-nmt", "--model", str(model), "--backend", "transformers", "--source", str(text),
                         "--reference", str(text), "--simile-encoder", ""], model, capsys)
    refused_in_one_line(["convert-nmt", "--transformers", str(model), "--output", str(tmp_path / "ct2")], model,
                        capsys)


def model_storing(tmp_path, repo, marker, key: str):
    """The tiny test NMT model whose checkpoint stores, for fairseq option `key` of its model config, Python that
    writes the marker (loaded weights-only it is plain text; fairseq evaluates it when it builds the model)."""
    from paranmt.models.nmt.export import load_checkpoint

    model = tmp_path / "model"
    shutil.copytree(repo / "tests" / "fixtures" / "nmt-tiny", model, ignore=shutil.ignore_patterns("MANIFEST.json"))
    state = load_checkpoint(model / "fairseq" / "model.pt")
    setattr(state["cfg"]["model"], key, f"__import__('os').system('touch {shlex.quote(str(marker))}') or [100]")
    torch.save(state, model / "fairseq" / "model.pt")
    return model


def test_a_checkpoint_storing_an_option_fairseq_evaluates_is_refused(tmp_path, repo, bitext, marker, capsys):
    """Weights-only loading keeps a checkpoint's objects out, not its text: fairseq `eval`s some stored options
    (adaptive_softmax_cutoff here) when it builds the model (the fairseq backend, convert-nmt's CTranslate2
    converter). Every loader refuses such a checkpoint in one line naming it and the option."""
    model = model_storing(tmp_path, repo, marker, "adaptive_softmax_cutoff")
    checkpoint = model / "fairseq" / "model.pt"
    refused_in_one_line(["convert-nmt", "--fairseq-checkpoint", str(checkpoint), "--output", str(tmp_path / "o")],
                        checkpoint, capsys)
    text = tmp_path / "s.txt"
    text.write_text("Dobrý den.\n", encoding="utf-8")
    refused_in_one_line(["eval-nmt", "--model", str(model), "--backend", "fairseq", "--source", str(text),
                         "--reference", str(text), "--simile-encoder", ""], checkpoint, capsys)
    config = nmt_config(tmp_path, bitext, init_from=str(model), objective="mrt")
    assert main(["train-nmt", "--config", str(config)]) == 2
    assert "its stored option cfg.model.adaptive_softmax_cutoff is" in capsys.readouterr().err


def test_the_options_fairseq_evaluates_are_all_checked_in_checkpoints():
    """Every option fairseq's source passes to eval / eval_str_list / eval_str_dict / eval_bool is in
    fairseq_options.EVALUATED (a newer fairseq with another one fails here)."""
    import re
    from pathlib import Path

    import fairseq

    from paranmt.models.nmt.fairseq_options import EVALUATED

    call = re.compile(r"\b(?:eval|eval_str_list|eval_str_dict|eval_bool)\(\s*(?:self\.)?(?:cfg|args)(?:\.\w+)*\.(\w+)")
    found = {name for path in Path(fairseq.__file__).parent.rglob("*.py")
             for name in call.findall(path.read_text(encoding="utf-8", errors="replace"))}
    assert len(found) > 20 and found <= EVALUATED, sorted(found - EVALUATED)
