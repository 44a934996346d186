"""Corpus-level quality of a model directory on a held-out test set: sacreBLEU BLEU and chrF (default settings:
13a tokenization, BLEU-4 with exponential smoothing; chrF with character 6-grams, beta 2), plus speed."""
from __future__ import annotations

import time

from paranmt.models.nmt.stage import token_budget_batches
from paranmt.models.nmt.translator import Translator


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
