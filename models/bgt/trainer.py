"""Training of BGT and its baselines (`paranmt train-bgt`; thesis §5.5).

Data: translation pairs (English, other language), sentencepiece-encoded once (the model given as `sp_model`,
e.g. the shipped NMT model's shared cs-en `assets/nmt-cs-en/spm.model`, or one trained on both sides of the
training data into `<output>/sp.model`). Batches hold up to `max_tokens` tokens (pairs sorted by length, cut
into batches of similar lengths, the batch order shuffled per epoch with `seed + epoch`).
Optimizer: Adam (β = 0.9, 0.98; ε = 1e-8), the learning rate warmed up linearly over `warmup` updates to `lr`,
then decayed with the inverse square root of the update number:

    lr(step) = lr · min(step / warmup, sqrt(warmup / step))

The KL weight is annealed linearly from 0 to 1 over `kl_anneal_steps` updates (models/bgt/model.py).
Precision (`fp16`, models/device.py `MixedPrecision`): on CUDA (device auto/cuda) the forward pass runs under fp16
autocast with loss scaling unless `fp16: off`; `fp16: bf16` autocasts to bfloat16 (CUDA or CPU); on CPU fp32.
The updates run in the shared training loop (models/loop.py; `BGTTask`): `<output>/checkpoint/`
(model.pt with the model's state, trainer_state.pt with optimizer, scaler, counters, RNG; the learning rate is a
function of the update number, so it needs no state of its own) is written every `checkpoint_every` updates and
at the end (atomically); `resume` continues from it, or from the single `<output>/checkpoint.pt` that train-bgt
wrote before (replaced by the directory at the next checkpoint). `<output>/metrics.jsonl` gets the losses, the KL
weight and pairs/s every `log_every` updates and the dev STS at each epoch end (if `dev_sts_dir`; the best
evaluation's semantic encoder is kept in `<output>/best/`, and `patience` N stops after N epochs without a new
best: models/encoder_dev.py `EncoderDevTask`, loop.py). At the end the
semantic encoder is saved into `<output>` as a paranmt encoder (kind `bgt`): `paranmt eval/encode/eval-xling/
export-encoder --model <output>` work on it.
"""
from __future__ import annotations

import logging
import math
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

import torch

from paranmt.models.bgt.model import VARIANTS, BGTModel
from paranmt.models.device import Device, MixedPrecision
from paranmt.models.encoder_dev import EncoderDevTask
from paranmt.models.encoders.featurizers import SentencePieceFeaturizer
from paranmt.models.files import ModelFileError, reading
from paranmt.models.loop import Loop, LoopConfig, LoopState, Window, epoch_order
from paranmt.models.safe_load import load_weights_only
from paranmt.schemas.config import MAX_LAYERS, MAX_VOCABULARY, MAX_WIDTH, bounded, choice, setting
from paranmt.schemas.errors import ConfigError

log = logging.getLogger(__name__)


