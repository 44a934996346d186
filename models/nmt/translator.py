"""The `Translator` interface, its CTranslate2 backend (fast, for fairseq and Hugging Face models once converted) and
`open_translator`, which loads a model directory (paranmt.models.nmt.model_dir) with one of the three backends; the
reference backends are in fairseq_translator.py (fairseq models) and hf_translator.py (Hugging Face MarianMT /
M2M-100 / NLLB models).

All translate a list of source sentences with beam search and return, per source, the best hypothesis, its
length-normalized score and optionally the n-best list. The score is the schema's `bt_score`:

    score(y | x) = (1 / |y|) * sum_{t=1..|y|} log p(y_t | y_<t, x)

with y in the model's subword units, the end-of-sentence token included in y and |y|, and a forced target-language
token (M2M-100 / NLLB) excluded from both (fairseq's hypothesis score with lenpen = 1; how each backend's own score
is turned into this one is in paranmt.schemas.records, `bt_score`).
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field

from paranmt.models.device import Device, ct2_compute_type, select_device
from paranmt.models.files import reading
from paranmt.models.nmt.model_dir import ModelDir


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


class Translator(ABC):
    """Beam-search translation of source sentences (see the module docstring for the score)."""

    def __init__(self, model: ModelDir, device: Device, max_target_tokens: int = 200, source_lang: str = "cs",
                 target_lang: str = "en"):
        import sentencepiece

        self.model, self.device, self.max_target_tokens = model, device, max_target_tokens
        self.source_prefix, self.source_suffix, self.target_prefix = model.tokens_for(source_lang, target_lang)
        with reading(model.spm, "sentencepiece model"):
            self.spm = sentencepiece.SentencePieceProcessor(model_file=str(model.spm))
        with reading(model.target_spm, "sentencepiece model"):
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
    without one.

    `use_vmap`: decode over the target tokens the model's vocabulary map (ct2/vmap.txt, paranmt.models.nmt.vmap)
    lists for the batch's source pieces instead of the whole target vocabulary (faster; the best hypothesis can
    differ). `compute_type`: "auto" follows the device and the stored weights (paranmt.models.device.
    ct2_compute_type: int8 on CPU for an int8 model, float16 on CUDA), or a CTranslate2 compute type."""

    def __init__(self, model: ModelDir, device: Device, max_target_tokens: int = 200, source_lang: str = "cs",
                 target_lang: str = "en", use_vmap: bool = False, compute_type: str = "auto"):
        super().__init__(model, device, max_target_tokens, source_lang, target_lang)
        import ctranslate2

        self.use_vmap = use_vmap
        self.compute_type = ct2_compute_type(device, model.ct2_quantization, compute_type)
        with reading(model.ct2_dir, "CTranslate2 model directory"):
            self.ct2 = ctranslate2.Translator(str(model.ct2_dir), device=device.kind,
                                              compute_type=self.compute_type, inter_threads=1,
                                              intra_threads=device.threads)
        # minimum target tokens. fairseq forbids EOS as the first token (without renormalizing); transformers'
        # generate does not. CTranslate2 forbids it by renormalizing, which changes the score: for Hugging Face
        # models it is allowed, as there. Benchmarks raise it to force equal output lengths.
        self.min_length = 0 if model.family else 1

    def source_tokens(self, sources: list[str]) -> list[list[str]]:
        """What the encoder reads: prefix + pieces + suffix (EOS)."""
        return [self.source_prefix + p + self.source_suffix for p in self.pieces(sources)]

    def decode(self, sources: list[str], beam: int = 12, nbest: int = 0) -> list:
        """CTranslate2's TranslationResult per source (hypotheses as target pieces, the forced target prefix
        included, and their scores)."""
        tokens = self.source_tokens(sources)
        skip = len(self.target_prefix)
        target_prefix = [list(self.target_prefix)] * len(tokens) if skip else None
        return self.ct2.translate_batch(tokens, target_prefix, beam_size=beam, num_hypotheses=max(1, nbest),
                                        length_penalty=1.0, return_scores=True,
                                        max_decoding_length=self.max_target_tokens + skip,
                                        min_decoding_length=self.min_length, use_vmap=self.use_vmap)

    def best_pieces(self, sources: list[str], beam: int = 12) -> list[list[str]]:
        """The best hypothesis of each source as the target pieces the model produced (prefix and special tokens
        left out)."""
        skip = len(self.target_prefix)
        return [[p for p in output.hypotheses[0][skip:] if p not in self.hidden]
                for output in self.decode(sources, beam)] if sources else []

    def translate(self, sources: list[str], beam: int = 12, nbest: int = 0) -> list[Translation]:
        if not sources:
            return []
        skip = len(self.target_prefix)
        outputs = self.decode(sources, beam, nbest)
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


def open_translator(path: str, backend: str = "ctranslate2", device: str = "auto", threads: int = 0,
                    max_target_tokens: int = 200, cuda: bool | None = None, source_lang: str = "cs",
                    target_lang: str = "en", use_vmap: bool = False, compute_type: str = "auto") -> Translator:
    """Load the model directory `path` with one backend on the chosen device (see select_device), translating
    source_lang -> target_lang (ModelDirError when the model cannot); `use_vmap` and `compute_type`: the
    ctranslate2 backend's vocabulary map and compute type (CTranslate2Translator)."""
    model = ModelDir.open(path)
    model.check(backend, source_lang, target_lang, use_vmap, compute_type)
    chosen = select_device(device, threads, cuda=cuda)
    if backend == "fairseq":
        from paranmt.models.nmt.fairseq_translator import FairseqTranslator
        return FairseqTranslator(model, chosen, max_target_tokens, source_lang, target_lang)
    if backend == "transformers":
        from paranmt.models.nmt.hf_translator import TransformersTranslator
        return TransformersTranslator(model, chosen, max_target_tokens, source_lang, target_lang)
    return CTranslate2Translator(model, chosen, max_target_tokens, source_lang, target_lang, use_vmap, compute_type)
