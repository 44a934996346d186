"""Transfer evaluation of frozen sentence embeddings (SentEval protocol; SPEC §9, P18 Table 14): a logistic-
regression probe per task on features of the embeddings, the encoder never updated.

Tasks and data (under a data directory laid out like ../shared/data):
- `mr`, `cr`, `subj`: `transfer/<task>.tsv` (header, then `label TAB sentence`); K-fold cross-validation
  (K = 10 as SentEval; stratified, shuffled with the seed); the reported accuracy is the mean over the K test
  folds. Features: the sentence embedding u.
- `sick-e`: `sts/SICK/SICK_train.txt` / `SICK_trial.txt` / `SICK_test_annotated.txt` (column entailment_judgment:
  ENTAILMENT, NEUTRAL, CONTRADICTION); trained on train, C chosen on trial, accuracy on test.
- `mrpc`: `transfer/mrpc-msr-para-train.tsv` / `mrpc-msr-para-val.tsv` (Quality, #1 ID, #2 ID, #1 String,
  #2 String); trained on train (C by inner cross-validation), accuracy and F1 (of the paraphrase class) on val.
  The official MRPC test split is not staged: these numbers are on the 500-pair val split, not comparable to
  published MRPC test numbers to the decimal.
- `sst2`: `transfer/sst2/train.tsv`, `dev.tsv` and, when there, `test.tsv` (GLUE's SST-2 layout: header
  `sentence TAB label`, label 0 = negative, 1 = positive); with test.tsv: train, C chosen on dev, accuracy on
  test; without it (as in ../shared/data): dev.tsv is the test split (C by inner cross-validation). Not among
  eval-transfer's default tasks (DEFAULT_TASKS): its 60k training phrases make it the slowest probe by far.
Pair features (sick-e, mrpc): [u, v, |u - v|, u * v].

Classifier (SPEC: AMBIG; decided here, as SentEval's scikit-learn setting does): L2-regularized logistic
regression (scikit-learn, lbfgs, multinomial for 3 classes), its inverse regularization strength C chosen from
`c_grid` by the mean accuracy of an inner stratified K-fold on the training portion (sick-e: on trial), then refit
on the whole training portion. Dense features are standardized with the training portion's mean and standard
deviation (encoders differ in scale by orders of magnitude; without it one C grid does not fit all). Sparse
bag-of-words features are used as they are (binary, each row L2-normalized).

Baselines (further `model` rows): `bag-of-words`, binary word indicators (the word featurizer's lowercased tokens;
vocabulary = every token of the task's text, all splits, no label used), and a random encoder (the evaluated
encoder's architecture and vocabulary with its parameters re-initialized: `random_copy`).
"""
from __future__ import annotations

import csv
import io
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from scipy import sparse

from paranmt.models.evaluation.tables import write_result_file, write_results_csv
from paranmt.models.files import read_text
from paranmt.schemas.config import Config, bounded, check_ranges, setting
from paranmt.schemas.errors import ConfigError

log = logging.getLogger(__name__)

TASKS = ("mr", "cr", "subj", "sick-e", "mrpc", "sst2")
DEFAULT_TASKS = ("mr", "cr", "subj", "sick-e", "mrpc")
SENTENCE_TASKS = ("mr", "cr", "subj")
C_GRID = (0.001, 0.01, 0.1, 1.0, 10.0)
SICK_LABELS = ("ENTAILMENT", "NEUTRAL", "CONTRADICTION")


class TransferDataError(ValueError):
    """A missing or malformed task file."""


@dataclass
class Split:
    """One split of a task: sentences (pair tasks: `first` and `second`) with integer labels; `name` says where
    it was read from (`SICK/SICK_train`, `sst2/dev`)."""

    first: list[str]
    labels: np.ndarray
    second: list[str] | None = None
    name: str = ""

    def subset(self, index: np.ndarray, name: str | None = None) -> "Split":
        return Split([self.first[i] for i in index], self.labels[index],
                     None if self.second is None else [self.second[i] for i in index],
                     self.name if name is None else name)

    def sentences(self) -> list[str]:
        return self.first + (self.second or [])


@dataclass
class TransferTask:
    name: str
    splits: dict[str, Split]          # `all` (cross-validated tasks) or train/dev/test (dev may be absent)
    metrics: tuple[str, ...] = ("accuracy",)

    @property
    def pairs(self) -> bool:
        return next(iter(self.splits.values())).second is not None


@dataclass
class TransferResult:
    model: str
    task: str
    metric: str
    value: float


