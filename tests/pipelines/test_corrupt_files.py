"""Every command's loaders given spoiled files (truncated, empty, binary, of the wrong type): one line on stderr
naming the file, exit 1 or 2, never a traceback (issue 34, item 4).

Model directories (encoder, paraphraser, parse generator, parser, NMT model) are spoiled without their MANIFEST.json,
so that each file's own loader meets the damage, and once more with it, so that every loader's MANIFEST check
(paranmt.models.files.model_directory) names the file first. Config YAMLs, TSV and text inputs, Parquet inputs
and template files are spoiled for each command that reads them. Everything runs in-process through cli.main;
a copied model links its unchanged files instead of copying them.
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from paranmt.pipelines.cli import main

REPO = Path(__file__).resolve().parents[2]
ASSETS = REPO / "assets"
NMT_TINY = REPO / "tests" / "fixtures" / "nmt-tiny"
STS = REPO.parent / "shared" / "data" / "sts"
KINDS = ("truncated", "empty", "binary", "wrong-type")
BINARY = bytes(range(256)) * 16


def spoil(path: Path, kind: str) -> Path:
    """`path` (a real file, not a link) made truncated (its first half), empty, binary, or of the wrong type (a
    JSON/YAML list where a mapping or a model belongs)."""
    data = path.read_bytes() if path.exists() else b"x\ty\n" * 8
    if path.is_symlink():
        path.unlink()
    path.write_bytes({"truncated": data[: len(data) // 2], "empty": b"", "binary": BINARY,
                      "wrong-type": b"[1, 2]\n"}[kind])
    return path


def linked_copy(source: Path, target: Path, manifest: bool) -> Path:
    """A copy of the model directory `source` whose files are links to the originals (MANIFEST.json left out
    unless `manifest`)."""
    for file in source.rglob("*"):
        if file.is_file() and (manifest or file.name != "MANIFEST.json"):
            (target / file.relative_to(source)).parent.mkdir(parents=True, exist_ok=True)
            os.symlink(file, target / file.relative_to(source))
    return target


def one_line_error(argv: list[str], capsys, named: Path) -> str:
    """Run the command; assert exit 1 or 2 and exactly one line on stderr, which names `named`; return the
    line."""
    code = main([str(a) for a in argv])
    err = capsys.readouterr().err.strip().splitlines()
    assert code in (1, 2) and len(err) == 1, (code, err[-5:])
    assert "Traceback" not in err[0]
    assert str(named) in err[0], err[0]
    return err[0]


@pytest.fixture(scope="module")
def texts(tmp_path_factory) -> Path:
    """sentences.txt (two English sentences), a Parquet shard of pairs, and a `ppdb` word-pair line."""
    root = tmp_path_factory.mktemp("texts")
    (root / "sentences.txt").write_text("The cat sat on the mat .\nIt was raining .\n", encoding="utf-8")
    pq.write_table(pa.table({"id": ["a:1", "a:2"], "ref": ["the cat sat", "it rained"],
                             "bt": ["a cat was sitting", "there was rain"]}), root / "pairs.parquet")
    return root


# -- model directories: (command line with DIR for the copy and IN for sentences.txt, source, spoiled files) -------
ENCODE = ["encode", "--model", "DIR", "--input", "IN"]
PLAIN = ["paraphrase", "--task", "plain", "--model", "DIR", "--input", "IN", "--output", "OUT.tsv",
         "--device", "cpu", "--threads", "1"]
MODELS = {
    "encoder": (ENCODE, ASSETS / "encoder-sp", ["config.json", "weights.npz", "sp.model"]),
    "paraphraser": (PLAIN, ASSETS / "paraphraser-plain",
                    ["paraphraser.json", "templates.json", "model.safetensors", "units.model"]),
    "parse-generator": (["paraphrase", "--model", ASSETS / "paraphraser-scpn", "--parse-generator", "DIR",
                         "--templates", "(S(NP)(VP)(.))", *PLAIN[5:]], ASSETS / "parse-generator",
                        ["paraphraser.json", "parse_units.json", "condition_units.json"]),
    "parser": ([*PLAIN[:4], ASSETS / "paraphraser-plain", *PLAIN[5:], "--parser", "DIR"], ASSETS / "parser-en",
               ["parser.json", "pos.pt", "constituency.pt"]),
    "encoder-mine": (["mine", "--encoder", "DIR", "--source", "IN", "--target", "IN", "--output", "OUT.tsv"],
                     ASSETS / "encoder-sp", ["weights.npz"]),
    "parser-data": (["paraphrase-data", "--data", "DATA", "--parser", "DIR", "--output", "OUT.tsv"],
                    ASSETS / "parser-en", ["parser.json", "constituency.pt"]),
    "nmt": (["eval-nmt", "--model", "DIR", "--source", "IN", "--reference", "IN", "--device", "cpu"], NMT_TINY,
            ["nmt.json", "spm.model", "ct2/model.bin", "ct2/config.json"]),
    "nmt-fairseq": (["eval-nmt", "--model", "DIR", "--backend", "fairseq", "--source", "IN", "--reference", "IN",
                     "--device", "cpu"], NMT_TINY, ["fairseq/model.pt"]),
}


def model_cases():
    for name, (_, _, files) in MODELS.items():
        for file in files:
            for kind in KINDS:
                yield pytest.param(name, file, kind, False, id=f"{name}-{file}-{kind}")
        yield pytest.param(name, files[-1], "truncated", True, id=f"{name}-{files[-1]}-manifest")
        yield pytest.param(name, "MANIFEST.json", "binary", True, id=f"{name}-MANIFEST.json-binary")


def command(template: list, directory: Path, texts: Path, tmp_path: Path, data: Path | None = None) -> list[str]:
    names = {"DIR": directory, "IN": texts / "sentences.txt", "OUT.tsv": tmp_path / "out.tsv", "DATA": data}
    return [str(names.get(part, part)) for part in template]


@pytest.mark.parametrize("name, file, kind, manifest", model_cases())
def test_a_spoiled_model_file_is_one_line_naming_it(name, file, kind, manifest, texts, tmp_path, capsys, request):
    template, source, _ = MODELS[name]
    directory = linked_copy(source, tmp_path / name, manifest)
    spoiled = spoil(directory / file, kind)
    named = spoiled.parent if file.startswith("ct2/") and not manifest else spoiled    # CTranslate2 reads a dir
    data = request.getfixturevalue("tiny_data_folder") if "DATA" in template else None
    line = one_line_error(command(template, directory, texts, tmp_path, data), capsys, named)
    if manifest and file != "MANIFEST.json":
        assert f"{spoiled} does not match the sha256 in MANIFEST.json" in line
    if file.endswith(".json") and kind == "truncated" and not manifest and named == spoiled:   # the JSON error
        assert f"{spoiled} is not a readable" in line and "JSONDecodeError" in line


@pytest.mark.parametrize("stage, setting, source, file", [
    ("parse", "parse.model_dir", ASSETS / "parser-en", "pos.pt"),
    ("parse", "parse.model_dir", ASSETS / "parser-en", "constituency.pt"),
    ("translate", "translate.model", NMT_TINY, "spm.model"),
    ("translate", "translate.model", NMT_TINY, "ct2/config.json"),
])
def test_build_finds_a_spoiled_model_without_manifest_before_any_work(stage, setting, source, file, tmp_path,
                                                                     capsys):
    """Without a MANIFEST.json only loading finds the damage: the build loads what is cheap to load of each model
    (the parser's weights, the sentencepiece models, CTranslate2's config) before any work, not in a worker."""
    directory = linked_copy(source, tmp_path / "model", manifest=False)
    spoiled = spoil(directory / file, "truncated")
    output = tmp_path / "out"
    line = one_line_error(["build", "--input", REPO / "data" / "sample" / "*", "--format", "moses", "--stages",
                           f"read,clean,{stage}", "--set", f"{setting}={directory}", "--output", output,
                           "--runner=DirectRunner", "--direct_running_mode=in_memory"], capsys, spoiled)
    assert line.startswith("paranmt build: configuration error: ")          # exit 2, not a worker's stop (exit 1)
    assert not list(output.glob("*.parquet"))


@pytest.mark.parametrize("template", [ENCODE, PLAIN, MODELS["nmt"][0]], ids=["encode", "paraphrase", "eval-nmt"])
def test_a_file_given_as_a_model_directory_is_said_so(template, texts, tmp_path, capsys):
    file = texts / "sentences.txt"
    line = one_line_error(command(template, file, texts, tmp_path), capsys, file)
    assert f"{file} is a file, not a model directory" in line


# -- configs and data inputs -----------------------------------------------------------------------------------
CONFIGS = {
    "build": ["--input", REPO / "data" / "sample" / "*", "--format", "moses", "--output", "OUT"],
    "train": ["--train", "PAIRS", "--output", "OUT"],
    "train-bgt": ["--train", "PAIRS", "--output", "OUT"],
    "train-paraphraser": ["--input", "PAIRS", "--output", "OUT"],
    "probe": ["--input", "PAIRS", "--output", "OUT"],
    "filter": ["--input", "PAIRS", "--output", "OUT"],
    "cluster-config": ["--output", "OUT"],
    "train-nmt": [],
    "train-parser": [],
}


@pytest.mark.parametrize("kind", ["truncated", "binary", "wrong-type"])
@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_a_spoiled_config_is_one_line_naming_it(name, kind, texts, tmp_path, capsys):
    config = tmp_path / "config.yaml"
    config.write_text("a: [1, 2\nb: {c: 3\n" if kind == "truncated" else "")    # truncated mid-structure
    if kind != "truncated":
        spoil(config, kind)
    names = {"PAIRS": texts / "pairs.parquet", "OUT": tmp_path / "out"}
    one_line_error([name, *(names.get(a, a) for a in CONFIGS[name]), "--config", config], capsys, config)
    assert not (tmp_path / "out").exists()


# command lines reading a text file (FILE): a binary one is refused by every reader (a truncated text file is text;
# an empty one is refused where nothing can be done with no lines)
TEXT_READERS = {
    "train-tsv": ["train", "--train", "FILE", "--format", "tsv", "--output", "OUT"],
    "train-bgt-tsv": ["train-bgt", "--train", "FILE", "--format", "tsv", "--output", "OUT"],
    "train-paraphraser": ["train-paraphraser", "--input", "FILE", "--output", "OUT"],
    "train-paraphraser-sentences": ["train-paraphraser", "--task", "plain", "--sentences", "FILE", "--output", "OUT"],
    "train-words": ["train-words", "--input", "FILE", "--format", "ppdb", "--output", "OUT"],
    "encode": ["encode", "--model", ASSETS / "encoder-sp", "--input", "FILE"],
    "simile": ["simile", "--hyp", "FILE", "--ref", "FILE"],
    "eval-nmt": ["eval-nmt", "--model", NMT_TINY, "--source", "FILE", "--reference", "FILE"],
    "paraphrase": ["paraphrase", "--input", "FILE", "--output", "OUT.tsv"],
    "paraphrase-templates": ["paraphrase", "--input", "IN", "--output", "OUT.tsv", "--templates", "FILE"],
    "mine": ["mine", "--source", "FILE", "--target", "FILE", "--output", "OUT"],
    "probe": ["probe", "--input", "FILE", "--format", "tsv", "--sts-dir", STS, "--output", "OUT"],
}


@pytest.mark.parametrize("name", sorted(TEXT_READERS))
def test_a_binary_text_input_is_one_line_naming_it(name, texts, tmp_path, capsys):
    file = spoil(tmp_path / "input.txt", "binary")
    names = {"FILE": file, "IN": texts / "sentences.txt", "OUT": tmp_path / "out", "OUT.tsv": tmp_path / "out.tsv"}
    one_line_error([names.get(a, a) for a in TEXT_READERS[name]], capsys, file)


@pytest.mark.parametrize("name", ["encode", "simile", "eval-nmt", "train-tsv", "train-words", "mine"])
def test_a_directory_given_as_a_text_input_is_one_line_naming_it(name, texts, tmp_path, capsys):
    names = {"FILE": tmp_path, "OUT": tmp_path / "out", "OUT.tsv": tmp_path / "out.tsv"}
    one_line_error([names.get(a, a) for a in TEXT_READERS[name]], capsys, tmp_path)


@pytest.mark.parametrize("name", ["paraphrase", "paraphrase-templates", "simile", "eval-nmt", "train-tsv"])
def test_an_empty_text_input_is_one_line_naming_it(name, texts, tmp_path, capsys):
    file = spoil(tmp_path / "input.txt", "empty")
    names = {"FILE": file, "IN": texts / "sentences.txt", "OUT": tmp_path / "out", "OUT.tsv": tmp_path / "out.tsv"}
    one_line_error([names.get(a, a) for a in TEXT_READERS[name]], capsys, file)


SHARD_READERS = {
    "stats": ["stats", "--input", "SHARDS", "--output", "OUT"],
    "export": ["export", "--format", "scpn", "--input", "SHARDS", "--output", "OUT"],
    "filter": ["filter", "--input", "SHARDS", "--output", "OUT"],
    "lexicon": ["lexicon", "--input", "SHARDS", "--output", "OUT"],
    "eval-paraphraser": ["eval-paraphraser", "--input", "SHARDS"],
    "paraphrase": ["paraphrase", "--input", "SHARDS", "--output", "OUT"],
    "build": ["build", "--input", "SHARDS", "--format", "shards", "--stages", "clean", "--output", "OUT"],
    "train": ["train", "--train", "SHARDS", "--format", "shards", "--output", "OUT"],
    "train-bgt": ["train-bgt", "--train", "SHARDS", "--format", "shards", "--output", "OUT"],
    "train-paraphraser": ["train-paraphraser", "--input", "SHARDS", "--output", "OUT"],
    "probe": ["probe", "--input", "SHARDS", "--sts-dir", STS, "--output", "OUT"],
}


@pytest.mark.parametrize("kind", ["truncated", "empty", "binary"])
@pytest.mark.parametrize("name", sorted(SHARD_READERS))
def test_a_spoiled_parquet_input_is_one_line_naming_it(name, kind, texts, tmp_path, capsys):
    shards = tmp_path / "shards"
    shards.mkdir()
    shutil.copy(texts / "pairs.parquet", shards / "good.parquet")
    spoiled = spoil(shutil.copy(texts / "pairs.parquet", shards / "bad.parquet"), kind)
    names = {"SHARDS": shards, "OUT": tmp_path / "out"}
    one_line_error([names.get(a, a) for a in SHARD_READERS[name]], capsys, spoiled)


@pytest.mark.parametrize("file", ["sts/SICK/SICK_train.txt", "transfer/cr.tsv", "parses.tsv"])
def test_paraphrase_data_inputs_that_are_not_utf8_are_one_line_naming_them(file, tiny_data_folder, tmp_path, capsys):
    """paraphrase-data's data files and its parse cache (a run's own, as --resume reads it)."""
    data = tmp_path / "data"
    shutil.copytree(tiny_data_folder, data)
    output = tmp_path / "out"
    spoiled = spoil((output.mkdir() or output / file) if file == "parses.tsv" else data / file, "binary")
    one_line_error(["paraphrase-data", "--data", data, "--output", output, "--resume"], capsys, spoiled)


def test_evaluation_data_that_is_not_utf8_is_one_line_naming_it(tmp_path, shared_data, capsys):
    """eval-transfer's and adversarial's task files, eval-words' word-similarity files."""
    data = tmp_path / "data"
    shutil.copytree(shared_data / "transfer", data / "transfer")
    spoiled = spoil(data / "transfer" / "mr.tsv", "binary")
    one_line_error(["eval-transfer", "--model", ASSETS / "encoder-sp", "--data-dir", data, "--tasks", "mr",
                    "--output", tmp_path / "out"], capsys, spoiled)
    one_line_error(["adversarial", "--task", "mr", "--data", data, "--output", tmp_path / "out"], capsys, spoiled)
    words = spoil((data / "word-sim").mkdir() or data / "word-sim" / "EN-SIMLEX-999.txt", "binary")
    one_line_error(["eval-words", "--model", ASSETS / "encoder-sp", "--data-dir", data, "--output",
                    tmp_path / "out"], capsys, words)


