"""The `Translator` interface and its three backends: fairseq (reference for fairseq models), transformers
(reference for Hugging Face MarianMT / M2M-100 / NLLB models) and CTranslate2 (fast, for both kinds once converted).

All translate a list of source sentences with beam search and return, per source, the best hypothesis, its
length-normalized score and optionally the n-best list. The score is the schema's `bt_score`:

    score(y | x) = (1 / |y|) * sum_{t=1..|y|} log p(y_t | y_<t, x)

with y in the model's subword units, the end-of-sentence token included in y and |y|, and a forced target-language
token (M2M-100 / NLLB) excluded from both (fairseq's hypothesis score with lenpen = 1; how each backend's own score
is turned into this one is in paranmt.schemas.records, `bt_score`).

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
import logging
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from pathlib import Path

from paranmt.models.nmt.device import Device, select_device
from paranmt.models.nmt.hf import (LISTED_CODES, HFModel, LanguageError, NotATranslationModel, gap_note,
                                   has_weights, language_tokens, read_hf_model)

log = logging.getLogger(__name__)
BACKENDS = ("fairseq", "ctranslate2", "transformers")
REPO = Path(__file__).resolve().parents[2]
DEMO_MODEL = REPO / "assets" / "nmt-cs-en"


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
    source_prefix: list[str] = field(default_factory=list)   # tokens put before every source (hand-written
    source_suffix: list[str] = field(default_factory=list)   # nmt.json of older versions; a `family` model gets
    target_prefix: list[str] = field(default_factory=list)   # them from its language codes instead)
    target_spm: Path | None = None                          # target-side sentencepiece model (OPUS-MT)
    family: str | None = None                               # marian | m2m100 | nllb (Hugging Face models)
    language_codes: dict[str, str] = field(default_factory=dict)   # code -> language token (paranmt.models.nmt.hf)
    pair: tuple[str | None, str | None] = (None, None)      # languages a bilingual Marian model declares
    special_tokens: list[str] = field(default_factory=list)  # tokens left out of the detokenized text
    hf: HFModel | None = None                               # the Hugging Face snapshot, when the directory is one

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
            try:
                hf = read_hf_model(root)
            except NotATranslationModel as error:
                raise ModelDirError(str(error)) from None
            if hf is not None:
                return cls(root=root, source_lang="", target_lang="", spm=hf.spm, fairseq_checkpoint=None,
                           ct2_dir=next((p for p in (root / "ct2", root) if (p / "model.bin").exists()), None),
                           target_spm=hf.target_spm, family=hf.family, language_codes=hf.language_codes,
                           pair=hf.pair, special_tokens=hf.special_tokens, hf=hf)
            descriptor = {}
        spm = root / descriptor["spm"] if "spm" in descriptor else next(
            (p for p in (root / "spm.model", root / "sentencepiece.bpe.model") if p.exists()), None)
        if spm is None or not spm.exists():
            raise ModelDirError(f"no sentencepiece model in {path!r} (expected spm.model or nmt.json `spm`, or "
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
                   special_tokens=list(descriptor.get("special_tokens", [])))

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
                                f"{source_lang} -> {target_lang} (translate.source_lang / target_lang)")
        return self.source_prefix, self.source_suffix, self.target_prefix

    def codes_file(self) -> str:
        """The file of this directory that lists its language tokens (for error messages)."""
        token = next(iter(self.language_codes.values()), None)
        for name in ("nmt.json", "tokenizer_config.json", "special_tokens_map.json", "tokenizer.json"):
            path = self.root / name
            if token and path.is_file() and token in path.read_text(encoding="utf-8", errors="replace"):
                return str(path)
        return str(self.root)

    def check(self, backend: str, source_lang: str = "cs", target_lang: str = "en") -> None:
        """Raise ModelDirError unless the files `backend` needs are all present and the model knows both
        languages."""
        if backend not in BACKENDS:
            raise ModelDirError(f"unknown NMT backend {backend!r}; choose one of {', '.join(BACKENDS)}")
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
        self.tokens_for(source_lang, target_lang)


def demo_model_notice(model_dir: str) -> str | None:
    """One line for the log when `model_dir` (absolute, or relative to the working directory or the project) is
    the shipped demo model assets/nmt-cs-en, else None."""
    try:
        is_demo = any(p.resolve() == DEMO_MODEL.resolve() for p in (Path(model_dir), REPO / model_dir))
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


class Translator(ABC):
    """Beam-search translation of source sentences (see the module docstring for the score)."""

    def __init__(self, model: ModelDir, device: Device, max_target_tokens: int = 200, source_lang: str = "cs",
                 target_lang: str = "en"):
        import sentencepiece

        self.model, self.device, self.max_target_tokens = model, device, max_target_tokens
        self.source_prefix, self.source_suffix, self.target_prefix = model.tokens_for(source_lang, target_lang)
        self.spm = sentencepiece.SentencePieceProcessor(model_file=str(model.spm))
        self.target_spm = (sentencepiece.SentencePieceProcessor(model_file=str(model.target_spm))
                           if model.target_spm else self.spm)
        self.hidden = set(model.special_tokens)

    def pieces(self, sentences: list[str]) -> list[list[str]]:
        """Source subword pieces (without the prefix tokens and EOS); characters the sentencepiece model does not
        know become its unknown piece (`<unk>`), as the model's vocabulary maps them."""
        return [[self.spm.id_to_piece(i) for i in ids] for ids in self.spm.encode(sentences)]

    def count_tokens(self, sentences: list[str]) -> list[int]:
        """Source lengths in subword units, EOS and prefix tokens included (what the encoder sees)."""
        extra = len(self.source_prefix) + (len(self.source_suffix) or 1)
        return [len(p) + extra for p in self.pieces(sentences)]

    def detokenize(self, pieces: list[str]) -> str:
        """Target text of `pieces`, leaving out special, language and filler tokens (what transformers'
        decode(skip_special_tokens=True) leaves out); word-boundary marks of pieces the target sentencepiece model
        does not have (Marian's shared vocabulary holds source pieces too) become spaces, as in transformers."""
        text = self.target_spm.decode_pieces([p for p in pieces if p not in self.hidden])
        return text.replace("\u2581", " ").strip()

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

    def __init__(self, model: ModelDir, device: Device, max_target_tokens: int = 200, source_lang: str = "cs",
                 target_lang: str = "en"):
        super().__init__(model, device, max_target_tokens, source_lang, target_lang)
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


