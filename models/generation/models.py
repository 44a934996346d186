"""Finding the generators a paraphrasing command needs: the paraphraser (task scpn or plain) and, for scpn, the
parse generator.

`--model DIR` names either one model directory (`paranmt train-paraphraser` output: its `paraphraser.json`) or a directory of model directories
(each subdirectory a model; `assets/` is such a directory: the shipped demo models). In a
directory of models the paraphraser is the one of the asked task (`scpn` by default, `plain` for the uncontrolled
one) and, if several have it, of the asked architecture. An scpn model's parse generator is `--parse-generator DIR`
when given, else the parse-generator model beside it (the same directory of models, or the scpn model's parent
directory) of the same architecture when there is one, else of any. Problems are ConfigErrors (one message each):
ModelSetError, or the error of a corrupt model (models/files.py).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from paranmt.models.files import model_directory
from paranmt.models.generation.paraphraser import DESCRIPTOR, read_descriptor
from paranmt.schemas.errors import ConfigError

TASKS = ("scpn", "plain")


class ModelSetError(ConfigError):
    """No usable paraphraser (or parse generator) where the user pointed."""


@dataclass(frozen=True)
class ModelEntry:
    path: Path
    task: str
    arch: str


def model_entry(path: Path) -> ModelEntry | None:
    """The task and architecture of the model directory `path` (None when it has no paraphraser.json; a corrupt
    or unknown one is a ParaphraserModelError naming it)."""
    if not (path / DESCRIPTOR).is_file():
        return None
    descriptor = read_descriptor(path)
    return ModelEntry(path, descriptor["task"], descriptor["arch"])


def models_in(path: Path) -> list[ModelEntry]:
    """The model at `path`, or the models in its subdirectories (sorted by name)."""
    own = model_entry(model_directory(path))
    if own:
        return [own]
    return [entry for entry in (model_entry(child) for child in sorted(path.iterdir()) if child.is_dir()) if entry]


@dataclass(frozen=True)
class ModelSet:
    paraphraser: ModelEntry
    parse_generator: ModelEntry | None


def checked(models: ModelSet) -> ModelSet:
    """`models`, after each model directory passed its MANIFEST.json check (models.files)."""
    model_directory(models.paraphraser.path, "paraphraser")
    if models.parse_generator:
        model_directory(models.parse_generator.path, "parse generator")
    return models


def find_models(model: str, task: str = "scpn", arch: str | None = None,
                parse_generator: str | None = None) -> ModelSet:
    """The paraphraser of `task` (and `arch`) at `model`, with its parse generator (see the module docstring),
    each checked against its MANIFEST.json (a changed file: models.files.ModelFileError)."""
    if task not in TASKS:
        raise ModelSetError(f"task must be one of {', '.join(TASKS)}, not {task!r}")
    found = models_in(Path(model))
    chosen = [e for e in found if e.task == task and (arch is None or e.arch == arch)]
    if not chosen:
        have = ", ".join(f"{e.path.name} ({e.task}, {e.arch})" for e in found) or "no paraphraser model"
        raise ModelSetError(f"no {task} paraphraser{f' of arch {arch}' if arch else ''} in {model} (found: {have})")
    if len(chosen) > 1:
        raise ModelSetError(f"several {task} paraphrasers in {model} ({', '.join(e.path.name for e in chosen)}); "
                            "choose one with --arch or name its directory")
    main = chosen[0]
    if task != "scpn":
        return checked(ModelSet(main, None))
    if parse_generator:
        generators = [e for e in models_in(Path(parse_generator)) if e.task == "parse-generator"]
        if len(generators) != 1:
            raise ModelSetError(f"--parse-generator {parse_generator} holds {len(generators)} parse-generator "
                                "models; name one")
        return checked(ModelSet(main, generators[0]))
    beside = found if len(found) > 1 else models_in(main.path.parent)
    generators = [e for e in beside if e.task == "parse-generator"]
    generators = [e for e in generators if e.arch == main.arch] or generators
    if not generators:
        raise ModelSetError(f"the scpn model {main.path} needs a parse generator: none beside it; give "
                            "--parse-generator DIR")
    return checked(ModelSet(main, generators[0]))
