"""The one config path (schemas/config.py, the build's sections in schemas/build_config.py): every YAML and --set
value typed and range-checked by its field before any work, naming the key; unknown keys and sections named with
their near matches; renamed keys still read."""
import dataclasses
import hashlib
import inspect
import json
import subprocess
import sys

import pytest
import yaml

from paranmt.schemas.build_config import BuildConfig, CleanConfig, TranslateConfig, load_build_config
from paranmt.schemas.config import (Config, bounded, check_ranges, choice, fixed, parse_assignments, setting,
                                    typed_value)
from paranmt.schemas.errors import ConfigError
from paranmt.schemas.stages import MODEL_STAGE_SHARD_ROWS, SHARD_ROWS, STAGES


def build_config(*sets: str, path=None) -> BuildConfig:
    config = load_build_config(path, {"input": "in", "output": "out", **parse_assignments(list(sets))})
    return config.validate()


def cli(*args: str, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "paranmt.pipelines.cli", *args], capture_output=True, text=True,
                          timeout=300, cwd=cwd)


def test_a_bad_set_value_is_one_line_naming_the_key_exit_2(sample_dir, tmp_path):
    """Issue 24 item 1: was an 18-line TypeError traceback, exit 1."""
    result = cli("build", "--input", f"{sample_dir}/*", "--format", "moses", "--output", str(tmp_path / "out"),
                 "--stages", "read,clean", "--set", "clean.max_tokens=abc")
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "paranmt build: configuration error: clean.max_tokens must be an integer, not 'abc'"]
    assert not (tmp_path / "out").exists(), "checked before any work"


def test_a_bad_yaml_value_is_one_line_naming_the_key(sample_dir, tmp_path):
    config = tmp_path / "build.yaml"
    config.write_text("clean:\n  max_chars: -5\ntranslate:\n  beam: twelve\n")
    result = cli("build", "--input", f"{sample_dir}/*", "--format", "moses", "--output", str(tmp_path / "out"),
                 "--config", str(config))
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "paranmt build: configuration error: translate.beam must be an integer, not 'twelve'"]
    config.write_text("clean:\n  max_chars: -5\n")
    with pytest.raises(ConfigError, match=r"^clean.max_chars must be >= 1, not -5$"):
        build_config(path=str(config))


@pytest.mark.parametrize("assignment, message", [
    ("clean.max_tokens=-1", "clean.max_tokens must be >= 0, not -1"),
    ("clean.max_tokens=1.5", "clean.max_tokens must be an integer, not 1.5"),
    ("clean.normalize_punctuation=maybe", "clean.normalize_punctuation must be true or false, not 'maybe'"),
    ("xsim.min_xsim=1.5", "xsim.min_xsim must be between -1 and 1, not 1.5"),
    ("translate.nbest=20", "translate.nbest must be between 0 and beam (12), not 20"),
    ("translate.device=cdua", "translate.device must be one of auto, cpu, cuda, not 'cdua' (did you mean 'cuda'?)"),
    ("translate.compute_type=int4", "translate.compute_type must be one of auto, default, int8, int8_float16, "
                                    "int8_float32, int8_bfloat16, int16, float16, bfloat16, float32, not 'int4' "
                                    "(did you mean 'int8' or 'int16'?)"),
    ("read.shard_rows=0", "read.shard_rows must be >= 1, not 0"),
    ("parse.threads=-1", "parse.threads must be >= 0, not -1"),
    ("parse.threads=two", "parse.threads must be an integer, not 'two'"),
    ("read.columns={cs: 0, ref: -1}", "read.columns.ref must be a 0-based column number or a header column name, "
                                      "not -1"),
    ("read.columns={cs: 0, ref: 1, bt_scor: 2}", "read.columns: unknown field 'bt_scor' (did you mean 'bt_score'?); "
                                                 "fields: cs, ref, bt, bt_score, id, corpus, src_lang"),
    ("read.columns={cs: 0, bt: 1}", "read.columns must map `cs` and `ref` to columns (and may map bt, bt_score, id, "
                                    "corpus, src_lang), not {'cs': 0, 'bt': 1}"),
    ("stages=read,clena", "unknown stage 'clena' (did you mean 'clean'?); stages are read, clean, xsim, translate, "
                          "score, parse"),
    ("translate=5", "translate must be a mapping, not 5"),
])
def test_every_value_is_checked_against_its_field(assignment, message):
    with pytest.raises(ConfigError) as error:
        build_config(assignment)
    assert str(error.value) == message


