"""A trained paraphraser on disk and in memory: `load_generator(path)` -> `Paraphraser`.

Model directory (both architectures):
    paraphraser.json   {"task": scpn|parse-generator|plain, "arch": scpn|transformers, "format": 1,
                        "model": {architecture settings}, "training": {data counts, steps, ...}}
    templates.json     the 20 most frequent templates of the training corpus, [{"template", "count"}], most
                       frequent first (`Paraphraser.templates`: the default templates of `paranmt paraphrase`)
    arch scpn:         model.safetensors (weights), units.model (sentencepiece) or parse_units.json, and for the
                       conditioned tasks condition_units.json
    arch transformers: the Hugging Face `save_pretrained` files of the model and its tokenizer (config.json,
                       model.safetensors, tokenizer files), so the directory also loads in transformers as it is.

`Paraphraser.generate(sources, conditions, beam=4, n_best=1, no_repeat_ngram=0, fusion=None)`:
    scpn:            source = sentence, condition = linearized target parse `(S(NP(PRP))(VP(VBD)(NP(NN)))(.))`
    parse-generator: source = linearized full parse p1, condition = template t2 `(S(NP)(VP)(.))`; output = p2
                     (made well-formed: `units.balance_parse`)
    plain:           condition None
returns, per input, n_best (text, score) best first, score = length-normalized log-probability (the mean
log-probability per output unit, end-of-sequence included). Inputs are decoded in batches sorted by length; the
result is in input order and, on CPU, deterministic.
`fusion` = (a plain paraphraser of arch scpn on the same units, weight w): shallow fusion in beam search, score =
(log P + w log P_plain) per unit / (1 + w) (scpn.py); the scpn architecture only.
Decoding guards: `no_repeat_ngram` = n > 0 forbids beam search to produce any n-gram of output units (sentencepiece
pieces; the model's tokens for transformers) twice in one hypothesis (fairseq's / transformers'
no_repeat_ngram_size); 0 = off. Sentence outputs (not the parse generator's) then go through
`restore_source_words`: a word whose non-ASCII letters the vocabulary lacked or the model dropped or stripped of
their diacritics (`Novotn`, `Novotna` for the source's `Novotná`) is given back its source form.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

from paranmt.models.files import ModelFileError, model_directory, read_json, reading
from paranmt.models.generation import ARCHS
from paranmt.models.generation.units import base_letters

DESCRIPTOR = "paraphraser.json"
TEMPLATES_FILE = "templates.json"
FORMAT_VERSION = 1
WORD = re.compile(r"[^\W_]+")          # a run of letters and digits


def is_mangled(word: str, source_word: str) -> bool:
    """Whether `word` is `source_word` with some of its non-ASCII letters dropped or replaced by their base letters
    (`units.base_letters`: á -> a) and nothing else changed, fewer letters changed than left as they are."""
    states = {(0, 0)}                           # (characters of `word` matched, letters changed)
    for char in source_word:
        changeable = not char.isascii() and char.isalpha()
        base = base_letters(char) if changeable else ""
        following = set()
        for matched, changed in states:
            if word.startswith(char, matched):
                following.add((matched + 1, changed))
            if changeable:
                following.add((matched, changed + 1))
                if base and word.startswith(base, matched):
                    following.add((matched + len(base), changed + 1))
        states = following
    return any(matched == len(word) and 0 < 2 * changed < len(source_word) for matched, changed in states)


def restore_source_words(source: str, output: str) -> str:
    """`output` with each word (run of letters and digits) that is not a word of `source` but is the mangled form
    (`is_mangled`) of exactly one source word replaced by that source word: `Novotn` or `Novotna` -> `Novotná`,
    `Zrich` -> `Zürich`. Words under 2 characters are left alone (`d` is not `Łódź`)."""
    words = set(WORD.findall(source))
    candidates = [w for w in words if not w.isascii()]
    if not candidates:
        return output

    def restore(match: re.Match) -> str:
        word = match.group(0)
        if word in words or len(word) < 2:
            return word
        found = {w for w in candidates if is_mangled(word, w)}
        return found.pop() if len(found) == 1 else word

    return WORD.sub(restore, output)


class ParaphraserModelError(ModelFileError):
    """A directory that is not a usable paraphraser (missing files, unknown task or architecture)."""


class Paraphraser:
    """Interface shared by the architectures (module docstring). Subclasses implement `_generate_batch`,
    `loss`, `save_weights`, `module` (the torch module) and the class method `load`."""

    arch = ""

    def __init__(self, task: str, templates: list[tuple[str, int]], settings: dict, device: str = "cpu"):
        self.task = task
        self.template_counts = list(templates)
        self.settings = dict(settings)
        self.device = device

    @property
    def templates(self) -> list[str]:
        return [template for template, _ in self.template_counts]

    # -- generation ------------------------------------------------------------------------------------------
    def generate(self, sources: list[str], conditions: list[str | None] | None = None, beam: int = 4,
                 n_best: int = 1, batch_size: int = 32, no_repeat_ngram: int = 0,
                 fusion: tuple["Paraphraser", float] | None = None) -> list[list[tuple[str, float]]]:
        import torch

        conditions = [None] * len(sources) if conditions is None else list(conditions)
        if len(conditions) != len(sources):
            raise ValueError(f"{len(sources)} sources but {len(conditions)} conditions")
        if self.task != "plain" and any(not c for c in conditions):
            raise ValueError(f"a {self.task} model needs a condition for every source")
        if n_best < 1 or beam < 1 or no_repeat_ngram < 0:
            raise ValueError("beam and n_best must be >= 1, no_repeat_ngram >= 0")
        order = sorted(range(len(sources)), key=lambda i: (len(sources[i]), i))
        results: list = [None] * len(sources)
        self.module.eval()
        with torch.no_grad():
            for start in range(0, len(order), batch_size):
                batch = order[start:start + batch_size]
                outputs = self._generate_batch([sources[i] for i in batch],
                                               [conditions[i] if self.task != "plain" else None for i in batch],
                                               beam, n_best, no_repeat_ngram,
                                               fusion if fusion and fusion[1] > 0 else None)
                for i, output in zip(batch, outputs):
                    results[i] = output if self.task == "parse-generator" else \
                        [(restore_source_words(sources[i], text), score) for text, score in output]
        return results

    def _generate_batch(self, sources, conditions, beam, n_best, no_repeat_ngram,
                        fusion) -> list[list[tuple[str, float]]]:
        raise NotImplementedError

    # -- training and saving ---------------------------------------------------------------------------------
    @property
    def module(self):
        raise NotImplementedError

    def loss(self, instances):
        raise NotImplementedError

    def save_weights(self, directory: Path, dtype: str = "float32") -> None:
        raise NotImplementedError

    def save(self, directory: str | Path, training: dict | None = None, dtype: str = "float32") -> Path:
        directory = Path(directory)
        directory.mkdir(parents=True, exist_ok=True)
        self.save_weights(directory, dtype)
        (directory / TEMPLATES_FILE).write_text(json.dumps(
            [{"template": t, "count": n} for t, n in self.template_counts], indent=1) + "\n")
        (directory / DESCRIPTOR).write_text(json.dumps(
            {"task": self.task, "arch": self.arch, "format": FORMAT_VERSION, "model": self.settings,
             "training": training or {}}, indent=2) + "\n")
        return directory

    def to(self, device: str) -> "Paraphraser":
        self.module.to(device)
        self.device = device
        return self


def read_descriptor(path: str | Path) -> dict:
    """The paraphraser.json of the model directory `path`; ParaphraserModelError when there is none, or when it
    is corrupt (the file and the JSON error named) or names an unknown task or architecture."""
    directory = Path(path)
    if not (directory / DESCRIPTOR).is_file():
        raise ParaphraserModelError(f"{path} is not a paraphraser directory (no {DESCRIPTOR})")
    descriptor = read_json(directory / DESCRIPTOR, dict, "paraphraser descriptor")
    from paranmt.models.generation.data import TASKS

    if descriptor.get("task") not in TASKS or descriptor.get("arch") not in ARCHS:
        raise ParaphraserModelError(f"{directory / DESCRIPTOR}: unknown task {descriptor.get('task')!r} or "
                                    f"architecture {descriptor.get('arch')!r}")
    return descriptor


def read_templates(path: str | Path) -> list[tuple[str, int]]:
    """The (template, count) list of the model's templates.json (empty when it has none)."""
    file = Path(path) / TEMPLATES_FILE
    if not file.is_file():
        return []
    with reading(file, "template list"):
        return [(str(entry["template"]), int(entry["count"])) for entry in read_json(file, list, "template list")]


def load_generator(path: str | Path, device: str = "auto", threads: int = 0) -> Paraphraser:
    """The paraphraser in `path`, on the device the project's device choice gives (models/device.py:
    `auto` = CUDA when available, else CPU with `threads` torch threads, 0 = torch's default)."""
    from paranmt.models.device import select_device

    descriptor = read_descriptor(model_directory(path, "paraphraser", ParaphraserModelError))
    chosen = select_device(device, threads)
    if chosen.kind == "cpu" and chosen.threads:
        import torch

        torch.set_num_threads(chosen.threads)
    if descriptor["arch"] == "scpn":
        from paranmt.models.generation.scpn import SCPNParaphraser as cls
    else:
        from paranmt.models.generation.hf import HFParaphraser as cls
    return cls.load(Path(path), descriptor, read_templates(path)).to(chosen.kind)
