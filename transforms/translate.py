"""Beam adapter of the translate stage: `stage_transform(config)` for `paranmt build --stages ...,translate`.

`(shard, row)` -> `(rows, rejects)`. A RunInference ModelHandler loads the configured NMT model once per worker
process (or once per machine when the model is shared across processes, the default on CUDA so that a GPU holds
one copy) and hands groups of up to `translate.group_size` rows to paranmt.models.nmt.stage.TranslateStage,
which dedups identical sources, batches them by length under the `translate.batch_tokens` budget, translates,
splits and retries failing batches and restores the original order. Rows get `bt`, `bt_score`, `bt_len` (and
`bt_nbest` when `translate.nbest > 0`); sentences that still fail alone, or exceed `translate.max_source_tokens`,
become rejects of stage `translate`.

Metrics (namespace `translate`): sentences, unique_sentences, batches, batch_splits, source_tokens,
model_load_ms, tokens_per_s (source subword tokens per second of model time, per group), reject_<reason>; plus
RunInference's own (inference_batch_latency_micro_secs, load_model_latency_milli_secs, ...).
"""
from __future__ import annotations

import time
from typing import Any, Iterable, Sequence

import apache_beam as beam
from apache_beam.metrics import Metrics
from apache_beam.ml.inference.base import ModelHandler, PredictionResult, RunInference

from paranmt.models.nmt.device import select_device
from paranmt.models.nmt.stage import TranslateStage
from paranmt.models.nmt.translator import BACKENDS, ModelDir, ModelDirError
from paranmt.schemas.config import BuildConfig, ConfigError, TranslateConfig, asset_path
from paranmt.schemas.records import is_reject, reject_row
from paranmt.transforms.io.model_cache import local_model_path

NAMESPACE = "translate"
REJECTS = "rejects"


def validate_translate_config(config: TranslateConfig) -> str:
    """Check `config` (ConfigError with one message); returns the resolved model directory."""
    if config.backend not in BACKENDS:
        raise ConfigError(f"translate.backend must be one of {', '.join(BACKENDS)}, not {config.backend!r}")
    if config.beam < 1:
        raise ConfigError("translate.beam must be >= 1")
    if not 0 <= config.nbest <= config.beam:
        raise ConfigError(f"translate.nbest must be between 0 and beam ({config.beam}), not {config.nbest}")
    for name in ("batch_tokens", "max_source_tokens", "group_size"):
        if getattr(config, name) < 1:
            raise ConfigError(f"translate.{name} must be >= 1")
    if config.threads < 0:
        raise ConfigError("translate.threads must be >= 0")
    if config.device not in ("auto", "cpu", "cuda"):
        raise ConfigError(f"translate.device must be auto, cpu or cuda, not {config.device!r}")
    model_dir = asset_path(config.model)
    try:
        ModelDir.open(local_model_path(model_dir)).check(config.backend, config.source_lang, config.target_lang)
    except ModelDirError as error:
        raise ConfigError(f"translate.model: {error}") from None
    return model_dir


class TranslateModelHandler(ModelHandler[tuple, PredictionResult, TranslateStage]):
    """RunInference handler: examples are `(shard, row)` tuples, the model is a loaded TranslateStage (a plain
    object, so RunInference can weak-reference and share it), inferences are output rows or reject rows."""

    def __init__(self, config: TranslateConfig, model_dir: str):
        super().__init__()
        self.config, self.model_dir = config, model_dir

    def load_model(self) -> TranslateStage:
        start = time.perf_counter()
        c = self.config
        stage = TranslateStage(local_model_path(self.model_dir), c.backend, c.beam, c.nbest, c.batch_tokens,
                               c.max_source_tokens, c.device, c.threads, source_lang=c.source_lang,
                               target_lang=c.target_lang)
        stage.setup()
        Metrics.distribution(NAMESPACE, "model_load_ms").update(int(1000 * (time.perf_counter() - start)))
        return stage

    def run_inference(self, batch: Sequence[tuple], model: TranslateStage,
                      inference_args: dict[str, Any] | None = None) -> Iterable[PredictionResult]:
        rows = [row for _, row in batch]
        outputs = self._process(model, rows)
        return [PredictionResult(example, output) for example, output in zip(batch, outputs)]

    def _process(self, model: TranslateStage, rows: list[dict]) -> list[dict]:
        """TranslateStage.process_batch_with_stats; anything it raises (it retries model failures itself) splits
        the group in halves down to single rows, which become `error` rejects."""
        try:
            outputs, stats = model.process_batch_with_stats(rows)
        except Exception as error:  # noqa: BLE001 - split and retry, then reject
            if len(rows) == 1:
                return [reject_row(rows[0]["id"], NAMESPACE, "error", f"{type(error).__name__}: {error}",
                                   f"{rows[0].get('cs', '')}\t{rows[0].get('ref', '')}")]
            Metrics.counter(NAMESPACE, "batch_splits").inc()
            middle = len(rows) // 2
            return self._process(model, rows[:middle]) + self._process(model, rows[middle:])
        Metrics.counter(NAMESPACE, "sentences").inc(stats.sentences)
        Metrics.counter(NAMESPACE, "unique_sentences").inc(stats.unique)
        Metrics.counter(NAMESPACE, "batches").inc(stats.batches)
        Metrics.counter(NAMESPACE, "batch_splits").inc(stats.splits)
        Metrics.counter(NAMESPACE, "source_tokens").inc(stats.source_tokens)
        if stats.seconds > 0:
            Metrics.distribution(NAMESPACE, "tokens_per_s").update(int(stats.source_tokens / stats.seconds))
        return outputs

    def get_metrics_namespace(self) -> str:
        return NAMESPACE

    def batch_elements_kwargs(self):
        return {"min_batch_size": 1, "max_batch_size": self.config.group_size}

    def share_model_across_processes(self) -> bool:
        if self.config.share_across_processes is not None:
            return bool(self.config.share_across_processes)
        return select_device(self.config.device, self.config.threads).kind == "cuda"

    def get_resource_hints(self) -> dict:
        return {"accelerator": self.config.accelerator} if self.config.accelerator else {}


class _SplitRejects(beam.DoFn):
    def process(self, result: PredictionResult):
        (shard, _), output = result.example, result.inference
        if is_reject(output):
            Metrics.counter(NAMESPACE, f"reject_{output['reason']}").inc()
            yield beam.pvalue.TaggedOutput(REJECTS, (shard, output))
        else:
            yield shard, output


class Translate(beam.PTransform):
    """(shard, row) -> (rows, rejects) with the configured NMT model (see the module docstring)."""

    def __init__(self, config: TranslateConfig, label: str | None = "Translate"):
        super().__init__(label=label)
        self.config = config
        self.model_dir = validate_translate_config(config)

    def expand(self, pcoll):
        outputs = (pcoll
                   | "RunInference" >> RunInference(TranslateModelHandler(self.config, self.model_dir))
                   | "SplitRejects" >> beam.ParDo(_SplitRejects()).with_outputs(REJECTS, main="rows"))
        return outputs.rows, outputs[REJECTS]


def stage_transform(config: BuildConfig) -> beam.PTransform:
    """The translate stage of `paranmt build` (validates `config.translate` first; ConfigError before any work)."""
    return Translate(config.translate)
