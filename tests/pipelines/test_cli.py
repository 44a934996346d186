"""The `paranmt` command line: the top-level help imports no command module, every command's listed help is the
one its module registers, and a missing extra is one line on stderr naming it (exit 2)."""
import argparse
import dataclasses
import importlib
import subprocess
import sys

import pytest

from paranmt.pipelines import cli
from paranmt.pipelines.runtime.extras import EXTRAS, MissingExtra, missing_extra, require_extra

HEAVY = ("apache_beam", "torch", "matplotlib", "scipy", "pyarrow", "stanza", "fairseq", "ctranslate2", "faiss")


def run_python(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)


def test_top_level_help_imports_no_command_module_and_no_heavy_library():
    result = run_python(
        "import sys\n"
        "from paranmt.pipelines.cli import main\n"
        "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
        f"print('LOADED', sorted({{m.split('.')[0] for m in sys.modules}} & set({HEAVY!r})), "
        "sorted(m for m in sys.modules if m.startswith('paranmt.pipelines.') and m not in "
        "('paranmt.pipelines.cli', 'paranmt.pipelines.runtime', 'paranmt.pipelines.runtime.extras', "
        "'paranmt.pipelines.runtime.logs')))")
    assert result.returncode == 0, result.stderr
    assert "LOADED [] []" in result.stdout, result.stdout.splitlines()[-1]
    for command in cli.COMMANDS:
        assert command in result.stdout


def registered_help(command: str) -> str | None:
    subparsers = argparse.ArgumentParser().add_subparsers()
    cli.register(command, subparsers)
    return next(action.help for action in subparsers._choices_actions if action.dest == command)


@pytest.mark.parametrize("command", sorted(cli.COMMANDS))
def test_listed_help_is_the_registered_help(command):
    """`command_help` reads the module source; it must give what the declaration registers (a literal help=)."""
    listed = cli.command_help(command)
    assert listed and listed == registered_help(command)


@pytest.mark.parametrize("command", sorted(cli.COMMANDS))
def test_a_command_is_one_declaration(command):
    """Issue 45 item 2: the command's module declares it once (pipelines/runtime/command.py `Command`), and its
    parser, config, output contract and stops are the declaration's."""
    from paranmt.pipelines.runtime.command import Command

    module = importlib.import_module(f"paranmt.pipelines.{cli.COMMANDS[command]}")
    declared = [value for value in vars(module).values() if isinstance(value, Command) and value.name == command]
    assert len(declared) == 1
    assert not hasattr(module, "register")
    assert cli.make_parser(command).commands[command].get_default("func") == declared[0].execute


def test_no_function_of_a_command_module_but_run_is_longer_than_30_lines():
    """Issue 45: a command module holds its declaration and its glue; longer logic lives in models/ (or
    pipelines/runtime/ for what the commands share)."""
    import ast
    from pathlib import Path

    long = [f"{path.name}: {node.name}, {node.end_lineno - node.lineno + 1} lines"
            for path in sorted(Path(cli.__file__).parent.glob("*.py"))
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, ast.FunctionDef) and node.name != "run" and node.end_lineno - node.lineno + 1 > 30]
    assert long == []


def block(modules: list[str]) -> str:
    """Python source after which `import M` fails with ModuleNotFoundError for each M, as when it is not installed."""
    return ("import importlib.abc, sys\n"
            "class Missing(importlib.abc.MetaPathFinder):\n"
            "    def find_spec(self, name, path, target=None):\n"
            f"        if name.split('.')[0] in {modules!r}:\n"
            "            raise ModuleNotFoundError(f'No module named {name!r}', name=name)\n"
            "sys.meta_path.insert(0, Missing())\n")


def test_a_command_whose_extra_is_missing_stops_with_one_line_naming_it():
    result = run_python(block(["torch"]) + "from paranmt.pipelines.cli import main\n"
                        "sys.exit(main(['train', '--train', 'x.tsv', '--output', 'out']))")
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "paranmt train: needs torch, which the core install leaves out: pip install 'paranmt[train]' "
        "(or 'paranmt[all]')"]


