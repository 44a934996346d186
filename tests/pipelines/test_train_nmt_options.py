"""No value of a train-nmt config, of a saved work directory (recipe_config.json) or of a flag reaches fairseq's
`eval` or its `--user-dir` import: every fairseq option fairseq evaluates or imports code from is refused in one
line, exit 2, before any step runs, with the marker file its payload would write never written; the legitimate
values still reach fairseq as the right values (models/nmt/fairseq_options.py). Paths of the recipe are relative to
where the command runs, as in a shell."""
import json
import shlex
import shutil
from pathlib import Path

import pytest
import yaml

from paranmt.models.nmt.recipe import NMTRecipe, load_recipe_config
from paranmt.pipelines.cli import main
from paranmt.schemas.paths import PROJECT_ROOT


@pytest.fixture
def marker(tmp_path):
    path = tmp_path / "PAYLOAD-RAN"
    yield path
    assert not path.exists(), "a config value ran as code"


def payload(marker) -> str:
    """Python that writes `marker` and then gives a legitimate value, as an attacker would write it."""
    return f"__import__('os').system({'touch ' + shlex.quote(str(marker))!r}) or (0.9, 0.98)"


def with_options(argv: list[str], **sections) -> list[str]:
    """`argv` (nmt_recipe's) with its YAML's sections updated by `sections` (e.g. train={...})."""
    config = argv[argv.index("--config") + 1]
    data = yaml.safe_load(Path(config).read_text(encoding="utf-8"))
    for name, options in sections.items():
        if isinstance(options, dict) and isinstance(data.get(name), dict):
            data[name].update(options)
        else:
            data[name] = options
    Path(config).write_text(yaml.safe_dump(data), encoding="utf-8")
    return argv


def test_fairseq_evaluates_adam_betas_and_gets_the_recipes_pair_as_the_right_tuple(nmt_recipe, tmp_path):
    """The payload is a real attack (fairseq's Adam evals the text it is handed), so the refusals below can fail;
    a legitimate pair, as text or as a list, reaches fairseq's optimizer as (0.9, 0.98)."""
    import torch
    from fairseq import optim, options
    from fairseq.dataclass.utils import convert_namespace_to_omegaconf

    def betas(args: list[str]):
        parsed = options.parse_args_and_arch(options.get_training_parser(), input_args=args)
        built = optim.build_optimizer(convert_namespace_to_omegaconf(parsed).optimizer,
                                      [torch.nn.Parameter(torch.zeros(2))])
        return built.optimizer.param_groups[0]["betas"]

    ran = tmp_path / "ran"
    assert betas([str(tmp_path), "--arch", "transformer", "--optimizer", "adam", "--adam-betas", payload(ran),
                  "--cpu"]) == (0.9, 0.98)
    assert ran.exists()
    for written in ("(0.9, 0.98)", [0.9, 0.98], "[0.9,0.98]"):
        with_options(nmt_recipe, train={"optimizer": "adam", "adam_betas": written, "lr": "1e-3",
                                        "update_freq": 2, "max_tokens": 512, "fp16": False},
                     model={"arch": "transformer", "share_all_embeddings": True, "dropout": 0.1})
        args = NMTRecipe(load_recipe_config(nmt_recipe[2])).train_args()
        assert args[args.index("--adam-betas") + 1] == "(0.9, 0.98)"
        assert args[args.index("--lr") + 1] == "0.001" and args[args.index("--update-freq") + 1] == "2"
        assert "--share-all-embeddings" in args and "--fp16" not in args
        assert betas(args) == (0.9, 0.98)


# every fairseq option whose value fairseq evaluates (eval, eval_str_list, eval_str_dict, eval_bool), reads as a
# literal or JSON, or imports code from, by the section of the recipe config it would be given in
EVALUATED = [
    ("train", "adam_betas"), ("train", "adamax_betas"), ("train", "lamb_betas"), ("train", "adafactor_eps"),
    ("train", "lr"), ("train", "update_freq"), ("train", "optimizer_overrides"), ("train", "wer_args"),
    ("train", "eval_bleu_args"), ("train", "eval_bleu_detok_args"), ("train", "left_pad_source"),
    ("train", "left_pad_target"), ("train", "extra_data"), ("train", "extra_lang_pairs"), ("train", "langtoks"),
    ("train", "langtoks_specs"), ("train", "sampling_weights"), ("train", "pipeline_balance"),
    ("train", "pipeline_devices"), ("train", "pipeline_encoder_balance"), ("train", "pipeline_decoder_devices"),
    ("train", "max_tokens"), ("train", "lr_scheduler"), ("train", "optimizer"), ("train", "criterion"),
    ("train", "task"), ("train", "user_dir"), ("train", "tensorboard_logdir"),
    ("model", "arch"), ("model", "adaptive_softmax_cutoff"), ("model", "adaptive_input_cutoff"),
    ("model", "character_filters"), ("model", "encoder_layers"), ("model", "decoder_layers"),
    ("model", "encoder_attention"), ("model", "decoder_attention"), ("model", "self_attention"),
    ("model", "pretrained"), ("model", "project_input"), ("model", "gated_attention"), ("model", "downsample"),
    ("model", "conv_feature_layers"), ("model", "conv_aggregator_layers"), ("model", "encoder_glu"),
    ("model", "decoder_glu"), ("model", "weight_softmax"), ("model", "encoder_kernel_size_list"),
    ("model", "xformers_att_config"), ("model", "latent_temp"), ("mrt", "adam_betas"), ("mrt", "user_dir"),
]