@dataclass
class BGTConfig(LoopConfig):
    """BGT's settings (the loop's own: LoopConfig, models/loop.py)."""
    SAVED_AS: ClassVar[str] = "bgt_config.json"
    SHAPES: ClassVar[tuple[str, ...]] = ("variant", "languages", "sp_vocab_size", "dim", "latent", "encoder_layers",
                                         "decoder_layers", "heads", "ffn", "dropout", "max_len")
    HELP: ClassVar[dict[str, str]] = {
        "max_steps": "stop after N updates (0 = no limit)",
        "time_budget_minutes": "stop after this much training time (0 = no limit)",
        "patience": "stop after N dev evaluations (epoch ends) in a row without a new best (needs dev_sts_dir; "
                    "0 = off)",
        "device": "auto: CUDA with fp16 when present", "seed": "random seed"}
    variant: str = choice("bgt", VARIANTS, help="bgt or a Table 48 baseline")
    languages: list[str] = setting(default_factory=lambda: ["en", "cs"], help="the two languages of the bitext, "
                                   "English first, as the pairs are read")
    sp_model: str | None = setting(None, help="sentencepiece model covering both languages (default: train one of "
                                   "sp_vocab_size pieces on the data)")
    sp_vocab_size: int = bounded(8000, 1, MAX_VOCABULARY, help="pieces of the sentencepiece model trained on the data "
                                 "(without --sp-model)")
    dim: int = bounded(256, 1, MAX_WIDTH, help="model width (the thesis 1024)")
    latent: int = bounded(256, 1, MAX_WIDTH, help="size of each latent = the embedding size")
    encoder_layers: int = bounded(2, 1, MAX_LAYERS, help="encoder layers (the thesis 5)")
    decoder_layers: int = bounded(1, 1, MAX_LAYERS, help="decoder layers")
    heads: int = bounded(4, 1, MAX_WIDTH, help="attention heads (dim must be a multiple)")
    ffn: int = bounded(1024, 1, MAX_WIDTH, help="feed-forward size of the transformer layers")
    dropout: float = bounded(0.1, 0, 1, open_high=True, help="dropout of the transformer layers (< 1)")
    max_len: int = bounded(100, 1, MAX_WIDTH, help="sentencepiece tokens per side (longer sides are cut)")
    label_smoothing: float = bounded(0.1, 0, 1, open_high=True, help="label smoothing of the translation loss (< 1)")
    kl_anneal_steps: int = setting(65536, help="updates over which the KL weight grows to 1 (the thesis 2^16)")
    max_tokens: int = bounded(4096, 1, help="tokens per batch")
    lr: float = bounded(5e-4, 0, help="peak learning rate, reached after --warmup updates")
    warmup: int = bounded(4000, 1, help="updates of linear learning-rate warmup, then inverse square root decay")
    epochs: int = bounded(20, 0, help="passes over the pairs")
    log_every: int = bounded(50, 0)
    dev_sts_dir: str | None = setting(None, help="STS root folder; its dev_datasets are scored at each epoch end and "
                                      "the best model kept in <output>/best/")
    dev_datasets: list[str] = setting(default_factory=lambda: ["STS2017/track5.en-en"], help="the datasets of "
                                      "--dev-sts-dir scored as dev, each by its name or a part of it")

    def validate(self) -> "BGTConfig":
        super().validate()
        if len(self.languages) != 2:
            raise ConfigError("bgt: languages needs exactly two codes, English first (e.g. [en, cs])")
        if self.dim % self.heads:
            raise ConfigError(f"bgt: dim {self.dim} is not a multiple of heads {self.heads}")
        if self.sp_model and not Path(self.sp_model).is_file():
            raise ConfigError(f"bgt: sp_model {self.sp_model} does not exist")
        return self

    def model_size(self) -> tuple[int, str]:
        """At most: the shared embedding table and the output layers (sp_vocab_size x dim, three of them), the
        position tables and the transformer layers (the semantic and two language encoders, two decoders)."""
        d = self.dim
        layers = (3 * self.encoder_layers + 2 * self.decoder_layers) * (8 * d * d + 2 * d * self.ffn)
        return (3 * self.sp_vocab_size * d + 5 * self.max_len * d + layers,
                f"sp_vocab_size {self.sp_vocab_size}, dim {d}, ffn {self.ffn}, encoder_layers {self.encoder_layers}, "
                f"decoder_layers {self.decoder_layers}, max_len {self.max_len}")


def learning_rate(step: int, lr: float, warmup: int) -> float:
    """Linear warmup to `lr` over `warmup` updates, then inverse square root decay (module docstring)."""
    step = max(step, 1)
    return lr * min(step / warmup, math.sqrt(warmup / step))


def kl_weight(step: int, anneal_steps: int) -> float:
    """β(step) = min(1, step / anneal_steps)."""
    return min(1.0, step / anneal_steps) if anneal_steps > 0 else 1.0


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

    def fit(self, pairs: list[tuple[str, str]], resume: bool = False) -> BGTModel:
        """Train on (English, other) pairs in the shared loop (`BGTTask`); save the semantic encoder into the output
        directory; return the model."""
        c = self.config
        if not pairs:
            raise ConfigError("bgt: no training pairs")
        task = BGTTask(c, self.output, pairs)
        Loop(task, c, self.output, resume=resume, save_config=True).run()
        task.model.encoder.save(self.output, dtype=c.weights_dtype)
        return task.model.eval()


