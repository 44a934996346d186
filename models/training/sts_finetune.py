"""Supervised STS (Tai et al. 2015, as the GRAN paper uses it; SPEC §9 "Head"): a similarity head on two sentence
embeddings, trained with the encoder (initialized from a trained encoder) on SICK relatedness or STS Benchmark.

Head, for embeddings h_L, h_R of the two sentences, each first rescaled to unit root-mean-square
(h = g sqrt(d) / ||g||; decided here: averaging encoders give entries around 0.01, which leave Tai et al.'s
sigmoid layer at its midpoint for thousands of steps; after the rescaling sum(h_x) = d cos(g_L, g_R), so the
unsupervised predictor lies in the head's span, and one learning rate fits every encoder's scale):

    h_x = h_L * h_R,   h_+ = |h_L - h_R|
    h_s = sigmoid(W_x h_x + W_+ h_+ + b_h)                     (hidden size `hidden`, 50 as Tai et al.)
    p^  = softmax(W_p h_s + b_p)                               (K score bins)
    y^  = r^T p^,   r = [low, low + 1, ..., high]              (K = high - low + 1)

Target distribution of a gold score y in [low, high] (Tai et al. with 1-based bins shifted to start at `low`):
with f = floor(y), p[f] = f - y + 1 and p[f + 1] = y - f (bins indexed by their score value), all other bins 0;
y = high puts all mass on the last bin. E.g. bins 1..5, y = 3.6: p = [0, 0, 0.4, 0.6, 0]; r^T p = 3.6.
Loss: J = (1/m) Σ KL(p || p^) + λ_w Σ ‖θ_enc − θ_enc(init)‖² (the L2-to-initial option on the encoder weights).
Tasks: `sick-r` (bins 1..5; SICK_train / SICK_trial / SICK_test_annotated) and `stsb` (bins 0..5; sts-train /
sts-dev / sts-test; when sts-test.csv is absent, as in ../shared/data, sts-dev is the test set and a seeded
`dev_fraction` of sts-train is held out as the dev set). Each epoch ends with the dev Pearson of y^; the epoch
with the best dev Pearson is kept (its encoder and head).
"""
from __future__ import annotations

import copy
import json
import logging
import math
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import ClassVar

import numpy as np
import torch
from scipy.stats import pearsonr
from torch import nn

from paranmt.models.encoders import SentenceEncoder
from paranmt.models.encoding import LineRejects
from paranmt.models.evaluation.sts import STSDataset, discover_datasets, score_dataset
from paranmt.models.training.loop import Loop, LoopConfig, LoopState, Task, Window
from paranmt.models.training.regularizers import l2_to_initial
from paranmt.schemas.config import MAX_WIDTH, bounded, check_choice
from paranmt.schemas.errors import ConfigError

log = logging.getLogger(__name__)

# task -> (score range, dataset names under the data dir's sts/ folder: train, dev, test)
TASKS = {
    "sick-r": ((1, 5), ("SICK/SICK_train", "SICK/SICK_trial", "SICK/SICK_test_annotated")),
    "stsb": ((0, 5), ("stsbenchmark/sts-train", "stsbenchmark/sts-dev", "stsbenchmark/sts-test")),
}


class FinetuneDataError(ValueError):
    """Missing task files or gold scores outside the task's range."""


@dataclass
class FinetuneConfig(LoopConfig):
    """The settings of `paranmt finetune-sts` (`--config` YAML keys, `--set`, the flags): the loop's (LoopConfig:
    epochs, lr, max_steps, time_budget_minutes, patience over the dev Pearson, log_every, seed, threads; a CPU run
    without checkpoints: FIXED) and the head's."""
    FIXED: ClassVar[tuple[str, ...]] = ("checkpoint_every", "device", "weights_dtype")
    epochs: int = bounded(10, 1)
    lr: float = bounded(1e-3, 0)                # Adam, head and encoder
    checkpoint_every: int = bounded(0, 0)
    log_every: int = bounded(0, 0)              # 0: one metrics line per epoch
    threads: int = bounded(1, 0)                # torch CPU threads (0: leave torch's setting)
    device: str = "cpu"
    task: str = "sick-r"                        # sick-r | stsb (TASKS)
    batch_size: int = bounded(25, 1)
    hidden: int = bounded(50, 1, MAX_WIDTH)
    l2_to_init: float = bounded(0.0, 0)         # λ_w of ‖θ_enc − θ_enc(init)‖² (0: off)
    freeze_encoder: bool = False                # train the head only (frozen features)
    dev_fraction: float = bounded(0.1, 0, 1)    # stsb without sts-test.csv: share of sts-train held out as dev
    limit: int = bounded(0, 0)                  # at most this many pairs per split (0 = all; quick checks)

    def validate(self) -> "FinetuneConfig":
        super().validate()
        check_choice("task", self.task, tuple(TASKS))
        if not 0 < self.dev_fraction < 1:
            raise ConfigError(f"dev_fraction must lie strictly between 0 and 1, not {self.dev_fraction}")
        return self


