"""Training a paraphraser (`paranmt train-paraphraser`): one loop for both architectures.

Per update: the next `batch_size` instances of the epoch's order (a permutation drawn from `seed + epoch`; within
windows of 50 batches the instances are grouped by length so that padding stays small), each drawn anew
(`Instance.drawn`: sentence-only instances get a fresh word shuffle), one Adam step on the mean NLL per target
unit, gradients clipped to `clip_norm`. Device: the project's choice (models/nmt/device.py: `auto` = CUDA when
available); on CUDA, fp16 autocast with a gradient scaler unless `fp16: off` (`precision`).
Checkpoints (the model in its saved layout + `trainer_state.pt` with optimizer, counters and RNG states) go to
`<output>/checkpoint/` every `checkpoint_every` updates and at the end, written beside the old one and swapped
(models/training/loop.py `write_directory`); `resume` continues from there with the same data order. A JSON-lines log
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
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch
from tqdm import tqdm

from paranmt.models.generation.data import REQUIRE_DIFFERENT, TASKS, Instance
from paranmt.models.generation.paraphraser import ARCHS, Paraphraser, read_descriptor, read_templates
from paranmt.models.nmt.device import Device, select_device
from paranmt.models.safe_load import load_weights_only
from paranmt.models.training.loop import write_directory
from paranmt.schemas.config import ConfigError

log = logging.getLogger(__name__)
FP16_CHOICES = ("auto", "on", "off")
LENGTH_WINDOW = 50


@dataclass
class ParaphraserTrainConfig:
    task: str = "scpn"
    arch: str = "scpn"
    require_different: str = "template"   # template | parse | none: which pairs make scpn / parse-generator data
    max_words: int = 60                    # skip pairs / sentences with a longer side (whitespace words)
    # arch scpn
    vocab_size: int = 8000                 # sentencepiece vocabulary (scpn, plain)
    embed_dim: int = 256
    hidden: int = 384
    parse_embed_dim: int = 64
    parse_hidden: int = 128
    decoder_layers: int = 2
    dropout: float = 0.2
    copy: bool = True
    max_source_units: int = 100
    max_target_units: int = 100
    # arch transformers
    hf_model: str | None = None            # a local Hugging Face seq2seq checkpoint to fine-tune (BART, T5, Marian)
    hf_d_model: int = 256                  # without hf_model: a Marian model of these sizes from scratch
    hf_layers: int = 3
    hf_heads: int = 4
    hf_ffn: int = 1024
    separator: str = "<sep>"               # between sentence and condition in the transformers input text
    # optimization
    batch_size: int = 64
    lr: float = 1e-3
    epochs: int = 10
    max_steps: int = 0                     # stop after this many updates in total (0: no limit)
    time_budget_minutes: float = 0         # stop after this much training time in total (0: no limit)
    clip_norm: float = 1.0
    checkpoint_every: int = 500
    log_every: int = 50
    seed: int = 1
    threads: int = 1
    device: str = "auto"                   # auto | cpu | cuda
    fp16: str = "auto"                     # auto (on CUDA) | on (CUDA only) | off
    weights_dtype: str = "float32"         # dtype of the saved final weights (arch scpn; float16 halves the size)

    def validate(self) -> "ParaphraserTrainConfig":
        checks = [(self.task in TASKS, f"task must be one of {', '.join(TASKS)}"),
                  (self.arch in ARCHS, f"arch must be one of {', '.join(ARCHS)}"),
                  (self.require_different in REQUIRE_DIFFERENT,
                   f"require_different must be one of {', '.join(REQUIRE_DIFFERENT)}"),
                  (self.device in ("auto", "cpu", "cuda"), "device must be auto, cpu or cuda"),
                  (self.fp16 in FP16_CHOICES, f"fp16 must be one of {', '.join(FP16_CHOICES)}"),
                  (self.weights_dtype in ("float32", "float16"), "weights_dtype must be float32 or float16"),
                  (min(self.batch_size, self.embed_dim, self.hidden, self.max_source_units,
                       self.max_target_units, self.checkpoint_every, self.log_every) >= 1,
                   "sizes, batch_size, checkpoint_every and log_every must be >= 1"),
                  (self.hidden % 2 == 0 and self.parse_hidden % 2 == 0, "hidden and parse_hidden must be even"),
                  (self.decoder_layers >= 2, "decoder_layers must be >= 2"),
                  (0 <= self.dropout < 1, "dropout must be in [0, 1)"),
                  (self.epochs >= 1 and self.lr > 0, "epochs >= 1 and lr > 0 are required"),
                  (self.hf_model is None or Path(self.hf_model).is_dir(),
                   f"hf_model {self.hf_model} is not a directory")]
        for ok, message in checks:
            if not ok:
                raise ConfigError(message)
        return self

    def scpn_sizes(self) -> dict:
        return {name: getattr(self, name) for name in ("embed_dim", "hidden", "parse_embed_dim", "parse_hidden",
                                                       "decoder_layers", "dropout", "copy")}


def precision(device: Device, fp16: str) -> bool:
    """Train in fp16 (autocast + gradient scaling)? `auto`: on CUDA; `on`: CUDA only (an error on CPU); `off`."""
    if fp16 == "on" and device.kind != "cuda":
        raise ConfigError("fp16 training needs a CUDA device")
    return device.kind == "cuda" and fp16 != "off"


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

        return SCPNParaphraser.create(config.task, instances, templates, vocab_size=config.vocab_size,
                                      max_source_units=config.max_source_units,
                                      max_target_units=config.max_target_units, **config.scpn_sizes())
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
        self.checkpoint_dir = self.output / "checkpoint"

    def _save_checkpoint(self, model: Paraphraser, optimizer, state: dict, training: dict) -> None:
        def write(tmp: Path) -> None:
            model.save(tmp, training)
            torch.save({"optimizer": optimizer.state_dict(), "step": state["step"], "epoch": state["epoch"],
                        "position": state["position"], "elapsed": state["elapsed"], "best_dev": state["best_dev"],
                        "rng": json.dumps(state["rng"].getstate()), "torch_rng": torch.get_rng_state(),
                        "config": dataclasses.asdict(self.config)}, tmp / "trainer_state.pt")

        write_directory(self.checkpoint_dir, write)

    def fit(self, instances: list[Instance], templates: list[tuple[str, int]], dev: list[Instance] = (),
            resume: bool = False, training_info: dict | None = None) -> Paraphraser:
        """Train on `instances`; save the final model into the output directory and return it."""
        c = self.config
        if not instances:
            raise ConfigError("no training instances")
        device = select_device(c.device, c.threads)
        half = precision(device, c.fp16)
        if device.kind == "cpu":
            torch.set_num_threads(max(1, c.threads))
        torch.manual_seed(c.seed)
        self.output.mkdir(parents=True, exist_ok=True)
        (self.output / "train_config.json").write_text(json.dumps(dataclasses.asdict(c), indent=2) + "\n")
        state = {"step": 0, "epoch": 0, "position": 0, "elapsed": 0.0, "best_dev": math.inf,
                 "rng": random.Random(c.seed)}
        optimizer_state = None
        if resume and not self.checkpoint_dir.exists() and (self.output / "checkpoint.old").exists():
            (self.output / "checkpoint.old").rename(self.checkpoint_dir)
        if resume and (self.checkpoint_dir / "trainer_state.pt").is_file():
            saved = load_weights_only(self.checkpoint_dir / "trainer_state.pt")
            model = load_model(self.checkpoint_dir)
            state.update({k: saved[k] for k in ("step", "epoch", "position", "elapsed")})
            state["best_dev"] = saved.get("best_dev", math.inf)     # checkpoints before `best/` existed: none yet
            rng_state = json.loads(saved["rng"])
            state["rng"].setstate((rng_state[0], tuple(rng_state[1]), rng_state[2]))
            torch.set_rng_state(saved["torch_rng"])
            optimizer_state = saved["optimizer"]
            log.info("resuming at update %d (epoch %d, instance %d)", state["step"], state["epoch"],
                     state["position"])
        else:
            model = new_model(c, instances, templates, self.output / "work")
        model.to(device.kind)
        optimizer = torch.optim.Adam([p for p in model.module.parameters() if p.requires_grad], lr=c.lr)
        if optimizer_state is not None:
            optimizer.load_state_dict(optimizer_state)
        scaler = torch.amp.GradScaler("cuda") if half else None
        steps_per_epoch = math.ceil(len(instances) / c.batch_size)
        total = steps_per_epoch * c.epochs if not c.max_steps else min(steps_per_epoch * c.epochs, c.max_steps)
        training = dict(training_info or {}, instances=len(instances), config=dataclasses.asdict(c))
        metrics = (self.output / "metrics.jsonl").open("a")
        bar = tqdm(total=total, initial=min(state["step"], total), desc=f"train {c.task}/{c.arch}",
                   unit="batch", dynamic_ncols=True)
        window_loss, window_count, window_instances, window_start = 0.0, 0, 0, time.perf_counter()
        stop = False
        try:
            while state["epoch"] < c.epochs and not stop:
                order = length_grouped_order(
                    instances, np.random.default_rng(c.seed + state["epoch"]).permutation(len(instances)),
                    c.batch_size)
                batches = [order[i:i + c.batch_size] for i in range(0, len(order), c.batch_size)]
                random.Random(c.seed + state["epoch"]).shuffle(batches)
                while state["position"] < len(batches) and not stop:
                    started = time.perf_counter()
                    batch = [instances[i].drawn(state["rng"]) for i in batches[state["position"]]]
                    model.module.train()
                    with torch.autocast("cuda", dtype=torch.float16, enabled=half):
                        loss = model.loss(batch)
                    optimizer.zero_grad()
                    if scaler is not None:
                        scaler.scale(loss).backward()
                        scaler.unscale_(optimizer)
                    else:
                        loss.backward()
                    torch.nn.utils.clip_grad_norm_(model.module.parameters(), c.clip_norm)
                    if scaler is not None:
                        scaler.step(optimizer)
                        scaler.update()
                    else:
                        optimizer.step()
                    state["position"] += 1
                    state["step"] += 1
                    state["elapsed"] += time.perf_counter() - started
                    window_loss += loss.item()
                    window_count += 1
                    window_instances += len(batch)
                    bar.update(1)
                    if state["step"] % c.log_every == 0:
                        record = {"step": state["step"], "epoch": state["epoch"], "loss": window_loss / window_count,
                                  "instances_per_s": window_instances / (time.perf_counter() - window_start),
                                  "elapsed_s": round(state["elapsed"], 1)}
                        metrics.write(json.dumps(record) + "\n")
                        metrics.flush()
                        bar.set_postfix(loss=f"{record['loss']:.3f}")
                        window_loss, window_count, window_instances, window_start = 0.0, 0, 0, time.perf_counter()
                    if state["step"] % c.checkpoint_every == 0:
                        self._log_dev(model, dev, state, metrics, training)
                        self._save_checkpoint(model, optimizer, state, training)
                    stop = bool((c.max_steps and state["step"] >= c.max_steps) or
                                (c.time_budget_minutes and state["elapsed"] >= 60 * c.time_budget_minutes))
                if state["position"] >= len(batches):
                    state["epoch"] += 1
                    state["position"] = 0
        finally:
            bar.close()
        self._log_dev(model, dev, state, metrics, training)
        self._save_checkpoint(model, optimizer, state, training)
        metrics.write(json.dumps({"done": True, "step": state["step"], "epoch": state["epoch"],
                                  "elapsed_s": round(state["elapsed"], 1), "instances": len(instances)}) + "\n")
        metrics.close()
        training.update(steps=state["step"], epochs_completed=state["epoch"], train_seconds=round(state["elapsed"]))
        model.save(self.output, training, dtype=c.weights_dtype)
        model.module.eval()
        return model

    def _log_dev(self, model: Paraphraser, dev: list[Instance], state: dict, metrics, training: dict) -> None:
        """Mean held-out NLL per unit over `dev` (no dropout, source words shuffled with a fixed seed), logged; a new
        lowest one saves the model into `<output>/best/`."""
        if not dev:
            return
        rng = random.Random(0)
        model.module.eval()
        losses = []
        with torch.no_grad():
            for start in range(0, len(dev), self.config.batch_size):
                losses.append(model.loss([i.drawn(rng) for i in dev[start:start + self.config.batch_size]]).item())
        record = {"step": state["step"], "epoch": state["epoch"], "dev_loss": float(np.mean(losses))}
        metrics.write(json.dumps(record) + "\n")
        metrics.flush()
        log.info("update %d: held-out loss %.4f", state["step"], record["dev_loss"])
        if record["dev_loss"] < state["best_dev"]:
            state["best_dev"] = record["dev_loss"]
            kept = dict(training, steps=state["step"], dev_loss=record["dev_loss"])
            write_directory(self.output / "best", lambda tmp: model.save(tmp, kept, dtype=self.config.weights_dtype))
