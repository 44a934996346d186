"""The `Parser` interface of the parse stage and its stanza implementation.

A parser takes PTB-tokenized sentences (`tokenize.ptb_tokenize`) and returns one constituency `trees.Tree` per
sentence (top node ROOT), or None for a sentence it could not parse; it never raises for one bad sentence.

`StanzaParser(model_dir)` runs stanza's processors `tokenize` (pretokenized: no model), `pos` and `constituency`.
Two model-directory layouts are accepted:
* the project's layout (`assets/parser-en/`, made by `paranmt train-parser`): a `parser.json` naming the files,
  `{"pos_model": "pos.pt", "constituency_model": "constituency.pt", "pretrain": "pretrain.pt", "lang": "en"}`
  (paths relative to the directory); stanza is told to download nothing;
* stanza's own resources directory, as made by `stanza.download('en', model_dir=D,
  processors='tokenize,pos,constituency')` (a `resources.json` and `en/...`), for stanza's official English
  models; also loaded with downloads switched off.
"""
from __future__ import annotations

import logging

from paranmt.models.device import select_device
from paranmt.models.files import ModelFileError, model_directory, read_json, reading
from paranmt.models.parsing.trees import Tree, TreeFormatError, parse_one
from paranmt.models.safe_load import load_weights_only, refusing
from paranmt.models.stage import split_retry

logger = logging.getLogger(__name__)

DESCRIPTOR = "parser.json"


class ParserModelError(ModelFileError):
    """A model directory that cannot be used (missing or incomplete)."""


class Parser:
    """Interface: `parse(sentences)` -> one Tree (or None when that sentence failed) per tokenized sentence."""

    def parse(self, sentences: list[list[str]]) -> list[Tree | None]:
        raise NotImplementedError


def model_files(model_dir: str) -> dict:
    """The stanza Pipeline keyword arguments that select the models in `model_dir` (see the module docstring);
    ParserModelError when the directory is missing or fails its MANIFEST.json check, or a named file is missing; a
    corrupt parser.json is a ModelFileError naming it (models/files.py)."""
    directory = model_directory(model_dir, "parser model", ParserModelError)
    descriptor = directory / DESCRIPTOR
    if descriptor.exists():
        names = read_json(descriptor, dict, "parser descriptor")
        with reading(descriptor, "parser descriptor"):
            paths = {key: directory / str(names[key]) for key in ("pos_model", "constituency_model", "pretrain")}
        missing = [str(path) for path in paths.values() if not path.exists()]
        if missing:
            raise ParserModelError(f"parser model files missing: {', '.join(missing)}")
        return {"lang": names.get("lang", "en"), "dir": str(directory), "allow_unknown_language": True,
                "pos_model_path": str(paths["pos_model"]), "pos_pretrain_path": str(paths["pretrain"]),
                "constituency_model_path": str(paths["constituency_model"]),
                "constituency_pretrain_path": str(paths["pretrain"])}
    if (directory / "resources.json").exists():
        return {"lang": "en", "dir": str(directory)}
    raise ParserModelError(f"{model_dir} has neither {DESCRIPTOR} (a project parser) nor resources.json "
                           "(a stanza resources directory)")


def loadable_model_files(model_dir: str) -> dict:
    """`model_files(model_dir)`, after loading each torch file of the parser weights-only (stanza loads them
    weights-only too; loaded here first to name a bad file: a ModelFileError or a refused pickle's one line). The
    parser files are small (~10 MB): `paranmt build` runs this before any work, so a model directory without a
    MANIFEST.json whose weights are corrupt is found there, not by a worker."""
    files = model_files(model_dir)
    for key in ("pos_model_path", "pos_pretrain_path", "constituency_model_path"):
        if key in files:
            with reading(files[key], "torch model file"):
                load_weights_only(files[key])
    return files


class StanzaParser(Parser):
    """stanza tokenize(pretokenized) + pos + constituency, models loaded once at construction.

    `device`: `auto` | `cpu` | `cuda`, resolved by the project's one device choice (`models/device.py`:
    `auto` takes CUDA when torch sees it; `cuda` without CUDA is a ParserModelError, never a silent CPU run).
    Every model file is read weights-only (stanza's own loads are; a refused file is paranmt.models.safe_load's
    one line).
    `threads`: torch intra-op threads on CPU, set for the whole process (0 = leave torch's default, one per core);
    unused on CUDA. On CUDA stanza runs in fp32 (its pipeline has no half-precision switch; `Device.fp16` is not
    used here). `batch_size`: the number of sentences stanza's pos and constituency processors run at once.
    """

    def __init__(self, model_dir: str, device: str = "auto", batch_size: int = 64, threads: int = 0):
        import stanza
        import torch

        self.model_dir = model_dir
        files = loadable_model_files(model_dir)
        try:
            chosen = select_device(device, threads)
        except ValueError as error:
            raise ParserModelError(str(error)) from None
        if chosen.kind == "cpu" and chosen.threads:
            torch.set_num_threads(chosen.threads)
        self.device = chosen
        with reading(model_dir, "stanza parser model"), refusing(model_dir):
            self.pipeline = stanza.Pipeline(
                processors="tokenize,pos,constituency", tokenize_pretokenized=True, download_method=None,
                device=chosen.kind, pos_batch_size=batch_size,
                constituency_batch_size=batch_size, logging_level="ERROR", **files)

    def _parse_all(self, sentences: list[list[str]]) -> list[Tree]:
        document = self.pipeline(sentences)
        if len(document.sentences) != len(sentences):
            raise RuntimeError(f"stanza returned {len(document.sentences)} sentences for {len(sentences)}")
        return [parse_one("{}".format(sentence.constituency)) for sentence in document.sentences]

    def parse(self, sentences: list[list[str]]) -> list[Tree | None]:
        """Parse all sentences in one stanza call; if that fails, split in halves and retry, down to single
        sentences; a single sentence that still fails (or is empty) gets None."""
        if not sentences:
            return []
        if any(not sentence for sentence in sentences):
            parsed = iter(self.parse([s for s in sentences if s]))
            return [next(parsed) if sentence else None for sentence in sentences]
        def fail(sentence: list[str], error: Exception) -> None:
            logger.warning("parser failed on %r: %s", " ".join(sentence)[:200], error)

        return split_retry(sentences, self._parse_all, fail,
                           errors=(RuntimeError, ValueError, IndexError, KeyError, TreeFormatError))
