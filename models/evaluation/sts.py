"""Semantic textual similarity (STS) evaluation of a sentence encoder: unsupervised cosine, no tuning.

Every dataset found under a root directory is scored: prediction = cos(f(s1), f(s2)); metrics = Pearson r and
Spearman rho between predictions and gold scores (both x100 in the Markdown summary, raw in the CSV). A pair whose
embedding is undefined (a sentence with no known units embeds to the zero vector) gets similarity 0.

Layouts recognised (all searched recursively):
- SemEval: `STS.input.<name>.txt` (s1 TAB s2, extra columns ignored) with `STS.gs.<name>.txt` (one score per
  line) in the same folder or a sibling folder (STS2017 keeps gold in `STS2017.gs/`); the STS2016 release names
  them `STS2016.input.<name>.txt` / `STS2016.gs.<name>.txt` (folder `sts2016-english-with-gs-v1.0`), read alike
  (the gold file carries the input's prefix). An empty gold line marks an unscored pair, which is skipped. An
  input without a gold file is reported as skipped; one whose line count differs from its gold file's is a
  DataFileError naming both (a truncated file), except the inputs of SCORED_LEADING_LINES, whose gold covers
  their first lines only (checked by reading the pairs).
- STS Benchmark: `sts-<split>.csv`, TAB-separated genre, file, year, id, score, s1, s2 (extra columns ignored).
- SICK: `SICK*.txt` with a header `pair_ID, sentence_A, sentence_B, relatedness_score, ...`.

A line that is not UTF-8 is a reject (models/encoding.py `LineRejects`, `read/invalid_utf8`, as `paranmt build`
rejects it): its pair is left out (a SemEval input line with its gold line), never scored as U+FFFD characters, and
each file holding such lines is named in the skipped list (the summary's "Skipped inputs").

Dataset names are `<group>/<name>` where group is the first folder under the root (e.g. `STS2012-test/MSRpar`,
`STS2017/track5.en-en`, `stsbenchmark/sts-dev`, `SICK/SICK_test_annotated`). Year means average Pearson over the
datasets of each test-year group (`STS<year>-test`, or the official release folder `sts<year>-english...`); the
"mean of year means" averages those year means; it is the papers' number (SPEC §4: the mean of the five year
means) only when all of 2012-2016 are present (`papers_mean`).
"""
from __future__ import annotations

import csv
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from scipy.stats import pearsonr, spearmanr

from paranmt.models.encoding import LineRejects
from paranmt.models.evaluation.tables import write_result_file, write_results_csv
from paranmt.models.files import DataFileError, reading, require_text

# a folder holding one year's test sets: the staged `STS2015-test`, or the official `sts2016-english-with-gs-v1.0`
YEAR_GROUP = re.compile(r"^STS(\d{4})(?:-test|-english\S*)$", re.IGNORECASE)
PAPER_YEARS = ("2012", "2013", "2014", "2015", "2016")
INPUT_FILE = re.compile(r"^(STS(?:\d{4})?)\.input\.(.+)\.txt$")
# input files (by name) whose gold scores cover only their first lines, with that number of lines. STS2017
# track6 tr-en ships 500 input lines for 250 scores: lines 1-250 are the scored pairs (line 3 "People are having
# a meeting." / "İnsanlar bir toplantı yapıyor." has gold 5.0, line 5, two unrelated scenes, 0.8), lines 251-500
# are not (line 256 "His is in a competition." / "Kadın bir yarışmada." would get 5.0, line 253 6, a young man
# scratching his head / a young man with a hat bowing his head, too).
SCORED_LEADING_LINES = {"track6.tr-en": 250}


@dataclass
class STSDataset:
    name: str
    group: str
    s1: list[str]
    s2: list[str]
    gold: np.ndarray


@dataclass
class STSResult:
    dataset: str
    n: int
    pearson: float
    spearman: float


def _group_of(root: Path, file: Path) -> str:
    rel = file.relative_to(root)
    return rel.parts[0] if len(rel.parts) > 1 else root.name


def _read_lines(path: Path, rejects: LineRejects) -> list[str | None]:
    """The lines of an STS file, None for one that is not UTF-8 (`LineRejects.lines`: the caller counts the pair it
    belongs to as a reject); a file that is not text at all (models/files.py `require_text`: a binary or compressed
    file) is a DataFileError naming it."""
    require_text(path, "STS file")
    with reading(path, "STS file", DataFileError):
        return list(rejects.lines(path))


