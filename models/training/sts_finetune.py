"""Supervised tasks on a trained encoder (Tai et al. 2015, as the GRAN paper and the thesis' §3.2.4 use it; SPEC §9
"Head"): a head on sentence embeddings, trained with the encoder (initialized from a trained encoder) or on its
frozen features: relatedness (SICK relatedness, STS Benchmark; Pearson), entailment (SICK-E; accuracy) and
sentiment (SST-2; accuracy).

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
Tasks: `sick-r` (bins 1..5; SICK_train / SICK_trial / SICK_test_annotated), `stsb` (bins 0..5; sts-train /
sts-dev / sts-test; when sts-test.csv is absent, as in ../shared/data, sts-dev is the test set and a seeded
`dev_fraction` of sts-train is held out as the dev set) and `sts12-15` (bins 0..5; P17's 40/10/50% split of every
SemEval STS 2012-2015 test dataset, `semeval_splits`). Each epoch ends with the dev Pearson of y^; the epoch
with the best dev Pearson is kept (its encoder and head).

Classification tasks (SPEC §9: "Entailment: 3-way softmax + NLL; sentiment: FC sigmoid layer -> 2-way softmax +
NLL"), read by the transfer evaluation's readers (models/evaluation/transfer.py `load_task`):
- `sick-e`: the pair layer above with 3 outputs (ENTAILMENT, NEUTRAL, CONTRADICTION), p^ = softmax(W_p h_s + b_p);
  SICK_train / SICK_trial / SICK_test_annotated;
- `sst2`: one sentence, h_s = sigmoid(W h + b_h), p^ = softmax(W_p h_s + b_p) over (negative, positive);
  `transfer/sst2/train.tsv` / `dev.tsv` / `test.tsv`; when test.tsv is absent (as in ../shared/data), dev.tsv is
  the test set and a seeded `dev_fraction` of train.tsv is held out as the dev set (as stsb without sts-test).
Loss: the mean negative log-likelihood of the gold class (+ the L2-to-initial term); the epoch with the best dev
accuracy is kept. The baseline beside the head is the majority class of the training set (its accuracy on dev and
test), where relatedness tasks have the encoder's unsupervised cosine.

The settings of the thesis' §3.2.4 (SPEC §12.5): full fine-tuning (the default), the "universal" setting (the
encoder initialized from a trained paraphrastic model and pulled back toward it: `l2_to_init` > 0) and frozen
features (`freeze_encoder`), optionally linearly projected to `projection` dimensions before the head (a learned
d x projection matrix, no bias, trained with the head on the task; the thesis learned its projection on PPDB and
froze it: decided here, as no PPDB is staged). The projection applies to every task's head.
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
from paranmt.models.evaluation.sts import YEAR_GROUP, STSDataset, discover_datasets, score_dataset
from paranmt.models.evaluation.transfer import SICK_LABELS, Split, TransferDataError
from paranmt.models.evaluation.transfer import load_task as transfer_task
from paranmt.models.loop import CpuLoopConfig, Loop, LoopState, Task, Window
from paranmt.models.training.regularizers import l2_to_initial
from paranmt.schemas.config import MAX_WIDTH, bounded, choice, setting

log = logging.getLogger(__name__)

# task -> (score range, dataset names under the data dir's sts/ folder: train, dev, test; none: semeval_splits)
TASKS = {
    "sick-r": ((1, 5), ("SICK/SICK_train", "SICK/SICK_trial", "SICK/SICK_test_annotated")),
    "stsb": ((0, 5), ("stsbenchmark/sts-train", "stsbenchmark/sts-dev", "stsbenchmark/sts-test")),
    "sts12-15": ((0, 5), ()),
}
SEMEVAL_YEARS = ("2012", "2013", "2014", "2015")
SEMEVAL_SHARES = (0.4, 0.1)         # train, dev shares of each dataset; the rest (50%) is test
# classification task -> (its class names, the folder of its files under the data dir)
CLASSIFICATION_TASKS = {
    "sick-e": (SICK_LABELS, "sts/SICK"),
    "sst2": (("negative", "positive"), "transfer/sst2"),
}
ALL_TASKS = (*TASKS, *CLASSIFICATION_TASKS)


def task_folder(task: str) -> str:
    """The folder under the data dir that `task`'s files are in (`sts` for the relatedness tasks)."""
    return CLASSIFICATION_TASKS[task][1] if task in CLASSIFICATION_TASKS else "sts"


