"""The experiment of `paranmt adversarial` (thesis §6.5, Table 62): for each paraphrasing method, train the task's
classifier, attack it with paraphrases of test examples, augment the training data with paraphrases, retrain and
attack again (models/adversarial/attack.py has the measures). Paraphrases are cached in `<output>/CACHE/` (one
file per method, split and settings: what `--resume` reuses); the results are written into `<output>` whole.
"""
from __future__ import annotations

import csv
import hashlib
import io
import json
import logging
from dataclasses import dataclass, field
from pathlib import Path

from paranmt.models.adversarial.attack import attack, augmented, paraphrase_examples
from paranmt.models.adversarial.classifier import TextClassifier
from paranmt.models.adversarial.tasks import Example, TaskData
from paranmt.models.evaluation.tables import write_result_file
from paranmt.models.files import DataFileError, read_text, reading

LOG = logging.getLogger(__name__)
RESULTS = ("results.csv", "results.md", "samples.json")
CACHE = "paraphrases"           # <output>/paraphrases/*.jsonl: what --resume reuses
COLUMNS = ("method", "attacked", "test_acc_before", "broken_before", "augmented", "test_acc_after", "broken_after",
           "paraphrases_per_example")
SAMPLES = 20                    # attacked examples shown with their paraphrases in samples.json


def cached_paraphrases(cache: Path | None, key: dict, make):
    """`make()` (a list of paraphrase lists, one per example: `key["rows"]`), stored in `cache`/<hash of
    key>.jsonl (written whole) and reused when present; a cached file that does not hold one list of paraphrases
    per example is a DataFileError naming it."""
    if cache is None:
        return make()
    digest = hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()[:16]
    path = cache / f"{key['method']}-{key['split']}-{digest}.jsonl"
    if path.is_file():
        LOG.info("reusing %s", path)
        with reading(path, "file of cached paraphrases", DataFileError):
            found = [json.loads(line)["paraphrases"] for line in read_text(path, "paraphrase cache").splitlines()]
        if len(found) != key["rows"] or not all(isinstance(p, list) for p in found):
            raise DataFileError(f"{path} holds {len(found)} lines, not a list of paraphrases for each of the "
                                f"{key['rows']} examples (a damaged cache: delete it to make it again)")
        return found
    result = make()
    write_result_file(path, "".join(json.dumps({"paraphrases": p}, ensure_ascii=False) + "\n" for p in result))
    return result


def markdown(results: list[dict], task: str) -> str:
    """The results as a Markdown table (accuracies and broken shares in percent)."""
    lines = [f"| method ({task}) | attacked | test acc. before | broken before | + paraphrases | test acc. after | "
             "broken after |", "|---|---|---|---|---|---|---|"]
    for r in results:
        lines.append(f"| {r['method']} | {r['attacked']} | {100 * r['test_acc_before']:.1f} | "
                     f"{100 * r['broken_before']:.1f} | {r['augmented']} | {100 * r['test_acc_after']:.1f} | "
                     f"{100 * r['broken_after']:.1f} |")
    return "\n".join(lines)


