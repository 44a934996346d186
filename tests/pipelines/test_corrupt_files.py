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
    "eval-xling": ["eval-xling", "--source", "FILE", "--target", "IN", "--output", "OUT"],
    "eval-paraphraser-tsv": ["eval-paraphraser", "--input", "FILE"],
    "eval-paraphraser-parse-cache": ["eval-paraphraser", "--input", "IN", "--parse-cache", "FILE"],
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


def test_a_parse_cache_nested_too_deep_is_one_line_naming_its_line(tiny_data_folder, tmp_path, capsys):
    """A cached parse nested 5000 levels deep (a crafted cache) for a sentence of the data: one line naming the
    file and line, not a RecursionError where the parse is read (issue 47)."""
    sentence = (tiny_data_folder / "sts/SICK/SICK_train.txt").read_text().splitlines()[1].split("\t")[1]
    output = tmp_path / "out"
    output.mkdir()
    (output / "parses.tsv").write_text(f"A dog runs.\t(S(NP(DT)(NN))(VP(VBZ))(.))\n{sentence}\t"
                                       + "(NP" * 5000 + ")" * 5000 + "\n")
    line = one_line_error(["paraphrase-data", "--data", tiny_data_folder, "--output", output, "--resume"], capsys,
                          output / "parses.tsv")
    assert f"{output / 'parses.tsv'}:2: a parse nested deeper than 200 levels" in line


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


# -- the evaluation commands' data and models --------------------------------------------------------------------
@pytest.fixture(scope="module")
def eval_data(shared_data, tmp_path_factory) -> Path:
    """A data folder laid out like ../shared/data, 20 lines of each file: STS in its three layouts (SemEval input
    and gold, STS Benchmark, SICK), MR, SimLex; and a shard of parsed pairs (eval-paraphraser's input)."""
    root = tmp_path_factory.mktemp("eval-data")
    for name in ("sts/STS2012-test/STS.input.MSRpar.txt", "sts/STS2012-test/STS.gs.MSRpar.txt",
                 "sts/stsbenchmark/sts-dev.csv", "sts/SICK/SICK_trial.txt", "transfer/mr.tsv",
                 "word-sim/EN-SIMLEX-999.txt"):
        lines = (shared_data / name).read_text(encoding="utf-8").splitlines(keepends=True)
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text("".join(lines[:1] + lines[1::500][:19] if name.endswith("mr.tsv") else lines[:20]),
                                 encoding="utf-8")
    parse = "(ROOT (S (NP (DT the) (NN cat)) (VP (VBD sat)) (. .)))"
    pq.write_table(pa.table({"id": ["a:1", "a:2"], "ref": ["the cat sat .", "the dog ran ."],
                             "bt": ["a cat sat .", "a dog ran ."], "ref_parse": [parse] * 2,
                             "bt_parse": [parse] * 2}), root / "parsed.parquet")
    return root


STS_FILES = ["STS2012-test/STS.input.MSRpar.txt", "STS2012-test/STS.gs.MSRpar.txt", "stsbenchmark/sts-dev.csv",
             "SICK/SICK_trial.txt"]


def sts_cases():
    """Every STS file spoiled every way; truncated only where its layout can tell (a SemEval input against its
    gold file's line count): an STS Benchmark or SICK file cut in its last column still reads as a shorter file."""
    for file in STS_FILES:
        for kind in KINDS:
            if kind != "truncated" or "STS2012" in file:
                yield pytest.param(file, kind, id=f"{file.split('/')[-1]}-{kind}")


@pytest.mark.parametrize("file, kind", sts_cases())
def test_a_spoiled_sts_file_is_one_line_naming_it(file, kind, eval_data, tmp_path, capsys):
    sts = shutil.copytree(eval_data / "sts", tmp_path / "sts")
    spoiled = spoil(sts / file, kind)
    one_line_error(["eval", "--model", ASSETS / "encoder-sp", "--sts-dir", sts, "--output", tmp_path / "out"],
                   capsys, spoiled)
    assert not (tmp_path / "out" / "results.csv").exists()


def test_an_sts_file_read_as_text_from_a_binary_file_is_refused(eval_data, tmp_path, capsys):
    """The U+FFFD check: a gold file that is mostly not UTF-8 (a binary file: each of its lines would decode to
    replacement characters) is refused, while one undecodable byte in a real file (STS2012 SMTnews has one) is not."""
    sts = shutil.copytree(eval_data / "sts", tmp_path / "sts")
    gold = sts / STS_FILES[1]
    gold.write_bytes(b"".join(b"\xff\xfe%d\n" % i for i in range(20)))
    line = one_line_error(["eval", "--model", ASSETS / "encoder-sp", "--sts-dir", sts, "--output", tmp_path / "out"],
                          capsys, gold)
    assert "is not UTF-8 text" in line
    text = sts / STS_FILES[0]
    text.write_bytes(text.read_bytes().replace(b" ", b" \xe9 ", 1))        # one Latin-1 byte in a UTF-8 file
    gold.write_text((eval_data / "sts" / STS_FILES[1]).read_text())
    assert main(["eval", "--model", str(ASSETS / "encoder-sp"), "--sts-dir", str(sts), "--output",
                 str(tmp_path / "out"), "--select", "MSRpar"]) == 0