def _decoded(lines: list[str | None], rejects: LineRejects) -> Iterable[tuple[int, str]]:
    """(line number, line) of the UTF-8 `lines`; the others counted as `read/invalid_utf8` rejects."""
    for number, line in enumerate(lines, 1):
        if line is None:
            rejects.add("invalid_utf8")
        else:
            yield number, line


def _score(value: str, file: Path, number: int) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        raise DataFileError(f"{file}:{number}: expected a similarity score, got {str(value)[:40]!r}") from None


def _fields(line: str, count: int, file: Path, number: int, expected: str) -> list[str]:
    """The tab-separated fields of line `number` of `file`, at least `count` of them (else a DataFileError saying
    what was `expected`)."""
    parts = line.split("\t")
    if len(parts) < count:
        raise DataFileError(f"{file}:{number}: expected {expected}, got {line[:60]!r}")
    return parts


def _dataset(name: str, group: str, rows: Iterable[tuple[int, str, str, str]], file: Path,
             gold_file: Path | None = None) -> STSDataset:
    """The dataset of `rows` (line number, sentence 1, sentence 2, score) of `file`, its scores read from
    `gold_file` (default: `file`); a DataFileError naming the line of a score that is not a number, and naming
    `file` when it has fewer than 2 scored pairs (nothing to correlate)."""
    s1, s2, gold = [], [], []
    for number, first, second, score in rows:
        s1.append(first)
        s2.append(second)
        gold.append(_score(score, gold_file or file, number))
    if len(gold) < 2:
        raise DataFileError(f"{file}: {len(gold)} scored pair(s) in dataset {name}; an STS file holds at least 2 "
                            f"(an empty or truncated file?)")
    return STSDataset(name, group, s1, s2, np.array(gold))


def _semeval(root: Path, skipped: list[str], wanted, rejects: LineRejects) -> Iterable[STSDataset]:
    for input_file in sorted(root.rglob("STS*.input.*.txt")):
        match = INPUT_FILE.match(input_file.name)
        if not match:
            continue
        prefix, name = match.groups()
        gold_name = f"{prefix}.gs.{name}.txt"
        candidates = [input_file.parent / gold_name, *sorted(input_file.parent.parent.glob(f"*/{gold_name}"))]
        gold_file = next((c for c in candidates if c.is_file()), None)
        dataset = f"{_group_of(root, input_file)}/{name}"
        if not wanted(dataset):
            continue
        if gold_file is None:
            skipped.append(f"{dataset}: no {gold_name} beside {input_file}")
            continue
        inputs, golds = _read_lines(input_file, rejects), _read_lines(gold_file, rejects)
        if len(inputs) > len(golds) == SCORED_LEADING_LINES.get(name):
            inputs = inputs[:len(golds)]
        if len(inputs) != len(golds):
            raise DataFileError(f"{input_file} has {len(inputs)} lines but its gold file {gold_file} has "
                                f"{len(golds)}: one of them is truncated or not of this dataset")
        rows = []
        for number, (line, score) in enumerate(zip(inputs, golds), 1):
            if line is None or score is None:
                rejects.add("invalid_utf8")
            elif score.strip():
                rows.append((number, *_fields(line, 2, input_file, number, "sentence1 TAB sentence2")[:2], score))
        yield _dataset(dataset, _group_of(root, input_file), rows, input_file, gold_file)


def _sts_benchmark(root: Path, wanted, rejects: LineRejects) -> Iterable[STSDataset]:
    for file in sorted(root.rglob("sts-*.csv")):
        name = f"{_group_of(root, file)}/{file.stem}"
        if not wanted(name):
            continue
        expected = "genre, file, year, id, score, sentence1, sentence2 separated by tabs"
        fields = ((number, _fields(line, 7, file, number, expected))
                  for number, line in _decoded(_read_lines(file, rejects), rejects))
        yield _dataset(name, _group_of(root, file), ((number, f[5], f[6], f[4]) for number, f in fields), file)


def _sick(root: Path, wanted, rejects: LineRejects) -> Iterable[STSDataset]:
    for file in sorted(root.rglob("SICK*.txt")):
        name = f"{_group_of(root, file)}/{file.stem}"
        if not wanted(name):
            continue
        reader = csv.DictReader([line for _, line in _decoded(_read_lines(file, rejects), rejects)], delimiter="\t",
                                quoting=csv.QUOTE_NONE)
        if not reader.fieldnames or not {"sentence_A", "sentence_B", "relatedness_score"} <= set(reader.fieldnames):
            raise DataFileError(f"{file}: not a SICK file (a header with sentence_A, sentence_B and "
                                f"relatedness_score expected)")
        yield _dataset(name, _group_of(root, file), _sick_rows(reader, file), file)