def normalized_score(score: float, length: int, forced: int) -> float:
    """The schema's score from a decoder's own: both CTranslate2 (with a target prefix) and transformers (with a
    forced BOS token) divide the summed log-probabilities, in which the forced token counts 0, by a length that
    counts it; bt_score divides by the length without it: score * (length + forced) / length."""
    return score * (length + forced) / length if forced and length else score


class CTranslate2Translator(Translator):
    """Fast backend: the same weights converted with ctranslate2's fairseq converter (`paranmt convert-nmt`) or its
    Transformers converter (`paranmt convert-nmt --transformers`); tokenizes with the model's own sentencepiece
    models and imports neither fairseq nor transformers.

    With length_penalty = 1 and return_scores, CTranslate2's hypothesis score is the cumulative log-probability
    (end token included) divided by the length counting the end token: the schema's score, as measured against
    fairseq on the same weights (tests/models/nmt/test_translator.py). With a forced target prefix (M2M-100 / NLLB
    language tokens) the prefix adds 0 to the sum but counts in the length; `normalized_score` removes it (measured
    against transformers in tests/models/nmt/test_hf.py). Hypotheses cut at max_target_tokens (degenerate, looping
    output) differ between the backends: fairseq forces an end token at the limit and scores it, CTranslate2 stops
    without one."""

    def __init__(self, model: ModelDir, device: Device, max_target_tokens: int = 200, source_lang: str = "cs",
                 target_lang: str = "en"):
        super().__init__(model, device, max_target_tokens, source_lang, target_lang)
        import ctranslate2

        compute_type = "float16" if device.kind == "cuda" and device.fp16 else "default"
        self.ct2 = ctranslate2.Translator(str(model.ct2_dir), device=device.kind, compute_type=compute_type,
                                          inter_threads=1, intra_threads=device.threads)
        # minimum target tokens. fairseq forbids EOS as the first token (without renormalizing); transformers'
        # generate does not. CTranslate2 forbids it by renormalizing, which changes the score: for Hugging Face
        # models it is allowed, as there. Benchmarks raise it to force equal output lengths.
        self.min_length = 0 if model.family else 1

    def source_tokens(self, sources: list[str]) -> list[list[str]]:
        """What the encoder reads: prefix + pieces + suffix (EOS)."""
        return [self.source_prefix + p + self.source_suffix for p in self.pieces(sources)]

    def translate(self, sources: list[str], beam: int = 12, nbest: int = 0) -> list[Translation]:
        if not sources:
            return []
        tokens = self.source_tokens(sources)
        skip = len(self.target_prefix)
        target_prefix = [list(self.target_prefix)] * len(tokens) if skip else None
        outputs = self.ct2.translate_batch(tokens, target_prefix, beam_size=beam, num_hypotheses=max(1, nbest),
                                           length_penalty=1.0, return_scores=True,
                                           max_decoding_length=self.max_target_tokens + skip,
                                           min_decoding_length=self.min_length)
        results = []
        for output in outputs:
            decoded = []
            for hypothesis, score in zip(output.hypotheses, output.scores):
                pieces = hypothesis[skip:]
                length = len(pieces) + (1 if len(pieces) < self.max_target_tokens else 0)   # EOS when finished
                decoded.append((Hypothesis(self.detokenize(pieces), normalized_score(float(score), length, skip)),
                                length))
            best, length = decoded[0]
            results.append(Translation(best.text, best.score, length,
                                       [h for h, _ in decoded[:nbest]] if nbest > 0 else []))
        return results


