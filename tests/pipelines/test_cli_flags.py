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
