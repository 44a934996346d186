"""The corpus probe of `paranmt probe`: judge paraphrase corpora by the encoders they train (ParaNMT-50M §5,
Tables 4-5: the same small encoder trained on each candidate corpus, compared on STS).

A run = one corpus (or one fold of it), one encoder kind: `pairs` of the corpus's usable pairs (read as `paranmt
train` reads them, models/pairs.read_pairs) drawn uniformly without replacement with `seed` (all of them
when there are fewer; the same draw for every kind), one training of the mega-batch trainer (`train`: TrainConfig,
its `encoder` set by `models`; 1 epoch by default), then Pearson r of cos(f(s1), f(s2)) against gold on each STS
dataset matching `datasets` under `sts_dir` (models/evaluation/sts.py; raw r, as `paranmt eval`'s results.csv).

Folds (`by` COLUMN): the corpus's usable pairs whose COLUMN is not null, sorted by it (stable: ties keep corpus
order), cut into `folds` consecutive parts of equal size (np.array_split: sizes differ by at most one); fold 0 holds
the lowest values. Pairs with a null (or NaN) COLUMN are left out of the ranking (counted in the log).

Output DIR: results.csv (`corpus,fold,model,pairs,dataset,pearson`, rewritten after each run; `fold` is `all`
without `by`), probe.png (models/stats/plots.probe_figure), probe_config.yaml (the resolved config and its hash),
runs/<corpus>.<fold>.<model>/ (the run's metrics.jsonl, its curves metrics.png and train_config.json; its
encoder too with `keep_encoders`), train_data.json (per corpus: its path and what reading it counted, models/pairs.py
`PairCounts.record`: lines rejected as `paranmt build` rejects them, pairs skipped, pairs kept). `resume` skips the
runs results.csv already holds, refusing a config that differs from the one that wrote DIR (the command refuses an
existing results.csv without --resume or --overwrite).
"""
from __future__ import annotations

import csv
import dataclasses
import json
import logging
import resource
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, ClassVar

import numpy as np
import yaml

from paranmt.models.encoders import BASE_KINDS
from paranmt.models.pairs import FORMATS, TRAIN_DATA, PairCounts, TrainingDataError, read_pairs
from paranmt.models.training.trainer import TrainConfig, Trainer
from paranmt.schemas.config import Config, bounded, check_ranges, choice, read_yaml_mapping, setting
from paranmt.schemas.errors import ConfigError
from paranmt.schemas.paths import make_output_dir

log = logging.getLogger(__name__)
HEADER = ("corpus", "fold", "model", "pairs", "dataset", "pearson")
RESULTS = "results.csv"
ALL_FOLDS = "all"                 # the fold of a corpus probed whole
DEFAULT_MODELS = ("word", "trigram")
PER_RUN = "per run: models"       # train.encoder of a probe: each run sets it to one of `models`


@dataclass
class ProbeConfig(Config):
    """`paranmt probe` (see the module docstring). `models`: encoder kinds of `paranmt train` (`lstm` is LSTMavg;
    a concatenation such as `word,trigram` is one kind); `train`: the training settings of every run."""
    RUN_FIELDS: ClassVar[tuple[str, ...]] = ("input", "output", "resume", "models", "keep_encoders")

    input: list[str] = setting(default_factory=list, help="corpora: shard directories, Parquet corpora, TSV pair "
                               "files, Moses prefixes (as `paranmt train`)")
    output: str = setting("", help="output directory (results.csv, probe.png, probe_config.yaml, runs/)")
    format: str = choice("auto", FORMATS, help=f"format of the inputs, one of {', '.join(FORMATS)}")
    suffixes: list[str] | None = setting(None, help="Moses suffixes SIDE1 SIDE2")
    by: str | None = setting(None, help="rank each corpus by this column (e.g. para_score, trigram_overlap, simile) "
                             "and probe each fold")
    folds: int | None = bounded(None, 1, help="folds of the ranking, fold 0 = lowest (default 10 with --by: tenths)")
    pairs: int = bounded(100_000, 1, help="training pairs per run (all of a corpus or fold when it has fewer)")
    models: list[str] = setting(default_factory=lambda: list(DEFAULT_MODELS), help=f"encoder kinds, each trained on "
                                f"every corpus/fold: {', '.join(BASE_KINDS)} (lstm = LSTMavg) or a "
                                "sum/concatenation of them")
    seed: int = setting(1, help="seed of the draw of the training pairs")
    sts_dir: str = setting("", help="STS root folder (as `paranmt eval --sts-dir`)")
    datasets: list[str] = setting(default_factory=lambda: ["STS2017/track5.en-en"], help="STS datasets scored, by "
                                  "name or part of it")
    resume: bool = setting(False, flag={"action": "store_true"}, help="skip the runs results.csv holds (refused when "
                           "there is no results.csv)")
    keep_encoders: bool = setting(False, flag={"action": "store_true"}, help="keep each run's encoder under DIR/runs/ "
                                  "(default: its logs only)")
    train: TrainConfig = field(default_factory=lambda: TrainConfig(encoder=PER_RUN, epochs=1))

    def validate(self) -> "ProbeConfig":
        check_ranges(self)
        if not self.input:
            raise ConfigError("no input: give --input CORPUS [CORPUS ...] (or `input:` in the config)")
        if not self.output:
            raise ConfigError("no output: give --output DIR (or `output:` in the config)")
        if not self.sts_dir:
            raise ConfigError("no STS data: give --sts-dir DIR (or `sts_dir:` in the config)")
        if self.suffixes is not None and len(self.suffixes) != 2:
            raise ConfigError(f"suffixes needs exactly two suffixes, e.g. en,cs; got {self.suffixes}")
        if self.folds is not None and self.by is None:
            raise ConfigError("folds needs by: the column whose ranking is cut into folds (--by COLUMN)")
        if self.by is not None and self.folds is None:
            self.folds = 10
        if not self.models:
            raise ConfigError("models is empty: name at least one encoder kind")
        if len(set(self.models)) != len(self.models):
            raise ConfigError(f"models names a kind twice: {self.models}")
        if self.train.encoder != PER_RUN:
            raise ConfigError("train.encoder is set per run by models: give the kinds as --models")
        for model in self.models:
            self.run_config(model)
        return self

    def run_config(self, model: str) -> TrainConfig:
        """The training config of the runs of `model` (validated: ConfigError naming the problem)."""
        return dataclasses.replace(self.train, encoder=model).validate()