class BGTTask(EncoderDevTask):
    """BGT training as a task of the shared loop (module docstring): a position counts token batches of the
    epoch's order; one update per batch."""
    unit = "update"
    shown = ("loss", "kl")

    def __init__(self, config: BGTConfig, output: Path, pairs: list[tuple[str, str]]):
        self.config, self.output, self.pairs = config, output, pairs
        self.description = f"train-bgt {config.variant}"
        self.warmup_updates = config.warmup

    def _featurizer(self, resuming: bool) -> SentencePieceFeaturizer:
        """The sentencepiece model: `sp_model`, else the one an earlier run trained into `<output>/sp.model`, else
        one trained on the pairs now. An unreadable `<output>/sp.model` (truncated by a full disk under an older
        version, which wrote it in place) is trained again when no checkpoint depends on it, and one line naming it
        (ModelFileError) when the run resumes from a checkpoint trained with it."""
        c = self.config
        if c.sp_model:
            with reading(c.sp_model, "sentencepiece model"):
                return SentencePieceFeaturizer(c.sp_model)
        trained = self.output / "sp.model"
        if trained.is_file():
            try:
                with reading(trained, "sentencepiece model"):
                    return SentencePieceFeaturizer(trained)
            except ModelFileError as error:
                if resuming:
                    raise ModelFileError(f"{error}; the checkpoint in {self.output} was trained with it: start again "
                                         f"with --overwrite") from None
                log.warning("%s, left by a run that stopped before its first checkpoint: training it again", error)
        return SentencePieceFeaturizer.train([s for pair in self.pairs for s in pair], self.output / "sp",
                                             c.sp_vocab_size)

    def setup(self, checkpoint, device: Device) -> None:
        c = self.config
        featurizer = self._featurizer(resuming=checkpoint is not None)
        self.precision = MixedPrecision.select(device, c.fp16)
        self.model = BGTModel(featurizer, c.variant, tuple(c.languages), c.dim, c.latent, c.encoder_layers,
                              c.decoder_layers, c.heads, c.ffn, c.dropout, c.max_len,
                              c.label_smoothing).to(device.kind)
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=c.lr, betas=(0.9, 0.98), eps=1e-8)
        if checkpoint is not None:
            weights = (checkpoint.state["model"] if checkpoint.directory is None else
                       load_weights_only(checkpoint.directory / "model.pt", map_location=device.kind))
            self.model.load_state_dict(weights)
            self.optimizer.load_state_dict(checkpoint.state["optimizer"])
            self.precision.load_state_dict(checkpoint.state.get("scaler"))
        self.english = featurizer.ids([e for e, _ in self.pairs])
        self.other = featurizer.ids([o for _, o in self.pairs])
        lengths = [min(c.max_len, max(len(a), len(b))) + 1 for a, b in zip(self.english, self.other)]
        self.batches_of_epoch = token_batches(lengths, c.max_tokens)

    def steps_per_epoch(self) -> int:
        return len(self.batches_of_epoch)

    def epoch_size(self) -> int:
        return len(self.batches_of_epoch)

    def batches(self, state: LoopState):
        order = epoch_order(self.config.seed, state.epoch, len(self.batches_of_epoch))
        for position in range(state.position, len(order)):
            yield 1, self.batches_of_epoch[order[position]]

    def step(self, batch: list[int], state: LoopState) -> tuple[int, dict]:
        c, model, optimizer = self.config, self.model, self.optimizer
        model.train()
        for group in optimizer.param_groups:
            group["lr"] = learning_rate(state.step + 1, c.lr, c.warmup)
        self.beta = kl_weight(state.step, c.kl_anneal_steps)
        with self.precision.autocast():
            losses = model([self.english[i] for i in batch], [self.other[i] for i in batch], self.beta)
        optimizer.zero_grad()
        self.precision.backward(losses["loss"])
        self.precision.step([optimizer])
        return 1, {**{key: float(value.detach()) * len(batch) for key, value in losses.items()}, "pairs": len(batch)}

    def parameters(self):
        return self.model.parameters()

    def record(self, window: Window, state: LoopState) -> dict:
        pairs = window.sums["pairs"]
        return {"kl_weight": round(self.beta, 5), **{k: v / pairs for k, v in window.sums.items() if k != "pairs"},
                "pairs_per_s": pairs / window.seconds}

    @property
    def dev_encoder(self):
        """The semantic encoder, the one kept (`<output>/best/`) and saved."""
        return self.model.encoder

    def state_dict(self) -> dict:
        return {"optimizer": self.optimizer.state_dict(), "scaler": self.precision.state_dict()}

    def save(self, directory: Path) -> None:
        torch.save(self.model.state_dict(), directory / "model.pt")

    def summary(self, state: LoopState) -> dict:
        return {"position": state.position, "elapsed": state.elapsed, "pairs": len(self.pairs),
                "batches": len(self.batches_of_epoch)}