class FinetuneDataError(ValueError):
    """Missing or malformed task files, or gold scores outside the task's range."""


@dataclass
class FinetuneConfig(CpuLoopConfig):
    """The settings of `paranmt finetune-sts` (`--config` YAML keys, `--set`, the flags): the loop's (CpuLoopConfig,
    a CPU run without checkpoints: epochs, lr, max_steps, time_budget_minutes, patience over the dev Pearson,
    log_every, seed, threads) and the head's."""
    HELP: ClassVar[dict[str, str]] = {
        "epochs": "passes over the training pairs", "lr": "Adam learning rate (head and encoder)",
        "max_steps": "stop after N updates (0 = no limit)",
        "seed": "random seed (head initialization, batch order, the stsb dev split)"}
    task: str = choice("sick-r", ALL_TASKS, help="sick-r (SICK relatedness), stsb (STS Benchmark) or sts12-15 (P17's "
                       "40/10/50 split of STS 2012-15): Pearson; sick-e (SICK entailment) or sst2 (SST-2 sentiment): "
                       "accuracy")
    batch_size: int = bounded(25, 1, help="pairs per Adam step")
    hidden: int = bounded(50, 1, MAX_WIDTH, help="hidden size of the head (Tai: 50)")
    l2_to_init: float = bounded(0.0, 0, help="lambda_w of the L2 penalty toward the starting encoder weights (0: off)")
    freeze_encoder: bool = setting(False, flag={"action": "store_true"}, help="train the head only (frozen features)")
    projection: int = bounded(0, 0, MAX_WIDTH, help="project the embeddings to N dimensions (a learned linear map) "
                              "before the head (0: none)")
    dev_fraction: float = bounded(0.1, 0, 1, open_low=True, open_high=True, help="stsb / sst2 without a test file: "
                                  "share of the training set held out as dev (the dev file is then test)")
    limit: int = bounded(0, 0, help="at most N pairs per split (0 = all; quick checks)")


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


class _Head(nn.Module):
    """What every head does first: the embeddings, linearly projected to `projection` dimensions when it is > 0,
    rescaled to unit root-mean-square (module docstring)."""

    def __init__(self, dim: int, projection: int = 0):
        super().__init__()
        self.dim = dim
        self.projection = nn.Linear(dim, projection, bias=False) if projection else None
        self.width = projection or dim

    def features(self, vectors: torch.Tensor) -> torch.Tensor:
        return unit_rms(vectors if self.projection is None else self.projection(vectors))


class PairHead(_Head):
    """Tai et al.'s pair layer: log p^ [n, outputs] from two embedding batches."""

    def __init__(self, dim: int, hidden: int, outputs: int, projection: int = 0):
        super().__init__(dim, projection)
        self.product = nn.Linear(self.width, hidden, bias=False)
        self.difference = nn.Linear(self.width, hidden)
        self.output = nn.Linear(hidden, outputs)

    def forward(self, left: torch.Tensor, right: torch.Tensor) -> torch.Tensor:
        left, right = self.features(left), self.features(right)
        hidden = torch.sigmoid(self.product(left * right) + self.difference((left - right).abs()))
        return torch.log_softmax(self.output(hidden), dim=1)


class SimilarityHead(PairHead):
    """The pair layer over the score bins low..high; `expected` gives y^ = r^T p^."""

    def __init__(self, dim: int, hidden: int, low: int, high: int, projection: int = 0):
        super().__init__(dim, hidden, high - low + 1, projection)
        self.low, self.high = low, high
        self.register_buffer("scores", torch.arange(low, high + 1, dtype=torch.float32))

    def expected(self, log_probabilities: torch.Tensor) -> torch.Tensor:
        return log_probabilities.exp() @ self.scores


class SentenceHead(_Head):
    """The sentiment head: log p^ [n, outputs] = log softmax(W_p sigmoid(W h + b_h) + b_p) of one embedding batch."""

    def __init__(self, dim: int, hidden: int, outputs: int, projection: int = 0):
        super().__init__(dim, projection)
        self.hidden = nn.Linear(self.width, hidden)
        self.output = nn.Linear(hidden, outputs)

    def forward(self, vectors: torch.Tensor) -> torch.Tensor:
        return torch.log_softmax(self.output(torch.sigmoid(self.hidden(self.features(vectors)))), dim=1)


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
    if not names:
        return semeval_splits(sts_dir, seed, rejects)
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


