"""The `Translator` interface and its two backends: fairseq (reference) and CTranslate2 (fast).

Both translate a list of source sentences with beam search and return, per source, the best hypothesis, its
length-normalized score and optionally the n-best list. The score is the schema's `bt_score`:

    score(y | x) = (1 / |y|) * sum_{t=1..|y|} log p(y_t | y_<t, x)

with y in the model's subword units and the end-of-sentence token included in y and |y| (fairseq's hypothesis
score with lenpen = 1). Beam search ranks finished hypotheses by this same score on both backends.

A model directory (written by `paranmt convert-nmt`, see paranmt.models.nmt.export) holds `nmt.json`,
`spm.model`, `fairseq/{model.pt,dict.<src>.txt,dict.<tgt>.txt}` and `ct2/`. A directory without `nmt.json` is
read by convention: a sentencepiece model named `spm.model` or `sentencepiece.bpe.model`, a fairseq checkpoint
`model.pt` (or the only `*.pt`) beside its dict files, and a CTranslate2 model in `ct2/` or in the directory itself.
"""
from __future__ import annotations

import json
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from pathlib import Path

from paranmt.models.nmt.device import Device, select_device

BACKENDS = ("fairseq", "ctranslate2")


class ModelDirError(ValueError):
    """The model directory is missing, incomplete or unreadable for the chosen backend."""


@dataclass
class Hypothesis:
    text: str
    score: float


@dataclass
class Translation:
    """The best hypothesis of one source, its length-normalized score and its subword length (EOS included),
    plus the n-best list (best first, the best hypothesis included) when asked for."""
    text: str
    score: float
    length: int
    nbest: list[Hypothesis] = field(default_factory=list)


@dataclass
class ModelDir:
    """Where the files of one NMT model are (see the module docstring)."""
    root: Path
    source_lang: str
    target_lang: str
    spm: Path
    fairseq_checkpoint: Path | None
    ct2_dir: Path | None
    source_prefix: list[str] = field(default_factory=list)   # tokens put before every source (e.g. `__cs__`)
    source_suffix: list[str] = field(default_factory=list)   # tokens put after it (e.g. `</s>` for models
    #                                                          converted from Hugging Face, which add no EOS)
    target_prefix: list[str] = field(default_factory=list)   # forced first target tokens (e.g. `__en__`)
    target_spm: Path | None = None                          # target-side sentencepiece model (OPUS-MT)

    @classmethod
    def open(cls, path: str) -> "ModelDir":
        root = Path(path)
        if not root.is_dir():
            raise ModelDirError(f"NMT model directory {path!r} does not exist")
        descriptor_path = root / "nmt.json"
        if descriptor_path.exists():
            try:
                descriptor = json.loads(descriptor_path.read_text())
            except (OSError, json.JSONDecodeError) as error:
                raise ModelDirError(f"{descriptor_path} is not valid JSON: {error}") from None
        else:
            descriptor = {}
        spm = root / descriptor["spm"] if "spm" in descriptor else next(
            (p for p in (root / "spm.model", root / "sentencepiece.bpe.model") if p.exists()), None)
        if spm is None or not spm.exists():
            raise ModelDirError(f"no sentencepiece model in {path!r} (expected spm.model or nmt.json `spm`)")
        if "fairseq" in descriptor:
            checkpoint = root / descriptor["fairseq"] if descriptor["fairseq"] else None
        else:
            checkpoints = [root / "model.pt"] if (root / "model.pt").exists() else sorted(root.glob("*.pt"))
            checkpoint = checkpoints[0] if len(checkpoints) == 1 else None
        if "ctranslate2" in descriptor:
            ct2 = root / descriptor["ctranslate2"] if descriptor["ctranslate2"] else None
        else:
            ct2 = next((p for p in (root / "ct2", root) if (p / "model.bin").exists()), None)
        return cls(root=root, source_lang=descriptor.get("source_lang", "cs"),
                   target_lang=descriptor.get("target_lang", "en"), spm=spm, fairseq_checkpoint=checkpoint,
                   ct2_dir=ct2, source_prefix=list(descriptor.get("source_prefix", [])),
                   source_suffix=list(descriptor.get("source_suffix", [])),
                   target_prefix=list(descriptor.get("target_prefix", [])),
                   target_spm=root / descriptor["target_spm"] if descriptor.get("target_spm") else None)

    def check(self, backend: str) -> None:
        """Raise ModelDirError unless the files `backend` needs are all present."""
        if backend not in BACKENDS:
            raise ModelDirError(f"unknown NMT backend {backend!r}; choose one of {', '.join(BACKENDS)}")
        if backend == "fairseq":
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
                raise ModelDirError(f"no CTranslate2 model in {self.root} (expected ct2/model.bin); "
                                    f"create one with `paranmt convert-nmt`")