def test_the_extra_named_is_the_commands_own_when_it_provides_the_module():
    torch_missing = ModuleNotFoundError("No module named 'torch'", name="torch")
    assert missing_extra(torch_missing, "train").extra == "train"
    assert missing_extra(torch_missing, "mine").extra == "mine"            # faiss-cpu + torch
    assert missing_extra(torch_missing, "train-parser").extra == "parse"
    assert missing_extra(ModuleNotFoundError(name="google.cloud.storage"), "build").extra == "dataflow"
    assert missing_extra(ModuleNotFoundError(name="sacremoses"), "filter") is None     # core: a broken install


def test_require_extra_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "faiss", None)
    with pytest.raises(MissingExtra, match=r"needs faiss, .*pip install 'paranmt\[mine\]'"):
        require_extra("mine", "faiss")
    assert require_extra("train", "json").dumps([]) == "[]"


def test_a_missing_module_outside_the_extras_is_not_hidden():
    """A core module missing is a broken install: the traceback stays."""
    result = run_python(block(["apache_beam"]) + "from paranmt.pipelines.cli import main\n"
                        "sys.exit(main(['filter', '--help']))")
    assert result.returncode == 1 and "ModuleNotFoundError" in result.stderr


def test_every_train_flag_has_help_with_its_default():
    subparsers = argparse.ArgumentParser().add_subparsers()
    cli.register("train", subparsers)
    actions = [a for a in subparsers.choices["train"]._actions if a.option_strings and a.dest != "help"]
    assert len(actions) > 30
    assert [a.option_strings[0] for a in actions if not a.help] == []
    helps = {a.dest: a.help for a in actions}
    assert helps["margin"].endswith("(default 0.4)") and helps["megabatch_size"].endswith("(default 40)")


def test_build_help_names_the_default_local_runner_mode():
    """`build --help` and the code agree on how a build without --runner runs."""
    from apache_beam.options.pipeline_options import DirectOptions

    from paranmt.pipelines.runtime.options import pipeline_options

    mode = pipeline_options([]).view_as(DirectOptions).direct_running_mode
    text = " ".join((__import__("paranmt.pipelines.build", fromlist=["__doc__"]).__doc__ or "").split())
    assert {"multi_processing": "multi-processing", "in_memory": "in-process"}[mode] in text


def test_the_extras_named_in_errors_are_setup_py_extras(repo):
    """Every extra that an error message can name exists in setup.py (whose `all` has every one)."""
    import ast

    from paranmt.pipelines.runtime.extras import COMMAND_EXTRAS

    tree = ast.parse((repo / "setup.py").read_text())
    assignment = next(node for node in tree.body if isinstance(node, ast.Assign)
                      and getattr(node.targets[0], "id", None) == "EXTRAS")
    assert {key.value for key in assignment.value.keys} == set(EXTRAS)
    assert set(COMMAND_EXTRAS.values()) <= set(EXTRAS) and set(COMMAND_EXTRAS) <= set(cli.COMMANDS)


