"""Training a paraphraser (`paranmt train-paraphraser`): one loop for both architectures.

Per update: the next `batch_size` instances of the epoch's order (a permutation drawn from `seed + epoch`; within
windows of 50 batches the instances are grouped by length so that padding stays small), each drawn anew
(`Instance.drawn`: sentence-only instances get a fresh word shuffle), one Adam step on the mean NLL per target
unit, gradients clipped to `clip_norm`. Device: the project's choice (models/device.py: `auto` = CUDA when
available); on CUDA, fp16 autocast with loss scaling unless `fp16: off`, bfloat16 autocast (CUDA or CPU) with `fp16:
bf16` (models/device.py `MixedPrecision`).
The updates run in the shared training loop (models/loop.py; `ParaphraserTask`). Checkpoints (the model
in its saved layout + `trainer_state.pt` with optimizer, gradient scaler, counters and RNG states) go to
`<output>/checkpoint/` every `checkpoint_every` updates and at the end, written beside the old one and swapped
(`write_directory`); `resume` continues from there with the same data order. A JSON-lines log
`<output>/metrics.jsonl` gets the loss and instances/s every `log_every` updates and the held-out loss (`dev`
instances, if any) at each checkpoint; the model of the checkpoint with the lowest held-out loss so far is kept in
`<output>/best/` (its paraphraser.json's `training` names the update and the loss). The final model is saved into
`<output>`.
"""
from __future__ import annotations

import dataclasses
import json
import logging
import math
import random
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

import numpy as np
import torch

from paranmt.models.device import Device, MixedPrecision
from paranmt.models.generation.data import REQUIRE_DIFFERENT, TASKS, Instance
from paranmt.models.generation.paraphraser import ARCHS, Paraphraser, read_descriptor, read_templates
from paranmt.models.loop import Loop, LoopConfig, LoopState, Task, Window, epoch_order, write_directory
from paranmt.schemas.config import MAX_LAYERS, MAX_VOCABULARY, MAX_WIDTH, bounded, choice, setting
from paranmt.schemas.errors import ConfigError

log = logging.getLogger(__name__)
LENGTH_WINDOW = 50