class Translator(ABC):
    """Beam-search translation of source sentences (see the module docstring for the score)."""

    def __init__(self, model: ModelDir, device: Device, max_target_tokens: int = 200):
        import sentencepiece

        self.model, self.device, self.max_target_tokens = model, device, max_target_tokens
        self.spm = sentencepiece.SentencePieceProcessor(model_file=str(model.spm))
        self.target_spm = (sentencepiece.SentencePieceProcessor(model_file=str(model.target_spm))
                           if model.target_spm else self.spm)

    def pieces(self, sentences: list[str]) -> list[list[str]]:
        """Source subword pieces (without the prefix tokens and EOS)."""
        return self.spm.encode(sentences, out_type=str)

    def count_tokens(self, sentences: list[str]) -> list[int]:
        """Source lengths in subword units, EOS and prefix tokens included (what the encoder sees)."""
        extra = len(self.model.source_prefix) + (len(self.model.source_suffix) or 1)
        return [len(p) + extra for p in self.pieces(sentences)]

    def detokenize(self, pieces: list[str]) -> str:
        return self.target_spm.decode_pieces(pieces)

    @abstractmethod
    def translate(self, sources: list[str], beam: int = 12, nbest: int = 0) -> list[Translation]:
        """One Translation per source, same order. nbest > 0 also fills Translation.nbest with that many
        hypotheses (at most `beam`)."""


class FairseqTranslator(Translator):
    """Reference backend: fairseq's hub interface over a (trusted) checkpoint.

    torch >= 2.6 loads with weights_only=True, which rejects the `argparse.Namespace` that fairseq pickles into
    its checkpoints; this backend allowlists exactly that class (paranmt.models.nmt.export.allow_fairseq_checkpoints)
    and keeps weights-only loading on. Checkpoints that pickle other classes then fail with torch's
    UnpicklingError; loading them needs the explicit opt-in TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD=1 (which runs code
    from the file: only for checkpoints you trust, see docs/translate.md).
    """

    def __init__(self, model: ModelDir, device: Device, max_target_tokens: int = 200):
        super().__init__(model, device, max_target_tokens)
        import torch
        from fairseq import hub_utils

        from paranmt.models.nmt.export import allow_fairseq_checkpoints

        allow_fairseq_checkpoints()
        if device.kind == "cpu" and device.threads:
            torch.set_num_threads(device.threads)
        checkpoint = model.fairseq_checkpoint
        loaded = hub_utils.from_pretrained(str(checkpoint.parent), checkpoint_file=checkpoint.name,
                                           data_name_or_path=str(checkpoint.parent),
                                           source_lang=model.source_lang, target_lang=model.target_lang)
        self.hub = hub_utils.GeneratorHubInterface(loaded["args"], loaded["task"], loaded["models"])
        self.hub.eval()
        if device.kind == "cuda":
            self.hub.cuda()
            if device.fp16:
                self.hub.half()
        self.src_dict, self.tgt_dict = self.hub.task.source_dictionary, self.hub.task.target_dictionary

    def translate(self, sources: list[str], beam: int = 12, nbest: int = 0) -> list[Translation]:
        import torch

        if not sources:
            return []
        encoded = [self.src_dict.encode_line(" ".join(p), add_if_not_exist=False, append_eos=True).long()
                   for p in self.pieces(sources)]
        # one batch as given by the caller (the transform already batches by a token budget)
        self.hub.cfg.dataset.max_tokens = None
        self.hub.cfg.dataset.batch_size = len(encoded)
        with torch.inference_mode():
            hypotheses = self.hub.generate(encoded, beam=beam, lenpen=1.0, max_len_a=0,
                                           max_len_b=self.max_target_tokens, unnormalized=False)
        results = []
        for hypos in hypotheses:
            decoded = [Hypothesis(self._text(h["tokens"]), float(h["score"])) for h in hypos]
            best = hypos[0]
            results.append(Translation(decoded[0].text, decoded[0].score, int(len(best["tokens"])),
                                       decoded[:nbest] if nbest > 0 else []))
        return results

    def _text(self, tokens) -> str:
        pieces = [self.tgt_dict[int(t)] for t in tokens if int(t) != self.tgt_dict.eos()]
        return self.detokenize(pieces)