def _sick_rows(reader: csv.DictReader, file: Path) -> Iterable[tuple[int, str, str, str]]:
    for number, row in enumerate(reader, 2):
        if None in row.values():
            raise DataFileError(f"{file}:{number}: fewer columns than its header (a truncated file?)")
        yield number, row["sentence_A"], row["sentence_B"], row["relatedness_score"]


def discover_datasets(root: str | Path, select: list[str] | None = None, rejects: LineRejects | None = None
                      ) -> tuple[list[STSDataset], list[str]]:
    """All datasets under `root` (optionally only those whose name contains one of `select`; the others are not
    read), sorted by name, and the list of skipped inputs (an input without its gold file) with the reason, and of
    files with lines that are not UTF-8 (their pairs are rejects, counted in `rejects`). A file that cannot be read
    as the layout its name says is a DataFileError naming it (and the line)."""
    root = Path(root)
    if not root.is_dir():
        raise FileNotFoundError(f"STS directory {root} not found")

    def wanted(name: str) -> bool:
        return not select or any(s in name for s in select)

    skipped: list[str] = []
    rejects = LineRejects() if rejects is None else rejects
    datasets = [*_semeval(root, skipped, wanted, rejects), *_sts_benchmark(root, wanted, rejects),
                *_sick(root, wanted, rejects)]
    return sorted(datasets, key=lambda d: d.name), skipped + rejects.advice()


def pair_similarities(encode, dataset: STSDataset) -> np.ndarray:
    """cos(encode(s1), encode(s2)) of each pair of `dataset` (0 where an embedding is zero); `encode(list[str]) ->
    [n, dim]` array, called once on the dataset's distinct sentences."""
    unique = list(dict.fromkeys(dataset.s1 + dataset.s2))
    vectors = encode(unique)
    index = {s: i for i, s in enumerate(unique)}
    a = vectors[[index[s] for s in dataset.s1]]
    b = vectors[[index[s] for s in dataset.s2]]
    norms = np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1)
    return np.where(norms > 0, np.einsum("ij,ij->i", a, b) / np.where(norms > 0, norms, 1.0), 0.0)


def score_dataset(encode, dataset: STSDataset) -> STSResult:
    """Pearson/Spearman of cos(encode(s1), encode(s2)) against gold; `encode(list[str]) -> [n, dim]` array."""
    similarity = pair_similarities(encode, dataset)
    return STSResult(dataset.name, len(dataset.gold), float(pearsonr(similarity, dataset.gold)[0]),
                     float(spearmanr(similarity, dataset.gold)[0]))


def evaluate(encode, root: str | Path, select: list[str] | None = None) -> tuple[list[STSResult], list[str]]:
    datasets, skipped = discover_datasets(root, select)
    return [score_dataset(encode, d) for d in datasets], skipped


def sts_dev(encode, dev_sts_dir: str | None, dev_datasets: list[str]) -> dict | None:
    """The dev evaluation of every trainer with an STS dev set (`train`, `train-bgt`): {"dev": {dataset: 100 x
    Pearson, 2 decimals}} of the STS datasets of `dev_sts_dir` matching `dev_datasets` (None without
    `dev_sts_dir`)."""
    if not dev_sts_dir:
        return None
    results, _ = evaluate(encode, dev_sts_dir, dev_datasets)
    return {"dev": {r.dataset: round(100 * r.pearson, 2) for r in results}}


def year_means(results: list[STSResult]) -> dict[str, float]:
    """Mean Pearson per test-year group (YEAR_GROUP), keyed by year, plus `mean` = the mean of those year means
    (the papers' number only when every year of PAPER_YEARS is there: `papers_mean`)."""
    by_year: dict[str, list[float]] = {}
    for result in results:
        match = YEAR_GROUP.match(result.dataset.split("/")[0])
        if match:
            by_year.setdefault(match.group(1), []).append(result.pearson)
    means = {year: float(np.mean(values)) for year, values in sorted(by_year.items())}
    if means:
        means["mean"] = float(np.mean(list(means.values())))
    return means


def year_datasets(pearsons: dict[str, float]) -> dict[str, float]:
    """The entries of `pearsons` (dataset -> r) whose dataset belongs to a test-year group (YEAR_GROUP)."""
    return {name: r for name, r in pearsons.items() if YEAR_GROUP.match(name.split("/")[0])}