@dataclass
class TransferProbeConfig(Config):
    """How the logistic-regression probes are fitted and scored (a typed config; eval-transfer's TransferConfig
    subclasses it)."""
    folds: int = bounded(10, 2, help="cross-validation folds of mr/cr/subj")
    inner_folds: int = bounded(5, 2, help="inner folds that choose C")
    c_grid: list[float] = setting(default_factory=lambda: list(C_GRID), help="inverse L2 strengths tried")
    limit: int = bounded(0, 0, help="at most N examples per split, stratified (0 = all; for quick checks)")
    seed: int = setting(1, help="seed of the folds, the samples and the random encoder")
    max_iter: int = bounded(1000, 1, help="iterations of each logistic regression fit at most")

    def validate(self) -> "TransferProbeConfig":
        check_ranges(self)
        if not self.c_grid or min(self.c_grid) <= 0:
            raise ConfigError(f"c_grid must be inverse L2 strengths > 0, not {self.c_grid}")
        return self


# -- data ----------------------------------------------------------------------------------------------------------
def _read_tsv(path: Path) -> list[list[str]]:
    if not path.is_file():
        raise TransferDataError(f"{path} not found")
    text = read_text(path, "transfer task file").removeprefix("\ufeff")
    rows = list(csv.reader(io.StringIO(text, newline=""), delimiter="\t", quoting=csv.QUOTE_NONE))
    if len(rows) < 2:
        raise TransferDataError(f"{path}: no examples (a header and one example a line expected; an empty file?)")
    return rows


def _labelled_sentences(path: Path) -> Split:
    rows = _read_tsv(path)
    if not rows or rows[0][:2] != ["label", "sentence"]:
        raise TransferDataError(f"{path}: expected a header `label TAB sentence`")
    bad = [i for i, row in enumerate(rows[1:], 2) if len(row) != 2 or row[0] not in ("0", "1")]
    if bad:
        raise TransferDataError(f"{path}:{bad[0]}: expected `0|1 TAB sentence`")
    return Split([row[1] for row in rows[1:]], np.array([int(row[0]) for row in rows[1:]]))


def _sst2(path: Path) -> Split:
    rows = _read_tsv(path)
    if rows[0][:2] != ["sentence", "label"]:
        raise TransferDataError(f"{path}: expected SST-2's header `sentence TAB label`")
    bad = [i for i, row in enumerate(rows[1:], 2) if len(row) != 2 or row[1] not in ("0", "1")]
    if bad:
        raise TransferDataError(f"{path}:{bad[0]}: expected `sentence TAB 0|1`")
    return Split([row[0].strip() for row in rows[1:]], np.array([int(row[1]) for row in rows[1:]]),
                 name=f"sst2/{path.stem}")


def _mrpc(path: Path) -> Split:
    rows = _read_tsv(path)
    if not rows or rows[0][0] != "Quality":
        raise TransferDataError(f"{path}: expected the MRPC header `Quality TAB #1 ID TAB #2 ID TAB ...`")
    bad = [i for i, row in enumerate(rows[1:], 2) if len(row) != 5 or row[0] not in ("0", "1")]
    if bad:
        raise TransferDataError(f"{path}:{bad[0]}: expected 5 columns with Quality 0 or 1")
    return Split([r[3] for r in rows[1:]], np.array([int(r[0]) for r in rows[1:]]), [r[4] for r in rows[1:]])


def _sick_entailment(path: Path) -> Split:
    if not path.is_file():
        raise TransferDataError(f"{path} not found")
    reader = csv.DictReader(io.StringIO(read_text(path, "SICK file"), newline=""), delimiter="\t",
                            quoting=csv.QUOTE_NONE)
    if not reader.fieldnames or "entailment_judgment" not in reader.fieldnames:
        raise TransferDataError(f"{path}: no entailment_judgment column")
    rows = list(reader)
    if not rows:
        raise TransferDataError(f"{path}: no examples (an empty file?)")
    unknown = {r["entailment_judgment"] for r in rows} - set(SICK_LABELS)
    if unknown:
        raise TransferDataError(f"{path}: unknown entailment labels {sorted(unknown)}")
    return Split([r["sentence_A"] for r in rows], np.array([SICK_LABELS.index(r["entailment_judgment"])
                                                            for r in rows]), [r["sentence_B"] for r in rows],
                 f"SICK/{path.stem}")


