"""The two classification tasks of the thesis's adversarial experiment (§6.5, SPEC §7), read from ../shared/data.

sick-e  SICK entailment (Marelli et al. 2014): sentence A, sentence B -> ENTAILMENT / NEUTRAL / CONTRADICTION.
        Splits as released: train = SICK_train.txt (4,500), dev = SICK_trial.txt (500), test =
        SICK_test_annotated.txt (4,927). Only sentence A is paraphrased (thesis: "sentence 1 only").
mr      Movie-review polarity (Pang & Lee 2005; the thesis used SST binary, which is not here: MR is the closest
        sentence-level sentiment task in ../shared/data/transfer): label 0/1, one sentence. MR has no official
        split: a fixed permutation (numpy seed 0) of the 10,662 sentences gives 80% train, 10% dev, 10% test.
Both are read by the transfer evaluation's reader (models/evaluation/transfer.py load_task).
An `Example` holds the task's sentences as a tuple (one for MR, two for SICK-E) and the label index;
`PARAPHRASED_SLOT` (0) is the sentence an attack or augmentation rewrites.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from paranmt.models.evaluation.transfer import SICK_LABELS, Split, TransferDataError
from paranmt.models.evaluation.transfer import load_task as transfer_task

TASKS = ("sick-e", "mr")
PARAPHRASED_SLOT = 0
MR_SPLIT = (0.8, 0.1)         # train, dev shares; the rest is test
MR_SEED = 0


@dataclass(frozen=True)
class Example:
    sentences: tuple[str, ...]
    label: int

    def with_paraphrase(self, paraphrase: str) -> "Example":
        """The example with its paraphrased slot replaced (same label: a paraphrase keeps the meaning)."""
        sentences = list(self.sentences)
        sentences[PARAPHRASED_SLOT] = paraphrase
        return replace(self, sentences=tuple(sentences))


@dataclass
class TaskData:
    name: str
    labels: tuple[str, ...]
    pair: bool                                # two sentences per example
    splits: dict[str, list[Example]]


def examples(split: Split) -> list[Example]:
    sentences = zip(split.first, split.second) if split.second is not None else ((s,) for s in split.first)
    return [Example(tuple(pair), int(label)) for pair, label in zip(sentences, split.labels)]


def load_task(task: str, data_dir: str | Path) -> TaskData:
    """The task's train/dev/test Examples from the shared data folder `data_dir` (the folder holding sts/ and
    transfer/), read by the transfer evaluation's reader (models/evaluation/transfer.py); TransferDataError for a
    missing or malformed file or an unknown task."""
    if task not in TASKS:
        raise TransferDataError(f"unknown task {task!r}; choose one of {', '.join(TASKS)}")
    read = transfer_task(task, data_dir)
    if task == "sick-e":
        return TaskData(task, SICK_LABELS, True, {name: examples(split) for name, split in read.splits.items()})
    everything = examples(read.splits["all"])
    order = np.random.default_rng(MR_SEED).permutation(len(everything))
    train_end = int(MR_SPLIT[0] * len(everything))
    dev_end = train_end + int(MR_SPLIT[1] * len(everything))
    parts = {"train": order[:train_end], "dev": order[train_end:dev_end], "test": order[dev_end:]}
    return TaskData(task, ("negative", "positive"), False,
                    {name: [everything[i] for i in index] for name, index in parts.items()})