@dataclass
class Fold:
    corpus: str
    fold: str
    pairs: list[tuple[str, str]]


def corpus_names(paths: list[str]) -> list[str]:
    """The name of each input in results.csv: a file's name without its last suffix (`pairs.tsv` -> `pairs`), a
    directory's or Moses prefix's name; ConfigError when two inputs get one name."""
    names = [Path(p).stem if Path(p).is_file() else Path(p).name for p in paths]
    for name in names:
        if names.count(name) > 1:
            same = [p for p, n in zip(paths, names) if n == name]
            raise ConfigError(f"the inputs {' and '.join(same)} would both be corpus {name!r} in results.csv: "
                              "give them different file names")
    return names


def draw(pairs: list, n: int, seed: int) -> list:
    """`n` of `pairs` uniformly without replacement (seeded), in their order; all of them when there are fewer."""
    if len(pairs) <= n:
        return list(pairs)
    chosen = np.sort(np.random.default_rng(seed).choice(len(pairs), n, replace=False))
    return [pairs[i] for i in chosen]


def rank_folds(rows: list[tuple], folds: int) -> tuple[list[list[tuple[str, str]]], int]:
    """(folds of the (side1, side2) of `rows` = (side1, side2, value) ranked by value, fold 0 lowest; the number of
    rows left out for a null (or NaN) value)."""
    ranked = [row for row in rows if row[2] is not None and row[2] == row[2]]
    order = np.argsort(np.array([row[2] for row in ranked], dtype=float), kind="stable")
    return [[ranked[i][:2] for i in part] for part in np.array_split(order, folds)], len(rows) - len(ranked)


def read_folds(config: ProbeConfig) -> tuple[list[Fold], dict[str, tuple[str, PairCounts]]]:
    """The training pairs of every run, drawn from every input (ConfigError for an input that cannot be read, has
    no usable pairs, or fewer rankable pairs than folds), before any training; and per corpus name, its path and
    what reading it counted."""
    folds, read = [], {}
    suffixes = tuple(config.suffixes) if config.suffixes else None
    for name, path in zip(corpus_names(config.input), config.input):
        carry = (config.by,) if config.by else ()
        try:
            rows, counts = read_pairs([path], config.format, suffixes, config.train.max_words, carry=carry)
        except (TrainingDataError, OSError) as error:
            raise ConfigError(str(error)) from None
        if not rows:
            raise ConfigError(f"no usable training pairs in {path} ({counts.record()})")
        read[name] = (path, counts)
        log.info("corpus %s: %d usable pairs of %d read (skipped %s)", name, counts.kept, counts.read,
                 counts.skipped or "none")
        if not config.by:
            folds.append(Fold(name, ALL_FOLDS, draw(rows, config.pairs, config.seed)))
            continue
        try:
            parts, null = rank_folds(rows, config.folds)
        except (TypeError, ValueError):
            raise ConfigError(f"{path}: column {config.by} is not numeric: it cannot rank pairs") from None
        if null:
            log.info("corpus %s: %d pairs have no %s and are left out of the ranking", name, null, config.by)
        if len(parts[-1]) == 0:
            raise ConfigError(f"{path}: {sum(map(len, parts))} pairs with a {config.by} value cannot make "
                              f"{config.folds} folds")
        folds += [Fold(name, str(i), draw(part, config.pairs, config.seed)) for i, part in enumerate(parts)]
    return folds, read


def run_name(corpus: str, fold: str, model: str) -> str:
    """The name of a run's directory under runs/."""
    return f"{corpus}.{fold}.{model}"


