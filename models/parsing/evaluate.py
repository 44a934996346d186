"""Parser quality: labeled bracket F1 (evalb-style), POS accuracy and exact template match.

Labeled brackets follow evalb's COLLINS.prm: every constituent except ROOT and the preterminals (POS tags) is a
(label, start, end) span over the words; punctuation words (tags `,` `:` `` `` `` `''` `.`) are deleted before
spans are counted; ADVP and PRT count as the same label; brackets are matched as multisets. Then, summed over the
corpus (micro average):
    precision = matched / predicted brackets,  recall = matched / gold brackets,
    F1 = 2 * precision * recall / (precision + recall)    (0 when both are 0).
POS accuracy = correct tags / words. Exact template match = share of sentences whose `trees.template` (top two
levels below ROOT) is identical in gold and prediction. Gold and predicted trees must have the same words.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass

from paranmt.models.parsing.trees import ROOT, Tree, template

PUNCTUATION_TAGS = frozenset({",", ":", "``", "''", "."})
EQUIVALENT_LABELS = {"PRT": "ADVP"}


def labeled_brackets(tree: Tree) -> Counter:
    """Multiset of (label, start, end) of the tree's constituents, evalb COLLINS.prm conventions (see module)."""
    brackets: Counter = Counter()

    def visit(node: Tree | str, start: int) -> int:
        if isinstance(node, str):
            return start + 1
        if node.is_preterminal:
            return start if node.label in PUNCTUATION_TAGS else start + 1
        end = start
        for child in node.children:
            end = visit(child, end)
        if node.label != ROOT and end > start:
            brackets[(EQUIVALENT_LABELS.get(node.label, node.label), start, end)] += 1
        return end

    visit(tree, 0)
    return brackets


@dataclass
class ParseScores:
    sentences: int
    words: int
    precision: float
    recall: float
    bracket_f1: float
    pos_accuracy: float
    exact_template_match: float

    def as_dict(self) -> dict:
        return asdict(self)


def score_parses(gold: list[Tree], predicted: list[Tree]) -> ParseScores:
    """Corpus-level scores of `predicted` against `gold` (same sentences, same order, same words)."""
    if len(gold) != len(predicted):
        raise ValueError(f"{len(gold)} gold trees but {len(predicted)} predicted trees")
    matched = gold_total = predicted_total = words = tags_right = templates_right = 0
    for number, (gold_tree, predicted_tree) in enumerate(zip(gold, predicted)):
        if gold_tree.leaves() != predicted_tree.leaves():
            raise ValueError(f"sentence {number}: gold and predicted trees have different words")
        gold_brackets, predicted_brackets = labeled_brackets(gold_tree), labeled_brackets(predicted_tree)
        matched += sum((gold_brackets & predicted_brackets).values())
        gold_total += sum(gold_brackets.values())
        predicted_total += sum(predicted_brackets.values())
        gold_tags, predicted_tags = gold_tree.tags(), predicted_tree.tags()
        words += len(gold_tags)
        tags_right += sum(g == p for g, p in zip(gold_tags, predicted_tags))
        templates_right += template(gold_tree) == template(predicted_tree)
    precision = matched / predicted_total if predicted_total else 0.0
    recall = matched / gold_total if gold_total else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return ParseScores(sentences=len(gold), words=words, precision=precision, recall=recall, bracket_f1=f1,
                       pos_accuracy=tags_right / words if words else 0.0,
                       exact_template_match=templates_right / len(gold) if gold else 0.0)
