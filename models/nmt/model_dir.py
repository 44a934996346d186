"""NMT model directories: what files a model has, which backends can load it, its language tokens.

A model directory is one of:
- written by `paranmt convert-nmt` from fairseq checkpoints (paranmt.models.nmt.export): `nmt.json`, `spm.model`,
  `fairseq/{model.pt,dict.<src>.txt,dict.<tgt>.txt}` and `ct2/`;
- a Hugging Face `save_pretrained` / hub snapshot of MarianMT, M2M-100 or NLLB (config.json, tokenizer files,
  weights; paranmt.models.nmt.hf): the transformers backend;
- converted from such a snapshot by `paranmt convert-nmt --transformers`: `model.bin`, the sentencepiece models
  and an `nmt.json` with the family and its language tokens: the ctranslate2 backend;
- without `nmt.json`, read by convention: a sentencepiece model named `spm.model` or `sentencepiece.bpe.model`, a
  fairseq checkpoint `model.pt` (or the only `*.pt`) beside its dict files, and a CTranslate2 model in `ct2/` or in
  the directory itself.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from paranmt.models.files import ModelFileError, model_directory, read_json, reading
from paranmt.models.nmt.hf import (LISTED_CODES, HFModel, LanguageError, NotATranslationModel, has_weights,
                                   language_tokens, read_hf_model)
from paranmt.schemas.config import NMT_BACKENDS
from paranmt.schemas.paths import ASSETS, PROJECT_ROOT, asset_path

DEMO_MODEL = PROJECT_ROOT / ASSETS / "nmt-cs-en"


class ModelDirError(ModelFileError):
    """The model directory is missing, incomplete or unreadable for the chosen backend."""


@dataclass
class ModelDir:
    """Where the files of one NMT model are (see the module docstring)."""
    root: Path
    source_lang: str
    target_lang: str
    spm: Path
    fairseq_checkpoint: Path | None
    ct2_dir: Path | None
    source_prefix: list[str] = field(default_factory=list)   # tokens put before every source (hand-written
    source_suffix: list[str] = field(default_factory=list)   # nmt.json of older versions; a `family` model gets
    target_prefix: list[str] = field(default_factory=list)   # them from its language codes instead)
    target_spm: Path | None = None                          # target-side sentencepiece model (OPUS-MT)
    family: str | None = None                               # marian | m2m100 | nllb (Hugging Face models)
    language_codes: dict[str, str] = field(default_factory=dict)   # code -> language token (paranmt.models.nmt.hf)
    pair: tuple[str | None, str | None] = (None, None)      # languages a bilingual Marian model declares
    special_tokens: list[str] = field(default_factory=list)  # tokens left out of the detokenized text
    hf: HFModel | None = None                               # the Hugging Face snapshot, when the directory is one
    ct2_quantization: str | None = None                     # how convert-nmt stored the ct2 weights (None: unknown)

    @classmethod
    def open(cls, path: str) -> "ModelDir":
        """The model directory `path` (module docstring), after its MANIFEST.json check (models/files.py);
        ModelDirError / ModelFileError when it is missing, incomplete or corrupt."""
        root = model_directory(path, "NMT model", ModelDirError)
        descriptor_path = root / "nmt.json"
        if descriptor_path.exists():
            descriptor = read_json(descriptor_path, dict, "NMT model descriptor")
            with reading(descriptor_path, "NMT model descriptor"):
                return cls.from_descriptor(root, descriptor)
        try:
            hf = read_hf_model(root)
        except NotATranslationModel as error:
            raise ModelDirError(str(error)) from None
        if hf is not None:
            return cls(root=root, source_lang="", target_lang="", spm=hf.spm, fairseq_checkpoint=None,
                       ct2_dir=next((p for p in (root / "ct2", root) if (p / "model.bin").exists()), None),
                       target_spm=hf.target_spm, family=hf.family, language_codes=hf.language_codes,
                       pair=hf.pair, special_tokens=hf.special_tokens, hf=hf)
        return cls.from_descriptor(root, {})

    @classmethod
    def from_descriptor(cls, root: Path, descriptor: dict) -> "ModelDir":
        """The model in `root` as its nmt.json `descriptor` says (empty: by the naming convention)."""
        spm = root / descriptor["spm"] if "spm" in descriptor else next(
            (p for p in (root / "spm.model", root / "sentencepiece.bpe.model") if p.exists()), None)
        if spm is None or not spm.exists():
            raise ModelDirError(f"no sentencepiece model in {str(root)!r} (expected spm.model or nmt.json `spm`, or "
                                f"a Hugging Face translation model: config.json, tokenizer files, weights)")
        if "fairseq" in descriptor:
            checkpoint = root / descriptor["fairseq"] if descriptor["fairseq"] else None
        else:
            checkpoints = [root / "model.pt"] if (root / "model.pt").exists() else sorted(root.glob("*.pt"))
            checkpoint = checkpoints[0] if len(checkpoints) == 1 else None
        if "ctranslate2" in descriptor:
            ct2 = root / descriptor["ctranslate2"] if descriptor["ctranslate2"] else None
        else:
            ct2 = next((p for p in (root / "ct2", root) if (p / "model.bin").exists()), None)
        family = descriptor.get("family")
        return cls(root=root, source_lang=descriptor.get("source_lang", "" if family else "cs"),
                   target_lang=descriptor.get("target_lang", "" if family else "en"), spm=spm,
                   fairseq_checkpoint=checkpoint, ct2_dir=ct2,
                   source_prefix=list(descriptor.get("source_prefix", [])),
                   source_suffix=list(descriptor.get("source_suffix", [])),
                   target_prefix=list(descriptor.get("target_prefix", [])),
                   target_spm=root / descriptor["target_spm"] if descriptor.get("target_spm") else None,
                   family=family, language_codes=dict(descriptor.get("language_codes", {})),
                   pair=tuple(descriptor.get("pair", (None, None))),
                   special_tokens=list(descriptor.get("special_tokens", [])),
                   ct2_quantization=descriptor.get("ct2_quantization"))

    def tokens_for(self, source_lang: str = "cs", target_lang: str = "en") -> tuple[list[str], list[str], list[str]]:
        """(source prefix, source suffix, forced target prefix) for source_lang -> target_lang; ModelDirError
        naming the languages the model knows when it cannot translate that pair."""
        if self.family:
            try:
                tokens = language_tokens(self.family, self.language_codes, self.pair, source_lang, target_lang)
            except LanguageError as error:
                where = f"; the full list: {self.codes_file()}" if len(self.language_codes) > LISTED_CODES else ""
                raise ModelDirError(f"{error}{where}") from None
            return tokens.source_prefix, ["</s>"], tokens.target_prefix
        if (source_lang, target_lang) != (self.source_lang, self.target_lang):
            raise ModelDirError(f"this model translates {self.source_lang} -> {self.target_lang} only, not "
                                f"{source_lang} -> {target_lang} (the build's source_lang / target_lang)")
        return self.source_prefix, self.source_suffix, self.target_prefix

    def codes_file(self) -> str:
        """The file of this directory that lists its language tokens (for error messages)."""
        token = next(iter(self.language_codes.values()), None)
        for name in ("nmt.json", "tokenizer_config.json", "special_tokens_map.json", "tokenizer.json"):
            path = self.root / name
            if token and path.is_file() and token in path.read_text(encoding="utf-8", errors="replace"):
                return str(path)
        return str(self.root)

    def check(self, backend: str, source_lang: str = "cs", target_lang: str = "en", use_vmap: bool = False,
              compute_type: str = "auto") -> None:
        """Raise ModelDirError unless the files `backend` needs are all present and the model knows both
        languages (and, with `use_vmap`, the ctranslate2 backend has the vocabulary map vmap.txt; a compute_type
        other than auto is a ctranslate2 setting too)."""
        if use_vmap and backend != "ctranslate2":
            raise ModelDirError(f"a vocabulary map (use_vmap) is a ctranslate2 backend setting, not {backend}'s")
        if compute_type != "auto" and backend != "ctranslate2":
            raise ModelDirError(f"compute_type {compute_type!r} is a ctranslate2 backend setting, not {backend}'s "
                                f"(leave it auto)")
        if backend not in NMT_BACKENDS:
            raise ModelDirError(f"unknown NMT backend {backend!r}; choose one of {', '.join(NMT_BACKENDS)}")
        if backend == "transformers":
            if self.hf is None:
                raise ModelDirError(f"{self.root} is not a Hugging Face translation model (expected config.json, "
                                    f"tokenizer files and weights as written by save_pretrained); the "
                                    f"transformers backend reads MarianMT, M2M-100 and NLLB snapshots")
            if not has_weights(self.root):
                raise ModelDirError(f"{self.root} has no weights (model.safetensors or pytorch_model.bin)")
        elif backend == "fairseq":
            if self.family:
                raise ModelDirError(f"{self.root} is a Hugging Face {self.family} model: use the transformers "
                                    f"or (after `paranmt convert-nmt --transformers`) the ctranslate2 backend")
            if self.fairseq_checkpoint is None or not self.fairseq_checkpoint.is_file():
                raise ModelDirError(f"no fairseq checkpoint in {self.root} (expected fairseq/model.pt or model.pt)")
            for lang in (self.source_lang, self.target_lang):
                if not (self.fairseq_checkpoint.parent / f"dict.{lang}.txt").is_file():
                    raise ModelDirError(f"missing dict.{lang}.txt beside {self.fairseq_checkpoint}")
            if self.source_prefix or self.source_suffix or self.target_prefix or self.target_spm:
                raise ModelDirError("source/target prefixes, suffixes and a separate target sentencepiece "
                                    "model are supported by the ctranslate2 backend only")
        else:
            if self.ct2_dir is None or not (self.ct2_dir / "model.bin").is_file():
                hint = (f"convert it with `paranmt convert-nmt --transformers {self.root} --output DIR`"
                        if self.hf else "create one with `paranmt convert-nmt`")
                raise ModelDirError(f"no CTranslate2 model in {self.root} (expected ct2/model.bin); {hint}")
            if use_vmap and not (self.ct2_dir / "vmap.txt").is_file():
                raise ModelDirError(f"no vocabulary map {self.ct2_dir / 'vmap.txt'}; write one with `paranmt "
                                    f"convert-nmt ... --vmap-source FILE --vmap-target FILE`")
        self.tokens_for(source_lang, target_lang)
        self.check_readable(backend)

    def check_readable(self, backend: str) -> None:
        """Read what is cheap to read of the files `backend` loads: the sentencepiece models and CTranslate2's
        config.json (ModelFileError naming a corrupt one), so that `paranmt build` finds them before any work even
        in a directory without a MANIFEST.json; the weights themselves are left to the translator."""
        if backend == "transformers":
            return
        import sentencepiece

        for path in dict.fromkeys(path for path in (self.spm, self.target_spm) if path):
            with reading(path, "sentencepiece model"):
                sentencepiece.SentencePieceProcessor(model_file=str(path))
        if backend == "ctranslate2" and (self.ct2_dir / "config.json").is_file():
            read_json(self.ct2_dir / "config.json", dict, "CTranslate2 model config")


def demo_model_notice(model_dir: str) -> str | None:
    """One line for the log when `model_dir` (read by `asset_path`: a path, or the asset name assets/nmt-cs-en) is
    the shipped demo model assets/nmt-cs-en, else None."""
    try:
        is_demo = Path(asset_path(model_dir)).resolve() == DEMO_MODEL.resolve()
    except OSError:
        return None
    if not is_demo:
        return None
    try:
        runs = json.loads((DEMO_MODEL / "MANIFEST.json").read_text())["evaluation"]
        quality = f"BLEU {runs[0]['bleu']} on held-out {runs[0]['test_set']}"
    except (OSError, ValueError, KeyError, IndexError):
        quality = "BLEU unknown (no evaluation in its MANIFEST.json)"
    return (f"translate.model is the shipped demo model assets/nmt-cs-en ({quality}; a real cs-en system scores "
            "25-35): its back-translations are mostly not paraphrases and only demonstrate the pipeline; for a real "
            "corpus use OPUS-MT, M2M-100 or NLLB-200 (docs/translate.md, 'Real models')")
