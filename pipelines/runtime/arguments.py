"""The argument groups that several commands add to their parsers (each command's own flags stay in its module), and
the flags generated from a typed config's fields (`add_config_flags`)."""
from __future__ import annotations

import argparse
import dataclasses
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, ClassVar

from paranmt.schemas.config import CommandLineValue, Config, bounded, check_ranges, field_spec, near_matches, setting
from paranmt.schemas.errors import ConfigError

log = logging.getLogger(__name__)


@dataclass
class EvaluationConfig(Config):
    """The settings every evaluation of a saved encoder over a folder laid out like ../shared/data has (eval-words,
    eval-transfer: their configs add their own), each with the help of its flag; EVALUATION_REQUIRED
    the settings without a default."""
    RUN_FIELDS: ClassVar[tuple[str, ...]] = ("model", "data_dir", "output")
    model: str = setting("", help="encoder directory")
    data_dir: str = setting("", help="folder laid out like ../shared/data")
    output: str = setting("", help="directory for results.csv and summary.md")
    threads: int = bounded(1, 1, help="torch CPU threads")

    def validate(self):
        check_ranges(self)
        return self


EVALUATION_REQUIRED = ("model", "data_dir", "output")


def add_evaluation_arguments(parser, data_dir_help: str, output_help: str) -> None:
    """`--model`, `--data-dir`, `--output`: the arguments of finetune-sts over a folder laid out like
    ../shared/data (eval-words and eval-transfer generate the same flags from EvaluationConfig; finetune-sts's
    `--threads` is its FinetuneConfig's)."""
    parser.add_argument("--model", required=True, help="encoder directory")
    parser.add_argument("--data-dir", required=True, help=f"folder laid out like ../shared/data ({data_dir_help})")
    parser.add_argument("--output", required=True, help=output_help)


def parse_bool(text: str) -> bool:
    """`true`/`false` (also yes/no, 1/0) -> bool, for boolean flags."""
    value = {"true": True, "yes": True, "1": True, "false": False, "no": False, "0": False}.get(text.lower())
    if value is None:
        raise argparse.ArgumentTypeError(f"expected true or false, got {text!r}")
    return value


def config_field(config, key: str):
    """(the dataclass field, its value) of the config instance `config` for a key, dotted for a field of one of
    its sections (`paraphrase.beam`: the field beam of the section paraphrase)."""
    *sections, name = key.split(".")
    for section in sections:
        config = getattr(config, section)
    return next(spec for spec in dataclasses.fields(config) if spec.name == name), getattr(config, name)


def parser_flags(parser: argparse.ArgumentParser) -> set[str]:
    """Every option string of `parser` (`--templates`, `-h`, ...)."""
    return {flag for action in parser._actions for flag in action.option_strings}     # argparse has no public list


def argument_groups(extra: list[str]) -> list[list[str]]:
    """The arguments argparse left over (`parse_known_args`), a group per flag with the values after it:
    ['--templats', 'top10', '-x'] -> [['--templats', 'top10'], ['-x']]."""
    groups: list[list[str]] = []
    for token in extra:
        if token.startswith("-") or not groups:
            groups.append([token])
        else:
            groups[-1].append(token)
    return groups


def flag_name(group: list[str]) -> str:
    """The flag of an argument group without its `=value` (`--beam=4` -> `--beam`); '' for a value alone."""
    return group[0].split("=", 1)[0] if group[0].startswith("-") else ""


def unrecognized_arguments(groups: list[list[str]], flags=()) -> str:
    """`unrecognized arguments: ...` naming each group of arguments (`argument_groups`), a mistyped flag with the
    closest of the command's `flags` (`--templats top10 (did you mean '--templates'?)`): the one line of a command
    given arguments it does not take (pipelines/cli.py)."""
    named = [" ".join(group) + (near_matches(flag_name(group), flags) if flag_name(group) else "")
             for group in groups]
    return f"unrecognized arguments: {', '.join(named)}"


