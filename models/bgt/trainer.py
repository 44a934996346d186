"""Training of BGT and its baselines (`paranmt train-bgt`; thesis §5.5).

Data: translation pairs (English, other language), sentencepiece-encoded once (the model given as `sp_model`,
e.g. the shipped NMT model's shared cs-en `assets/nmt-cs-en/spm.model`, or one trained on both sides of the
training data into `<output>/sp.model`). Batches hold up to `max_tokens` tokens (pairs sorted by length, cut
into batches of similar lengths, the batch order shuffled per epoch with `seed + epoch`).
Optimizer: Adam (β = 0.9, 0.98; ε = 1e-8), the learning rate warmed up linearly over `warmup` updates to `lr`,
then decayed with the inverse square root of the update number:

    lr(step) = lr · min(step / warmup, sqrt(warmup / step))

The KL weight is annealed linearly from 0 to 1 over `kl_anneal_steps` updates (models/bgt/model.py).
On CUDA (device auto/cuda) the forward pass runs under fp16 autocast with a gradient scaler; on CPU in fp32.
`<output>/checkpoint.pt` (model, optimizer, scaler, counters, RNG) is written every `checkpoint_every` updates and
at the end (atomically); `resume` continues from it. `<output>/metrics.jsonl` gets the losses, the KL weight and
pairs/s every `log_every` updates and the dev STS at each epoch end (if `dev_sts_dir`). At the end the semantic
encoder is saved into `<output>` as a paranmt encoder (kind `bgt`): `paranmt eval/encode/eval-xling/
export-encoder --model <output>` work on it.
"""
from __future__ import annotations

import contextlib
import dataclasses
import json
import logging
import math
import os
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import torch
from tqdm import tqdm

from paranmt.models.bgt.model import VARIANTS, BGTModel
from paranmt.models.encoders.featurizers import SentencePieceFeaturizer
from paranmt.models.nmt.device import Device, select_device
from paranmt.models.safe_load import load_weights_only
from paranmt.schemas.config import ConfigError

log = logging.getLogger(__name__)


@dataclass
class BGTConfig:
    variant: str = "bgt"                 # one of models.bgt.model.VARIANTS
    languages: list[str] = field(default_factory=lambda: ["en", "cs"])   # English first, as the pairs are read
    sp_model: str | None = None          # a sentencepiece model covering both languages (else one is trained)
    sp_vocab_size: int = 8000
    dim: int = 256                       # model width (the thesis: 1024)
    latent: int = 256                    # k, the size of every latent (and of the sentence embedding)
    encoder_layers: int = 2              # the thesis: 5
    decoder_layers: int = 1              # the thesis: 1
    heads: int = 4
    ffn: int = 1024
    dropout: float = 0.1
    max_len: int = 100                   # sentencepiece tokens per side (longer sides are cut)
    label_smoothing: float = 0.1         # of the translation loss
    kl_anneal_steps: int = 65536         # 2^16, as the thesis
    max_tokens: int = 4096               # tokens per batch (the longer side of each pair, summed)
    lr: float = 5e-4
    warmup: int = 4000
    epochs: int = 20
    max_steps: int = 0                   # stop after this many updates in total (0 = no limit)
    time_budget_minutes: float = 0       # stop after this much training time in total (0 = no limit)
    checkpoint_every: int = 1000
    log_every: int = 50
    dev_sts_dir: str | None = None
    dev_datasets: list[str] = field(default_factory=lambda: ["STS2017/track5.en-en"])
    seed: int = 1
    threads: int = 1
    device: str = "auto"                 # auto (CUDA + fp16 when available) | cpu | cuda
    weights_dtype: str = "float32"

    def validate(self) -> "BGTConfig":
        if self.variant not in VARIANTS:
            raise ConfigError(f"bgt: variant {self.variant!r} is not one of {', '.join(VARIANTS)}")
        if len(self.languages) != 2:
            raise ConfigError("bgt: languages needs exactly two codes, English first (e.g. [en, cs])")
        for name in ("dim", "latent", "encoder_layers", "decoder_layers", "heads", "ffn", "max_len",
                     "max_tokens", "warmup", "epochs", "checkpoint_every", "log_every", "threads"):
            if getattr(self, name) < 1:
                raise ConfigError(f"bgt: {name} must be >= 1")
        if self.dim % self.heads:
            raise ConfigError(f"bgt: dim {self.dim} is not a multiple of heads {self.heads}")
        if not 0 <= self.dropout < 1 or not 0 <= self.label_smoothing < 1:
            raise ConfigError("bgt: dropout and label_smoothing must be in [0, 1)")
        if self.device not in ("auto", "cpu", "cuda"):
            raise ConfigError(f"bgt: device must be auto, cpu or cuda, not {self.device!r}")
        if self.sp_model and not Path(self.sp_model).is_file():
            raise ConfigError(f"bgt: sp_model {self.sp_model} does not exist")
        return self