@dataclass
class Experiment:
    """One run of the experiment: `settings` are the command's (pipelines/adversarial.py AdversarialConfig: task,
    train_rows, test_rows, attack_rows, augment_rows, templates_per_example, no_filter, seed, classifier), `data`
    the task's splits, `output` where the cache and the results go (None: nowhere)."""
    settings: object
    data: TaskData
    output: Path | None
    train: list[Example] = field(init=False)
    test: list[Example] = field(init=False)
    attacked: list[Example] = field(init=False)
    to_augment: list[Example] = field(init=False)

    def __post_init__(self) -> None:
        c, splits = self.settings, self.data.splits
        self.train = splits["train"][:c.train_rows] if c.train_rows else splits["train"]
        self.test = splits["test"][:c.test_rows] if c.test_rows else splits["test"]
        self.attacked, self.to_augment = self.test[:c.attack_rows], self.train[:c.augment_rows]

    def classifier(self, examples: list[Example]) -> TextClassifier:
        """The task's classifier trained on `examples`."""
        return TextClassifier(len(self.data.labels), self.data.pair, self.settings.classifier).fit(examples)

    def paraphrases(self, method: str, run, pipeline, examples: list[Example], split: str) -> list[list[str]]:
        """The kept paraphrases of each example by the method's `pipeline` (of `run`, a ParaphraseRun: its
        templates are the pool drawn from, none for the plain paraphraser), from the cache when it holds them."""
        c = self.settings
        key = {"method": method, "split": split, "task": c.task, "rows": len(examples), "settings": run.record(),
               "per_example": c.templates_per_example, "filter": not c.no_filter, "seed": c.seed}
        return cached_paraphrases(self.output / CACHE if self.output else None, key, lambda: paraphrase_examples(
            pipeline, examples, run.templates or None, c.templates_per_example, c.seed))

    def method(self, method: str, run, before: TextClassifier, accuracy: float) -> tuple[dict, list[dict]]:
        """The results row of one method (`run`, its ParaphraseRun, against the classifier `before`, of test
        accuracy `accuracy`) and its samples."""
        from paranmt.models.generation.pipeline import open_pipeline

        pipeline = open_pipeline(run.settings)
        pipeline.post_filter = None if self.settings.no_filter else pipeline.post_filter
        LOG.info("%s: paraphrasing %d attacked examples", method, len(self.attacked))
        attack_paraphrases = self.paraphrases(method, run, pipeline, self.attacked, "attack")
        LOG.info("%s: paraphrasing %d training examples", method, len(self.to_augment))
        augment_paraphrases = self.paraphrases(method, run, pipeline, self.to_augment, "augment") \
            if self.to_augment else []
        first = attack(before, self.attacked, attack_paraphrases)
        extra = augmented(self.train, self.to_augment, augment_paraphrases)
        after = self.classifier(extra)
        second = attack(after, self.attacked, attack_paraphrases)
        row = {"method": method, "attacked": len(self.attacked), "test_acc_before": accuracy,
               "broken_before": first.broken_share, "augmented": len(extra) - len(self.train),
               "test_acc_after": after.accuracy(self.test), "broken_after": second.broken_share,
               "paraphrases_per_example": sum(map(len, attack_paraphrases)) / max(len(self.attacked), 1)}
        samples = [{"sentence": e.sentences[0], "paraphrases": p}
                   for e, p in zip(self.attacked[:SAMPLES], attack_paraphrases[:SAMPLES])]
        return row, samples

    def run(self, methods: dict) -> str:
        """Train, attack, augment, retrain, attack again for each method (name -> its ParaphraseRun); write the
        results into `output` (each file whole); returns the table."""
        c = self.settings
        LOG.info("%s: %d training, %d test examples; attacking %d, augmenting from %d", c.task, len(self.train),
                 len(self.test), len(self.attacked), len(self.to_augment))
        before = self.classifier(self.train)
        accuracy = before.accuracy(self.test)
        results, samples = [], {}
        for method, run in methods.items():
            row, samples[method] = self.method(method, run, before, accuracy)
            results.append(row)
        table = markdown(results, c.task)
        if self.output:
            self.write(results, samples, table)
        return table

    def write(self, results: list[dict], samples: dict, table: str) -> None:
        """results.csv, results.md and samples.json in `output`."""
        buffer = io.StringIO()
        writer = csv.DictWriter(buffer, COLUMNS)
        writer.writeheader()
        writer.writerows(results)
        write_result_file(self.output / "results.csv", buffer.getvalue())
        write_result_file(self.output / "results.md", f"# adversarial {self.settings.task}\n\n{table}\n")
        write_result_file(self.output / "samples.json", json.dumps(samples, indent=1, ensure_ascii=False) + "\n")