def load_labelled_splits(data_dir: str | Path, task: str, dev_fraction: float = 0.1, seed: int = 1
                         ) -> dict[str, Split]:
    """{train, dev, test} Splits (models/evaluation/transfer.py) of the classification `task` from the data dir
    (the folder holding sts/ and transfer/); a task without a dev split (sst2 without test.tsv: its dev.tsv is the
    test split) gets a seeded `dev_fraction` of its training examples held out as dev."""
    if task not in CLASSIFICATION_TASKS:
        raise FinetuneDataError(f"unknown task {task!r}; choose from {', '.join(ALL_TASKS)}")
    try:
        splits = dict(transfer_task(task, data_dir).splits)
    except TransferDataError as error:
        raise FinetuneDataError(str(error)) from None
    if "dev" not in splits:
        train = splits["train"]
        order = np.random.default_rng(seed).permutation(len(train.labels))
        cut = int(round(dev_fraction * len(order)))
        splits["dev"] = train.subset(np.sort(order[:cut]), f"{train.name}[held-out {dev_fraction:g}]")
        splits["train"] = train.subset(np.sort(order[cut:]))
        log.info("no test file for %s: testing on %s, dev = %d examples held out of the training set", task,
                 splits["test"].name, cut)
    return {name: splits[name] for name in ("train", "dev", "test")}


def semeval_splits(sts_dir: str | Path, seed: int = 1, rejects: LineRejects | None = None) -> dict[str, STSDataset]:
    """P17's supervised STS (§4.3, SPEC §12.5): each SemEval STS 2012-2015 test dataset found under `sts_dir` cut
    by a seeded permutation into 40% train, 10% dev and 50% test (SEMEVAL_SHARES), each split pooled over the
    datasets; the test Pearson is over the pooled test pairs (the paper leaves pooled vs per-dataset open: AMBIG,
    decided pooled, as its single STS number per model suggests)."""
    datasets = [d for d in discover_datasets(sts_dir, None, rejects)[0]
                if (match := YEAR_GROUP.match(d.group)) and match.group(1) in SEMEVAL_YEARS]
    if not datasets:
        raise FinetuneDataError(f"no STS 2012-2015 test datasets (STS<year>-test/) under {sts_dir}")
    rng = np.random.default_rng(seed)
    parts: dict[str, list[STSDataset]] = {"train": [], "dev": [], "test": []}
    for dataset in datasets:
        order = rng.permutation(len(dataset.gold))
        train_end = int(round(SEMEVAL_SHARES[0] * len(order)))
        dev_end = train_end + int(round(SEMEVAL_SHARES[1] * len(order)))
        for name, index in (("train", order[:train_end]), ("dev", order[train_end:dev_end]),
                            ("test", order[dev_end:])):
            parts[name].append(_subset(dataset, np.sort(index), dataset.name))
    share = {"train": "40%", "dev": "10%", "test": "50%"}
    return {name: STSDataset(f"STS2012-2015[{share[name]} of {len(datasets)} datasets]", "semeval",
                             [s for d in chunk for s in d.s1], [s for d in chunk for s in d.s2],
                             np.concatenate([d.gold for d in chunk])) for name, chunk in parts.items()}


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


def limit_dataset(dataset: STSDataset | Split, limit: int, seed: int) -> STSDataset | Split:
    """At most `limit` pairs or examples of `dataset` (a seeded sample, in their order; all when limit is 0)."""
    size = len(dataset.labels) if isinstance(dataset, Split) else len(dataset.gold)
    if not limit or limit >= size:
        return dataset
    index = np.sort(np.random.default_rng(seed).permutation(size)[:limit])
    return dataset.subset(index) if isinstance(dataset, Split) else _subset(dataset, index, dataset.name)


@torch.no_grad()
def predict(encoder: SentenceEncoder, head: SimilarityHead, dataset: STSDataset, batch_size: int = 1024) -> np.ndarray:
    """y^ for every pair of `dataset` (eval mode)."""
    encoder.eval()
    head.eval()
    left = torch.from_numpy(encoder.encode(dataset.s1, batch_size))
    right = torch.from_numpy(encoder.encode(dataset.s2, batch_size))
    return head.expected(head(left, right)).numpy()