@dataclasses.dataclass
class _Section:
    device: str = choice("auto", ("auto", "cpu", "cuda"))


@dataclasses.dataclass
class _Choices(Config):
    mode: str = choice("fast", ("fast", "slow"), help="how")
    arch: str | None = choice(None, ("scpn", "transformers"), help="None: the one there is")
    kinds: list[str] = setting(default_factory=lambda: ["a"], choices=("a", "b"), flag={"nargs": "*"}, help="kinds")
    runs_on: str = fixed("cpu", ("cpu", "cuda"))
    section: _Section = dataclasses.field(default_factory=_Section)


@dataclasses.dataclass
class _Redeclared(_Choices):
    mode: str = "slow"              # another default; the choices stay the base's


@pytest.mark.parametrize("changes, message", [
    ({}, None),
    ({"arch": "scpn", "kinds": ["b", "a"], "runs_on": "cuda"}, None),
    ({"mode": "fats"}, "mode must be one of fast, slow, not 'fats' (did you mean 'fast'?)"),
    ({"arch": "lstm"}, "arch must be one of scpn, transformers, not 'lstm'"),
    ({"kinds": ["a", "c"]}, "kinds must be one of a, b, not 'c'"),
    ({"runs_on": "gpu"}, "runs_on must be one of cpu, cuda, not 'gpu' (did you mean 'cpu'?)"),
    ({"mode": None}, "mode must be one of fast, slow, not None"),
    ({"section": _Section("cdua")}, "section.device must be one of auto, cpu, cuda, not 'cdua' (did you mean 'cuda'?)"),
])
@pytest.mark.parametrize("config_class", [_Choices, _Redeclared])
def test_every_fields_declared_choices_are_checked_naming_the_key(config_class, changes, message):
    """check_ranges refuses a value out of its field's choices (a `choice`, `setting(choices=...)` or `fixed(...,
    choices)`, also one its base declares) in check_choice's line: each item of a list; None only where the
    annotation takes it; a section's key with the section's name."""
    assert_checked(dataclasses.replace(config_class(), **changes), message)


@dataclasses.dataclass
class _Bounded(Config):
    count: int = bounded(1, 1, help="at least one")
    lr: float = bounded(0.1, 0, open_low=True, help="above 0")
    dropout: float = bounded(0.0, 0, 1, open_high=True, help="0 up to, not with, 1")
    share: float = bounded(0.5, 0, 1, open_low=True, open_high=True, help="strictly between 0 and 1")
    gold: float = bounded(1.0, 0, 1, open_low=True, help="above 0, up to 1")
    cosine: float = bounded(0.0, -1, 1, help="-1 to 1")
    cap: float = bounded(0.0, high=1, open_high=True, help="below 1")


@pytest.mark.parametrize("changes, message", [
    ({"count": 1, "lr": 1e-9, "dropout": 0.0, "share": 0.999, "gold": 1.0, "cosine": -1.0, "cap": -5.0}, None),
    ({"count": 0}, "count must be >= 1, not 0"),
    ({"lr": 0.0}, "lr must be > 0, not 0.0"),
    ({"dropout": 1.0}, "dropout must be in [0, 1), not 1.0"),
    ({"dropout": -0.1}, "dropout must be in [0, 1), not -0.1"),
    ({"share": 0.0}, "share must be in (0, 1), not 0.0"),
    ({"share": 1}, "share must be in (0, 1), not 1"),
    ({"gold": 0.0}, "gold must be in (0, 1], not 0.0"),
    ({"gold": 1.5}, "gold must be in (0, 1], not 1.5"),
    ({"cosine": 1.5}, "cosine must be between -1 and 1, not 1.5"),
    ({"cap": 1.0}, "cap must be < 1, not 1.0"),
])
def test_every_fields_declared_range_is_checked_naming_the_key(changes, message):
    """check_ranges refuses a value out of its field's `bounded` range, a bound declared open (`open_low`,
    `open_high`) refusing the bound itself, in one line naming the key and the range."""
    assert_checked(dataclasses.replace(_Bounded(), **changes), message)