def read_results(path: Path) -> list[dict]:
    """The rows of a probe's results.csv (ConfigError when it is not one)."""
    with path.open(newline="") as handle:
        reader = csv.DictReader(handle)
        if tuple(reader.fieldnames or ()) != HEADER:
            raise ConfigError(f"{path} is not a probe's results.csv (columns {reader.fieldnames}, expected "
                              f"{','.join(HEADER)})")
        return list(reader)


def prepare_output(config: ProbeConfig) -> tuple[Path, list[dict]]:
    """The output directory and, with `resume`, the results rows an earlier run left there; refuses mixing runs
    (a config that differs from the one that wrote them). Whether an earlier probe may be resumed or replaced is the
    command's to decide (pipelines/probe.py)."""
    output = make_output_dir(config.output)
    results, written = output / RESULTS, output / "probe_config.yaml"
    rows = []
    if config.resume and results.exists():
        rows = read_results(results)
        if written.exists():
            old = read_yaml_mapping(str(written), "probe config")
            differences = config.differences(old) if old.get("config_hash") != config.hash() else []
            if differences:
                raise ConfigError(f"--resume: the config differs from the one that wrote {output}: "
                                  + "; ".join(differences))
    try:
        written.write_text(yaml.safe_dump({**config.to_dict(), "config_hash": config.hash()}, sort_keys=False))
    except OSError as error:
        raise ConfigError(f"--output {output} is not writable: {error}") from None
    return output, rows


def run_probe(config: ProbeConfig, admit: Callable[[PairCounts], bool] = lambda counts: True) -> list[dict] | None:
    """Every run of `config` not already in results.csv (see the module docstring); returns all results rows.
    One progress line per run on stderr (logging), with its wall time and CPU time. `admit` is shown the counts of
    every corpus read together (after DIR/train_data.json records them per corpus); when it says no, nothing is
    trained and None is returned."""
    from paranmt.models.evaluation.sts import discover_datasets, score_dataset
    from paranmt.models.evaluation.tables import write_results_csv
    from paranmt.models.stats.plots import probe_plot

    config.validate()
    try:
        datasets, _ = discover_datasets(config.sts_dir, config.datasets)
    except FileNotFoundError as error:
        raise ConfigError(str(error)) from None
    for name in config.datasets:
        if not any(name in d.name for d in datasets):
            raise ConfigError(f"no STS dataset named like {name!r} under {config.sts_dir}")
    folds, read = read_folds(config)
    output, rows = prepare_output(config)
    total = PairCounts()
    for _, counts in read.values():
        total.read, total.kept = total.read + counts.read, total.kept + counts.kept
        total.rejects.merge(counts.rejects)
    (output / TRAIN_DATA).write_text(json.dumps(
        {"corpora": {name: {"input": path, **counts.record()} for name, (path, counts) in read.items()}},
        indent=2) + "\n")
    if not admit(total):
        return None
    done = {(r["corpus"], r["fold"], r["model"]) for r in rows}
    runs = [(fold, model) for fold in folds for model in config.models]
    todo = [(fold, model) for fold, model in runs if (fold.corpus, fold.fold, model) not in done]
    log.info("probe: %d runs (%d corpora/folds x %d models), %d already in %s", len(runs), len(folds),
             len(config.models), len(runs) - len(todo), output / "results.csv")
    for number, (fold, model) in enumerate(todo, 1):
        run_dir = output / "runs" / run_name(fold.corpus, fold.fold, model)
        if run_dir.exists():                       # a run stopped half-way: start it again
            shutil.rmtree(run_dir)
        started, cpu = time.perf_counter(), _cpu_seconds()
        encoder = Trainer(config.run_config(model), run_dir).fit(fold.pairs)
        scores = [score_dataset(encoder.encode, dataset) for dataset in datasets]
        if not config.keep_encoders:
            for entry in run_dir.iterdir():
                if entry.is_dir():
                    shutil.rmtree(entry)
                elif entry.name not in ("metrics.jsonl", "metrics.png", "train_config.json"):
                    entry.unlink()
        rows += [{"corpus": fold.corpus, "fold": fold.fold, "model": model, "pairs": str(len(fold.pairs)),
                  "dataset": s.dataset, "pearson": f"{s.pearson:.6f}"} for s in scores]
        write_results_csv(output, HEADER, ([r[column] for column in HEADER] for r in rows))
        (output / "probe.png").write_bytes(probe_plot(rows))
        log.info("probe run %d/%d: %s fold %s %s, %d pairs: %s (%.0f s, %.1f CPU-s)", number, len(todo),
                 fold.corpus, fold.fold, model, len(fold.pairs),
                 ", ".join(f"{s.dataset} {100 * s.pearson:.1f}" for s in scores), time.perf_counter() - started,
                 _cpu_seconds() - cpu)
    if not todo and rows:               # all done before: the plot of what is there
        (output / "probe.png").write_bytes(probe_plot(rows))
    return rows


def _cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime
