"""Corpus-level quality of a model directory on a held-out test set: sacreBLEU BLEU and chrF (default settings:
13a tokenization, BLEU-4 with exponential smoothing; chrF with character 6-grams, beta 2), plus speed."""
from __future__ import annotations

import time
from dataclasses import dataclass

from paranmt.models.nmt.stage import token_budget_batches
from paranmt.models.nmt.translator import Translator
from paranmt.schemas.build_config import ScoreConfig
from paranmt.schemas.config import (CT2_COMPUTE_TYPES, DEVICES, NMT_BACKENDS, Config, bounded, check_ranges, choice,
                                    setting)
from paranmt.schemas.errors import ConfigError


@dataclass
class NmtEvalConfig(Config):
    """The settings of `paranmt eval-nmt` (`--config` YAML keys, `--set`, the flags)."""
    backend: str = choice("ctranslate2", NMT_BACKENDS, help="the translator: ctranslate2, fairseq or transformers")
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


def read_test_set(config: NmtEvalConfig, source: str, reference: str) -> tuple[list[str], list[str]]:
    """The source and reference lines of a test set, less the first `skip_first`, at most `limit`, the sources
    through the Moses punctuation normalizer when `normalize_punctuation`; a ConfigError when none are left."""
    from sacremoses import MosesPunctNormalizer

    from paranmt.models.files import read_text

    sources = read_text(source, "--source").splitlines()
    references = read_text(reference, "--reference").splitlines()
    if config.skip_first:
        sources, references = sources[config.skip_first:], references[config.skip_first:]
    if config.limit:
        sources, references = sources[: config.limit], references[: config.limit]
    if not sources:
        raise ConfigError(f"--source {source}: no sentences to translate (after --skip-first/--limit)")
    if config.normalize_punctuation:
        normalizer = MosesPunctNormalizer(lang=config.source_lang)
        sources = [normalizer.normalize(s) for s in sources]
    return sources, references


def evaluate_model(config: NmtEvalConfig, model: str, source: str, reference: str) -> tuple[dict, list[str]]:
    """The scores of the model directory `model` on a test set (`read_test_set`; `evaluate_translator`'s, with
    `simile`, 100 x the mean SIMILE of the hypotheses against the references, and its `simile_encoder` when the
    config names one) and the hypotheses. A model directory that cannot serve is a ConfigError."""
    from paranmt.models.nmt.model_dir import ModelDirError
    from paranmt.models.nmt.translator import open_translator

    sources, references = read_test_set(config, source, reference)
    try:
        translator = open_translator(model, config.backend, config.device, config.threads,
                                     source_lang=config.source_lang, target_lang=config.target_lang,
                                     use_vmap=config.use_vmap, compute_type=config.compute_type)
    except ModelDirError as error:
        raise ConfigError(str(error)) from None
    scorer = None
    if config.simile_encoder:
        from paranmt.models.encoders import open_encoder
        from paranmt.models.scoring.simile import SimileScorer

        scorer = SimileScorer(open_encoder(config.simile_encoder, max(1, config.threads)))
    result = evaluate_translator(translator, sources, references, config.beam, config.batch_tokens)
    hypotheses = result.pop("hypotheses")
    if scorer is not None:
        from paranmt.models.scoring.simile import corpus_simile

        result["simile"] = round(100 * corpus_simile(scorer.score(references, hypotheses)), 2)
        result["simile_encoder"] = config.simile_encoder
    return result, hypotheses