@torch.no_grad()
def predict_classes(encoder: SentenceEncoder, head: PairHead | SentenceHead, split: Split,
                    batch_size: int = 1024) -> np.ndarray:
    """The most probable class of every example of `split` (eval mode)."""
    encoder.eval()
    head.eval()
    first = torch.from_numpy(encoder.encode(split.first, batch_size))
    if split.second is None:
        return head(first).argmax(1).numpy()
    return head(first, torch.from_numpy(encoder.encode(split.second, batch_size))).argmax(1).numpy()


def pearson(predicted: np.ndarray, gold: np.ndarray) -> float:
    return float(pearsonr(predicted, gold)[0])


def majority_accuracy(train_labels: np.ndarray, labels: np.ndarray) -> float:
    """Accuracy on `labels` of always answering the most frequent class of `train_labels` (ties: the lowest)."""
    return float((labels == np.bincount(train_labels).argmax()).mean())


def not_in_training(train_texts: list[str], texts: list[str]) -> np.ndarray:
    """bool [n]: which of `texts` occur in no training text, not even inside one (SST-2's phrases are cut from
    the same sentences, so most held-out phrases lie inside a training phrase)."""
    joined = "\n".join(train_texts)
    return np.array([text not in joined for text in texts], dtype=bool)


def _dense_gradients(encoder: SentenceEncoder) -> list[nn.Embedding]:
    """Switch every sparse embedding table to dense gradients (Adam and the L2-to-initial penalty need them);
    returns the tables switched, to be switched back before saving."""
    switched = [m for m in encoder.modules() if isinstance(m, nn.Embedding) and m.sparse]
    for module in switched:
        module.sparse = False
    return switched


class FinetuneTask(Task):
    """Head (+ encoder unless frozen) training on a relatedness task as a task of the shared loop
    (models/loop.py): per epoch a permutation of the training pairs from the one generator seeded with
    `seed`, cut into mini-batches; per mini-batch one Adam step on J; at each epoch's end (and at a stop inside one)
    the dev Pearson of y^, in the epoch's metrics line with the mean KL; the best epoch's encoder and head are kept
    (in memory). `ClassifierTask` changes the head, the loss and the dev metric."""
    loss_name = "kl"
    metric = "pearson"

    def __init__(self, encoder: SentenceEncoder, splits: dict, config: FinetuneConfig):
        self.description = f"finetune-sts {config.task}"
        self.start, self.splits, self.config = encoder, splits, config
        self.kept = {"epoch": 0, "state": None}
        self.shown = (self.loss_name,)
        self.best = (f"dev_{self.metric}", "max")

    def make_head(self, dim: int) -> nn.Module:
        (low, high), _ = TASKS[self.config.task]
        return SimilarityHead(dim, self.config.hidden, low, high, self.config.projection)

    def make_target(self) -> torch.Tensor:
        (low, high), _ = TASKS[self.config.task]
        return torch.from_numpy(target_distribution(self.splits["train"].gold, low, high))

    def train_size(self) -> int:
        return len(self.splits["train"].gold)

    def loss(self, index: np.ndarray) -> torch.Tensor:
        train = self.splits["train"]
        vectors = self.encoder.embed([train.s1[i] for i in index] + [train.s2[i] for i in index])
        left, right = vectors.split(len(index))
        return kl_loss(self.head(left, right), self.target[index])

    def score(self, split: str) -> float:
        """The task's metric of the model as it is now on `split` (train, dev or test)."""
        dataset = self.splits[split]
        return pearson(predict(self.encoder, self.head, dataset), dataset.gold)

    def setup(self, checkpoint, device) -> None:
        c = self.config
        self.encoder = copy.deepcopy(self.start)
        self.switched = _dense_gradients(self.encoder)
        self.head = self.make_head(self.encoder.dim)
        parameters = list(self.head.parameters())
        self.regularizer = l2_to_initial({}, 0.0)
        if c.freeze_encoder:
            self.encoder.requires_grad_(False)
        else:
            parameters += list(self.encoder.parameters())
            self.regularizer = l2_to_initial(dict(self.encoder.named_parameters()), c.l2_to_init)
        self.optimizer = torch.optim.Adam(parameters, lr=c.lr)
        self.target = self.make_target()
        self.rng = np.random.default_rng(c.seed)

    def steps_per_epoch(self) -> int:
        return math.ceil(self.train_size() / self.config.batch_size)

    def epoch_size(self) -> int:
        return self.steps_per_epoch()

    def batches(self, state: LoopState):
        order, size = self.rng.permutation(self.train_size()), self.config.batch_size
        for start in range(state.position * size, len(order), size):
            yield 1, order[start:start + size]

    def step(self, index: np.ndarray, state: LoopState) -> tuple[int, dict]:
        self.encoder.train(not self.config.freeze_encoder)
        self.head.train()
        loss = self.loss(index)
        total_loss = loss + self.regularizer()
        self.optimizer.zero_grad()
        total_loss.backward()
        self.optimizer.step()
        return 1, {self.loss_name: loss.item()}

    def parameters(self):
        return [*self.encoder.parameters(), *self.head.parameters()]

    def record(self, window: Window, state: LoopState) -> dict:
        return {self.loss_name: window.sums[self.loss_name] / window.updates, "seconds": window.seconds}

    def evaluate(self, state: LoopState) -> dict:
        return {f"dev_{self.metric}": self.score("dev")}

    def keep_best(self, state: LoopState, metrics: dict) -> None:
        self.kept = {"epoch": metrics["epoch"],
                     "state": (copy.deepcopy(self.encoder.state_dict()), copy.deepcopy(self.head.state_dict()))}