# command lines reading DIR (an encoder copy) and the data folder DATA
ENCODER_COMMANDS = {
    "eval": ["eval", "--model", "DIR", "--sts-dir", "DATA/sts", "--output", "OUT"],
    "eval-xling": ["eval-xling", "--encoder", "DIR", "--source", "IN", "--target", "IN", "--output", "OUT"],
    "eval-transfer": ["eval-transfer", "--model", "DIR", "--data-dir", "DATA", "--tasks", "mr", "--output", "OUT"],
    "eval-words": ["eval-words", "--model", "DIR", "--data-dir", "DATA", "--output", "OUT"],
    "simile": ["simile", "--encoder", "DIR", "--hyp", "IN", "--ref", "IN"],
}


@pytest.mark.parametrize("name", sorted(ENCODER_COMMANDS))
def test_a_spoiled_encoder_is_one_line_naming_it_in_every_evaluation(name, eval_data, texts, tmp_path, capsys):
    directory = linked_copy(ASSETS / "encoder-sp", tmp_path / "encoder", manifest=False)
    spoiled = spoil(directory / "config.json", "truncated")
    names = {"DIR": directory, "IN": texts / "sentences.txt", "OUT": tmp_path / "out"}
    argv = [str(names.get(a, a)).replace("DATA", str(eval_data)) for a in ENCODER_COMMANDS[name]]
    assert "is not a readable" in one_line_error(argv, capsys, spoiled)


@pytest.mark.parametrize("name", ["eval-paraphraser", "adversarial"])
def test_a_spoiled_paraphraser_is_one_line_naming_it(name, eval_data, shared_data, tmp_path, capsys):
    directory = linked_copy(ASSETS / "paraphraser-scpn", tmp_path / "scpn", manifest=True)
    spoiled = spoil(directory / "model.safetensors", "truncated")
    argv = (["eval-paraphraser", "--model", directory, "--input", eval_data / "parsed.parquet"] if name ==
            "eval-paraphraser" else ["adversarial", "--task", "sick-e", "--paraphraser", directory, "--data",
                                     shared_data, "--train-rows", "30", "--test-rows", "5", "--attack-rows", "2",
                                     "--augment-rows", "0", "--epochs", "1", "--dim", "8", "--hidden", "8"])
    line = one_line_error([*argv, "--parse-generator", ASSETS / "parse-generator", "--device", "cpu"], capsys,
                          spoiled)
    assert "does not match the sha256 in MANIFEST.json" in line


@pytest.mark.parametrize("kind", ["empty", "wrong-type"])
@pytest.mark.parametrize("file", ["transfer/mr.tsv", "word-sim/EN-SIMLEX-999.txt"])
def test_an_empty_or_wrong_evaluation_data_file_is_one_line_naming_it(file, kind, eval_data, tmp_path, capsys):
    """eval-transfer's and adversarial's task files, eval-words' word-similarity files (binary ones: above)."""
    data = shutil.copytree(eval_data, tmp_path / "data")
    spoiled = spoil(data / file, kind)
    if file.startswith("transfer"):
        one_line_error(["eval-transfer", "--model", ASSETS / "encoder-sp", "--data-dir", data, "--tasks", "mr",
                        "--output", tmp_path / "out"], capsys, spoiled)
        one_line_error(["adversarial", "--task", "mr", "--data", data, "--output", tmp_path / "out"], capsys, spoiled)
    else:
        one_line_error(["eval-words", "--model", ASSETS / "encoder-sp", "--data-dir", data, "--output",
                        tmp_path / "out"], capsys, spoiled)


@pytest.mark.parametrize("kind", ["truncated", "binary"])
@pytest.mark.parametrize("file", ["config.json", "weights.npz"])
@pytest.mark.parametrize("command", ["export-encoder", "finetune-sts"])
def test_a_spoiled_encoder_given_to_export_or_finetuning_is_one_line_naming_it(command, file, kind, shared_data,
                                                                                tmp_path, capsys):
    model = linked_copy(ASSETS / "encoder-sp", tmp_path / "encoder", manifest=False)
    spoiled = spoil(model / file, kind)
    extra = ["--task", "sick-r", "--data-dir", shared_data, "--limit", "20"] if command == "finetune-sts" else []
    one_line_error([command, "--model", model, "--output", tmp_path / "out", *extra], capsys, spoiled)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("file", ["checkpoint_last.pt", "dict.cs.txt", "spm.model"])
def test_a_spoiled_checkpoint_dictionary_or_spm_given_to_convert_nmt_is_one_line_naming_it(file, kind, tmp_path,
                                                                                             capsys):
    run, data = tmp_path / "run", linked_copy(NMT_TINY / "fairseq", tmp_path / "bin", manifest=False)
    run.mkdir()
    os.symlink(NMT_TINY / "fairseq" / "model.pt", run / "checkpoint_last.pt")
    os.symlink(NMT_TINY / "spm.model", tmp_path / "spm.model")
    spoiled = spoil({"checkpoint_last.pt": run, "dict.cs.txt": data, "spm.model": tmp_path}[file] / file, kind)
    one_line_error(["convert-nmt", "--checkpoints", run, "--data-bin", data, "--spm", tmp_path / "spm.model",
                    "--output", tmp_path / "out"], capsys, spoiled)
