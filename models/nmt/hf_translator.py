"""The transformers backend of `Translator` (paranmt.models.nmt.translator): the reference for Hugging Face
MarianMT / M2M-100 / NLLB directories (paranmt.models.nmt.hf)."""
from __future__ import annotations

import logging

from paranmt.models.device import Device
from paranmt.models.files import reading
from paranmt.models.nmt.hf import gap_note, load_pretrained
from paranmt.models.nmt.model_dir import ModelDir
from paranmt.models.nmt.translator import Hypothesis, Translation, Translator

log = logging.getLogger(__name__)


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

        if device.kind == "cpu" and device.threads:
            torch.set_num_threads(device.threads)
        if model.hf is not None and model.hf.vocab_gaps:
            log.warning(gap_note(model.root, model.hf.vocab_gaps))
        with reading(model.root, "Hugging Face translation model (config.json, tokenizer files, weights)"):
            self.tokenizer, self.hf = load_pretrained(model.root)
        self.hf.eval()
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
