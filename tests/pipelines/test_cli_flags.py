"""Every command's flags: those of tests/fixtures/cli/flags.json (a flag per line: what a user's scripts may use;
those of before the flags were generated from the config fields, and those that generation added) keep their names,
defaults, help texts, choices and types, and every setting of a command's config has its help and its flag (issue 45
item 1). A flag added later joins the fixture when it is released."""
import argparse
import dataclasses
import importlib
import json
import re
from pathlib import Path
from typing import ClassVar

import pytest

from paranmt.pipelines import cli
from paranmt.pipelines.runtime.arguments import add_config_flags, config_keys
from paranmt.schemas.config import Config, bounded, field_spec, load_config, parse_assignments
from paranmt.schemas.errors import ConfigError

FIXTURE = Path(__file__).parent.parent / "fixtures" / "cli" / "flags.json"
CONTRACT = json.loads(FIXTURE.read_text())
SHARED_DATA = str(Path(__file__).parents[2].parent / "shared" / "data")    # in the fixture: ../shared/data


def describe(flag: str, action) -> dict:
    """What a flag is to a user (the fixture's form: unset properties left out)."""
    kind = getattr(action.type, "__name__", None) if action.type else None
    settings = {"dest": action.dest, "default": action.default, "help": action.help,
                "choices": list(action.choices) if action.choices is not None else None, "nargs": action.nargs,
                "required": action.required, "metavar": action.metavar, "const": action.const, "type": kind,
                "action": type(action).__name__,
                "option_strings": action.option_strings if action.option_strings != [flag] else None}
    return {key: value.replace(SHARED_DATA, "../shared/data") if isinstance(value, str) else value
            for key, value in settings.items() if value not in (None, False)}


def command_flags(command: str) -> dict:
    parser = cli.make_parser(command).commands[command]
    return {(action.option_strings or [action.dest])[0]: describe((action.option_strings or [action.dest])[0], action)
            for action in parser._actions if action.dest != "help"}


@pytest.mark.parametrize("command", sorted(cli.COMMANDS))
def test_every_flag_of_before_keeps_its_name_default_help_and_choices(command):
    flags = command_flags(command)
    assert sorted(set(CONTRACT[command]) - set(flags)) == []
    changed = {flag: (before, flags[flag]) for flag, before in CONTRACT[command].items() if flags[flag] != before}
    assert changed == {}


def command_configs() -> dict:
    """command -> the config class its settings are (docs/architecture.md's table, the first class of the row)."""
    table = (Path(__file__).parents[2] / "docs" / "architecture.md").read_text()
    return {command: getattr(importlib.import_module(f"paranmt.{module.replace('/', '.')}"), name)
            for command, name, module in re.findall(r"^\| ([a-z-]+) \| pipelines/\S+ \| `(\w+)` typed, (\S+)\.py",
                                                   table, re.M)}


@pytest.mark.parametrize("command", sorted(cli.COMMANDS))
def test_every_setting_of_a_command_has_help_and_a_flag(command):
    config_class = command_configs()[command]
    parser = cli.make_parser(command).commands[command]
    keys = config_keys(config_class)
    assert [key for key in keys if not field_spec(config_class, key).get("help")] == []
    assert sorted(set(keys) - set(parser.get_default("config_keys"))) == []
    instance, fixed = config_class(), getattr(config_class, "FIXED", ())
    fields = {spec.name: spec for spec in dataclasses.fields(config_class)}
    others = [name for name in fields if name not in keys]
    # a field without a flag is a section (a dataclass, mappings: their keys are --config's and --set's), one the
    # trainer does not use, or fixed
    assert [name for name in others if not (dataclasses.is_dataclass(getattr(instance, name)) or name in fixed
                                            or "dict" in str(fields[name].type)
                                            or field_spec(config_class, name).get("fixed"))] == []


def test_a_help_entry_rewords_an_inherited_field_and_one_naming_no_flag_is_refused():
    @dataclasses.dataclass
    class Base(Config):
        steps: int = bounded(3, 0, help="stop after N steps")

    @dataclasses.dataclass
    class Reworded(Base):
        HELP: ClassVar[dict[str, str]] = {"steps": "stop after N updates"}

    @dataclasses.dataclass
    class Mistyped(Base):
        HELP: ClassVar[dict[str, str]] = {"step": "stop after N updates"}

    parser = argparse.ArgumentParser()
    add_config_flags(parser, Reworded)
    (action,) = [action for action in parser._actions if action.dest == "steps"]
    assert action.help == "stop after N updates (default 3)"
    assert field_spec(Base, "steps")["help"] == "stop after N steps"
    with pytest.raises(TypeError, match="Mistyped.HELP names step: "):
        add_config_flags(argparse.ArgumentParser(), Mistyped)


def subclasses(cls) -> set:
    return {cls} | {sub for child in cls.__subclasses__() for sub in subclasses(child)}