class EndOnlyOnTopAfterPrefix:
    """A `generate` logits processor with CTranslate2's rule for the first free step after a forced target prefix:
    EOS may end a hypothesis there only as the best candidate (CTranslate2 drops it from the other candidates,
    see its decoding.cc, issue #277), so that both backends search the same hypotheses. `step` = decoder input
    length at that step (decoder start + prefix)."""

    def __init__(self, step: int, eos: int):
        self.step, self.eos = step, eos

    def __call__(self, input_ids, scores):
        if input_ids.shape[-1] == self.step:
            scores[scores.argmax(dim=-1) != self.eos, self.eos] = float("-inf")
        return scores


class TransformersTranslator(Translator):
    """Reference backend for Hugging Face MarianMT / M2M-100 / NLLB directories: the model's own tokenizer and
    `generate` (beam search, length_penalty 1, stopping once `beam` hypotheses have ended as CTranslate2 does, no
    repetition constraints, no forced EOS at the length limit, EndOnlyOnTopAfterPrefix), with the family's
    language conventions (paranmt.models.nmt.hf): Marian's `>>xxx<<` text prefix, M2M-100 / NLLB
    `tokenizer.src_lang` and `forced_bos_token_id`.

    Scores: the returned hypotheses are rescored by one teacher-forced pass of the model, bt_score = mean of
    log softmax(logits)[y_t] over the target tokens after the forced language token, EOS included (for a
    hypothesis cut at max_target_tokens, over the tokens it has). Ranking is `generate`'s own (summed log-probs
    over a length that counts the forced token, like CTranslate2)."""

    def __init__(self, model: ModelDir, device: Device, max_target_tokens: int = 200, source_lang: str = "cs",
                 target_lang: str = "en"):
        super().__init__(model, device, max_target_tokens, source_lang, target_lang)
        import torch
        from transformers import AutoModelForSeq2SeqLM, AutoTokenizer

        if device.kind == "cpu" and device.threads:
            torch.set_num_threads(device.threads)
        from paranmt.models.nmt.hf import use_fast_tokenizer

        if model.hf is not None and model.hf.vocab_gaps:
            log.warning(gap_note(model.root, model.hf.vocab_gaps))
        self.tokenizer = AutoTokenizer.from_pretrained(str(model.root), use_fast=use_fast_tokenizer(model.root))
        self.hf = AutoModelForSeq2SeqLM.from_pretrained(str(model.root)).eval()
        # a forced EOS at the length limit (Marian's default) would score a token the model did not choose
        self.hf.generation_config.forced_eos_token_id = None
        if device.kind == "cuda":
            self.hf = self.hf.to("cuda")
            if device.fp16:
                self.hf = self.hf.half()
        family = model.family
        self.text_prefix = f"{self.source_prefix[0]} " if family == "marian" and self.source_prefix else ""
        if family == "m2m100":
            self.tokenizer.src_lang = self.source_prefix[0].strip("_")
        elif family == "nllb":
            self.tokenizer.src_lang = self.source_prefix[0]
        self.forced_bos = (self.tokenizer.convert_tokens_to_ids(self.target_prefix[0]) if self.target_prefix
                           else None)
        self.min_length = 0                      # minimum target tokens (benchmarks force equal output lengths)

    def encode(self, sources: list[str]):
        return self.tokenizer([self.text_prefix + s for s in sources], return_tensors="pt", padding=True)

    def source_tokens(self, sources: list[str]) -> list[list[str]]:
        """What the encoder reads, as tokens (for comparing with the ctranslate2 backend's tokenization)."""
        ids = self.tokenizer([self.text_prefix + s for s in sources])["input_ids"]
        return [self.tokenizer.convert_ids_to_tokens(row) for row in ids]

    def count_tokens(self, sentences: list[str]) -> list[int]:
        return [len(row) for row in self.tokenizer([self.text_prefix + s for s in sentences])["input_ids"]]

    def translate(self, sources: list[str], beam: int = 12, nbest: int = 0) -> list[Translation]:
        import torch
        from transformers import GenerationConfig, LogitsProcessorList

        if not sources:
            return []
        count = max(1, nbest)
        skip = len(self.target_prefix)
        config = self.hf.generation_config
        generation = GenerationConfig(
            decoder_start_token_id=config.decoder_start_token_id, eos_token_id=config.eos_token_id,
            pad_token_id=config.pad_token_id, bad_words_ids=config.bad_words_ids, forced_bos_token_id=self.forced_bos,
            num_beams=beam, num_return_sequences=count, length_penalty=1.0, early_stopping=True, do_sample=False,
            min_new_tokens=self.min_length + skip if self.min_length else None,
            max_new_tokens=self.max_target_tokens + skip)
        processors = LogitsProcessorList([EndOnlyOnTopAfterPrefix(1 + skip, config.eos_token_id)] if skip else [])
        batch = self.encode(sources).to(self.hf.device)
        with torch.inference_mode():
            sequences = self.hf.generate(**batch, generation_config=generation, logits_processor=processors)
            scores, lengths = self.rescore(batch, sequences, count, skip)
        eos, results = config.eos_token_id, []
        for i in range(len(sources)):
            hypotheses = []
            for j in range(i * count, (i + 1) * count):
                target = sequences[j, 1 + skip: 1 + skip + lengths[j]].tolist()
                text = self.tokenizer.decode([t for t in target if t != eos], skip_special_tokens=True,
                                             clean_up_tokenization_spaces=False)
                hypotheses.append((Hypothesis(text, scores[j]), lengths[j]))
            best, length = hypotheses[0]
            results.append(Translation(best.text, best.score, length,
                                       [h for h, _ in hypotheses[:nbest]] if nbest > 0 else []))
        return results

    def rescore(self, batch, sequences, count: int, skip: int) -> tuple[list[float], list[int]]:
        """(mean log-prob, length) of each hypothesis after the forced tokens, EOS included when present."""
        import torch

        eos = self.hf.generation_config.eos_token_id
        inputs = {k: v.repeat_interleave(count, dim=0) for k, v in batch.items()}
        logits = self.hf(**inputs, decoder_input_ids=sequences[:, :-1]).logits.float()
        log_probs = torch.log_softmax(logits, dim=-1).gather(-1, sequences[:, 1:, None])[..., 0]
        scores, lengths = [], []
        for row, tokens in zip(log_probs, sequences[:, 1:]):
            targets = tokens[skip:].tolist()
            length = targets.index(eos) + 1 if eos in targets else len(targets)
            scores.append(float(row[skip: skip + length].mean()) if length else 0.0)
            lengths.append(length)
        return scores, lengths


def open_translator(path: str, backend: str = "ctranslate2", device: str = "auto", threads: int = 0,
                    max_target_tokens: int = 200, cuda: bool | None = None, source_lang: str = "cs",
                    target_lang: str = "en") -> Translator:
    """Load the model directory `path` with one backend on the chosen device (see select_device), translating
    source_lang -> target_lang (ModelDirError when the model cannot)."""
    model = ModelDir.open(path)
    model.check(backend, source_lang, target_lang)
    chosen = select_device(device, threads, cuda=cuda)
    cls = {"fairseq": FairseqTranslator, "ctranslate2": CTranslate2Translator,
           "transformers": TransformersTranslator}[backend]
    return cls(model, chosen, max_target_tokens, source_lang, target_lang)