class CTranslate2Translator(Translator):
    """Fast backend: the same weights converted with ctranslate2's fairseq converter (`paranmt convert-nmt`).

    With length_penalty = 1 and return_scores, CTranslate2's hypothesis score is the cumulative log-probability
    (end token included) divided by the length counting the end token: the schema's score, as measured against
    fairseq on the same weights (tests/models/nmt/test_translator.py). Hypotheses cut at max_target_tokens
    (degenerate, looping output) differ between the backends: fairseq forces an end token at the limit and scores
    it, CTranslate2 stops without one. For models with a forced target prefix (M2M-100 / NLLB language tokens)
    the score is CTranslate2's, not checked against fairseq here."""

    def __init__(self, model: ModelDir, device: Device, max_target_tokens: int = 200):
        super().__init__(model, device, max_target_tokens)
        import ctranslate2

        compute_type = "float16" if device.kind == "cuda" and device.fp16 else "default"
        self.ct2 = ctranslate2.Translator(str(model.ct2_dir), device=device.kind, compute_type=compute_type,
                                          inter_threads=1, intra_threads=device.threads)

    def translate(self, sources: list[str], beam: int = 12, nbest: int = 0) -> list[Translation]:
        if not sources:
            return []
        prefix, suffix = self.model.source_prefix, self.model.source_suffix
        tokens = [prefix + p + suffix for p in self.pieces(sources)]
        target_prefix = [list(self.model.target_prefix)] * len(tokens) if self.model.target_prefix else None
        outputs = self.ct2.translate_batch(tokens, target_prefix, beam_size=beam, num_hypotheses=max(1, nbest),
                                           length_penalty=1.0, return_scores=True,
                                           max_decoding_length=self.max_target_tokens)
        skip = len(self.model.target_prefix)
        results = []
        for output in outputs:
            decoded = []
            for hypothesis, score in zip(output.hypotheses, output.scores):
                pieces = hypothesis[skip:]
                decoded.append((Hypothesis(self.detokenize(pieces), float(score)), len(pieces)))
            best, length = decoded[0]
            finished = length < self.max_target_tokens
            results.append(Translation(best.text, best.score, length + (1 if finished else 0),
                                       [h for h, _ in decoded[:nbest]] if nbest > 0 else []))
        return results


def open_translator(path: str, backend: str = "ctranslate2", device: str = "auto", threads: int = 0,
                    max_target_tokens: int = 200, cuda: bool | None = None) -> Translator:
    """Load the model directory `path` with one backend on the chosen device (see select_device)."""
    model = ModelDir.open(path)
    model.check(backend)
    chosen = select_device(device, threads, cuda=cuda)
    cls = FairseqTranslator if backend == "fairseq" else CTranslate2Translator
    return cls(model, chosen, max_target_tokens)
