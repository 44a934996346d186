"""The typed configs of every command: the `Config` base (to_dict, hash, differences), fields with a range
(`bounded`, checked by `check_ranges`) or choices (`check_choice`; the device settings' choices every config shares),
and the project's one config loader, `load_config`: defaults <- YAML <- flags and --set values (`parse_assignments`,
the one --set parser), every value typed by its field's annotation (`typed_value`).
"""
from __future__ import annotations

import dataclasses
import difflib
import hashlib
import json
import logging
import math
import types
import typing
from dataclasses import field
from pathlib import Path
from typing import Any, ClassVar

import yaml

from paranmt.schemas.errors import ConfigError

log = logging.getLogger(__name__)


def bounded(default, low: float | None = None, high: float | None = None, **kwargs) -> Any:
    """A dataclass field with `default` whose value must lie in [low, high] (None: open); checked, naming the key,
    by `check_ranges` (every config's validate())."""
    return field(default=default, metadata={"range": (low, high)}, **kwargs)


# Upper bounds of the sizes a model config takes (`bounded(..., high=...)`), far above any model of the papers, so that
# a size no machine holds (`--set dim=1e12`) is one line naming the key, not a failed allocation
MAX_WIDTH = 1 << 16             # an embedding dimension, a hidden or feed-forward size, a number of heads
MAX_LAYERS = 256                # layers of a network
MAX_VOCABULARY = 10_000_000     # rows of a vocabulary (words, trigrams, sentencepiece pieces)
TRAINING_COPIES = 3             # float32 copies of the weights a training holds: the weights, Adam's two moments


def check_fits(parameters: int, sizes: str, copies: int = TRAINING_COPIES) -> None:
    """ConfigError when a model of about `parameters` float32 numbers, held `copies` times while it trains, needs
    more memory than this machine has (`sizes`: the settings that make it that large, named in the line), before
    any of it is allocated."""
    import psutil

    needed, total = 4 * parameters * copies, psutil.virtual_memory().total
    if needed > total:
        raise ConfigError(f"{sizes} make a model of about {parameters:,} parameters; training it needs about "
                          f"{needed / 1e9:,.1f} GB of memory (the float32 weights {copies} times: the weights and "
                          f"the optimizer's moments), more than this machine's {total / 1e9:,.1f} GB: lower them")


class Config:
    """Base of every typed config (build, filter, train, NMT recipe, parser recipe): `to_dict()` and `hash()`
    exist here once. `RUN_FIELDS`: where a run reads and writes, left out of the hash (the same settings on other
    data hash alike); `RENAMED`: deprecated dotted key -> its new key (load_config still reads the old one);
    `SAVED_AS`: the JSON file in its output directory where a run of a resumable command saves this config as it
    ran (`to_dict()`), which `--resume` continues with (pipelines/runtime/arguments.load_command_config)."""
    RUN_FIELDS: ClassVar[tuple[str, ...]] = ()
    RENAMED: ClassVar[dict[str, str]] = {}
    SAVED_AS: ClassVar[str | None] = None

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    def hash(self) -> str:
        """sha256 of the resolved config minus the RUN_FIELDS (sorted-key JSON), 16 hex digits."""
        data = {k: v for k, v in self.to_dict().items() if k not in self.RUN_FIELDS}
        return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]

    def differences(self, written: dict) -> list[str]:
        """`key: old -> new` for each dotted key outside RUN_FIELDS whose value differs between the settings an
        earlier run wrote (`written`, e.g. its config.yaml: keys since renamed (RENAMED) moved to their new names
        and values typed, so an output written before a key moved still compares; as written when it no longer
        loads; its `config_hash` ignored) and this config."""
        settings = {k: v for k, v in written.items() if k != "config_hash"}
        try:
            settings = load_config(type(self), mapping=settings).to_dict()
        except ConfigError:
            pass
        old, new = ({k: v for k, v in _flat(data).items() if k.split(".")[0] not in self.RUN_FIELDS}
                    for data in (settings, self.to_dict()))
        return [f"{key}: {old.get(key)!r} -> {new.get(key)!r}" for key in sorted(set(old) | set(new))
                if old.get(key) != new.get(key)]


