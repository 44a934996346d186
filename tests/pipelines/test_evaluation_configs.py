"""One way to configure the evaluation commands (issue 33, item 3): each one's settings are a typed Config loaded by
schemas.config.load_config from `--config FILE.yaml`, its flags generated from the fields
(pipelines/runtime/arguments.py add_config_flags), and `--set KEY=VALUE`, in that order of precedence; the flags
keep their names and defaults; a mistyped key or a value of the wrong type is one line, exit 2."""
import importlib
from pathlib import Path

import pytest

from paranmt.pipelines.cli import main, make_parser
from paranmt.pipelines.runtime.arguments import load_command_config

REPO = Path(__file__).resolve().parents[2]
# command -> (module, config class)
CONFIGS = {
    "eval": ("evaluate", "EvalConfig"),
    "eval-xling": ("eval_xling", "XlingConfig"),
    "eval-transfer": ("eval_transfer", "TransferConfig"),
    "eval-words": ("eval_words", "WordSimilarityConfig"),
    "simile": ("simile", "SimileConfig"),
    "eval-paraphraser": ("eval_paraphraser", "EvalParaphraserConfig"),
    "adversarial": ("adversarial", "AdversarialConfig"),
}
# command -> (YAML, flags, --set values, expected dotted key -> value): YAML < flags < --set
CASES = {
    "eval": ("model: M\nsts_dir: S\noutput: O\nbatch_size: 7\nthreads: 2\n", ["--threads", "3", "--hard"],
             ["hard_fraction=0.1", "select=a,b"],
             {"model": "M", "batch_size": 7, "threads": 3, "hard": True, "hard_fraction": 0.1, "select": ["a", "b"]}),
    "eval-xling": ("source: s\ntarget: t\noutput: o\nk: 5\nthreshold: 1.3\n", ["--k", "6", "--strategy", "forward"],
                   ["index=exact"], {"k": 6, "threshold": "1.3", "strategy": "forward", "index": "exact"}),
    "eval-transfer": ("model: m\ndata_dir: d\noutput: o\ntasks: [mr, cr]\nc_grid: [0.1, 1]\nfolds: 4\n",
                      ["--baselines", "--folds", "5"], ["folds=3"],
                      {"tasks": ["mr", "cr"], "c_grid": [0.1, 1.0], "baselines": [], "folds": 3}),
    "eval-words": ("model: m\ndata_dir: d\noutput: o\nthreads: 2\n", ["--threads", "3"], ["threads=4"],
                   {"model": "m", "threads": 4}),
    "simile": ("hyp: h\nref: r\nbatch_size: 9\n", ["--encoder", "E"], ["threads=2"],
               {"hyp": "h", "batch_size": 9, "encoder": "E", "threads": 2}),
    "eval-paraphraser": ("input: i\nparaphrase:\n  beam: 3\n  templates: top2\n", ["--rerank", "score", "--keep-copies",
                                                                                    "--beam", "4", "--keep-unbalanced"],
                         ["paraphrase.beam=5", "max_pairs=7"],
                         {"input": "i", "paraphrase.beam": 5, "paraphrase.templates": "top2", "max_pairs": 7,
                          "paraphrase.rerank": "score", "paraphrase.keep_copies": True,
                          "paraphrase.keep_unbalanced": True, "paraphrase.keep_lowercase_start": False}),
    "adversarial": ("task: mr\nclassifier: {lr: 0.003, dim: 4}\nparaphrase: {n_best: 4}\n",
                    ["--paraphraser", "P", "--dim", "8", "--device", "cpu", "--no-filter"],
                    ["classifier.hidden=16", "seed=3"],
                    {"task": "mr", "paraphrase.model": "P", "classifier.dim": 8, "classifier.hidden": 16,
                     "classifier.lr": 0.003, "paraphrase.n_best": 4, "no_filter": True, "seed": 3,
                     "classifier.seed": 3, "classifier.device": "cpu"}),
}
# command -> (the arguments it needs, the old argparse defaults that the config's defaults keep)
DEFAULTS = {
    "eval": (["--model", "m", "--sts-dir", "s", "--output", "o"],
             {"select": [], "hard": False, "hard_fraction": 0.2, "batch_size": 1024, "threads": 1}),
    "eval-xling": (["--source", "s", "--target", "t", "--output", "o"],
                   {"gold_fraction": 0.2, "seed": 1, "strategy": "max", "threshold": "auto", "k": 4,
                    "encoder": "assets/encoder-xling", "index": "auto", "ef_search": 64, "block_size": 65536,
                    "batch_size": 1024, "threads": 1}),
    "eval-transfer": (["--model", "m", "--data-dir", "d", "--output", "o"],
                      {"tasks": ["mr", "cr", "subj", "sick-e", "mrpc"], "baselines": ["bag-of-words", "random"],
                       "folds": 10, "inner_folds": 5, "c_grid": [0.001, 0.01, 0.1, 1.0, 10.0], "limit": 0, "seed": 1,
                       "batch_size": 1024, "threads": 1}),
    "eval-words": (["--model", "m", "--data-dir", "d", "--output", "o"], {"threads": 1}),
    "simile": (["--hyp", "h", "--ref", "r"], {"encoder": "assets/encoder-sp", "batch_size": 1024, "threads": 1}),
    "eval-paraphraser": (["--input", "i"],
                         {"paraphrase.model": "assets", "max_pairs": 500, "paraphrase.templates": "top10",
                          "paraphrase.n_best": 1, "paraphrase.beam": 8, "paraphrase.min_overlap": 0.5,
                          "paraphrase.min_similarity": 0.7, "paraphrase.rerank": "template",
                          "paraphrase.batch_size": 32, "paraphrase.device": "auto", "paraphrase.threads": 0,
                          "paraphrase.keep_copies": False}),
    "adversarial": (["--task", "sick-e"],
                    {"paraphrase.model": "assets", "train_rows": 0, "test_rows": 0, "attack_rows": 200,
                     "augment_rows": 500, "templates_per_example": 10, "paraphrase.n_best": 10, "no_filter": False,
                     "classifier.dim": 100, "classifier.hidden": 100, "classifier.epochs": 3, "seed": 1,
                     "paraphrase.beam": 8, "paraphrase.templates": None}),
}