@dataclass
class ParaphraserTrainConfig(LoopConfig):
    """The paraphraser trainer's settings (the loop's own: LoopConfig, models/loop.py)."""
    SAVED_AS: ClassVar[str] = "train_config.json"
    SHAPES: ClassVar[tuple[str, ...]] = (
        "task", "arch", "require_different", "max_words", "vocab_size", "embed_dim", "hidden", "parse_embed_dim",
        "parse_hidden", "decoder_layers", "dropout", "copy", "max_source_units", "max_target_units", "hf_d_model",
        "hf_layers", "hf_heads", "hf_ffn", "separator")
    HELP: ClassVar[dict[str, str]] = {
        "lr": "Adam learning rate", "epochs": "passes over the training instances",
        "max_steps": "stop after this many updates in total (0: no limit)",
        "patience": "stop after N held-out evaluations in a row without a new best (needs --dev; 0: off)",
        "seed": "random seed (data order, shuffles, initialization)",
        "weights_dtype": "dtype of the saved weights (arch scpn; float16 halves the size)"}
    task: str = choice("scpn", TASKS, help="scpn: (sentence, target parse) -> paraphrase; parse-generator: (parse, "
                       "target template) -> parse; plain: sentence -> paraphrase")
    arch: str = choice("scpn", ARCHS, help="scpn: BiLSTM encoder, parse encoder, 2-layer LSTM decoder with attention "
                       "and copy; transformers: a Hugging Face encoder-decoder (--hf-model to fine-tune, else a small "
                       "Marian from scratch)")
    require_different: str = choice("template", REQUIRE_DIFFERENT, help="keep only pairs whose sides differ at this "
                                    "level (template / full parse / none)")
    max_words: int = setting(60, help="skip pairs or sentences with a longer side (whitespace words)")
    # arch scpn
    vocab_size: int = bounded(8000, 1, MAX_VOCABULARY, help="sentencepiece vocabulary trained on the data")
    units_from: str | None = setting(None, help="use this paraphraser's sentencepiece units instead of training new "
                                     "ones (arch scpn, task scpn or plain): a plain model that paraphrase "
                                     "--fusion-model fuses with an SCPN must share its units")
    embed_dim: int = bounded(256, 1, MAX_WIDTH, help="unit embedding size (arch scpn)")
    hidden: int = bounded(384, 1, MAX_WIDTH, help="encoder output and decoder size (arch scpn)")
    parse_embed_dim: int = bounded(64, 1, MAX_WIDTH, help="parse token embedding size (arch scpn)")
    parse_hidden: int = bounded(128, 1, MAX_WIDTH, help="parse encoder output size (arch scpn)")
    decoder_layers: int = bounded(2, 2, MAX_LAYERS, help="decoder LSTM layers (arch scpn, >= 2)")
    dropout: float = bounded(0.2, 0, 1, open_high=True, help="dropout (arch scpn)")
    copy: bool = setting(True, flag={"name": "--no-copy", "action": "store_false"}, help="no copy mechanism (arch "
                         "scpn)")
    max_source_units: int = bounded(100, 1, MAX_WIDTH, help="cut longer inputs (units / tokens)")
    max_target_units: int = bounded(100, 1, MAX_WIDTH, help="cut longer targets; also the generation limit")
    # arch transformers
    hf_model: str | None = setting(None, help="local Hugging Face seq2seq checkpoint directory to fine-tune (arch "
                                   "transformers)")
    hf_d_model: int = bounded(256, 1, MAX_WIDTH, help="from-scratch Marian model size (arch transformers without "
                              "--hf-model)")
    hf_layers: int = bounded(3, 1, MAX_LAYERS, help="from-scratch Marian encoder and decoder layers")
    hf_heads: int = bounded(4, 1, MAX_WIDTH, help="from-scratch Marian attention heads")
    hf_ffn: int = bounded(1024, 1, MAX_WIDTH, help="from-scratch Marian feed-forward size")
    separator: str = setting("<sep>", help="token between sentence and condition in the transformers input")
    # optimization (and LoopConfig's epochs, lr, max_steps, time budget, seed, threads, device, fp16, weights_dtype)
    batch_size: int = bounded(64, 1, help="instances per update")
    clip_norm: float = setting(1.0, help="gradient norm clipping")
    checkpoint_every: int = bounded(500, 0, help="write DIR/checkpoint every N updates (and at the end)")
    log_every: int = bounded(50, 0, help="log loss and instances/s to DIR/metrics.jsonl every N updates")

    def validate(self) -> "ParaphraserTrainConfig":
        super().validate()
        checks = [(self.hidden % 2 == 0 and self.parse_hidden % 2 == 0, "hidden and parse_hidden must be even"),
                  (self.hf_model is None or Path(self.hf_model).is_dir(),
                   f"hf_model {self.hf_model} is not a directory"),
                  (self.units_from is None or (self.arch == "scpn" and self.task != "parse-generator"),
                   "units_from needs arch scpn and task scpn or plain"),
                  (self.units_from is None or (Path(self.units_from) / "units.model").is_file(),
                   f"units_from {self.units_from} has no units.model (a paraphraser directory of task scpn or "
                   "plain)")]
        for ok, message in checks:
            if not ok:
                raise ConfigError(message)
        return self

    def model_size(self) -> tuple[int, str] | None:
        """At most: arch scpn, the unit embeddings and output layer (vocab_size x (embed_dim + hidden)) and the
        LSTMs; arch transformers from scratch, the embeddings and output layer (vocab_size x hf_d_model, twice) and
        the layers; None for a model fine-tuned from `hf_model` (its size is its files')."""
        if self.arch == "scpn":
            e, h = self.embed_dim, self.hidden
            return (self.vocab_size * (e + h) + 8 * h * (e + h) * (self.decoder_layers + 1),
                    f"vocab_size {self.vocab_size}, embed_dim {e}, hidden {h}, decoder_layers {self.decoder_layers}")
        if self.hf_model:
            return None
        d = self.hf_d_model
        return (2 * self.vocab_size * d + 2 * self.hf_layers * (8 * d * d + 2 * d * self.hf_ffn),
                f"vocab_size {self.vocab_size}, hf_d_model {d}, hf_ffn {self.hf_ffn}, hf_layers {self.hf_layers}")

    def scpn_sizes(self) -> dict:
        return {name: getattr(self, name) for name in ("embed_dim", "hidden", "parse_embed_dim", "parse_hidden",
                                                       "decoder_layers", "dropout", "copy")}


def length_grouped_order(instances: list[Instance], order: np.ndarray, batch_size: int) -> list[int]:
    """`order` regrouped by target length inside windows of LENGTH_WINDOW batches (stable sort), so a batch
    holds similar lengths; the windows stay in the order's sequence."""
    window = batch_size * LENGTH_WINDOW
    out: list[int] = []
    for start in range(0, len(order), window):
        chunk = order[start:start + window].tolist()
        out += sorted(chunk, key=lambda i: len(instances[i].target))
    return out


def new_model(config: ParaphraserTrainConfig, instances: list[Instance], templates, work_dir: Path) -> Paraphraser:
    if config.arch == "scpn":
        from paranmt.models.generation.scpn import SCPNParaphraser
        from paranmt.models.generation.units import SentencePieceUnits

        units = SentencePieceUnits.load(Path(config.units_from)) if config.units_from else None
        return SCPNParaphraser.create(config.task, instances, templates, vocab_size=config.vocab_size,
                                      max_source_units=config.max_source_units,
                                      max_target_units=config.max_target_units, units=units,
                                      **config.scpn_sizes())
    from paranmt.models.generation.hf import HFParaphraser

    return HFParaphraser.create(config.task, instances, templates, config, work_dir)


def load_model(directory: Path) -> Paraphraser:
    descriptor = read_descriptor(directory)
    if descriptor["arch"] == "scpn":
        from paranmt.models.generation.scpn import SCPNParaphraser as cls
    else:
        from paranmt.models.generation.hf import HFParaphraser as cls
    return cls.load(directory, descriptor, read_templates(directory))


