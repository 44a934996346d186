"""Corpus-level quality of a model directory on a held-out test set: sacreBLEU BLEU and chrF (default settings:
13a tokenization, BLEU-4 with exponential smoothing; chrF with character 6-grams, beta 2), plus speed."""
from __future__ import annotations

import time
from dataclasses import dataclass

from paranmt.models.nmt.stage import token_budget_batches
from paranmt.models.nmt.translator import Translator
from paranmt.schemas.build_config import ScoreConfig
from paranmt.schemas.config import CT2_COMPUTE_TYPES, DEVICES, Config, bounded, check_choice, check_ranges

BACKENDS = ("ctranslate2", "fairseq", "transformers")


@dataclass
class NmtEvalConfig(Config):
    """The settings of `paranmt eval-nmt` (`--config` YAML keys, `--set`, the flags)."""
    backend: str = "ctranslate2"                # BACKENDS
    test_name: str = ""                         # name recorded in the manifest ("": the source file's stem)
    skip_first: int = bounded(0, 0)             # ignore the first N lines (e.g. a valid set)
    limit: int = bounded(0, 0)                  # at most N lines (0 = all)
    source_lang: str = "cs"
    target_lang: str = "en"
    normalize_punctuation: bool = True          # the Moses punctuation normalizer on the sources (as the recipe)
    beam: int = bounded(12, 1)
    batch_tokens: int = bounded(4096, 1)
    device: str = "auto"                        # DEVICES
    threads: int = bounded(0, 0)                # CPU threads (0: the backend's default)
    use_vmap: bool = False                      # ctranslate2: decode with the model's vocabulary map
    compute_type: str = "auto"                  # CTranslate2 compute type (CT2_COMPUTE_TYPES)
    simile_encoder: str = ScoreConfig.encoder   # encoder of SIMILE ("": no SIMILE)
    record: bool = False                        # add the result to the model's MANIFEST.json

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
