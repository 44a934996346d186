"""`paranmt paraphrase` as a user runs it: each output format, template notations, plain task, the accounting of
sources that cannot be paraphrased, and one-line exit-2 errors."""
import csv
import json

import pyarrow.parquet as pq
import pytest
import yaml

from paranmt.models.generation.postfilter import GUARDS
from paranmt.pipelines.cli import main
from paranmt.schemas.paraphrases import COLUMNS

SENTENCES = ["A man is playing a guitar.", "", "A woman is slicing an onion.", "The kids are running in the park."]


@pytest.fixture(scope="module")
def sentences_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("input") / "sentences.txt"
    path.write_text("\n".join(SENTENCES) + "\n")
    return path


def read_output(path):
    if path.suffix == ".parquet":
        return pq.read_table(path).to_pylist()
    if path.suffix == ".jsonl":
        return [json.loads(line) for line in path.read_text().splitlines()]
    with open(path, newline="") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


@pytest.mark.parametrize("suffix", [".parquet", ".jsonl", ".tsv"])
def test_every_output_format(tiny_models, sentences_file, tmp_path, suffix, capsys):
    output = tmp_path / f"paraphrases{suffix}"
    assert main(["paraphrase", "--model", str(tiny_models), "--input", str(sentences_file), "--output", str(output),
                 "--templates", "( ROOT ( S ( NP ) ( VP ) ( . ) ) ) EOP", "--n-best", "2", "--all"]) == 0
    rows = read_output(output)
    assert list(rows[0]) == list(COLUMNS)
    # 3 sentences x 1 template x 2 hypotheses, and one row for the empty line
    assert len(rows) == 7
    empty = [r for r in rows if r["source_id"] == "2"]
    assert len(empty) == 1 and empty[0]["reason"] == "source_empty" and str(empty[0]["kept"]).lower() == "false"
    generated = [r for r in rows if r["source_id"] != "2"]
    assert {r["template"] for r in generated} == {"(S(NP)(VP)(.))"}
    assert sorted(str(r["rank"]) for r in generated) == ["0", "0", "0", "1", "1", "1"]
    for row in generated:
        assert row["target_parse"].startswith("(") and row["source"] in SENTENCES
        kept = str(row["kept"]).lower() == "true"
        assert kept == (row["reason"] in (None, ""))
        assert row["reason"] in (None, "", "low_overlap", "low_similarity", "empty_paraphrase", *GUARDS)
    summary = capsys.readouterr().out
    assert "paraphrased 4 sentences x 1 template(s): 6 candidates" in summary and '"source_empty": 1' in summary


def test_default_templates_kept_rows_only_and_plain(tiny_models, sentences_file, tmp_path):
    from paranmt.models.generation.paraphraser import read_templates

    stored = [t for t, _ in read_templates(tiny_models / "scpn")]
    output = tmp_path / "kept.jsonl"
    loose = ["--min-overlap", "0", "--min-similarity", "-1"]       # the tiny models' output passes when not empty
    assert main(["paraphrase", "--model", str(tiny_models), "--input", str(sentences_file),
                 "--output", str(output), "--all", *loose]) == 0
    rows = read_output(output)
    assert {r["template"] for r in rows if r["paraphrase"] is not None} == set(stored[:20])
    default = tmp_path / "default.jsonl"
    assert main(["paraphrase", "--model", str(tiny_models), "--input", str(sentences_file),
                 "--output", str(default), *loose]) == 0
    kept = [r for r in rows if r["kept"]]
    assert kept and len(kept) < len(rows) and read_output(default) == kept     # without --all: kept rows only
    plain = tmp_path / "plain.parquet"
    assert main(["paraphrase", "--model", str(tiny_models), "--task", "plain", "--input", str(sentences_file),
                 "--output", str(plain), "--all", "--beam", "3", "--n-best", "3"]) == 0
    rows = read_output(plain)
    assert len(rows) == 3 * 3 + 1 and all(r["template"] is None for r in rows)
    assert all(r["template_match"] is None for r in rows)