def config_keys(config_class, sections=(), within: bool = False) -> list[str]:
    """The keys of `config_class`'s settings, each of which has a flag: its fields that are not `fixed`
    (schemas/config.py), not in its `FIXED` (a trainer's fields it does not use) and not a section (a dataclass, or
    mappings of free keys such as fairseq's options or the filters of `filter`, which `--config` and `--set` reach),
    and those of each section named in `sections` (names, or a mapping of a name to the keys it gives flags, a
    mapping field too, e.g. build's `read.columns`; None: all), dotted (`mrt.gamma`), but for the fields that the
    command sets where its config is a section (`within`; `setting(flag={"section": False})`, e.g. the paraphrase
    task of the commands that choose their models)."""
    sections = sections if isinstance(sections, dict) else dict.fromkeys(sections)
    instance, keys = config_class(), []
    for spec in dataclasses.fields(config_class):
        value, declared = getattr(instance, spec.name), field_spec(config_class, spec.name)
        if spec.name in sections:
            named = sections[spec.name]
            keys += [f"{spec.name}.{key}" for key in (config_keys(type(value), within=True) if named is None else
                                                      [entry.name for entry in dataclasses.fields(value)
                                                       if entry.name in named])]
        elif not (dataclasses.is_dataclass(value) or "dict" in str(spec.type)
                  or spec.name in getattr(config_class, "FIXED", ()) or declared.get("fixed")
                  or within and declared.get("flag", {}).get("section") is False):
            keys.append(spec.name)
    return keys


def add_config_flags(parser, config_class, sections: tuple[str, ...] | dict = ()) -> None:
    """One flag per setting of the dataclass `config_class` (`config_keys`: its own fields and those of the
    sections named in `sections`, dotted: `paraphrase.beam` -> `--beam`, dest the key, which
    schemas.config.load_config takes as it is): `--field-name` of the last part, its help text the field's
    (`setting`, `bounded`, `choice` of schemas/config.py; a redeclared field keeps its base class's; a class's
    `HELP` rewords a field of its bases) with the field's default appended, its choices the field's; type from the
    annotation's first type, bool as true/false, lists as several values, a mapping as YAML text. Every flag
    defaults to None, so an absent flag keeps the YAML / default value. A field's `flag` (schemas/config.py
    `setting`) holds the argparse settings that win (`name` for another flag name, `action` `store_true` for a switch
    without a value, `type`, `metavar`, `nargs`; `show_default` False for a default the help need not name). The
    keys are recorded as the parser's default `config_keys`, which `load_command_config` reads back."""
    instance = config_class()
    keys = config_keys(config_class, sections)
    unflagged = sorted(set(getattr(config_class, "HELP", {})) - set(keys))
    if unflagged:
        raise TypeError(f"{config_class.__name__}.HELP names {', '.join(unflagged)}: no field of it that has a flag")
    for key in keys:
        spec, default = config_field(instance, key)
        *parts, name = key.split(".")
        owner = type(config_field(instance, ".".join(parts))[1]) if parts else config_class
        declared = field_spec(owner, name)
        text = declared.get("help")
        if not text:
            raise TypeError(f"{owner.__name__}.{name} has no help: declare it with setting(), bounded() or "
                            f"choice() and their help=, or as fixed() when it is no setting of the user's")
        # the annotation's first type; annotations are strings here, e.g. "int | None", "list[int]"
        annotation = str(spec.type).split(" |")[0]
        kind = {"int": int, "float": float, "bool": parse_bool, "list[int]": int, "list[float]": float,
                "str": str, "list[str]": str}.get(annotation, CommandLineValue)
        override = {**declared.get("flag", {})}
        override.pop("section", None)
        key_choices = declared.get("choices")
        # a switch says what it does; a field whose default another setting chooses says it in its help
        shown = override.pop("show_default", True) and default not in (None, "", []) and "action" not in override
        default_text = " ".join(map(str, default)) if isinstance(default, list) else default
        settings = {"dest": key, "type": kind, "choices": key_choices, "default": None,
                    "nargs": "+" if annotation.startswith("list") else None,
                    "metavar": None if key_choices else "YAML" if kind is CommandLineValue else name.upper(),
                    "help": text + (f" (default {default_text})" if shown else "")}
        if "action" in override:        # a switch: no value, so no type, nargs, choices or metavar of its own
            settings.update(type=None, nargs=None, choices=None, metavar=None)
        settings.update(override)
        flag = settings.pop("name", "--" + name.replace("_", "-"))
        parser.add_argument(flag, **{key: value for key, value in settings.items()
                                     if value is not None or key == "default"})
    parser.set_defaults(config_keys=[*(parser.get_default("config_keys") or []), *keys])


def add_config_arguments(parser, config_class, example: str = "", config_file: bool = True,
                         sections: tuple[str, ...] | dict = (), config_help: str | None = None) -> None:
    """A command configured by one typed config: its flags (`add_config_flags`), `--config FILE.yaml` (keys = the
    config's fields, or the name of a preset, a YAML of the command's presets folder; `config_help` its help; not
    with `config_file` False, for a command whose --config names another file) and `--set KEY=VALUE` (repeatable);
    `load_command_config` reads them back."""
    add_config_flags(parser, config_class, sections)
    if config_file:
        parser.add_argument("--config", help=config_help or f"YAML with {config_class.__name__} keys (the flags' "
                            f"names with _ for -; flags and --set win)")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        help="override any config key" + (f", e.g. --set {example}" if example else ""))