# command -> (its config class, a field with a flag, the YAML value, the flag's value, the --set value, the flag)
CONFIGURED = {
    "stats": ("paranmt.pipelines.stats:StatsConfig", "sample_size", 10, "20", "30", "--sample-size"),
    "report": ("paranmt.pipelines.report:ReportConfig", "per_band", 3, "4", "5", "--per-band"),
    "lexicon": ("paranmt.pipelines.lexicon:LexiconConfig", "min_count", 3, "4", "5", "--min-count"),
    "export": ("paranmt.pipelines.export:ExportConfig", "format", "hf", "scpn", "paranmt-txt", "--format"),
    "encode": ("paranmt.pipelines.encode:EncodeConfig", "batch_size", 8, "16", "32", "--batch-size"),
    "mine": ("paranmt.pipelines.mine:MineConfig", "threshold", 1.2, "1.3", "auto", "--threshold"),
    "paraphrase-data": ("paranmt.pipelines.paraphrase_data:ParaphraseDataConfig", "max_words", 20, "25", "35",
                        "--max-words"),
    "filter": ("paranmt.models.filters.config:FilterConfig", "sample", 10, "20", "30", "--sample"),
    "paraphrase": ("paranmt.pipelines.paraphrase:ParaphraseCommandConfig", "beam", 3, "5", "6", "--beam"),
    "train": ("paranmt.models.training.trainer:TrainConfig", "epochs", 3, "4", "5", "--epochs"),
    "train-bgt": ("paranmt.models.bgt.trainer:BGTConfig", "dim", 32, "64", "128", "--dim"),
    "train-paraphraser": ("paranmt.models.generation.train:ParaphraserTrainConfig", "hidden", 32, "64", "128",
                          "--hidden"),
}
# the arguments a command requires beside its settings (not config keys)
REQUIRED = {"train": ["--train", "x", "--output", "o"], "train-bgt": ["--train", "x", "--output", "o"],
            "train-paraphraser": ["--output", "o"], "report": ["--input", "x", "--output", "o"],
            "filter": ["--input", "x", "--output", "o"]}


@pytest.mark.parametrize("command", CONFIGURED)
def test_a_commands_settings_come_from_its_config_then_its_flags_then_set(command, tmp_path, capsys):
    """Issue 33 item 3: a typed config per command, loaded by the one loader from --config FILE.yaml, flags
    generated from its fields, --set over both; an unknown key is one line naming the near match."""
    import importlib

    from paranmt.pipelines.runtime.arguments import load_command_config
    from paranmt.schemas.errors import ConfigError

    path, field, in_yaml, flag_value, set_value, flag = CONFIGURED[command]
    module, name = path.split(":")
    config_class = getattr(importlib.import_module(module), name)
    command_module = importlib.import_module(f"paranmt.pipelines.{cli.COMMANDS[command]}")
    yaml_file = tmp_path / "config.yaml"
    yaml_file.write_text(f"{field}: {in_yaml}\n")

    def settings(*argv):
        args = cli.make_parser(command).parse_args([command, *REQUIRED.get(command, []), "--config", str(yaml_file),
                                                    *argv])
        return load_command_config(config_class, args, f"{command} config", presets=command_module.COMMAND.presets)

    assert str(getattr(settings(), field)) == str(in_yaml)
    assert str(getattr(settings(flag, flag_value), field)) == str(float(flag_value) if field == "threshold" else
                                                                  flag_value)
    assert str(getattr(settings(flag, flag_value, "--set", f"{field}={set_value}"), field)) == set_value
    yaml_file.write_text(f"{field}x: {in_yaml}\n")
    with pytest.raises(ConfigError, match=f"did you mean '{field}'"):
        settings()