def test_sources_that_are_not_english_are_not_paraphrased(tiny_models, tmp_path, capsys):
    """Issue 47: Czech and Chinese sources got paraphrases marked kept. A source whose probability of being English
    (py3langid) is below --min-english (default 0.01) is one row, kept=false, reason not_english, counted in the
    summary line; a source without letters is not judged; --min-english 0 turns the check off."""
    text = tmp_path / "mixed.txt"
    text.write_text("A man is playing a guitar.\nPes běží v parku a štěká na děti.\n我今天去商店买了一些水果。\n"
                    "1, 2, 3.\n")
    argv = ["paraphrase", "--model", str(tiny_models), "--input", str(text), "--templates", "(S(NP)(VP)(.))",
            "--all", "--min-overlap", "-1", "--min-similarity", "-1"]
    assert main([*argv, "--output", str(tmp_path / "out.jsonl")]) == 0
    rows = read_output(tmp_path / "out.jsonl")
    assert [(r["source_id"], r["kept"], r["paraphrase"]) for r in rows if r["reason"] == "not_english"] == \
        [("2", False, None), ("3", False, None)]
    assert {r["source_id"] for r in rows if r["reason"] != "not_english"} == {"1", "4"}
    assert '"not_english": 2' in capsys.readouterr().out
    assert main([*argv, "--output", str(tmp_path / "off.jsonl"), "--min-english", "0"]) == 0
    rows = read_output(tmp_path / "off.jsonl")
    assert {r["source_id"] for r in rows} == {"1", "2", "3", "4"} and all(r["reason"] != "not_english" for r in rows)
    assert "not_english" not in capsys.readouterr().out


def test_config_file_flags_and_set(tiny_models, sentences_file, tmp_path):
    """Every setting is a key of `--config FILE.yaml` (input and output too); a flag wins over the file and `--set`
    over both."""
    output = tmp_path / "configured.jsonl"
    config = tmp_path / "paraphrase.yaml"
    config.write_text(yaml.safe_dump({"model": str(tiny_models), "input": str(sentences_file), "output": str(output),
                                      "templates": "( ROOT ( S ( NP ) ( VP ) ( . ) ) ) EOP", "all": True,
                                      "beam": 3, "n_best": 3}))
    assert main(["paraphrase", "--config", str(config)]) == 0
    assert len(read_output(output)) == 3 * 3 + 1                # 3 sentences x 3 hypotheses + the empty line
    assert main(["paraphrase", "--config", str(config), "--n-best", "1", "--overwrite"]) == 0
    assert len(read_output(output)) == 3 * 1 + 1
    assert main(["paraphrase", "--config", str(config), "--n-best", "1", "--set", "n_best=2", "--overwrite"]) == 0
    assert len(read_output(output)) == 3 * 2 + 1


@pytest.mark.parametrize("arguments, message", [
    (["--templates", "(S(NP(PRP))(VP)(.))"], "--templates: not a template"),
    (["--templates", "(S(NP)(VP)"], "--templates: not a template: unbalanced"),
    (["--templates", "no/such/templates.txt"], "--templates: no/such/templates.txt: no such file or directory"),
    (["--templates", ""], "--templates: empty value; give top<N>"),
    (["--model", "no/such/models"], "model directory no/such/models does not exist"),
    (["--output", "out.txt"], "the name must end in .parquet, .jsonl, .tsv"),
    (["--input", "no/such/file.txt"], "--input no/such/file.txt is not a file"),
    (["--n-best", "5", "--beam", "4"], "need n_best <= beam"),
    (["--no-repeat-ngram", "-1"], "no_repeat_ngram must be >= 0, not -1"),
    (["--set", "min_similarity=2"], "min_similarity must be between -1 and 1, not 2.0"),
    (["--set", "beams=2"], "unknown paraphrase config key 'beams' (did you mean 'beam'?"),
    (["--set", "rerank=best"], "rerank must be one of score, template, simile, not 'best'"),
    (["--parser", "no/parser"], "--parser: parser model directory no/parser does not exist"),
    (["--fusion-weight", "-1"], "fusion_weight must be >= 0, not -1.0"),
    (["--fusion-model", "no/such/plain"], "model directory no/such/plain does not exist"),
])
def test_user_errors_are_one_line_exit_2(tiny_models, sentences_file, tmp_path, capsys, arguments, message):
    base = {"--model": str(tiny_models), "--input": str(sentences_file), "--output": str(tmp_path / "out.jsonl")}
    extra = dict(zip(arguments[::2], arguments[1::2]))
    argv = ["paraphrase"] + [item for key, value in {**base, **extra}.items() for item in (key, value)]
    assert main(argv) == 2
    error = capsys.readouterr().err.strip()
    assert error.startswith("paranmt paraphrase: configuration error:") and message in error
    assert len(error.splitlines()) == 1
    assert not (tmp_path / "out.jsonl").exists()