def assert_checked(config, message: str | None) -> None:
    """check_ranges passes `config` (message None) or refuses it with exactly `message`."""
    if message is None:
        check_ranges(config)
        return
    with pytest.raises(ConfigError) as error:
        check_ranges(config)
    assert str(error.value) == message


def test_unknown_keys_and_sections_name_their_near_matches():
    with pytest.raises(ConfigError, match=r"^unknown config key 'clean.max_token' \(did you mean "
                                          r"'clean.max_tokens' or 'clean.min_tokens'\?\); clean keys: "):
        build_config("clean.max_token=3")
    with pytest.raises(ConfigError, match=r"^unknown config section 'clen' in 'clen.max_tokens' \(did you mean "
                                          r"'clean'\?\); sections: clean, parse, read, score, translate, workers, xsim$"):
        build_config("clen.max_tokens=3")
    with pytest.raises(ConfigError, match=r"unknown config key 'fromat' \(did you mean 'format'\?\)"):
        load_build_config(None, {"fromat": "tsv"})


def test_values_are_converted_as_a_user_means_them():
    config = build_config("clean.max_tokens=2e2", "translate.batch_tokens=4_096", "source_lang=no",
                          "read.corpus=null", "read.suffixes=ces,eng", "clean.max_length_ratio=3",
                          "xsim.min_xsim=1e-1")
    assert config.clean.max_tokens == 200 and config.translate.batch_tokens == 4096
    assert config.source_lang == "no", "a text field takes the --set text as written (YAML would read False)"
    assert config.read.corpus is None and config.read.suffixes == ["ces", "eng"]
    assert config.clean.max_length_ratio == 3.0 and isinstance(config.clean.max_length_ratio, float)
    assert config.xsim.min_xsim == 0.1, "PyYAML reads 1e-1 as text; a number field converts it"
    with pytest.raises(ConfigError, match=r"source_lang must be text, not False \(quote it to mean the text\)"):
        load_build_config(None, {"source_lang": False})
    assert typed_value("12", int, "k") == 12 and typed_value(7, str, "k") == "7"
    with pytest.raises(ConfigError, match="^k must be an integer, not True$"):
        typed_value(True, int, "k")


def test_set_needs_key_equals_value():
    with pytest.raises(ConfigError, match="--set expects KEY=VALUE"):
        parse_assignments(["clean.max_tokens"])
    assert parse_assignments(["a.b=1", "a.b=2"]) == {"a.b": "2"}


def test_min_xsim_is_the_xsim_sections_and_the_old_key_still_reads(tmp_path, caplog):
    assert build_config("xsim.min_xsim=0.2").xsim.min_xsim == 0.2
    old = tmp_path / "old.yaml"
    old.write_text("clean:\n  min_xsim: 0.3\ntranslate:\n  source_lang: de\n")
    config = build_config(path=str(old))
    assert config.xsim.min_xsim == 0.3 and config.source_lang == "de"
    assert "clean.min_xsim is deprecated: it is now xsim.min_xsim" in caplog.text
    assert build_config("clean.min_xsim=0.25").xsim.min_xsim == 0.25
    assert "min_xsim" not in {f for f in CleanConfig.__dataclass_fields__}


def test_stages_take_their_section_and_repeat_no_default():
    """Each section's dataclass is the only place a default lives: no stage constructor or factory declares a
    default of its own (the stage table's factories and the pure stages they build)."""
    import importlib

    from paranmt.models.nmt.stage import TranslateStage
    from paranmt.models.parsing.stage import ParseStage
    from paranmt.models.scoring.stage import ScoreStage
    from paranmt.models.scoring.xsim import XsimStage
    from paranmt.models.text.clean import CleanStage

    factories = [getattr(importlib.import_module(spec.factory.split(":")[0]), spec.factory.split(":")[1])
                 for spec in STAGES if spec.factory]
    for function in factories + [c.__init__ for c in (TranslateStage, ParseStage, ScoreStage, XsimStage,
                                                      CleanStage)]:
        defaults = {name: p.default for name, p in inspect.signature(function).parameters.items()
                    if p.default is not inspect.Parameter.empty}
        assert defaults in ({}, {"translator": None}), (function.__qualname__, defaults)


