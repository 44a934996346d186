"""The translate stage's factory for the stage table: `translate_stage(config.translate, source_lang, target_lang)`
-> a TranslateStage.

Rows get `bt`, `bt_score`, `bt_len` (and `bt_nbest` when `translate.nbest > 0`); see
`paranmt.models.nmt.stage.TranslateStage` (dedup, length bucketing under `translate.batch_tokens`, split-and-retry
of failing model calls). It runs through the one stage adapter (`paranmt.transforms.stage.RunStage`) over
batches of `translate.group_size` consecutive rows of a shard, like every stage. Counters (namespace
`translate`): sentences, unique_sentences, source_tokens, model_batches, model_splits, model_ms, reject_<reason>.

The model is loaded once per worker process; with `translate.share_across_processes` (default: on CUDA) once per
machine through Beam's `multi_process_shared.MultiProcessShared`, so that a GPU holds one copy that every SDK
process of the machine calls (`paranmt.transforms.shared_model`: the server's files in a private folder of the run,
a secret key of its own). A model on gs:// is copied to the machine first (`local_model_path`).
"""
from __future__ import annotations

from paranmt.models.device import select_device
from paranmt.models.nmt.model_dir import ModelDir, ModelDirError
from paranmt.models.nmt.stage import TranslateStage
from paranmt.schemas.build_config import TranslateConfig
from paranmt.transforms.io.model_cache import local_model_path
from paranmt.transforms.shared_model import shared_model
from paranmt.transforms.stage import checked_model


class WorkerTranslateStage(TranslateStage):
    """TranslateStage whose model may live on gs:// and may be shared by the processes of a machine."""

    def __init__(self, model: str, config: TranslateConfig, source_lang: str, target_lang: str):
        super().__init__(model, config, source_lang, target_lang)
        self.share_across_processes = config.share_across_processes

    def setup(self) -> None:
        """On the worker: copy the model if remote, then load it once per process, or once per machine when
        shared (decided here, where the device is: default on CUDA)."""
        if self.translator is not None:
            return
        self.model = local_model_path(self.model)
        share = self.share_across_processes
        if share is None:
            share = select_device(self.device, self.threads).kind == "cuda"
        if share:
            self.translator = shared_model(self.load_translator, self.identity())
        else:
            super().setup()


def translate_stage(config: TranslateConfig, source_lang: str, target_lang: str) -> TranslateStage:
    """The translate stage of `config` (validated: its backend one of its choices) for the language pair;
    ConfigError (one message) for a model directory that does not fit the backend (`ModelDir.check`)."""
    model_dir = checked_model("translate.model", config.model, lambda path: ModelDir.open(path).check(
        config.backend, source_lang, target_lang, config.use_vmap, config.compute_type), (ModelDirError,))
    return WorkerTranslateStage(model_dir, config, source_lang, target_lang)