def learning_rate(step: int, lr: float, warmup: int) -> float:
    """Linear warmup to `lr` over `warmup` updates, then inverse square root decay (module docstring)."""
    step = max(step, 1)
    return lr * min(step / warmup, math.sqrt(warmup / step))


def kl_weight(step: int, anneal_steps: int) -> float:
    """β(step) = min(1, step / anneal_steps)."""
    return min(1.0, step / anneal_steps) if anneal_steps > 0 else 1.0


def precision_context(device: Device):
    """fp16 autocast on CUDA when the device asks for it; nothing (fp32) otherwise."""
    if device.kind == "cuda" and device.fp16:
        return torch.autocast(device_type="cuda", dtype=torch.float16)
    return contextlib.nullcontext()


def token_batches(lengths: list[int], max_tokens: int) -> list[list[int]]:
    """Indices cut into batches of similar lengths whose summed length stays within `max_tokens` (a pair longer
    than the budget gets a batch of its own)."""
    batches, current, used = [], [], 0
    for index in sorted(range(len(lengths)), key=lambda i: (lengths[i], i)):
        if current and used + lengths[index] > max_tokens:
            batches.append(current)
            current, used = [], 0
        current.append(index)
        used += lengths[index]
    if current:
        batches.append(current)
    return batches


class BGTTrainer:
    def __init__(self, config: BGTConfig, output: str | Path):
        self.config = config.validate()
        self.output = Path(output)
        self.checkpoint = self.output / "checkpoint.pt"

    def _featurizer(self, pairs: list[tuple[str, str]]) -> SentencePieceFeaturizer:
        c = self.config
        if c.sp_model:
            return SentencePieceFeaturizer(c.sp_model)
        if (self.output / "sp.model").is_file():
            return SentencePieceFeaturizer(self.output / "sp.model")
        return SentencePieceFeaturizer.train([s for pair in pairs for s in pair], self.output / "sp", c.sp_vocab_size)

    def fit(self, pairs: list[tuple[str, str]], resume: bool = False) -> BGTModel:
        """Train on (English, other) pairs; save the semantic encoder into the output directory; return the model."""
        c = self.config
        if not pairs:
            raise ConfigError("bgt: no training pairs")
        torch.set_num_threads(c.threads)
        torch.manual_seed(c.seed)
        self.output.mkdir(parents=True, exist_ok=True)
        (self.output / "bgt_config.json").write_text(json.dumps(dataclasses.asdict(c), indent=2) + "\n")
        featurizer = self._featurizer(pairs)
        device = select_device(c.device, c.threads)
        model = BGTModel(featurizer, c.variant, tuple(c.languages), c.dim, c.latent, c.encoder_layers,
                         c.decoder_layers, c.heads, c.ffn, c.dropout, c.max_len, c.label_smoothing).to(device.kind)
        optimizer = torch.optim.Adam(model.parameters(), lr=c.lr, betas=(0.9, 0.98), eps=1e-8)
        scaler = torch.amp.GradScaler("cuda", enabled=device.kind == "cuda" and device.fp16)
        state = {"step": 0, "epoch": 0, "position": 0, "elapsed": 0.0}
        if resume and self.checkpoint.is_file():
            saved = load_weights_only(self.checkpoint, map_location=device.kind)
            model.load_state_dict(saved["model"])
            optimizer.load_state_dict(saved["optimizer"])
            scaler.load_state_dict(saved["scaler"])
            torch.set_rng_state(saved["torch_rng"].cpu())
            state = {k: saved[k] for k in state}
            log.info("resuming at update %d (epoch %d, batch %d)", state["step"], state["epoch"], state["position"])
        english = featurizer.ids([e for e, _ in pairs])
        other = featurizer.ids([o for _, o in pairs])
        lengths = [min(c.max_len, max(len(a), len(b))) + 1 for a, b in zip(english, other)]
        batches = token_batches(lengths, c.max_tokens)
        total = len(batches) * c.epochs if not c.max_steps else min(c.max_steps, len(batches) * c.epochs)
        metrics = (self.output / "metrics.jsonl").open("a")
        bar = tqdm(total=total, initial=min(state["step"], total), desc=f"train-bgt {c.variant}", unit="update",
                   dynamic_ncols=True)
        window, window_pairs, window_start = {}, 0, time.perf_counter()
        stop = False
        try:
            while state["epoch"] < c.epochs and not stop:
                order = np.random.default_rng(c.seed + state["epoch"]).permutation(len(batches))
                while state["position"] < len(batches) and not stop:
                    started = time.perf_counter()
                    batch = batches[order[state["position"]]]
                    model.train()
                    for group in optimizer.param_groups:
                        group["lr"] = learning_rate(state["step"] + 1, c.lr, c.warmup)
                    beta = kl_weight(state["step"], c.kl_anneal_steps)
                    with precision_context(device):
                        losses = model([english[i] for i in batch], [other[i] for i in batch], beta)
                    optimizer.zero_grad()
                    scaler.scale(losses["loss"]).backward()
                    scaler.step(optimizer)
                    scaler.update()
                    state["step"] += 1
                    state["position"] += 1
                    state["elapsed"] += time.perf_counter() - started
                    bar.update(1)
                    for key, value in losses.items():
                        window[key] = window.get(key, 0.0) + float(value.detach()) * len(batch)
                    window_pairs += len(batch)
                    if state["step"] % c.log_every == 0:
                        record = {"step": state["step"], "epoch": state["epoch"], "kl_weight": round(beta, 5),
                                  **{k: v / window_pairs for k, v in window.items()},
                                  "pairs_per_s": window_pairs / (time.perf_counter() - window_start),
                                  "elapsed_s": state["elapsed"]}
                        metrics.write(json.dumps(record) + "\n")
                        metrics.flush()
                        bar.set_postfix(loss=f"{record['loss']:.3f}", kl=f"{record['kl']:.2f}")
                        window, window_pairs, window_start = {}, 0, time.perf_counter()
                    if state["step"] % c.checkpoint_every == 0:
                        self._save_checkpoint(model, optimizer, scaler, state)
                    stop = bool((c.max_steps and state["step"] >= c.max_steps) or
                                (c.time_budget_minutes and state["elapsed"] >= 60 * c.time_budget_minutes))
                if state["position"] >= len(batches):
                    state["epoch"] += 1
                    state["position"] = 0
                    self._log_dev(model, state, metrics)
        finally:
            bar.close()
        self._save_checkpoint(model, optimizer, scaler, state)
        metrics.write(json.dumps({"done": True, **state, "pairs": len(pairs), "batches": len(batches)}) + "\n")
        metrics.close()
        model.encoder.save(self.output, dtype=c.weights_dtype)
        return model.eval()

    def _save_checkpoint(self, model, optimizer, scaler, state: dict) -> None:
        tmp = self.checkpoint.with_suffix(".tmp")
        torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "scaler": scaler.state_dict(),
                    "torch_rng": torch.get_rng_state(), "config": dataclasses.asdict(self.config), **state}, tmp)
        os.replace(tmp, self.checkpoint)

    def _log_dev(self, model: BGTModel, state: dict, metrics) -> None:
        if not self.config.dev_sts_dir:
            return
        from paranmt.models.evaluation.sts import evaluate

        results, _ = evaluate(model.encoder.encode, self.config.dev_sts_dir, self.config.dev_datasets)
        record = {"step": state["step"], "epoch": state["epoch"],
                  "dev": {r.dataset: round(100 * r.pearson, 2) for r in results}}
        metrics.write(json.dumps(record) + "\n")
        metrics.flush()
        log.info("epoch %d dev STS: %s", state["epoch"], record["dev"])