# -- settings: --config FILE.yaml, the generated flags and --set, through the one loader ----------------------------
def settings_cases(tmp_path):
    """command -> (its arguments, the function that receives its settings, how to read them from that call's
    arguments, the YAML, the settings expected): each case sets one key in the YAML, one with a flag, one with
    --set, and overrides a flag with --set."""
    data = tmp_path / "data"
    (data / "sts").mkdir(parents=True)
    files = {name: tmp_path / name for name in ("ppdb.txt", "spm.model")}
    for path in files.values():
        path.write_text("x\n")
    (tmp_path / "run").mkdir()
    out = str(tmp_path / "out")
    return {
        "finetune-sts": (["--model", "m", "--data-dir", str(data), "--output", out, "--lr", "0.5",
                          "--set", "hidden=7", "--set", "lr=0.25", "--freeze-encoder"],
                         "paranmt.pipelines.finetune_sts.COMMAND", lambda a: a[0], {"epochs": 3},
                         {"epochs": 3, "hidden": 7, "lr": 0.25, "freeze_encoder": True, "task": "sick-r"}),
        "train-words": (["--input", str(files["ppdb.txt"]), "--output", out, "--epochs", "2", "--set", "margin=1",
                         "--set", "epochs=4"],
                        "paranmt.pipelines.train_words.COMMAND", lambda a: a[0], {"dim": 16},
                        {"dim": 16, "margin": 1.0, "epochs": 4}),
        "probe": (["--input", str(files["ppdb.txt"]), "--output", out, "--sts-dir", str(data), "--seed", "3",
                   "--set", "train.dim=9"],
                  "paranmt.pipelines.probe.run_probe", lambda a: a[0], {"pairs": 50},
                  {"pairs": 50, "seed": 3, "train": {"dim": 9}}),
        "train-nmt": (["--mrt-gamma", "0.5", "--mrt-encoder", "enc", "--set", "mrt.nbest=4", "--steps", "data"],
                      "paranmt.models.nmt.recipe.NMTRecipe.run", lambda a: a[0].config,
                      {"work_dir": out, "threads": 2, "data": {"inputs": [str(data)], "valid": "news"}},
                      {"threads": 2, "mrt": {"gamma": 0.5, "simile_encoder": "enc", "nbest": 4}}),
        "train-parser": (["--work-dir", out, "--output", str(tmp_path / "parser"), "--dev-files", "150", "151",
                          "--set", "seed=7", "--steps", "prepare"],
                         "paranmt.pipelines.train_parser.run", lambda a: a[0], {"vector_dim": 20},
                         {"vector_dim": 20, "dev_files": [150, 151], "seed": 7}),
        "convert-nmt": (["--checkpoints", str(tmp_path / "run"), "--data-bin", str(tmp_path / "run"), "--spm",
                         str(files["spm.model"]), "--output", out, "--average-last", "2", "--fp32",
                         "--set", "vmap_common=7"],
                        "paranmt.pipelines.convert_nmt.export_run", lambda a: vars(a[0]), {"vmap_pairs": 5},
                        {"average_last": 2, "fp32": True, "vmap_common": 7, "quantization": "int8", "vmap_pairs": 5}),
        "eval-nmt": (["--model", "m", "--source", str(files["ppdb.txt"]), "--reference", str(files["ppdb.txt"]),
                      "--no-normalize-punctuation", "--record", "--set", "use_vmap=true"],
                     "paranmt.pipelines.convert_nmt.evaluate_model", lambda a: vars(a[0]), {"beam": 3},
                     {"beam": 3, "normalize_punctuation": False, "record": True, "use_vmap": True}),
        "export-encoder": (["--model", "m", "--output", out, "--set", "format=sentence-transformers"],
                           "paranmt.pipelines.export_encoder.COMMAND", lambda a: a[0],
                           {"format": "sentence-transformers"},
                           {"format": "sentence-transformers"}),
    }


SETTINGS_COMMANDS = ["finetune-sts", "train-words", "probe", "train-nmt", "train-parser", "convert-nmt", "eval-nmt",
                     "export-encoder"]


def as_dict(settings) -> dict:
    return settings if isinstance(settings, dict) else __import__("dataclasses").asdict(settings)


def subset(got: dict, expected: dict) -> dict:
    return {key: subset(got[key], value) if isinstance(value, dict) else got[key] for key, value in expected.items()}


def command_line(command: str, tmp_path) -> tuple[list[str], str, object, dict]:
    """The arguments of `command`'s settings case, with --config naming its YAML (written), and the rest of it."""
    import yaml

    argv, target, read, config, expected = settings_cases(tmp_path)[command]
    if config is not None:
        (tmp_path / "config.yaml").write_text(yaml.safe_dump(config))
        argv = [*argv, "--config", str(tmp_path / "config.yaml")]
    return [command, *argv], target, read, expected