def load_task(name: str, data_dir: str | Path) -> TransferTask:
    """Task `name` (one of TASKS) read from `data_dir` (laid out like ../shared/data)."""
    data_dir = Path(data_dir)
    if name in SENTENCE_TASKS:
        return TransferTask(name, {"all": _labelled_sentences(data_dir / "transfer" / f"{name}.tsv")})
    if name == "sick-e":
        sick = data_dir / "sts" / "SICK"
        return TransferTask(name, {"train": _sick_entailment(sick / "SICK_train.txt"),
                                   "dev": _sick_entailment(sick / "SICK_trial.txt"),
                                   "test": _sick_entailment(sick / "SICK_test_annotated.txt")})
    if name == "mrpc":
        folder = data_dir / "transfer"
        return TransferTask(name, {"train": _mrpc(folder / "mrpc-msr-para-train.tsv"),
                                   "test": _mrpc(folder / "mrpc-msr-para-val.tsv")}, ("accuracy", "f1"))
    if name == "sst2":
        folder = data_dir / "transfer" / "sst2"
        train, dev = _sst2(folder / "train.tsv"), _sst2(folder / "dev.tsv")
        if (folder / "test.tsv").is_file():
            return TransferTask(name, {"train": train, "dev": dev, "test": _sst2(folder / "test.tsv")})
        return TransferTask(name, {"train": train, "test": dev})
    raise TransferDataError(f"unknown transfer task {name!r}; choose from {', '.join(TASKS)}")


def stratified_sample(labels: np.ndarray, limit: int, seed: int) -> np.ndarray:
    """Sorted indices of at most `limit` examples keeping the label proportions (all when limit is 0 or more)."""
    if not limit or limit >= len(labels):
        return np.arange(len(labels))
    from sklearn.model_selection import train_test_split

    chosen, _ = train_test_split(np.arange(len(labels)), train_size=limit, stratify=labels, random_state=seed)
    return np.sort(chosen)


# -- features ------------------------------------------------------------------------------------------------------
Featurize = Callable[[list[str]], "np.ndarray | sparse.csr_matrix"]


def pair_features(u, v):
    """[u, v, |u - v|, u * v] for dense arrays or sparse matrices (rows are pairs)."""
    if sparse.issparse(u):
        return sparse.hstack([u, v, abs(u - v), u.multiply(v)], format="csr")
    return np.hstack([u, v, np.abs(u - v), u * v])


class BagOfWords:
    """Binary word indicators over a vocabulary (the word featurizer's lowercased tokens), rows L2-normalized;
    a sentence without known words is the zero row."""

    def __init__(self, texts: Sequence[str]):
        from paranmt.models.encoders.featurizers import word_tokens

        self.tokens = word_tokens
        self.index = {t: i for i, t in enumerate(sorted({t for text in texts for t in word_tokens(text)}))}

    def __call__(self, sentences: list[str]) -> sparse.csr_matrix:
        rows, cols = [], []
        for row, sentence in enumerate(sentences):
            ids = {self.index[t] for t in self.tokens(sentence) if t in self.index}
            rows.extend([row] * len(ids))
            cols.extend(ids)
        matrix = sparse.csr_matrix((np.ones(len(rows), dtype=np.float32), (rows, cols)),
                                   shape=(len(sentences), len(self.index)))
        norms = np.sqrt(np.asarray(matrix.sum(axis=1)).ravel())
        return sparse.diags(np.where(norms > 0, 1.0 / np.maximum(norms, 1e-12), 0.0)) @ matrix


def split_features(featurize: Featurize, split: Split, cache: dict):
    """Features of a split: u (sentence tasks) or [u, v, |u-v|, u*v] (pair tasks); embeddings cached by text."""
    missing = [s for s in dict.fromkeys(split.sentences()) if s not in cache]
    if missing:
        vectors = featurize(missing)
        for i, sentence in enumerate(missing):
            cache[sentence] = vectors[i]
    stack = sparse.vstack if sparse.issparse(next(iter(cache.values()))) else np.vstack
    u = stack([cache[s] for s in split.first])
    if split.second is None:
        return u
    return pair_features(u, stack([cache[s] for s in split.second]))


# -- the probe -----------------------------------------------------------------------------------------------------
def _fit(x, y, c: float, config: TransferProbeConfig):
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    classifier = LogisticRegression(C=c, max_iter=config.max_iter, random_state=config.seed)
    model = classifier if sparse.issparse(x) else make_pipeline(StandardScaler(), classifier)
    return model.fit(x, y)


def choose_c(x, y, config: TransferProbeConfig, dev: tuple | None = None) -> float:
    """The C of `config.c_grid` with the best mean accuracy over an inner stratified K-fold of (x, y), or on
    `dev` = (x_dev, y_dev) when given; ties go to the smaller C (stronger regularization)."""
    from sklearn.model_selection import StratifiedKFold

    scores = []
    for c in config.c_grid:
        if dev is not None:
            scores.append(float((_fit(x, y, c, config).predict(dev[0]) == dev[1]).mean()))
            continue
        folds = StratifiedKFold(config.inner_folds, shuffle=True, random_state=config.seed)
        scores.append(float(np.mean([(_fit(x[a], y[a], c, config).predict(x[b]) == y[b]).mean()
                                     for a, b in folds.split(np.zeros(len(y)), y)])))
    return float(config.c_grid[int(np.argmax(scores))])