class ParaphraserTrainer:
    def __init__(self, config: ParaphraserTrainConfig, output: str | Path):
        self.config = config.validate()
        self.output = Path(output)

    def fit(self, instances: list[Instance], templates: list[tuple[str, int]], dev: list[Instance] = (),
            resume: bool = False, training_info: dict | None = None) -> Paraphraser:
        """Train on `instances` in the shared loop (`ParaphraserTask`); save the final model into the output
        directory and return it."""
        c = self.config
        if not instances:
            raise ConfigError("no training instances")
        training = dict(training_info or {}, instances=len(instances), config=dataclasses.asdict(c))
        task = ParaphraserTask(c, self.output, instances, templates, list(dev), training)
        state = Loop(task, c, self.output, resume=resume, save_config=True).run()
        training.update(steps=state.step, epochs_completed=state.epoch, train_seconds=round(state.elapsed))
        task.model.save(self.output, training, dtype=c.weights_dtype)
        task.model.module.eval()
        return task.model


class ParaphraserTask(Task):
    """Paraphraser training as a task of the shared loop (module docstring): a position counts batches of the
    epoch; the held-out loss (with dev instances) is evaluated at each checkpoint and at the end, the best model kept
    in `best/`."""
    evaluate_at = "checkpoint"

    def __init__(self, config: ParaphraserTrainConfig, output: Path, instances: list[Instance], templates,
                 dev: list[Instance], training: dict):
        self.config, self.output, self.instances, self.templates = config, output, instances, templates
        self.dev, self.training = dev, training
        self.best = ("dev_loss", "min") if dev else None
        self.description = f"train {config.task}/{config.arch}"

    def setup(self, checkpoint, device: Device) -> None:
        c = self.config
        self.precision = MixedPrecision.select(device, c.fp16)
        self.rng = random.Random(c.seed)
        if checkpoint is not None:
            self.model = load_model(checkpoint.directory)
            rng_state = json.loads(checkpoint.state["rng"])
            self.rng.setstate((rng_state[0], tuple(rng_state[1]), rng_state[2]))
        else:
            self.model = new_model(c, self.instances, self.templates, self.output / "work")
        self.model.to(device.kind)
        self.optimizer = torch.optim.Adam([p for p in self.model.module.parameters() if p.requires_grad], lr=c.lr)
        if checkpoint is not None:
            self.optimizer.load_state_dict(checkpoint.state["optimizer"])
            self.precision.load_state_dict(checkpoint.state.get("scaler"))

    def steps_per_epoch(self) -> int:
        return math.ceil(len(self.instances) / self.config.batch_size)

    def epoch_size(self) -> int:
        return self.steps_per_epoch()

    def batches(self, state: LoopState):
        c = self.config
        order = length_grouped_order(self.instances, epoch_order(c.seed, state.epoch, len(self.instances)),
                                     c.batch_size)
        batches = [order[i:i + c.batch_size] for i in range(0, len(order), c.batch_size)]
        random.Random(c.seed + state.epoch).shuffle(batches)
        for position in range(state.position, len(batches)):
            yield 1, [self.instances[i].drawn(self.rng) for i in batches[position]]

    def step(self, batch: list[Instance], state: LoopState) -> tuple[int, dict]:
        model, optimizer, precision = self.model, self.optimizer, self.precision
        model.module.train()
        with precision.autocast():
            loss = model.loss(batch)
        optimizer.zero_grad()
        precision.backward(loss)
        precision.step([optimizer], clip=(model.module.parameters(), self.config.clip_norm))
        return 1, {"loss": loss.item(), "instances": len(batch)}

    def parameters(self):
        return self.model.module.parameters()

    def record(self, window: Window, state: LoopState) -> dict:
        return {"loss": window.sums["loss"] / window.updates,
                "instances_per_s": window.sums["instances"] / window.seconds}

    def evaluate(self, state: LoopState) -> dict | None:
        """Mean held-out NLL per unit over the dev instances (no dropout, source words shuffled with a fixed
        seed)."""
        if not self.dev:
            return None
        rng = random.Random(0)
        self.model.module.eval()
        losses = []
        size = self.config.batch_size
        with torch.no_grad():
            for start in range(0, len(self.dev), size):
                losses.append(self.model.loss([i.drawn(rng) for i in self.dev[start:start + size]]).item())
        return {"dev_loss": float(np.mean(losses))}

    def keep_best(self, state: LoopState, metrics: dict) -> None:
        kept = dict(self.training, steps=state.step, dev_loss=metrics["dev_loss"])
        write_directory(self.output / "best",
                        lambda tmp: self.model.save(tmp, kept, dtype=self.config.weights_dtype))

    def state_dict(self) -> dict:
        return {"optimizer": self.optimizer.state_dict(), "scaler": self.precision.state_dict(),
                "rng": json.dumps(self.rng.getstate())}

    def save(self, directory: Path) -> None:
        self.model.save(directory, self.training)

    def summary(self, state: LoopState) -> dict:
        return {"elapsed_s": state.elapsed, "instances": len(self.instances)}