def _flat(data, prefix: str = "") -> dict:
    """A nested mapping as {dotted key: leaf value}."""
    if not isinstance(data, dict):
        return {prefix.rstrip("."): data}
    return {k: v for key, value in data.items() for k, v in _flat(value, f"{prefix}{key}.").items()}


def check_choice(key: str, value, choices) -> None:
    """ConfigError naming `key` when `value` is not one of `choices` (with the near matches)."""
    if value not in choices:
        raise ConfigError(f"{key} must be one of {', '.join(map(str, choices))}, not {value!r}"
                          + near_matches(str(value), map(str, choices)))


# The choices of the device settings, for every config and flag that has them (resolved by models/device.py).
DEVICES = ("auto", "cpu", "cuda")                 # device: auto = CUDA when torch sees it, else CPU
FP16_CHOICES = ("auto", "on", "off")              # fp16 training: auto = on CUDA (models/device.half_precision)
WEIGHTS_DTYPES = ("float32", "float16")           # weights_dtype: of a trained model's saved weights
CT2_WEIGHT_TYPES = ("int8", "int8_float16", "int8_float32", "int8_bfloat16", "int16", "float16", "bfloat16",
                    "float32")                    # CTranslate2's types: convert-nmt --quantization, compute types
CT2_COMPUTE_TYPES = ("auto", "default") + CT2_WEIGHT_TYPES   # auto: paranmt.models.device.ct2_compute_type


class CommandLineValue(str):
    """The text of a `--set KEY=VALUE` value. The loader types it by the field it sets: a text field takes it as
    written (`--set source_lang=no` stays "no"; `null` or `~` gives None where None is allowed), any other
    field its YAML value (`100`, `0.5`, `true`, `[a, b]`), converted and checked like a YAML file's value."""


def parse_assignments(items: list[str] | None, flag: str = "--set") -> dict[str, CommandLineValue]:
    """`KEY=VALUE` strings (repeated `--set` flags) -> {dotted key: CommandLineValue}; later ones win. The
    project's only parser of --set."""
    assignments = {}
    for item in items or []:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ConfigError(f"{flag} expects KEY=VALUE with a dotted key, e.g. {flag} clean.max_tokens=100; "
                              f"got {item!r}")
        assignments[key.strip()] = CommandLineValue(value.strip())
    return assignments


def near_matches(name: str, known, prefix: str = "") -> str:
    """` (did you mean 'x'?)` for the (at most two) known names closest to a mistyped `name`, each written with
    `prefix` (e.g. the section: `clean.`), else ''."""
    close = difflib.get_close_matches(name, list(known), n=2, cutoff=0.6)
    return f" (did you mean {' or '.join(repr(prefix + c) for c in close)}?)" if close else ""


def _type_name(kind) -> str:
    names = {bool: "true or false", int: "an integer", float: "a number", str: "text"}
    if typing.get_origin(kind) in (types.UnionType, typing.Union):
        return " or ".join(_type_name(k) if k is not type(None) else "null" for k in typing.get_args(kind))
    origin = typing.get_origin(kind) or kind
    return names.get(kind) or {list: "a list", dict: "a mapping"}.get(origin, getattr(kind, "__name__", str(kind)))


