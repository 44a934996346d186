"""The one STS-dev evaluator of the trainers of a sentence encoder (`paranmt train`'s EncoderTask, `train-bgt`'s
BGTTask): `EncoderDevTask`, a loop task (models/loop.py) that scores its encoder on the dev STS and keeps the best
one. The other trainers' dev metrics are their own: the paraphrasers' held-out loss, finetune-sts's Pearson or
accuracy on its task's dev split; train-words has none."""
from __future__ import annotations

import json
from abc import abstractmethod
from pathlib import Path

from paranmt.models.evaluation.sts import sts_dev
from paranmt.models.loop import LoopState, Task, write_directory


class EncoderDevTask(Task):
    """A task whose model is a sentence encoder (`dev_encoder`) and whose `config` has `dev_sts_dir`,
    `dev_datasets` and `weights_dtype`. With a `dev_sts_dir` the loop keeps the best encoder by the dev metric
    (`best` = ("dev", "max"), the mean over the datasets): `evaluate` gives {"dev": {dataset: Pearson x100}} of
    the STS datasets there matching `dev_datasets` (models/evaluation/sts.py `sts_dev`), and `keep_best` makes
    `<output>/best/` the encoder as it is now (a loadable encoder directory, its weights in `weights_dtype`,
    written whole or not at all: `write_directory`) with `dev.json` = the evaluation's metrics line ({"step",
    "epoch", "dev": ...}). Without one, no dev evaluation (`best` None)."""
    config: object
    output: Path

    @property
    @abstractmethod
    def dev_encoder(self):
        """The encoder being trained (models/encoders/base.py `SentenceEncoder`)."""

    @property
    def best(self) -> tuple[str, str] | None:
        return ("dev", "max") if self.config.dev_sts_dir else None

    def evaluate(self, state: LoopState) -> dict | None:
        return sts_dev(self.dev_encoder.encode, self.config.dev_sts_dir, self.config.dev_datasets)

    def keep_best(self, state: LoopState, metrics: dict) -> None:
        encoder, dtype = self.dev_encoder, self.config.weights_dtype

        def write(tmp: Path) -> None:
            encoder.save(tmp, dtype=dtype)
            (tmp / "dev.json").write_text(json.dumps(metrics) + "\n")

        write_directory(self.output / "best", write)