def declared_default(spec: dataclasses.Field):
    return spec.default_factory() if spec.default_factory is not dataclasses.MISSING else spec.default


def test_no_config_redeclares_an_inherited_field_only_to_reword_its_help():
    """A field redeclared with its base's default, range and choices says the same thing twice: the subclass's
    `HELP` rewords it."""
    for config_class in command_configs().values():
        importlib.import_module(config_class.__module__)
    same = []
    for config_class in subclasses(Config):
        for name in vars(config_class).get("__annotations__", {}):
            theirs = next((base.__dataclass_fields__[name] for base in config_class.__mro__[1:]
                           if name in getattr(base, "__dataclass_fields__", {})), None)
            mine = getattr(config_class, "__dataclass_fields__", {}).get(name)
            if mine is None or theirs is None:
                continue
            if declared_default(mine) == declared_default(theirs) and all(
                    mine.metadata.get(key) == theirs.metadata.get(key) for key in ("range", "choices", "flag", "fixed")):
                same.append(f"{config_class.__name__}.{name}")
    assert sorted(same) == []


def choice_fields(config, where: str = "") -> list[tuple[str, object, str, tuple]]:
    """(dotted key, the dataclass holding it, field name, its choices) of every field of `config` and of its
    sections that declares choices (`choice`, `setting(choices=...)`, `fixed(..., choices)`, or inherited)."""
    found = []
    for spec in dataclasses.fields(config):
        value = getattr(config, spec.name)
        if dataclasses.is_dataclass(value):
            found += choice_fields(value, f"{where}{spec.name}.")
        elif field_spec(type(config), spec.name).get("choices"):
            found.append((where + spec.name, config, spec.name, field_spec(type(config), spec.name)["choices"]))
    return found


def with_required_choices(config):
    """`config` with each required choice ('' until given) given its first choice."""
    for _, holder, field_name, allowed in choice_fields(config):
        if getattr(holder, field_name) == "":
            setattr(holder, field_name, allowed[0])
    return config


CHOICE_CASES = [(config_class, key) for config_class in dict.fromkeys(command_configs().values())
                for key, *_ in choice_fields(config_class())]


def test_the_walk_reaches_the_choices_of_every_command_and_section():
    keys = {f"{config_class.__name__}.{key}" for config_class, key in CHOICE_CASES}
    assert {"BuildConfig.format", "BuildConfig.translate.compute_type", "BuildConfig.parse.device",
            "AdversarialConfig.paraphrase.rerank", "AdversarialConfig.classifier.device", "ProbeConfig.train.fp16",
            "RecipeConfig.mrt.cost", "TransferConfig.baselines", "ClusterConfig.scheduler"} <= keys
    assert len(CHOICE_CASES) > 60


@pytest.mark.parametrize("config_class, key", CHOICE_CASES, ids=[f"{c.__name__}.{k}" for c, k in CHOICE_CASES])
def test_a_value_out_of_a_fields_choices_is_refused_naming_the_key(config_class, key):
    """Every choice a command's config (or a section of it) declares is checked by validate() from the field's
    declaration (schemas/config.py check_ranges), not by a check someone must remember to write."""
    config = with_required_choices(config_class())
    (owner, name, choices), = [(owner, name, choices) for found, owner, name, choices in choice_fields(config)
                               if found == key]
    setattr(owner, name, ["bogus"] if isinstance(getattr(owner, name), list) else "bogus")
    with pytest.raises(ConfigError) as error:
        config.validate()
    assert str(error.value) == f"{key} must be one of {', '.join(choices)}, not 'bogus'"


def bounded_fields(config, where: str = "") -> list[tuple[str, object, str, tuple]]:
    """(dotted key, the dataclass holding it, field name, its range: low, high, open_low, open_high) of every field
    of `config` and of its sections that declares a range (`bounded`, or a base's field it inherits)."""
    found = []
    for spec in dataclasses.fields(config):
        value = getattr(config, spec.name)
        if dataclasses.is_dataclass(value):
            found += bounded_fields(value, f"{where}{spec.name}.")
        elif "range" in spec.metadata:
            found.append((where + spec.name, config, spec.name, spec.metadata["range"]))
    return found


def outside(spec_type: str, bound, side: int, is_open: bool):
    """A value just outside `bound` (side -1: below a low bound, +1: above a high one): the bound itself where it is
    open, else one past it; a float for a float field."""
    value = bound if is_open else bound + side
    return float(value) if "float" in str(spec_type) else int(value)


RANGE_CASES = [(config_class, key, side) for config_class in dict.fromkeys(command_configs().values())
               for key, _, _, (low, high, *_) in bounded_fields(config_class())
               for side, bound in ((-1, low), (1, high)) if bound is not None]