def typed_value(value, kind, key: str):
    """`value` (from YAML, a flag or --set) as the annotated type `kind` of config key `key`, or ConfigError naming
    the key. Integers accept integral numbers (`2e4` -> 20000); numbers accept integers and numeric text (YAML
    reads `1e-3` as text); text accepts numbers (not true/false: quote them); a list of text accepts
    `a,b` (comma-separated); None only where the annotation allows it."""
    optional = typing.get_origin(kind) in (types.UnionType, typing.Union)
    members = [k for k in typing.get_args(kind) if k is not type(None)] if optional else [kind]
    if isinstance(value, CommandLineValue):
        if str in members and value not in ("null", "~"):
            return str(value)
        try:
            value = yaml.safe_load(value) if value else None
        except yaml.YAMLError:
            value = str(value)
    if value is None:
        if optional or kind is typing.Any:
            return None
        raise ConfigError(f"{key} must be {_type_name(kind)}, not null")
    if len(members) != 1:
        return value
    target, origin = members[0], typing.get_origin(members[0]) or members[0]

    def wrong() -> ConfigError:
        return ConfigError(f"{key} must be {_type_name(kind)}, not {value!r}"
                           + (" (quote it to mean the text)" if target is str and isinstance(value, bool) else ""))

    if target is bool:
        if isinstance(value, bool):
            return value
        raise wrong()
    if target in (int, float):
        number = value
        if isinstance(value, str):
            try:
                number = float(value.strip().replace("_", ""))
            except ValueError:
                raise wrong() from None
        if isinstance(number, bool) or not isinstance(number, (int, float)) or math.isnan(number):
            raise wrong()
        if target is float:
            return float(number)
        if isinstance(number, float) and not number.is_integer():
            raise wrong()
        return int(number)
    if target is str:
        if isinstance(value, str):
            return value
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return str(value)
        raise wrong()
    if origin is list:
        if isinstance(value, str) and typing.get_args(target) in ((str,), ()):
            value = [part.strip() for part in value.split(",") if part.strip()]
        if not isinstance(value, list):
            raise wrong()
        (item,) = typing.get_args(target) or (typing.Any,)
        return [typed_value(v, item, f"{key}[{i}]") for i, v in enumerate(value)]
    if origin is dict:
        if not isinstance(value, dict):
            raise wrong()
        key_type, item = typing.get_args(target) or (typing.Any, typing.Any)
        return {typed_value(k, key_type, key): typed_value(v, item, f"{key}.{k}") for k, v in value.items()}
    return value


def _field_types(target) -> dict:
    """Field name -> resolved annotation of the dataclass `target`'s fields."""
    hints = typing.get_type_hints(type(target))
    return {spec.name: hints[spec.name] for spec in dataclasses.fields(target)}


def _merge(target, data: dict, where: str, what: str) -> None:
    """Set `data`'s keys on the dataclass `target` (nested sections recursively), each value typed and checked by
    the field's annotation (`typed_value`); unknown keys are ConfigErrors naming the near matches."""
    kinds = _field_types(target)
    for key, value in data.items():
        if key not in kinds:
            raise ConfigError(f"unknown {what} key {where + str(key)!r}{near_matches(str(key), kinds, where)}; "
                              f"{where.rstrip('.') + ' keys' if where else 'top-level keys'}: "
                              f"{', '.join(sorted(kinds))}")
        current = getattr(target, key)
        if dataclasses.is_dataclass(current):
            if isinstance(value, CommandLineValue):
                value = typed_value(value, dict, where + key)
            if not isinstance(value, dict):
                raise ConfigError(f"{what} key {where + key!r} is a section: it must be a mapping of its keys")
            _merge(current, value, f"{where}{key}.", what)
        else:
            setattr(target, key, typed_value(value, kinds[key], where + key))


def check_ranges(config, where: str = "") -> None:
    """ConfigError naming the key for every field of the dataclass `config` (and of its sections) whose value lies
    outside the range its field declares (`bounded`), or is a number that is not finite (inf, nan: no setting
    takes one; a learning rate of inf trains a model of NaNs)."""
    for spec in dataclasses.fields(config):
        value = getattr(config, spec.name)
        if dataclasses.is_dataclass(value):
            check_ranges(value, f"{where}{spec.name}.")
            continue
        low, high = spec.metadata.get("range", (None, None))
        if value is None or isinstance(value, bool) or not isinstance(value, (int, float)):
            continue
        if not math.isfinite(value):
            raise ConfigError(f"{where}{spec.name} must be a finite number, not {value!r}")
        if (low is not None and value < low) or (high is not None and value > high):
            bounds = (f"between {low} and {high}" if low is not None and high is not None
                      else f">= {low}" if low is not None else f"<= {high}")
            raise ConfigError(f"{where}{spec.name} must be {bounds}, not {value!r}")