def target_distribution(scores: np.ndarray, low: int, high: int) -> np.ndarray:
    """float32 [n, K] Tai et al. targets of `scores` in [low, high] over the bins low..high (see module doc)."""
    scores = np.asarray(scores, dtype=np.float64)
    if scores.size and (scores.min() < low or scores.max() > high):
        raise ValueError(f"scores must lie in [{low}, {high}], got [{scores.min()}, {scores.max()}]")
    bins = high - low + 1
    position = scores - low                         # 0-based real-valued bin position
    floor = np.minimum(np.floor(position).astype(int), bins - 1)
    upper_mass = position - floor                   # 0 when y = high (floor = last bin)
    target = np.zeros((len(scores), bins), dtype=np.float32)
    rows = np.arange(len(scores))
    target[rows, floor] = 1.0 - upper_mass
    has_upper = floor + 1 < bins
    target[rows[has_upper], floor[has_upper] + 1] = upper_mass[has_upper]
    return target


class SimilarityHead(nn.Module):
    """Tai et al.'s head: log p^ [n, K] from two embedding batches; `expected` gives y^ = r^T p^."""

    def __init__(self, dim: int, hidden: int, low: int, high: int):
        super().__init__()
        self.low, self.high = low, high
        self.product = nn.Linear(dim, hidden, bias=False)
        self.difference = nn.Linear(dim, hidden)
        self.output = nn.Linear(hidden, high - low + 1)
        self.register_buffer("scores", torch.arange(low, high + 1, dtype=torch.float32))

    def forward(self, left: torch.Tensor, right: torch.Tensor) -> torch.Tensor:
        left, right = unit_rms(left), unit_rms(right)
        hidden = torch.sigmoid(self.product(left * right) + self.difference((left - right).abs()))
        return torch.log_softmax(self.output(hidden), dim=1)

    def expected(self, log_probabilities: torch.Tensor) -> torch.Tensor:
        return log_probabilities.exp() @ self.scores


def unit_rms(vectors: torch.Tensor, eps: float = 1e-12) -> torch.Tensor:
    """Rows rescaled to unit root-mean-square, g * sqrt(d) / ||g|| (a zero row stays zero)."""
    return vectors * (vectors.shape[1] ** 0.5 / vectors.norm(dim=1, keepdim=True).clamp_min(eps))


