"""The two classification tasks of the thesis's adversarial experiment (§6.5, SPEC §7), read from ../shared/data.

sick-e  SICK entailment (Marelli et al. 2014): sentence A, sentence B -> ENTAILMENT / NEUTRAL / CONTRADICTION.
        Splits as released: train = SICK_train.txt (4,500), dev = SICK_trial.txt (500), test =
        SICK_test_annotated.txt (4,927). Only sentence A is paraphrased (thesis: "sentence 1 only").
mr      Movie-review polarity (Pang & Lee 2005; the thesis used SST binary, which is not here: MR is the closest
        sentence-level sentiment task in ../shared/data/transfer): label 0/1, one sentence. MR has no official
        split: a fixed permutation (numpy seed 0) of the 10,662 sentences gives 80% train, 10% dev, 10% test.
An `Example` holds the task's sentences as a tuple (one for MR, two for SICK-E) and the label index;
`PARAPHRASED_SLOT` (0) is the sentence an attack or augmentation rewrites.
"""
from __future__ import annotations

import csv
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

TASKS = ("sick-e", "mr")
PARAPHRASED_SLOT = 0
SICK_LABELS = ("ENTAILMENT", "NEUTRAL", "CONTRADICTION")
SICK_FILES = {"train": "SICK_train.txt", "dev": "SICK_trial.txt", "test": "SICK_test_annotated.txt"}
MR_SPLIT = (0.8, 0.1)         # train, dev shares; the rest is test
MR_SEED = 0


class TaskDataError(ValueError):
    """The task's data folder or files are missing or malformed."""


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


def read_sick(folder: Path) -> TaskData:
    splits = {}
    for split, name in SICK_FILES.items():
        path = folder / name
        if not path.is_file():
            raise TaskDataError(f"SICK file {path} is missing (sick-e needs ../shared/data/sts/SICK)")
        with open(path, encoding="utf-8", newline="") as handle:
            rows = list(csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE))
        try:
            splits[split] = [Example((r["sentence_A"], r["sentence_B"]), SICK_LABELS.index(r["entailment_judgment"]))
                             for r in rows]
        except (KeyError, ValueError) as error:
            raise TaskDataError(f"{path}: not a SICK file ({type(error).__name__}: {error})") from None
    return TaskData("sick-e", SICK_LABELS, True, splits)


def read_mr(path: Path) -> TaskData:
    if not path.is_file():
        raise TaskDataError(f"MR file {path} is missing (mr needs ../shared/data/transfer/mr.tsv)")
    with open(path, encoding="utf-8", newline="") as handle:
        reader = csv.reader(handle, delimiter="\t", quoting=csv.QUOTE_NONE)
        header = next(reader, None)
        if header != ["label", "sentence"]:
            raise TaskDataError(f"{path}: expected a header `label<TAB>sentence`, got {header}")
        examples = [Example((sentence,), int(label)) for label, sentence in reader]
    order = np.random.default_rng(MR_SEED).permutation(len(examples))
    train_end = int(MR_SPLIT[0] * len(examples))
    dev_end = train_end + int(MR_SPLIT[1] * len(examples))
    pick = lambda indices: [examples[i] for i in indices]  # noqa: E731
    return TaskData("mr", ("negative", "positive"), False, {
        "train": pick(order[:train_end]), "dev": pick(order[train_end:dev_end]), "test": pick(order[dev_end:])})


def load_task(task: str, data_dir: str | Path) -> TaskData:
    """The task's splits from the shared data folder `data_dir` (the folder holding sts/ and transfer/)."""
    data_dir = Path(data_dir)
    if task == "sick-e":
        return read_sick(data_dir / "sts" / "SICK")
    if task == "mr":
        return read_mr(data_dir / "transfer" / "mr.tsv")
    raise TaskDataError(f"unknown task {task!r}; choose one of {', '.join(TASKS)}")