def settings(command: str, argv: list[str]):
    """The command's config from the arguments `argv`, as its run() loads it."""
    module_name, class_name = CONFIGS[command]
    module = importlib.import_module(f"paranmt.pipelines.{module_name}")
    args = make_parser(command).parse_args([command, *argv])
    return load_command_config(getattr(module, class_name), args, f"{command} config")


def value(config, key: str):
    for part in key.split("."):
        config = getattr(config, part)
    return config


@pytest.mark.parametrize("command", CASES)
def test_config_file_then_flags_then_set(command, tmp_path):
    text, flags, sets, expected = CASES[command]
    (tmp_path / "settings.yaml").write_text(text)
    config = settings(command, [*flags, "--config", str(tmp_path / "settings.yaml"),
                                *(part for item in sets for part in ("--set", item))])
    assert {key: value(config, key) for key in expected} == expected


@pytest.mark.parametrize("command", DEFAULTS)
def test_the_flags_keep_their_defaults(command):
    argv, expected = DEFAULTS[command]
    config = settings(command, argv)
    assert {key: value(config, key) for key in expected} == expected


@pytest.mark.parametrize("command, argv, message", [
    ("eval", ["--set", "thread=2"], "unknown eval config key 'thread' (did you mean 'threads'"),
    ("eval-xling", ["--set", "threshold=high"], "--threshold: expected a number or auto, got 'high'"),
    ("eval-transfer", ["--set", "folds=1"], "folds must be >= 2, not 1"),
    ("eval-words", [], "give --model, --data-dir, --output (or model:, data_dir:, output: in --config)"),
    ("simile", ["--set", "batch_size=many"], "batch_size must be an integer, not 'many'"),
    ("eval-paraphraser", ["--set", "paraphrase.task=plain"], "paraphrase.task is the "
                                                             "command's"),
    ("adversarial", ["--set", "classifier.hiden=8"], "unknown adversarial config key 'classifier.hiden' (did you "
                                                     "mean 'classifier.hidden'"),
])
def test_a_wrong_setting_is_one_line(command, argv, message, capsys):
    required = DEFAULTS[command][0] if command != "eval-words" else []
    assert main([command, *required, *argv]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and message in err, err


def test_eval_and_simile_run_from_a_config_file(shared_data, tmp_path, capsys):
    sts = tmp_path / "sts" / "stsbenchmark"
    sts.mkdir(parents=True)
    lines = (shared_data / "sts/stsbenchmark/sts-dev.csv").read_text(encoding="utf-8").splitlines(keepends=True)
    (sts / "sts-dev.csv").write_text("".join(lines[:30]), encoding="utf-8")
    (tmp_path / "eval.yaml").write_text(f"model: {REPO / 'assets' / 'encoder-sp'}\nsts_dir: {tmp_path / 'sts'}\n"
                                        f"output: {tmp_path / 'out'}\nselect: [sts-train]\n")
    assert main(["eval", "--config", str(tmp_path / "eval.yaml")]) == 2      # select: no such dataset
    assert "no STS datasets found" in capsys.readouterr().err
    assert main(["eval", "--config", str(tmp_path / "eval.yaml"), "--set", "select=sts-dev"]) == 0
    assert "stsbenchmark/sts-dev\t30\t" in capsys.readouterr().out
    text = tmp_path / "hyp.txt"
    text.write_text("A man is playing a guitar.\nA dog runs.\n")
    (tmp_path / "simile.yaml").write_text(f"hyp: {text}\nref: {text}\nbatch_size: 1\n")
    assert main(["simile", "--config", str(tmp_path / "simile.yaml")]) == 0
    assert capsys.readouterr().out == "SIMILE = 1.0000\n"