@pytest.mark.parametrize("section,key", EVALUATED, ids=[f"{s}.{k}" for s, k in EVALUATED])
def test_a_config_value_fairseq_would_evaluate_or_import_is_refused_in_one_line(nmt_recipe, marker, one_line,
                                                                                section, key):
    options = {key: payload(marker)}
    argv = with_options(nmt_recipe, **({"mrt": {"train": options}} if section == "mrt" else {section: options}))
    assert main(argv) == 2
    where = "mrt.train" if section == "mrt" else section
    line = one_line("train-nmt")
    assert f"{where}.{key}" in line, line
    assert not (marker.parent / "work").exists()                 # refused before any step


def user_module(tmp_path, marker, name: str = "evil"):
    """A directory fairseq's --user-dir would import, whose import writes the marker."""
    module = tmp_path / name
    module.mkdir()
    (module / "__init__.py").write_text(f"import os\nos.system({'touch ' + shlex.quote(str(marker))!r})\n")
    return module


def test_fairseq_imports_a_user_dir_found_anywhere_in_its_arguments(tmp_path):
    """The attack the refusals below stop is real: `--user-dir=X` as the value of another option is imported."""
    from fairseq import options

    ran = tmp_path / "ran"
    module = user_module(tmp_path, ran, "paranmt_user_dir_probe")
    with pytest.raises(SystemExit):
        options.parse_args_and_arch(options.get_training_parser(),
                                    input_args=[str(tmp_path), "--arch", f"--user-dir={module}"])
    assert ran.exists()


@pytest.mark.parametrize("how", ["yaml", "dashed key", "--set", "as a value", "as the language"])
def test_no_config_value_or_flag_makes_fairseq_import_code(nmt_recipe, tmp_path, marker, one_line, how):
    module = user_module(tmp_path, marker)
    argv = nmt_recipe
    if how == "yaml":
        with_options(argv, train={"user_dir": str(module)})
    elif how == "dashed key":
        with_options(argv, train={"user-dir": str(module)})
    elif how == "--set":
        argv = [*argv, "--set", f"mrt.train.user_dir={module}"]
    elif how == "as a value":                  # fairseq reads --user-dir=X from anywhere in its arguments
        with_options(argv, model={"arch": f"--user-dir={module}"})
    else:
        argv = [*argv, "--set", f"source_lang=--user-dir={module}"]
    assert main(argv) == 2
    line = one_line("train-nmt")
    assert line.startswith("paranmt train-nmt: configuration error: nmt recipe: "), line
    assert not (tmp_path / "work").exists()


def test_resume_refuses_a_work_directory_whose_saved_recipe_would_run_code(nmt_recipe, tmp_path, marker, one_line):
    """A handed work directory: its recipe_config.json is checked exactly like a YAML, with no YAML given."""
    work = tmp_path / "work"
    assert main(nmt_recipe) == 0
    saved = json.loads((work / "recipe_config.json").read_text())
    saved["train"] = {"optimizer": "adam", "adam_betas": payload(marker)}
    (work / "recipe_config.json").write_text(json.dumps(saved))
    assert main(["train-nmt", "--work-dir", str(work), "--resume"]) == 2
    assert "train.adam_betas must be a pair of numbers in [0, 1)" in one_line("train-nmt")
    assert not (work / "spm.model").exists()                     # refused before any step


@pytest.mark.parametrize("value,message", [
    ("nan", "train.lr must be a finite number or a list of them, not 'nan'"),
    (".inf", "train.lr must be a finite number or a list of them, not inf"),
    ("[0.1, x]", "train.lr must be a finite number or a list of them, not [0.1, 'x']"),
])
def test_numbers_are_numbers(nmt_recipe, one_line, value, message):
    assert main([*nmt_recipe, "--set", f"train.lr={value}"]) == 2
    assert one_line("train-nmt").endswith(message)


def test_an_unknown_fairseq_option_is_refused_naming_the_near_one(nmt_recipe, one_line):
    assert main([*nmt_recipe, "--set", "train.max_token=100"]) == 2
    assert one_line("train-nmt") == (
        "paranmt train-nmt: configuration error: nmt recipe: train.max_token is not one of the fairseq options the "
        "recipe passes on (did you mean 'train.max_tokens' or 'train.max_tokens_valid'?) (docs/translate.md lists "
        "them)")


def test_relative_paths_are_relative_to_where_the_command_runs(nmt_recipe, tmp_path, monkeypatch, one_line):
    """work_dir, data.inputs and init_from: relative to the working directory, not to the project."""
    here = tmp_path / "here"
    here.mkdir()
    monkeypatch.chdir(here)
    name = f"rel-{tmp_path.name}"
    with_options(nmt_recipe, work_dir=f"work/{name}", data={"inputs": ["../data"]})
    try:
        assert main(nmt_recipe) == 0
    finally:
        leaked = PROJECT_ROOT / "work" / name
        if leaked.exists():
            shutil.rmtree(leaked)
            pytest.fail(f"the work directory went into the project: {leaked}")
    assert (here / "work" / name / ".data.done").is_file()
    assert main([*nmt_recipe, "--overwrite", "--set", "init_from=tests/fixtures/nmt-tiny"]) == 2
    assert "init_from" in one_line("train-nmt")              # the project's tests/fixtures is not here


def test_docs_list_the_options_the_recipe_passes_on():
    """docs/translate.md's table of train-nmt's fairseq options is models/nmt/fairseq_options.OPTIONS."""
    import re

    from paranmt.models.nmt.fairseq_options import OPTIONS

    table = (PROJECT_ROOT / "docs" / "translate.md").read_text().split("| kind | options |")[1].split("\n\n")[0]
    listed = {name for row in table.splitlines()[2:] for name in re.findall(r"`([a-z0-9_]+)`", row.split("|")[2])}
    assert listed == set(OPTIONS)
