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
from paranmt.schemas.config import Config, bounded, field_spec
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
    config = config_class()
    for _, holder, field_name, allowed in choice_fields(config):     # a required choice ('' until given): given
        if getattr(holder, field_name) == "":
            setattr(holder, field_name, allowed[0])
    (owner, name, choices), = [(owner, name, choices) for found, owner, name, choices in choice_fields(config)
                               if found == key]
    setattr(owner, name, ["bogus"] if isinstance(getattr(owner, name), list) else "bogus")
    with pytest.raises(ConfigError) as error:
        config.validate()
    assert str(error.value) == f"{key} must be one of {', '.join(choices)}, not 'bogus'"