# -- finetune-sts's task files, train-words' lexicon and starting vectors ------------------------------------------
@pytest.mark.parametrize("kind", KINDS)
def test_a_spoiled_sick_file_is_one_line_naming_it(kind, shared_data, tmp_path, capsys):
    data = tmp_path / "data"
    shutil.copytree(shared_data / "sts" / "SICK", data / "sts" / "SICK")
    spoiled = spoil(data / "sts" / "SICK" / "SICK_train.txt", kind)
    one_line_error(["finetune-sts", "--model", ASSETS / "encoder-sp", "--task", "sick-r", "--data-dir", data,
                    "--output", tmp_path / "out", "--limit", "20", "--epochs", "1"], capsys, spoiled)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("what", ["lexicon", "init-vectors"])
def test_a_spoiled_lexicon_or_vector_file_is_one_line_naming_it(what, kind, tmp_path, capsys):
    lexicon = tmp_path / "lexicon"
    lexicon.mkdir()
    (lexicon / "lexicon-00000.tsv").write_text("u\tv\tcross_count\tpmi_cross\tpmi_within\tpmi_adj\n"
                                               + "".join(f"w{i}\tv{i}\t3\t1.0\t0.5\t0.7\n" for i in range(40)))
    vectors = tmp_path / "vectors.txt"
    vectors.write_text("".join(f"w{i} " + " ".join(["0.125"] * 8) + "\n" for i in range(40)))
    spoiled = spoil(lexicon / "lexicon-00000.tsv" if what == "lexicon" else vectors, kind)
    one_line_error(["train-words", "--input", lexicon, "--output", tmp_path / "out", "--init-vectors", vectors,
                    "--dim", "8", "--epochs", "1", "--batch-size", "4"], capsys, spoiled)
