"""Syntactically adversarial examples (thesis §6.5, SPEC §7): paraphrase an input, see whether the prediction
breaks; augment the training data with paraphrases and measure again.

    broken share = |{x : C(x) = y(x) and C(x') != y(x) for some paraphrase x' of x}| / |{x : C(x) = y(x)}|

over the attacked examples (an example none of whose paraphrases survived the post-filter counts as correctly
classified and not broken). A paraphrase rewrites only the example's PARAPHRASED_SLOT (SICK-E: sentence A) and
keeps its label. Paraphrase sets per example:
* SCPN: `templates_per_example` templates (10) drawn without replacement from the template pool (the 20 most
  frequent), seeded per example index (`draw_templates`), one best paraphrase per template;
* plain (the baseline, thesis NMT-BT): the `n_best` (10) best beam hypotheses.
Both post-filtered as in `paranmt paraphrase` unless the pipeline has no post-filter. Augmentation (thesis): the
paraphrases of training examples are appended to the training set with the original labels (no reweighting) and
the classifier is retrained from scratch.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from paranmt.models.adversarial.classifier import TextClassifier
from paranmt.models.adversarial.tasks import PARAPHRASED_SLOT, Example
from paranmt.models.generation.pipeline import Job, ParaphrasePipeline

TEMPLATES_PER_EXAMPLE = 10


def draw_templates(pool: list[str], count: int, index: int, seed: int = 0) -> list[str]:
    """`count` templates of `pool` without replacement (all when the pool is smaller), seeded by (seed, index)."""
    if count >= len(pool):
        return list(pool)
    picks = np.random.default_rng([seed, index]).choice(len(pool), size=count, replace=False)
    return [pool[i] for i in sorted(picks)]


def paraphrase_examples(pipeline: ParaphrasePipeline, examples: list[Example], pool: list[str] | None,
                        templates_per_example: int = TEMPLATES_PER_EXAMPLE, seed: int = 0) -> list[list[str]]:
    """For each example, its kept paraphrases (distinct, not equal to the sentence itself): one per drawn template
    for a controlled pipeline, the n-best list for a plain one."""
    sentences = [example.sentences[PARAPHRASED_SLOT] for example in examples]
    if pipeline.controlled:
        if not pool:
            raise ValueError("a controlled paraphraser needs a template pool")
        jobs = [Job(i, template) for i in range(len(examples))
                for template in draw_templates(pool, templates_per_example, i, seed)]
    else:
        jobs = [Job(i) for i in range(len(examples))]
    rows = pipeline.run_jobs(sentences, jobs, [str(i) for i in range(len(examples))])
    kept: list[list[str]] = [[] for _ in examples]
    for row in rows:
        i = int(row["source_id"])
        text = row.get("paraphrase")
        if row["kept"] and text and text != sentences[i] and text not in kept[i]:
            kept[i].append(text)
    return kept


@dataclass
class AttackResult:
    accuracy: float           # on the attacked examples, unparaphrased
    correct: int              # attacked examples classified correctly
    broken: int               # of those, broken by some paraphrase
    with_paraphrases: int     # attacked examples that have at least one paraphrase

    @property
    def broken_share(self) -> float:
        return self.broken / self.correct if self.correct else 0.0


def attack(classifier: TextClassifier, examples: list[Example], paraphrases: list[list[str]]) -> AttackResult:
    """The broken share of the module docstring (one batched prediction for all variants)."""
    labels = np.array([e.label for e in examples])
    correct = classifier.predict(examples) == labels
    variants, owner = [], []
    for i, (example, texts) in enumerate(zip(examples, paraphrases)):
        if correct[i]:
            variants += [example.with_paraphrase(text) for text in texts]
            owner += [i] * len(texts)
    broken = set()
    if variants:
        wrong = classifier.predict(variants) != labels[owner]
        broken = {i for i, w in zip(owner, wrong) if w}
    return AttackResult(float(correct.mean()) if len(examples) else 0.0, int(correct.sum()), len(broken),
                        sum(1 for texts in paraphrases if texts))


def augmented(train: list[Example], paraphrased: list[Example], paraphrases: list[list[str]]) -> list[Example]:
    """`train` plus one example per paraphrase of `paraphrased` (its label, its other sentences)."""
    return train + [example.with_paraphrase(text) for example, texts in zip(paraphrased, paraphrases)
                    for text in texts]