def model_differences(pearsons: dict[str, dict[str, float]]) -> list[tuple[str, str, float, int, str]]:
    """Per pair of models (in the order given), the mean over the datasets both have of |r_a - r_b| (ParaNMT-50M
    Table 10: models with close averages differ per dataset), the number of those datasets and the dataset where
    they differ most. `pearsons`: model -> dataset -> Pearson r."""
    names = list(pearsons)
    rows = []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            shared = [d for d in pearsons[a] if d in pearsons[b]]
            if not shared:
                continue
            gaps = {d: abs(pearsons[a][d] - pearsons[b][d]) for d in shared}
            rows.append((a, b, float(np.mean(list(gaps.values()))), len(shared), max(gaps, key=gaps.get)))
    return rows


def papers_mean(means: dict[str, float]) -> float | None:
    """The papers' "mean of the five year means" (STS 2012-2016) from `year_means`, or None when a year is missing."""
    return means["mean"] if set(PAPER_YEARS) <= set(means) and len(means) == len(PAPER_YEARS) + 1 else None


def describe_mean(means: dict[str, float]) -> str:
    """What `means['mean']` is: the papers' 2012-2016 number, or the mean of the years present (naming them)."""
    years = [y for y in means if y != "mean"]
    if papers_mean(means) is not None:
        return "mean of the five year means (STS 2012-2016, the papers' number)"
    missing = [y for y in PAPER_YEARS if y not in years]
    note = f"; not the papers' 2012-2016 mean: {', '.join(missing)} missing" if missing else ""
    return f"mean of the year means of {', '.join(years)}{note}"


def write_results(results: list[STSResult], skipped: list[str], output: str | Path, title: str = "STS") -> None:
    """`results.csv` (dataset,n,pearson,spearman; raw correlations) and `summary.md` (x100) in `output`."""
    output = Path(output)
    write_results_csv(output, ["dataset", "n", "pearson", "spearman"],
                      ([r.dataset, r.n, r.pearson, r.spearman] for r in results))
    lines = [f"# {title}", "", "Pearson r and Spearman rho x100 of cosine similarity against gold.", "",
             "| dataset | n | Pearson | Spearman |", "|---|---:|---:|---:|"]
    lines += [f"| {r.dataset} | {r.n} | {100 * r.pearson:.1f} | {100 * r.spearman:.1f} |" for r in results]
    means = year_means(results)
    if means:
        lines += ["", "## Year means (Pearson x100, mean over each year's datasets)", "",
                  "| " + " | ".join(means) + " |", "|" + "---:|" * len(means),
                  "| " + " | ".join(f"{100 * v:.1f}" for v in means.values()) + " |", "",
                  f"`mean` = {describe_mean(means)}."]
    if skipped:
        lines += ["", "## Skipped inputs", ""] + [f"- {s}" for s in skipped]
    write_result_file(output / "summary.md", "\n".join(lines) + "\n")


# the thesis' Tables 20-21 (CHARAGRAM vs word averaging): STS pairs binned by their unknown words and by the length
# of their longer sentence, (label, lowest, highest) in words
LENGTH_BINS = (("<=4", 0, 4), ("5", 5, 5), ("6", 6, 6), ("7", 7, 7), ("8", 8, 8), ("9", 9, 9), ("10", 10, 10),
               ("11-15", 11, 15), ("16-20", 16, 20), (">=21", 21, None))


def unknown_word_bins(unknown: np.ndarray) -> dict[str, np.ndarray]:
    """Masks of pairs by their number of unknown words (Table 20's rows, ">=3" added): "0", "1", "2", ">=3",
    ">=1" and "all"."""
    unknown = np.asarray(unknown)
    return {"0": unknown == 0, "1": unknown == 1, "2": unknown == 2, ">=3": unknown >= 3, ">=1": unknown >= 1,
            "all": np.ones(len(unknown), dtype=bool)}


def length_bins(lengths: np.ndarray) -> dict[str, np.ndarray]:
    """Masks of pairs by the length in words of their longer sentence (Table 21's rows, LENGTH_BINS)."""
    lengths = np.asarray(lengths)
    return {label: (lengths >= low) & (lengths <= (np.inf if high is None else high))
            for label, low, high in LENGTH_BINS}


def pearson_by_bin(gold: np.ndarray, similarities: dict[str, np.ndarray], bins: dict[str, np.ndarray]
                   ) -> list[tuple[str, int, dict[str, float]]]:
    """Per bin (in order): its number of pairs and each model's Pearson r of similarity against gold over them
    (NaN for a bin of fewer than 3 pairs)."""
    rows = []
    for label, mask in bins.items():
        count = int(mask.sum())
        rows.append((label, count, {name: float(pearsonr(values[mask], gold[mask])[0]) if count >= 3 else float("nan")
                                    for name, values in similarities.items()}))
    return rows