@pytest.mark.parametrize("arguments, message", [
    (["--templats", "top10"], "unrecognized arguments: --templats top10 (did you mean '--templates'"),
    (["--beam-sizee", "4", "--n-bset", "2"], "unrecognized arguments: --beam-sizee 4 (did you mean '--batch-size' or "
                                             "'--beam'?), --n-bset 2 (did you mean '--n-best' or '--set'?)"),
    (["--runner", "DirectRunner"], "Beam pipeline options are for shard input (a directory or glob of Parquet "
                                   "shards), not the text file "),
    (["--no-such-flag", "1"], "unrecognized arguments: --no-such-flag 1"),
])
def test_unknown_arguments_of_text_input_are_named(tiny_models, sentences_file, tmp_path, capsys, arguments,
                                                   message):
    """A mistyped flag is named with the closest flags of the command; Beam is mentioned only for arguments that are
    Beam pipeline options, which only shard input takes."""
    argv = ["paraphrase", "--model", str(tiny_models), "--input", str(sentences_file),
            "--output", str(tmp_path / "out.jsonl"), *arguments]
    assert main(argv) == 2
    error = capsys.readouterr().err.strip()
    assert error.startswith("paranmt paraphrase: configuration error:") and message in error
    assert len(error.splitlines()) == 1 and ("Beam" in error) == (arguments[0] == "--runner")
    assert not (tmp_path / "out.jsonl").exists()


def test_a_mistyped_flag_beside_shard_input_is_refused_not_passed_to_beam(tiny_models, held_out_shards, tmp_path,
                                                                          capsys):
    """Shard input passes the arguments the command does not know to Beam, which would drop a mistyped flag with a
    warning and paraphrase with the default templates: the mistyped flag is refused first."""
    argv = ["paraphrase", "--model", str(tiny_models), "--input", str(held_out_shards),
            "--output", str(tmp_path / "out"), "--templats", "top1", "--runner", "DirectRunner"]
    assert main(argv) == 2
    error = capsys.readouterr().err.strip()
    assert error == ("paranmt paraphrase: configuration error: unrecognized arguments: --templats top1 (did you "
                     "mean '--templates' or '--threads'?)")
    assert not (tmp_path / "out").exists()


def test_transformers_architecture_and_model_choice(tiny_models, tiny_transformers_models, sentences_file,
                                                    tmp_path, capsys):
    output = tmp_path / "hf.jsonl"
    assert main(["paraphrase", "--model", str(tiny_transformers_models), "--input", str(sentences_file),
                 "--output", str(output), "--templates", "top2", "--all"]) == 0
    rows = read_output(output)
    assert len(rows) == 3 * 2 + 1
    assert all(r["paraphrase"] if r["target_parse"] else r["reason"] == "bad_target_parse"
               for r in rows if r["source_id"] != "2")
    both = tmp_path / "both"
    both.mkdir()
    for name, models in (("scpn-arch", tiny_models), ("hf-arch", tiny_transformers_models)):
        for task in ("scpn", "parse-generator"):
            (both / f"{task}-{name}").symlink_to(models / task, target_is_directory=True)
    argv = ["paraphrase", "--model", str(both), "--input", str(sentences_file), "--output", str(output),
            "--templates", "top1"]
    assert main(argv) == 2
    assert "several scpn paraphrasers" in capsys.readouterr().err
    assert main(argv + ["--arch", "transformers", "--overwrite"]) == 0
    assert main(["paraphrase", "--model", str(both), "--task", "plain", "--input", str(sentences_file),
                 "--output", str(output)]) == 2
    assert "no plain paraphraser in" in capsys.readouterr().err
