"""Corpus-level quality of a model directory on a held-out test set: sacreBLEU BLEU and chrF (default settings:
13a tokenization, BLEU-4 with exponential smoothing; chrF with character 6-grams, beta 2), plus speed."""
from __future__ import annotations

import time
from dataclasses import dataclass

from paranmt.models.nmt.stage import token_budget_batches
from paranmt.models.nmt.translator import Translator
from paranmt.schemas.build_config import ScoreConfig
from paranmt.schemas.config import (CT2_COMPUTE_TYPES, DEVICES, Config, bounded, check_choice, check_ranges, choice,
                                    setting)

BACKENDS = ("ctranslate2", "fairseq", "transformers")


@dataclass
class NmtEvalConfig(Config):
    """The settings of `paranmt eval-nmt` (`--config` YAML keys, `--set`, the flags)."""
    backend: str = choice("ctranslate2", BACKENDS, help="the translator: ctranslate2, fairseq or transformers")
    test_name: str = setting("", help="name recorded in the manifest (default: the source file stem)")
    skip_first: int = bounded(0, 0, help="ignore the first N lines (e.g. a valid set)")
    limit: int = bounded(0, 0, help="evaluate at most N lines (0 = all)")
    source_lang: str = setting("cs", help="source language")
    target_lang: str = setting("en", help="target language")
    normalize_punctuation: bool = setting(True, flag={"name": "--no-normalize-punctuation", "action": "store_false"},
                                          help="do not apply the Moses punctuation normalizer to the sources (the "
                                          "recipe and the clean stage do; key normalize_punctuation)")
    beam: int = bounded(12, 1, help="beam size")
    batch_tokens: int = bounded(4096, 1, help="source tokens per translation batch")
    device: str = choice("auto", DEVICES, help="auto: CUDA when available")
    threads: int = bounded(0, 0, help="CPU threads (0: the backend's default)")
    use_vmap: bool = setting(False, flag={"action": "store_true"}, help="ctranslate2: decode with the model's "
                             "vocabulary map (ct2/vmap.txt); compare with a run without it (--hypotheses of both) for "
                             "the agreement")
    compute_type: str = choice("auto", CT2_COMPUTE_TYPES, help="ctranslate2 compute type (auto: int8 on CPU for int8 "
                               "weights, float16 on CUDA)")
    simile_encoder: str = setting(ScoreConfig.encoder, help="encoder of SIMILE (the score stage's by default; '' = no "
                                  "SIMILE)")
    record: bool = setting(False, flag={"action": "store_true"}, help="add the result to the model's MANIFEST.json")

    def validate(self) -> "NmtEvalConfig":
        check_ranges(self)
        check_choice("backend", self.backend, BACKENDS)
        check_choice("device", self.device, DEVICES)
        check_choice("compute_type", self.compute_type, CT2_COMPUTE_TYPES)
        return self


def translate_corpus(translator: Translator, sources: list[str], beam: int = 12, batch_tokens: int = 4096,
                     progress: bool = True) -> list[str]:
    """Best translations of `sources` (same order), batched by length under a token budget."""
    from tqdm import tqdm

    lengths = translator.count_tokens(sources)
    outputs: list[str] = [""] * len(sources)
    batches = token_budget_batches(lengths, batch_tokens)
    with tqdm(total=len(sources), disable=not progress, desc="translate", unit="sent") as bar:
        for batch in batches:
            for index, result in zip(batch, translator.translate([sources[i] for i in batch], beam)):
                outputs[index] = result.text
            bar.update(len(batch))
    return outputs


def evaluate_translator(translator: Translator, sources: list[str], references: list[str], beam: int = 12,
                        batch_tokens: int = 4096) -> dict:
    """{'bleu', 'chrf', 'bleu_signature', 'chrf_signature', 'sentences', 'seconds', 'sentences_per_s'}."""
    import sacrebleu

    if len(sources) != len(references):
        raise ValueError(f"{len(sources)} sources but {len(references)} references")
    start = time.perf_counter()
    hypotheses = translate_corpus(translator, sources, beam, batch_tokens)
    seconds = time.perf_counter() - start
    bleu = sacrebleu.metrics.BLEU()
    chrf = sacrebleu.metrics.CHRF()
    bleu_score = bleu.corpus_score(hypotheses, [references])
    chrf_score = chrf.corpus_score(hypotheses, [references])
    return {"bleu": round(bleu_score.score, 2), "chrf": round(chrf_score.score, 2),
            "bleu_signature": str(bleu.get_signature()), "chrf_signature": str(chrf.get_signature()),
            "sentences": len(sources), "seconds": round(seconds, 1),
            "sentences_per_s": round(len(sources) / seconds, 2), "hypotheses": hypotheses}