class ClassifierTask(FinetuneTask):
    """The same loop for a classification task (sick-e, sst2): the pair head (pairs) or the sentence head, mean
    NLL of the gold class, dev accuracy."""
    loss_name = "nll"
    metric = "accuracy"

    def make_head(self, dim: int) -> nn.Module:
        c = self.config
        outputs = len(CLASSIFICATION_TASKS[c.task][0])
        head = PairHead if self.splits["train"].second is not None else SentenceHead
        return head(dim, c.hidden, outputs, c.projection)

    def make_target(self) -> torch.Tensor:
        return torch.from_numpy(self.splits["train"].labels).long()

    def train_size(self) -> int:
        return len(self.splits["train"].labels)

    def loss(self, index: np.ndarray) -> torch.Tensor:
        train = self.splits["train"]
        first = [train.first[i] for i in index]
        if train.second is None:
            log_p = self.head(self.encoder.embed(first))
        else:
            left, right = self.encoder.embed(first + [train.second[i] for i in index]).split(len(index))
            log_p = self.head(left, right)
        return nn.functional.nll_loss(log_p, self.target[index])

    def score(self, split: str) -> float:
        examples = self.splits[split]
        return float((predict_classes(self.encoder, self.head, examples) == examples.labels).mean())


def finetune(encoder: SentenceEncoder, splits: dict, config: FinetuneConfig,
             metrics_file: Path | None = None) -> tuple[SentenceEncoder, nn.Module, dict]:
    """Train head (+ encoder unless frozen) on splits['train'] (`FinetuneTask`, or `ClassifierTask` for a
    classification task, in the shared loop), keep the best epoch by the dev metric.

    Returns (encoder, head, report) with report = {metric, baseline, <baseline>: {dev, test}, supervised: {dev,
    test}, best_epoch, steps, config}: for relatedness (STSDataset splits) the metric is pearson and the baseline
    `unsupervised`, the cosine of the encoder as given (before training); for classification (Split splits) the
    metric is accuracy and the baseline `majority`, the training set's most frequent class. A sentence task adds
    `test_not_in_training`: the test examples that occur inside no training example, their count and both
    accuracies on them."""
    classes = config.task in CLASSIFICATION_TASKS
    if classes:
        baseline_name = "majority"
        baseline = {split: majority_accuracy(splits["train"].labels, splits[split].labels) for split in ("dev", "test")}
        task = ClassifierTask(encoder, splits, config)
    else:
        baseline_name = "unsupervised"
        baseline = {split: score_dataset(encoder.encode, splits[split]).pearson for split in ("dev", "test")}
        task = FinetuneTask(encoder, splits, config)
    state = Loop(task, config.validate(), metrics_file=metrics_file).run()
    encoder, head = task.encoder, task.head
    if task.kept["state"] is not None:
        encoder.load_state_dict(task.kept["state"][0])
        head.load_state_dict(task.kept["state"][1])
    supervised = {split: task.score(split) for split in ("dev", "test")}
    report = {"metric": task.metric, "baseline": baseline_name, baseline_name: baseline, "supervised": supervised,
              "best_epoch": task.kept["epoch"], "steps": state.step, "config": asdict(config)}
    test = splits["test"]
    if classes and test.second is None:
        unseen = np.flatnonzero(not_in_training(splits["train"].first, test.first))
        if len(unseen):
            subset = test.subset(unseen)
            report["test_not_in_training"] = {
                "examples": len(unseen), "majority": majority_accuracy(splits["train"].labels, subset.labels),
                "supervised": float((predict_classes(encoder, head, subset) == subset.labels).mean())}
    for module in task.switched:
        module.sparse = True
    encoder.requires_grad_(True)
    return encoder.eval(), head.eval(), report