def add_rerun_flags(parser, resume: str | None, overwrite: str | None, resume_default: bool | None = False) -> None:
    """`--resume` and `--overwrite`, switches with the help texts given (None: the command has no such flag): what
    a command does with the output of an earlier run (its output contract, pipelines/runtime/outputs.py).
    `resume_default` None where --resume is a config field that only a given flag overrides (build, probe)."""
    if resume:
        parser.add_argument("--resume", action="store_true", default=resume_default, help=resume)
    if overwrite:
        parser.add_argument("--overwrite", action="store_true", help=overwrite)


def load_command_config(config_class, args, what: str, required: tuple[str, ...] = (),
                        config_file: bool = True, saved_in: Callable[[Config], str | Path] | None = None,
                        presets: Path | None = None):
    """The command's config: `config_class` defaults <- `--config` YAML (not with `config_file` False:
    `add_config_arguments`; a path, or with `presets` the name of a YAML there: schemas/config.py `preset_path`) <-
    its flags (`add_config_flags`, those given) <- `--set` (schemas.config.load_config,
    the one loader), validated (`validate()`); a `required` field left empty is one line naming its flag and key.
    `saved_in`, for a command that resumes: its output directory, given the config loaded so far (it may be a config
    field); with `--resume`, the config the stopped run saved there (`config_class.SAVED_AS`, `saved_config`) takes
    the place of the defaults, so the run goes on with its settings and the YAML, flags and --set given override
    them."""
    from paranmt.schemas.config import load_config, parse_assignments, preset_path

    overrides = {name: getattr(args, name) for name in args.config_keys}
    overrides.update(parse_assignments(args.set))
    path = args.config if config_file else None
    if path and presets is not None:
        path = preset_path(path, presets, what)
    config = load_config(config_class, path, overrides, what=what)
    if saved_in is not None and args.resume:
        saved = saved_config(config_class, Path(saved_in(config)) / config_class.SAVED_AS, what)
        if saved is not None:
            config = load_config(config_class, path, overrides, what=what, mapping=saved)
    missing = [name for name in required if getattr(config, name) in (None, "", [])]
    if missing:
        raise ConfigError("give " + ", ".join(f"--{name.replace('_', '-')}" for name in missing) + " (or "
                          + ", ".join(f"{name}:" for name in missing) + " in --config)")
    return config.validate()


def saved_config(config_class, file: Path, what: str) -> dict | None:
    """The settings a stopped run saved in `file` (JSON, `Config.to_dict()`), None when there is no such file. A
    file that is not a JSON object or holds keys or values that `config_class` does not take (a corrupt file, one
    of another version) is a ConfigError: --resume refuses to go on with settings other than the run's, and says
    how to (move the file away: the defaults and the flags given, as for a run that saved none)."""
    from paranmt.models.files import read_json
    from paranmt.schemas.config import load_config

    if not file.is_file():
        return None
    try:
        settings = read_json(file, dict)
        load_config(config_class, mapping=settings, what=what)
    except ConfigError as error:
        raise ConfigError(f"--resume: cannot continue with the {what} the stopped run saved in {file} ({error}); "
                          f"repair it, or move it away to resume with the defaults and the flags given") from None
    log.info("--resume: continuing with the settings the stopped run saved in %s (the YAML, flags and --set given "
             "override them)", file)
    return settings


def add_output_flags(parser, checkpoint: str, saved: str) -> None:
    """--resume and --overwrite of a trainer (pipelines/runtime/outputs.py `claim_model_directory`); `saved`: the
    file where a run saves its config (`load_command_config`'s `saved_in`)."""
    add_rerun_flags(parser, f"continue from {checkpoint} (refused when there is none) with the settings the stopped "
                    f"run saved in {saved}; the flags, --config and --set given override them",
                    "start again over the model, checkpoint and metrics an earlier run left in --output (without "
                    "--resume or --overwrite, an --output holding them is refused)")


def check_generator_section(section, name: str = "paraphrase") -> None:
    """The checks of a command's generator section `name` (a ParaphraseConfig): its own (`validate`, naming the
    keys `name.KEY`), and a ConfigError when the task, which the command sets itself (it chooses its models), was
    given."""
    section.validate(f"{name}.")
    if section.task != "scpn":
        raise ConfigError(f"{name}.task is the command's; choose the models with {name}.model")