def read_yaml_mapping(path: str, what: str = "config") -> dict:
    """A YAML file's top-level mapping, loaded with yaml.safe_load; ConfigError for anything else."""
    try:
        data = yaml.safe_load(Path(path).read_text(encoding="utf-8")) or {}
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as error:
        raise ConfigError(f"cannot read {what} {path}: {' '.join(str(error).split())}") from None
    if not isinstance(data, dict):
        raise ConfigError(f"{what} {path} must be a YAML mapping")
    return data


def renamed_keys(data: dict, renamed: dict[str, str], note=None) -> dict:
    """`data` (a nested mapping) with each deprecated dotted key of `renamed` moved to its new key (the new key
    wins when both are given); `note(old, new)` is called for each one found."""
    data = {k: dict(v) if isinstance(v, dict) else v for k, v in data.items()}
    for old, new in renamed.items():
        *old_parents, old_leaf = old.split(".")
        node = data
        for parent in old_parents:
            node = node.get(parent) if isinstance(node, dict) else None
        if not isinstance(node, dict) or old_leaf not in node:
            continue
        value = node.pop(old_leaf)
        if note:
            note(old, new)
        *new_parents, new_leaf = new.split(".")
        target = data
        for parent in new_parents:
            target = target.setdefault(parent, {})
        target.setdefault(new_leaf, value)
    return data


def load_config(cls, path: str | None = None, overrides: dict | None = None, what: str = "config",
                mapping: dict | None = None):
    """`cls()` defaults <- `mapping` (e.g. a config an earlier run wrote) <- YAML file <- overrides, every value
    typed and checked by its field's annotation (ranges and cross-field rules are `config.validate()`'s, the
    caller's). Overrides are flags and --set values: None values are ignored and dotted keys (`translate.beam`,
    `train.lr`) reach nested dataclasses and dict fields. Unknown keys and sections are errors naming the near
    matches; keys a config class renamed (`cls.RENAMED`) still work, with a deprecation note for the user's
    YAML and flags. The project's only YAML config loader."""
    config = cls()
    renamed = getattr(cls, "RENAMED", {})

    def note(old: str, new: str) -> None:
        log.warning("%s key %s is deprecated: it is now %s (the old key still works)", what, old, new)

    if mapping:
        _merge(config, renamed_keys(mapping, renamed), "", what)
    if path:
        _merge(config, renamed_keys(read_yaml_mapping(path, what), renamed, note), "", what)
    for key, value in (overrides or {}).items():
        if value is None:
            continue
        if key in renamed:
            note(key, renamed[key])
            key = renamed[key]
        *parents, leaf = key.split(".")
        node = config
        for depth, parent in enumerate(parents):
            if isinstance(node, dict):
                node = node.setdefault(parent, {})
                continue
            kinds = _field_types(node)
            if parent not in kinds or not dataclasses.is_dataclass(getattr(node, parent)) and not isinstance(
                    getattr(node, parent), dict):
                where = ".".join(parents[:depth + 1])
                sections = [name for name in kinds if dataclasses.is_dataclass(getattr(node, name))
                            or isinstance(getattr(node, name), dict)]
                raise ConfigError(f"unknown {what} section {where!r} in {key!r}{near_matches(parent, sections)}; "
                                  f"sections: {', '.join(sorted(sections)) or 'none'}")
            node = getattr(node, parent)
        if isinstance(node, dict):
            node[leaf] = yaml.safe_load(value) if isinstance(value, CommandLineValue) and value else value
        else:
            _merge(node, {leaf: value}, ".".join(parents) + "." if parents else "", what)
    return config