def test_the_walk_reaches_the_ranges_once_checked_by_hand():
    """The fields whose range a validate() once checked by hand (issue 43's note) declare it."""
    keys = {f"{config_class.__name__}.{key}" for config_class, key, _ in RANGE_CASES}
    assert {"MineConfig.k", "MineConfig.block_size", "XlingConfig.k", "XlingConfig.gold_fraction",
            "BGTConfig.max_tokens", "BGTConfig.warmup", "BGTConfig.dropout", "BGTConfig.label_smoothing",
            "LexiconConfig.min_count", "LexiconConfig.alpha", "StatsConfig.sample_size", "RecipeConfig.mrt.gamma",
            "RecipeConfig.mrt.nbest", "AdversarialConfig.classifier.lr", "ParagramConfig.lr",
            "FinetuneConfig.dev_fraction", "EvalConfig.hard_fraction", "TrainConfig.dropout",
            "TrainConfig.word_dropout", "ParaphraserTrainConfig.dropout", "RecipeConfig.data.valid_lines",
            "ClusterConfig.cpu.jobs", "ClusterConfig.cpu.cores", "ClusterConfig.gpu.processes",
            "ClusterConfig.gpu.gpus"} <= keys


@pytest.mark.parametrize("config_class, key, side", RANGE_CASES,
                         ids=[f"{c.__name__}.{k}{'<' if s < 0 else '>'}" for c, k, s in RANGE_CASES])
def test_a_value_out_of_a_fields_range_is_refused_naming_the_key(config_class, key, side):
    """Every range a command's config (or a section of it) declares is checked by validate() from the field's
    declaration (schemas/config.py check_ranges): a value just outside either bound (the bound itself where it is
    open) is one line naming the key."""
    config = with_required_choices(config_class())
    (owner, name, (low, high, open_low, open_high)), = [
        (owner, name, bounds) for found, owner, name, bounds in bounded_fields(config) if found == key]
    spec = {f.name: f for f in dataclasses.fields(owner)}[name]
    value = outside(spec.type, low if side < 0 else high, side, open_low if side < 0 else open_high)
    setattr(owner, name, value)
    with pytest.raises(ConfigError) as error:
        config.validate()
    assert str(error.value).startswith(f"{key} must be ") and str(error.value).endswith(f", not {value!r}")


@pytest.mark.parametrize("command, assignment, message", [
    ("mine", "k=0", "k must be >= 1, not 0"),
    ("mine", "block_size=0", "block_size must be >= 1, not 0"),
    ("eval-xling", "gold_fraction=0", "gold_fraction must be in (0, 1], not 0.0"),
    ("train-bgt", "max_tokens=0", "max_tokens must be >= 1, not 0"),
    ("train-bgt", "warmup=0", "warmup must be >= 1, not 0"),
    ("train-bgt", "dropout=1", "dropout must be in [0, 1), not 1.0"),
    ("train-bgt", "label_smoothing=-0.1", "label_smoothing must be in [0, 1), not -0.1"),
    ("lexicon", "min_count=0", "min_count must be >= 1, not 0"),
    ("lexicon", "alpha=0", "alpha must be > 0, not 0.0"),
    ("stats", "sample_size=0", "sample_size must be >= 1, not 0"),
    ("train-nmt", "mrt.gamma=1.5", "mrt.gamma must be between 0 and 1, not 1.5"),
    ("train-nmt", "mrt.nbest=1", "mrt.nbest must be >= 2, not 1"),
    ("train-nmt", "data.valid_lines=0", "data.valid_lines must be >= 1, not 0"),
    ("cluster-config", "cpu.jobs=-1", "cpu.jobs must be >= 0, not -1"),
    ("cluster-config", "gpu.processes=0", "gpu.processes must be >= 1, not 0"),
    ("cluster-config", "gpu.gpus=-1", "gpu.gpus must be >= 0, not -1"),
    ("adversarial", "classifier.lr=0", "classifier.lr must be > 0, not 0.0"),
    ("train-words", "lr=0", "lr must be > 0, not 0.0"),
    ("finetune-sts", "dev_fraction=1", "dev_fraction must be in (0, 1), not 1.0"),
    ("eval", "hard_fraction=0.5", "hard_fraction must be in (0, 0.5), not 0.5"),
    ("train", "word_dropout=1", "word_dropout must be in [0, 1), not 1.0"),
    ("train-paraphraser", "dropout=1", "dropout must be in [0, 1), not 1.0"),
])
def test_a_range_once_checked_by_hand_is_its_fields_line(command, assignment, message):
    """`--set KEY=VALUE` out of a range a validate() once checked by hand: the declaration's line, naming the key
    (the line the CLI prints, exit 2)."""
    config = with_required_choices(load_config(command_configs()[command], overrides=parse_assignments([assignment])))
    with pytest.raises(ConfigError) as error:
        config.validate()
    assert str(error.value) == message
