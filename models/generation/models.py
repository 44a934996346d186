"""Finding the generators a paraphrasing command needs: the paraphraser (task scpn or plain) and, for scpn, the
parse generator.

`--model DIR` names either one model directory (`paranmt train-paraphraser` output: its `paraphraser.json`) or a directory of model directories
(each subdirectory a model; `assets/` is such a directory: the shipped demo models). In a
directory of models the paraphraser is the one of the asked task (`scpn` by default, `plain` for the uncontrolled
one) and, if several have it, of the asked architecture. An scpn model's parse generator is `--parse-generator DIR`
when given, else the parse-generator model beside it (the same directory of models, or the scpn model's parent
directory) of the same architecture when there is one, else of any. Problems are ConfigErrors (one message each):
ModelSetError, or the error of a corrupt model (models/files.py).
An scpn model of arch scpn may be fused in decoding with a plain paraphraser on the same units (scpn.py, Fusion):
`fusion` = `auto` takes the plain model beside it (found as the parse generator is) when one of arch scpn has the
same units.model, else none; `none` turns fusion off; a directory must hold one plain model of arch scpn on the
same units (else ModelSetError: train one with `train-paraphraser --task plain --units-from SCPN_DIR`).
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
    fusion: ModelEntry | None = None


def checked(models: ModelSet) -> ModelSet:
    """`models`, after each model directory passed its MANIFEST.json check (models.files)."""
    model_directory(models.paraphraser.path, "paraphraser")
    if models.parse_generator:
        model_directory(models.parse_generator.path, "parse generator")
    if models.fusion:
        model_directory(models.fusion.path, "fusion model")
    return models


def same_units(one: Path, other: Path) -> bool:
    """Whether two sentence models have the same units.model, byte for byte."""
    files = [path / "units.model" for path in (one, other)]
    return all(file.is_file() for file in files) and files[0].read_bytes() == files[1].read_bytes()


def fusion_model(main: ModelEntry, beside: list[ModelEntry], fusion: str) -> ModelEntry | None:
    """The plain model SCPN's beam search is fused with (module docstring)."""
    if fusion == "none" or main.arch != "scpn":
        if fusion not in ("none", "auto"):
            raise ModelSetError(f"--fusion-model {fusion}: fusion is implemented for arch scpn only, and "
                                f"{main.path} is arch {main.arch}")
        return None
    if fusion == "auto":
        return next((e for e in beside if e.task == "plain" and e.arch == "scpn" and same_units(e.path, main.path)),
                    None)
    plain = [e for e in models_in(Path(fusion)) if e.task == "plain" and e.arch == "scpn"]
    if len(plain) != 1:
        raise ModelSetError(f"--fusion-model {fusion} holds {len(plain)} plain paraphrasers of arch scpn; name one")
    if not same_units(plain[0].path, main.path):
        raise ModelSetError(f"--fusion-model {plain[0].path} does not have the units of the scpn model {main.path} "
                            f"(train one with train-paraphraser --task plain --units-from {main.path}), or give "
                            "--fusion-model none")
    return plain[0]


def find_models(model: str, task: str = "scpn", arch: str | None = None,
                parse_generator: str | None = None, fusion: str = "none") -> ModelSet:
    """The paraphraser of `task` (and `arch`) at `model`, with its parse generator and fusion model (see the
    module docstring), each checked against its MANIFEST.json (a changed file: models.files.ModelFileError)."""
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
    beside = found if len(found) > 1 else models_in(main.path.parent)
    fused = fusion_model(main, beside, fusion)
    if parse_generator:
        generators = [e for e in models_in(Path(parse_generator)) if e.task == "parse-generator"]
        if len(generators) != 1:
            raise ModelSetError(f"--parse-generator {parse_generator} holds {len(generators)} parse-generator "
                                "models; name one")
        return checked(ModelSet(main, generators[0], fused))
    generators = [e for e in beside if e.task == "parse-generator"]
    generators = [e for e in generators if e.arch == main.arch] or generators
    if not generators:
        raise ModelSetError(f"the scpn model {main.path} needs a parse generator: none beside it; give "
                            "--parse-generator DIR")
    return checked(ModelSet(main, generators[0], fused))