def kl_loss(log_predicted: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    """(1/m) Σ_i KL(p_i || p^_i) = mean over rows of Σ_k p log p − p log p^ (0 log 0 = 0)."""
    return nn.functional.kl_div(log_predicted, target, reduction="batchmean")


def load_splits(sts_dir: str | Path, task: str, dev_fraction: float = 0.1, seed: int = 1,
                rejects: LineRejects | None = None) -> dict[str, STSDataset]:
    """{train, dev, test} STSDatasets of `task` from the STS root (`<data-dir>/sts`), read by the STS reader (its
    lines that are not UTF-8 are rejects, counted in `rejects`)."""
    if task not in TASKS:
        raise FinetuneDataError(f"unknown task {task!r}; choose from {', '.join(TASKS)}")
    (low, high), names = TASKS[task]
    found = {d.name: d for d in discover_datasets(sts_dir, list(names), rejects)[0]}
    train, dev, test = (found.get(n) for n in names)
    if train is None:
        raise missing(sts_dir, names[0])
    if dev is None:
        raise missing(sts_dir, names[1])
    if test is None:
        if task != "stsb":
            raise missing(sts_dir, names[2])
        order = np.random.default_rng(seed).permutation(len(train.gold))
        held = np.sort(order[:int(round(dev_fraction * len(order)))])
        kept = np.sort(order[int(round(dev_fraction * len(order))):])
        test = dev
        dev = _subset(train, held, f"{train.name}[held-out {dev_fraction:g}]")
        train = _subset(train, kept, train.name)
        log.info("no %s: testing on %s, dev = %d pairs held out of the training set", names[2], test.name,
                 len(held))
    for dataset in (train, dev, test):
        if not len(dataset.gold):
            raise FinetuneDataError(f"{dataset.name}: no scored pairs under {sts_dir}")
        if dataset.gold.min() < low or dataset.gold.max() > high:
            raise FinetuneDataError(f"{dataset.name}: gold scores outside [{low}, {high}]")
    return {"train": train, "dev": dev, "test": test}


def missing(sts_dir: str | Path, name: str) -> FinetuneDataError:
    """The error for a dataset of a task that the STS reader did not find: its file is there but not in the task's
    format (the reader skips such files), or there is none."""
    files = sorted(Path(sts_dir).glob(f"{name}.*"))
    if files:
        return FinetuneDataError(f"{files[0]} is not a readable {name.split('/')[0]} file (UTF-8 TSV with its "
                                 f"header line)")
    return FinetuneDataError(f"{name} not found under {sts_dir}")


def _subset(dataset: STSDataset, index: np.ndarray, name: str) -> STSDataset:
    return STSDataset(name, dataset.group, [dataset.s1[i] for i in index], [dataset.s2[i] for i in index],
                      dataset.gold[index])


def limit_dataset(dataset: STSDataset, limit: int, seed: int) -> STSDataset:
    if not limit or limit >= len(dataset.gold):
        return dataset
    return _subset(dataset, np.sort(np.random.default_rng(seed).permutation(len(dataset.gold))[:limit]),
                   dataset.name)


@torch.no_grad()
def predict(encoder: SentenceEncoder, head: SimilarityHead, dataset: STSDataset, batch_size: int = 1024) -> np.ndarray:
    """y^ for every pair of `dataset` (eval mode)."""
    encoder.eval()
    head.eval()
    left = torch.from_numpy(encoder.encode(dataset.s1, batch_size))
    right = torch.from_numpy(encoder.encode(dataset.s2, batch_size))
    return head.expected(head(left, right)).numpy()


def pearson(predicted: np.ndarray, gold: np.ndarray) -> float:
    return float(pearsonr(predicted, gold)[0])


def _dense_gradients(encoder: SentenceEncoder) -> list[nn.Embedding]:
    """Switch every sparse embedding table to dense gradients (Adam and the L2-to-initial penalty need them);
    returns the tables switched, to be switched back before saving."""
    switched = [m for m in encoder.modules() if isinstance(m, nn.Embedding) and m.sparse]
    for module in switched:
        module.sparse = False
    return switched


class FinetuneTask(Task):
    """Head (+ encoder unless frozen) training as a task of the shared loop (models/training/loop.py): per epoch a
    permutation of the training pairs from the one generator seeded with `seed`, cut into mini-batches; per
    mini-batch one Adam step on J; at each epoch's end (and at a stop inside one) the dev Pearson of y^, in the
    epoch's metrics line with the mean KL; the best epoch's encoder and head are kept (in memory)."""
    shown = ("kl",)
    best = ("dev_pearson", "max")

    def __init__(self, encoder: SentenceEncoder, splits: dict[str, STSDataset], config: FinetuneConfig):
        self.description = f"finetune-sts {config.task}"
        self.start, self.splits, self.config = encoder, splits, config
        self.kept = {"epoch": 0, "state": None}

    def setup(self, checkpoint, device) -> None:
        c = self.config
        (low, high), _ = TASKS[c.task]
        self.encoder = copy.deepcopy(self.start)
        self.switched = _dense_gradients(self.encoder)
        self.head = SimilarityHead(self.encoder.dim, c.hidden, low, high)
        parameters = list(self.head.parameters())
        self.regularizer = l2_to_initial({}, 0.0)
        if c.freeze_encoder:
            self.encoder.requires_grad_(False)
        else:
            parameters += list(self.encoder.parameters())
            self.regularizer = l2_to_initial(dict(self.encoder.named_parameters()), c.l2_to_init)
        self.optimizer = torch.optim.Adam(parameters, lr=c.lr)
        self.target = torch.from_numpy(target_distribution(self.splits["train"].gold, low, high))
        self.rng = np.random.default_rng(c.seed)

    def steps_per_epoch(self) -> int:
        return math.ceil(len(self.splits["train"].gold) / self.config.batch_size)

    def epoch_size(self) -> int:
        return self.steps_per_epoch()

    def batches(self, state: LoopState):
        order, size = self.rng.permutation(len(self.splits["train"].gold)), self.config.batch_size
        for start in range(state.position * size, len(order), size):
            yield 1, order[start:start + size]

    def step(self, index: np.ndarray, state: LoopState) -> tuple[int, dict]:
        train = self.splits["train"]
        self.encoder.train(not self.config.freeze_encoder)
        self.head.train()
        vectors = self.encoder.embed([train.s1[i] for i in index] + [train.s2[i] for i in index])
        left, right = vectors.split(len(index))
        loss = kl_loss(self.head(left, right), self.target[index])
        total_loss = loss + self.regularizer()
        self.optimizer.zero_grad()
        total_loss.backward()
        self.optimizer.step()
        return 1, {"kl": loss.item()}

    def parameters(self):
        return [*self.encoder.parameters(), *self.head.parameters()]

    def record(self, window: Window, state: LoopState) -> dict:
        return {"kl": window.sums["kl"] / window.updates, "seconds": window.seconds}

    def evaluate(self, state: LoopState) -> dict:
        dev = self.splits["dev"]
        return {"dev_pearson": pearson(predict(self.encoder, self.head, dev), dev.gold)}

    def keep_best(self, state: LoopState, metrics: dict) -> None:
        self.kept = {"epoch": metrics["epoch"],
                     "state": (copy.deepcopy(self.encoder.state_dict()), copy.deepcopy(self.head.state_dict()))}


def finetune(encoder: SentenceEncoder, splits: dict[str, STSDataset], config: FinetuneConfig,
             metrics_file: Path | None = None) -> tuple[SentenceEncoder, SimilarityHead, dict]:
    """Train head (+ encoder unless frozen) on splits['train'] (`FinetuneTask` in the shared loop), keep the best
    epoch by dev Pearson.

    Returns (encoder, head, report) with report = {unsupervised: {dev, test}, supervised: {dev, test},
    best_epoch, steps}; the unsupervised numbers are the cosine of the encoder as given (before training)."""
    unsupervised = {split: score_dataset(encoder.encode, splits[split]).pearson for split in ("dev", "test")}
    task = FinetuneTask(encoder, splits, config)
    state = Loop(task, config.validate(), metrics_file=metrics_file).run()
    encoder, head = task.encoder, task.head
    if task.kept["state"] is not None:
        encoder.load_state_dict(task.kept["state"][0])
        head.load_state_dict(task.kept["state"][1])
    for module in task.switched:
        module.sparse = True
    encoder.requires_grad_(True)
    supervised = {split: pearson(predict(encoder, head, splits[split]), splits[split].gold)
                  for split in ("dev", "test")}
    report = {"unsupervised": unsupervised, "supervised": supervised, "best_epoch": task.kept["epoch"],
              "steps": state.step, "config": asdict(config)}
    return encoder.eval(), head.eval(), report


def save_head(head: SimilarityHead, directory: Path) -> None:
    """head.json (sizes, score range) + head.npz (weights) in `directory`."""
    directory.mkdir(parents=True, exist_ok=True)
    np.savez(directory / "head.npz", **{k: v.numpy() for k, v in head.state_dict().items()})
    (directory / "head.json").write_text(json.dumps(
        {"dim": head.product.in_features, "hidden": head.product.out_features, "low": head.low,
         "high": head.high, "formula": "p = softmax(W_p sigmoid(W_x (u*v) + W_+ |u-v| + b_h) + b_p); y = r.p"},
        indent=2) + "\n")
