"""The argument groups that several commands add to their parsers (each command's own flags stay in its module), and
the flags generated from a typed config's fields (`add_config_flags`)."""
from __future__ import annotations

import argparse
import dataclasses


def add_evaluation_arguments(parser, data_dir_help: str, output_help: str) -> None:
    """`--model`, `--data-dir`, `--output`, `--threads`: the arguments every evaluation command over a folder laid
    out like ../shared/data shares (eval-words, eval-transfer, finetune-sts)."""
    parser.add_argument("--model", required=True, help="encoder directory")
    parser.add_argument("--data-dir", required=True, help=f"folder laid out like ../shared/data ({data_dir_help})")
    parser.add_argument("--output", required=True, help=output_help)
    parser.add_argument("--threads", type=int, default=1, help="torch CPU threads")


def parse_bool(text: str) -> bool:
    """`true`/`false` (also yes/no, 1/0) -> bool, for boolean flags."""
    value = {"true": True, "yes": True, "1": True, "false": False, "no": False, "0": False}.get(text.lower())
    if value is None:
        raise argparse.ArgumentTypeError(f"expected true or false, got {text!r}")
    return value


def add_config_flags(parser, config_class, flag_help: dict, choices: dict) -> None:
    """One flag `--field-name` per field of the dataclass `config_class` named in `flag_help` (help text with the
    field's default appended; type from the annotation's first type, bool as true/false, lists as several values;
    `choices` per field); every flag defaults to None, so an absent flag keeps the YAML / default value
    (schemas.config.load_config): a command's flags generated from its config's fields."""
    defaults = dataclasses.asdict(config_class())
    for spec in dataclasses.fields(config_class):
        if spec.name not in flag_help:
            continue
        default = defaults[spec.name]
        # the annotation's first type; annotations are strings here, e.g. "int | None", "list[int]"
        annotation = str(spec.type).split(" |")[0]
        kind = {"int": int, "float": float, "bool": parse_bool, "list[int]": int}.get(annotation, str)
        parser.add_argument("--" + spec.name.replace("_", "-"), dest=spec.name, type=kind,
                            choices=choices.get(spec.name), default=None,
                            nargs="+" if annotation.startswith("list") else None,
                            help=flag_help[spec.name] + ("" if default in (None, "", []) else f" (default {default})"))


def add_output_flags(parser, checkpoint: str) -> None:
    """--resume and --overwrite of a trainer (pipelines/runtime/outputs.py `claim_model_directory`)."""
    parser.add_argument("--resume", action="store_true",
                        help=f"continue from {checkpoint} (refused when there is none)")
    parser.add_argument("--overwrite", action="store_true",
                        help="start again over the model, checkpoint and metrics an earlier run left in --output "
                             "(without --resume or --overwrite, an --output holding them is refused)")