def binary_f1(y_true: np.ndarray, y_pred: np.ndarray) -> float:
    """F1 of the positive class (label 1): 2 TP / (2 TP + FP + FN); 0 when there is no positive at all."""
    tp = int(((y_pred == 1) & (y_true == 1)).sum())
    denominator = 2 * tp + int(((y_pred == 1) & (y_true == 0)).sum()) + int(((y_pred == 0) & (y_true == 1)).sum())
    return 2 * tp / denominator if denominator else 0.0


def evaluate_task(featurize: Featurize, task: TransferTask, config: TransferProbeConfig) -> dict[str, float]:
    """{metric: value} of the probe on `task` (accuracy; mrpc also f1), as fractions in [0, 1]."""
    from sklearn.model_selection import StratifiedKFold

    cache: dict = {}
    splits = {name: split.subset(stratified_sample(split.labels, config.limit, config.seed))
              for name, split in task.splits.items()}
    if "all" in splits:
        x, y = split_features(featurize, splits["all"], cache), splits["all"].labels
        folds = StratifiedKFold(config.folds, shuffle=True, random_state=config.seed)
        accuracies = []
        for fold, (train, test) in enumerate(folds.split(np.zeros(len(y)), y), 1):
            c = choose_c(x[train], y[train], config)
            accuracies.append(float((_fit(x[train], y[train], c, config).predict(x[test]) == y[test]).mean()))
            log.info("%s fold %d/%d: C=%g accuracy %.4f", task.name, fold, config.folds, c, accuracies[-1])
        return {"accuracy": float(np.mean(accuracies))}
    x, y = split_features(featurize, splits["train"], cache), splits["train"].labels
    dev = None
    if "dev" in splits:
        dev = (split_features(featurize, splits["dev"], cache), splits["dev"].labels)
    c = choose_c(x, y, config, dev)
    predicted = _fit(x, y, c, config).predict(split_features(featurize, splits["test"], cache))
    gold = splits["test"].labels
    log.info("%s: C=%g", task.name, c)
    values = {"accuracy": float((predicted == gold).mean())}
    if "f1" in task.metrics:
        values["f1"] = binary_f1(gold, predicted)
    return values


def evaluate(models: dict[str, Featurize | None], tasks: Sequence[TransferTask],
             config: TransferProbeConfig) -> list[TransferResult]:
    """Every model on every task. A model given as None is the bag-of-words baseline (vocabulary per task)."""
    from tqdm import tqdm

    results = []
    with tqdm(total=len(tasks) * len(models), desc="eval-transfer", unit="probe", dynamic_ncols=True) as bar:
        for task in tasks:
            for model, featurize in models.items():
                bar.set_postfix_str(f"{task.name}: {model}")
                if featurize is None:
                    featurize = BagOfWords([s for split in task.splits.values() for s in split.sentences()])
                for metric, value in evaluate_task(featurize, task, config).items():
                    results.append(TransferResult(model, task.name, metric, value))
                    bar.write(f"{model}\t{task.name}\t{metric}\t{100 * value:.1f}")
                bar.update(1)
    return results


def write_results(results: list[TransferResult], output: str | Path, title: str) -> None:
    """`results.csv` (model,task,metric,value; fractions) and `summary.md` (x100, one row per model)."""
    output = Path(output)
    write_results_csv(output, ["model", "task", "metric", "value"], ([r.model, r.task, r.metric, r.value]
                                                                      for r in results))
    columns = list(dict.fromkeys((r.task, r.metric) for r in results))
    models = list(dict.fromkeys(r.model for r in results))
    value = {(r.model, r.task, r.metric): r.value for r in results}
    header = [f"{task} {metric}" if metric != "accuracy" else task for task, metric in columns]
    lines = [f"# {title}", "", "Logistic-regression probes on frozen embeddings, accuracy (MRPC also F1) x100.", "",
             "| model | " + " | ".join(header) + " |", "|---|" + "---:|" * len(columns)]
    for model in models:
        cells = [f"{100 * value[(model, *col)]:.1f}" if (model, *col) in value else "" for col in columns]
        lines.append(f"| {model} | " + " | ".join(cells) + " |")
    write_result_file(output / "summary.md", "\n".join(lines) + "\n")