def replace(monkeypatch, target: str, fake) -> None:
    """`target` replaced by `fake`; a command's declaration (`MODULE.COMMAND`) by one whose `run` is `fake`."""
    if target.endswith(".COMMAND"):
        declared = importlib.import_module(target.rsplit(".", 1)[0]).COMMAND
        fake = dataclasses.replace(declared, run=fake)
    monkeypatch.setattr(target, fake)


@pytest.mark.parametrize("command", SETTINGS_COMMANDS)
def test_config_flags_and_set_reach_the_commands_settings(command, tmp_path, monkeypatch):
    argv, target, read, expected = command_line(command, tmp_path)
    calls = []
    replace(monkeypatch, target, lambda *args, **kwargs: calls.append(args) or 0)
    assert cli.main(argv) == 0
    assert subset(as_dict(read(calls[0])), expected) == expected


@pytest.mark.parametrize("command", SETTINGS_COMMANDS)
def test_an_unknown_setting_is_one_line(command, tmp_path, capsys):
    argv = command_line(command, tmp_path)[0]
    assert cli.main([*argv, "--set", "no_such_key=1"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "unknown" in err[0] and "'no_such_key'" in err[0], err


def nmt_recipe(tmp_path) -> str:
    """A recipe YAML (configs/nmt/'s form) whose work directory holds what convert-nmt exports: checkpoints/, bin/,
    spm.model."""
    import yaml

    work = tmp_path / "work"
    for name in ("checkpoints", "bin", "data"):
        (work / name).mkdir(parents=True)
    (work / "spm.model").write_text("x\n")
    recipe = tmp_path / "recipe.yaml"
    recipe.write_text(yaml.safe_dump({"work_dir": str(work), "target_lang": "de",
                                      "data": {"inputs": [str(work / "data")], "valid": "news"}}))
    return str(recipe)


@pytest.mark.parametrize("flag", ["--recipe", "--config"])
def test_convert_nmt_exports_the_recipe_of_recipe_and_of_its_old_form_config(flag, tmp_path, monkeypatch):
    """`--config` is a YAML of convert-nmt's settings; a recipe YAML there (the old form of --recipe, told apart by
    its keys) is still the recipe exported."""
    recipe, calls = nmt_recipe(tmp_path), []
    monkeypatch.setattr("paranmt.pipelines.convert_nmt.export_run", lambda *args: calls.append(args))
    assert cli.main(["convert-nmt", flag, recipe, "--output", str(tmp_path / "out"), "--set", "vmap_pairs=5"]) == 0
    args, config, exported, checkpoints, *_, target_lang, vmap_data = calls[0]
    assert (args.recipe, args.config, config.vmap_pairs) == (recipe, None, 5)
    assert (checkpoints, target_lang) == (tmp_path / "work" / "checkpoints", "de")
    assert vmap_data == (tmp_path / "work" / "raw" / "train.cs", tmp_path / "work" / "raw" / "train.de")


def test_convert_nmt_refuses_a_recipe_given_twice_in_one_line(tmp_path, capsys):
    recipe = nmt_recipe(tmp_path)
    assert cli.main(["convert-nmt", "--config", recipe, "--recipe", recipe, "--output", str(tmp_path / "out")]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"paranmt convert-nmt: configuration error: --config {recipe} is an NMT recipe, and --recipe names one too: "
        f"give the recipe as --recipe alone"]


def test_an_unrecognized_argument_is_one_line_naming_the_closest_flag(capsys):
    assert cli.main(["train-paraphraser", "--output", "out", "--epochz", "3", "-x"]) == 2
    assert capsys.readouterr().err.splitlines() == [
        "paranmt train-paraphraser: configuration error: unrecognized arguments: --epochz 3 (did you mean "
        "'--epochs'?), -x"]


OUTPUT = ["--output", "out"]


@pytest.mark.parametrize("argv, prefix, words", [
    ([], "paranmt", ["no command given", "`paranmt --help`"]),
    (["-v"], "paranmt", ["no command given", "`paranmt --help`"]),
    (["-v", "--zzz", "-x"], "paranmt",
     ["unrecognized arguments: --zzz, -x (no command given; `paranmt --help` lists them)"]),
    (["--verbse"], "paranmt", ["unrecognized arguments: --verbse (did you mean '--verbose'?) (no command given"]),
    (["--verbse", "train-paraphraser", *OUTPUT], "paranmt train-paraphraser",
     ["unrecognized arguments: --verbse (did you mean '--verbose'?)"]),
    (["--zzz", "build", "--config", "build.yaml"], "paranmt build", ["unrecognized arguments: --zzz"]),
    (["trian"], "paranmt", ["invalid choice: 'trian' (did you mean 'train'?)", "'build'", "'train-paraphraser'",
                            "'adversarial'"]),
    (["train-paraphraser"], "paranmt train-paraphraser", ["the following arguments are required: --output"]),
    (["probe"], "paranmt probe", ["no input: give --input"]),
    (["train-paraphraser", *OUTPUT, "--arch", "foo"], "paranmt train-paraphraser",
     ["argument --arch: invalid choice: 'foo' (choose from 'scpn', 'transformers')"]),
    (["train-paraphraser", *OUTPUT, "--device", "cdua"], "paranmt train-paraphraser",
     ["argument --device: invalid choice: 'cdua' (did you mean 'cuda'?) (choose from 'auto', 'cpu', 'cuda')"]),
    (["train-paraphraser", *OUTPUT, "--epochs", "x"], "paranmt train-paraphraser",
     ["argument --epochs: invalid int value: 'x'"]),
    (["train-paraphraser", *OUTPUT, "--epochs"], "paranmt train-paraphraser",
     ["argument --epochs: expected one argument"]),
    (["mine", "--threshold", "high"], "paranmt mine", ["argument --threshold:", "'high'"]),
], ids=["none", "verbose-only", "unknown-flag-only", "close-flag-only", "close-flag-before-command",
        "unknown-flag-before-beam-command", "unknown-command", "required-flag", "probe-no-input", "bad-choice",
        "close-choice", "bad-type", "missing-value", "bad-threshold"])
def test_a_command_line_mistake_is_one_line_without_usage(argv, prefix, words, tmp_path, monkeypatch, capsys):
    """argparse's own errors (a missing command or required flag, a bad choice or type, a flag without its value)
    are one line in the format of every user's mistake, exit 2, not the usage block (cli.CommandLineParser)."""
    monkeypatch.chdir(tmp_path)
    assert cli.main(argv) == 2
    captured = capsys.readouterr()
    err = captured.err.splitlines()
    assert len(err) == 1 and not captured.out, captured
    assert err[0].startswith(f"{prefix}: configuration error: ") and "usage:" not in err[0], err
    assert all(word in err[0] for word in words), err
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("argv", [["--help"], ["-h"], ["train-paraphraser", "--help"], ["probe", "-h"]])
def test_help_still_prints_the_whole_usage(argv, capsys):
    with pytest.raises(SystemExit) as stop:
        cli.main(argv)
    assert stop.value.code == 0
    out, err = capsys.readouterr()
    assert out.startswith("usage: paranmt") and not err
    assert ("--output" in out) == (len(argv) == 2)      # a command's help lists its flags


def test_a_beam_command_passes_beam_options_and_refuses_a_mistyped_flag():
    """build, filter, stats, export, lexicon and paraphrase hand the arguments they do not know to Beam; one that
    Beam does not take either and that is close to a flag of the command is a mistyped flag, refused."""
    parser = cli.make_parser("build")
    cli.check_unrecognized(["--runner", "DirectRunner", "--temp_location=gs://b/t", "--dask-workers", "2",
                            "--some_custom_option", "1"], parser, "build", beam=True)
    with pytest.raises(cli.ConfigError, match=r"^unrecognized arguments: --confg build.yaml \(did you mean "
                                              r"'--config' or '--columns'\?\)$"):
        cli.check_unrecognized(["--runner", "DirectRunner", "--confg", "build.yaml"], parser, "build", beam=True)