def save_head(head: nn.Module, directory: Path, labels: tuple[str, ...] = ()) -> None:
    """head.json (kind, sizes, score range or class names, formula) + head.npz (weights) in `directory`."""
    directory.mkdir(parents=True, exist_ok=True)
    np.savez(directory / "head.npz", **{k: v.numpy() for k, v in head.state_dict().items()})
    described = {"dim": head.dim, "projection": head.width if head.projection is not None else 0,
                 "hidden": head.output.in_features}
    if isinstance(head, SimilarityHead):
        described.update(kind="similarity", low=head.low, high=head.high,
                         formula="p = softmax(W_p sigmoid(W_x (u*v) + W_+ |u-v| + b_h) + b_p); y = r.p")
    elif isinstance(head, PairHead):
        described.update(kind="pair-classes", labels=list(labels),
                         formula="p = softmax(W_p sigmoid(W_x (u*v) + W_+ |u-v| + b_h) + b_p)")
    else:
        described.update(kind="sentence-classes", labels=list(labels),
                         formula="p = softmax(W_p sigmoid(W u + b_h) + b_p)")
    if described["projection"]:
        described["formula"] += "; u, v = P x, P = projection.weight"
    (directory / "head.json").write_text(json.dumps(described, indent=2) + "\n")


def task_splits(data_dir: Path, config: FinetuneConfig, rejects: LineRejects) -> dict:
    """The train, dev and test splits of the config's task under the data folder `data_dir` (its sts/ folder, or
    the labelled task's), the rejected lines counted in `rejects`; a FinetuneDataError when they cannot be read."""
    if CLASSIFICATION_TASKS.get(config.task):
        return load_labelled_splits(data_dir, config.task, config.dev_fraction, config.seed)
    return load_splits(data_dir / "sts", config.task, config.dev_fraction, config.seed, rejects)


def split_sizes(splits: dict) -> dict[str, int]:
    """The examples of each split."""
    return {name: len(d.labels) if isinstance(d, Split) else len(d.gold) for name, d in splits.items()}


def finetune_into(encoder: SentenceEncoder, splits: dict, config: FinetuneConfig, output: Path) -> dict:
    """Fine-tune `encoder` on the splits and write `output`/encoder, `output`/head and `output`/metrics.jsonl;
    returns `finetune`'s report."""
    size = split_sizes(splits)
    log.info("%s: train %d, dev %d (%s), test %d (%s) examples", config.task, size["train"], size["dev"],
             splits["dev"].name, size["test"], splits["test"].name)
    output.mkdir(parents=True, exist_ok=True)
    tuned, head, report = finetune(encoder, splits, config, output / "metrics.jsonl")
    tuned.save(output / "encoder", dtype=getattr(encoder, "weights_dtype", "float32"))
    save_head(head, output / "head", CLASSIFICATION_TASKS.get(config.task, ((),))[0])
    return report


def result_lines(report: dict, splits: dict, config: FinetuneConfig, data_dir: Path) -> list[str]:
    """What `paranmt finetune-sts` prints: the baseline's and the supervised model's dev and test scores (and
    those on the test examples inside no training example), and where SST-2 took its test set from."""
    baseline = report["baseline"]
    lines = [f"{splits[split].name}\t{baseline} {100 * report[baseline][split]:.1f}"
             f"\tsupervised {100 * report['supervised'][split]:.1f}" for split in ("dev", "test")]
    unseen = report.get("test_not_in_training")
    if unseen:
        lines.append(f"{splits['test'].name}, the {unseen['examples']} examples inside no training example\t"
                     f"{baseline} {100 * unseen[baseline]:.1f}\tsupervised {100 * unseen['supervised']:.1f}")
    if config.task == "sst2" and splits["test"].name == "sst2/dev":
        lines.append(f"sst2: no {data_dir / 'transfer' / 'sst2' / 'test.tsv'}: the test set is dev.tsv, the dev set "
                     f"{split_sizes(splits)['dev']} examples held out of train.tsv")
    return lines