def test_the_shard_size_follows_the_stages_unless_given(tmp_path):
    """read.shard_rows unset: 2,000-row shards when a stage with a model runs, 20,000 without; a value given in
    --set, a flag or YAML wins; the resolved size is what the readers, the hash and config.yaml see."""
    from paranmt.pipelines.runtime.building.plan import read_options
    from paranmt.transforms.io.read_plan import ReadOptions

    assert BuildConfig().read.shard_rows is None
    assert build_config().read.shard_rows == MODEL_STAGE_SHARD_ROWS == 2_000
    for stages in ("read,clean,xsim", "read,clean,translate", "read,score", "read,parse"):
        assert build_config(f"stages=[{stages}]").read.shard_rows == 2_000, stages
    assert build_config("stages=[read,clean]").read.shard_rows == build_config("stages=[read]").read.shard_rows \
        == SHARD_ROWS == 20_000
    assert build_config("read.shard_rows=20000").read.shard_rows == 20_000
    assert build_config("stages=[read,clean]", "read.shard_rows=500").read.shard_rows == 500
    (tmp_path / "c.yaml").write_text("read:\n  shard_rows: 7000\n")
    assert build_config(path=tmp_path / "c.yaml").read.shard_rows == 7000
    assert build_config("read.shard_rows=2000").hash() == build_config().hash() \
        != build_config("read.shard_rows=20000").hash()
    assert build_config().to_dict()["read"]["shard_rows"] == 2_000
    assert read_options(build_config("stages=[read,clean]")).shard_rows == 20_000
    assert issubclass(ReadOptions, type(BuildConfig().read)) and ReadOptions(format="tsv").shard_rows == SHARD_ROWS


def old_layout(written: dict) -> dict:
    """A config.yaml as the build wrote it before min_xsim and the language pair moved, with that build's hash."""
    old = json.loads(json.dumps(written))
    old.pop("config_hash")
    old["clean"]["min_xsim"] = old["xsim"].pop("min_xsim")
    old["translate"]["source_lang"], old["translate"]["target_lang"] = old.pop("source_lang"), old.pop("target_lang")
    data = {k: v for k, v in old.items() if k not in ("input", "output", "resume")}
    old["config_hash"] = hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]
    return old


def test_an_output_written_before_the_keys_moved_still_resumes(sample_dir, tmp_path, capsys):
    """(The builds run in this process: what is tested is how --resume reads the recorded config.)"""
    from paranmt.pipelines.cli import main

    out = tmp_path / "out"
    args = ["build", "--input", f"{sample_dir}/*", "--format", "moses", "--output", str(out), "--stages",
            "read,clean", "--shard-rows", "500", "--direct_running_mode", "in_memory"]
    assert main(args) == 0
    shards = sorted(out.glob("*.parquet"))
    before = {p.name: p.read_bytes() for p in shards}
    written = yaml.safe_load((out / "__paranmt__" / "config.yaml").read_text())
    (out / "__paranmt__" / "config.yaml").write_text(yaml.safe_dump(old_layout(written), sort_keys=False))
    shards[-1].unlink()
    assert main([*args, "--resume"]) == 0, capsys.readouterr().err
    assert {p.name: p.read_bytes() for p in sorted(out.glob("*.parquet"))} == before
    capsys.readouterr()
    assert main([*args, "--resume", "--set", "clean.max_tokens=50"]) == 2
    assert "clean.max_tokens: 200 -> 50" in capsys.readouterr().err


def test_to_dict_and_hash_live_once():
    from paranmt.models.filters.config import FilterConfig
    from paranmt.models.nmt.recipe import RecipeConfig
    from paranmt.models.parsing.train import ParserTrainConfig
    from paranmt.models.training.trainer import TrainConfig
    from paranmt.schemas.config import Config

    for cls in (BuildConfig, FilterConfig, TrainConfig, RecipeConfig, ParserTrainConfig):
        assert issubclass(cls, Config) and "hash" not in vars(cls) and "to_dict" not in vars(cls)
    assert BuildConfig(input="a").hash() == BuildConfig(input="b", output="c", resume=True).hash()
    assert BuildConfig().hash() != BuildConfig(translate=TranslateConfig(beam=5)).hash()
