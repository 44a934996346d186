"""Intrinsic evaluation of paraphrase generators (thesis §6.4, Table 60; SPEC §7).

Evaluation pairs come from held-out shards: s1 = ref (the input), s2 = bt (the paraphrase whose syntax is the
target), p1/p2 their linearized parses, t1/t2 their templates (top two levels). Every system turns s1 into one
output o (its best hypothesis); o is re-parsed and scored:

    template_match            share of pairs with template(parse(o)) == t2          (Table 60's exact match)
    template_match_differing  the same over the pairs whose t1 != t2 (where keeping the input cannot score)
    keeps_input_template      share of pairs with template(parse(o)) == t1
    bleu                      sacrebleu corpus BLEU of the outputs against s2 (lowercased, 13a tokens)
    para_score                mean cos(f(s1), f(o)) of the paraphrastic encoder f
    simile                    mean SIMILE(s1, o) (models/scoring/simile.py; undefined counts 0)
    kept_in_template          per request: the share of requests (s, t) = (distinct source s1) x (template t of
                              `--templates`, default the model's top 10) for which the system returns a row
                              that the post-filter keeps AND whose re-parse has template t; the system runs as
                              `paranmt paraphrase` does (post-filter, n-best, reranking and guards as
                              configured). A system without templates (plain, copy-input, back-translation:
                              outputs per source) answers every request whose template its kept output has.
An output the parser cannot parse matches no template. Systems (rows of the CSV):
    scpn-gold-parse       SCPN given the gold target parse p2
    scpn-generated-parse  SCPN given the parse generator's p2^ from (p1, t2); its kept_in_template is
                          `paranmt paraphrase` (parse generator + SCPN) on the requests
    parse-generator       p2^ itself: template_match = template(p2^) == t2 (the other columns are empty)
    plain                 the uncontrolled paraphraser (when the model set has one)
    copy-input            o = s1 (a lower bound: its template_match is the share of pairs with t1 == t2; its
                          kept_in_template is 0 under the post-filter's copy guard, `--keep-copies` lifts it)
    nmt-bt                the back-translation baseline (thesis §6.4 NMT-BT: s1 run en→cs→en): o = another
                          translation of s1's source, i.e. another row of the NMT-BT pool (`nmt_bt_candidates`)
                          whose reference is s1, where the pair's s2 is one system's output and o another
                          system's output of the same source segment. Scored on the pairs that have one (its
                          `pairs` column); the thesis: 28.7% keep the input's template, 11.1% hit the target's.
The columns template_match to simile score every output before any post-filter (Table 60); kept_in_template is
the only post-filtered one.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Iterable

import numpy as np

from paranmt.models.generation.templates import matches_template, template_of
from paranmt.models.scoring.simile import SimileScorer, corpus_simile

METRICS = ("template_match", "template_match_differing", "keeps_input_template", "bleu", "para_score", "simile",
           "kept_in_template")


@dataclass(frozen=True)
class EvalPair:
    id: str
    s1: str
    s2: str
    p1: str
    p2: str

    @property
    def t1(self) -> str:
        return template_of(self.p1)

    @property
    def t2(self) -> str:
        return template_of(self.p2)


def nmt_bt_candidates(pairs: list[EvalPair], pool: Iterable[tuple[str, str, str]]) -> list[tuple[str, str] | None]:
    """For each pair, its NMT-BT output as (row id, text), or None: among the pool's (id, ref, bt) rows whose ref is
    the pair's s1 and whose id is not the pair's own (another system's translation of the same source), the one
    with the smallest md5 of `pair id TAB row id`: a seeded draw, the same whatever the pool's order. A row whose
    bt equals s2 (two systems that wrote the same sentence) is drawn like any other."""
    wanted = {pair.s1 for pair in pairs}
    by_ref: dict[str, list[tuple[str, str]]] = {}
    for row_id, ref, bt in pool:
        if ref in wanted and bt and bt.strip():
            by_ref.setdefault(ref, []).append((row_id, bt))

    def draw(pair: EvalPair) -> tuple[str, str] | None:
        others = [row for row in by_ref.get(pair.s1, ()) if row[0] != pair.id]
        return min(others, key=lambda row: hashlib.md5(f"{pair.id}\t{row[0]}".encode()).hexdigest(), default=None)

    return [draw(pair) for pair in pairs]


def share(flags: list[bool]) -> float | None:
    """Percentage of True (None for no flags)."""
    return 100.0 * sum(flags) / len(flags) if flags else None


def corpus_bleu(outputs: list[str], references: list[str]) -> float:
    """sacrebleu corpus BLEU, lowercased, default 13a tokenization."""
    import sacrebleu

    return float(sacrebleu.corpus_bleu(outputs, [references], lowercase=True).score)


def score_system(name: str, pairs: list[EvalPair], outputs: list[str], output_parses: list[str | None],
                 scorer: SimileScorer) -> dict:
    """The metrics of one system's outputs (one per pair; see the module docstring)."""
    matches = [matches_template(parse, pair.p2) for parse, pair in zip(output_parses, pairs)]
    differing = [m for m, pair in zip(matches, pairs) if pair.t1 != pair.t2]
    keeps = [matches_template(parse, pair.p1) for parse, pair in zip(output_parses, pairs)]
    sources = [pair.s1 for pair in pairs]
    para = scorer.para.score(sources, outputs) if pairs else np.zeros(0)
    simile = scorer.score(sources, outputs) if pairs else np.zeros(0)
    return {"system": name, "pairs": len(pairs), "template_match": share(matches),
            "template_match_differing": share(differing), "keeps_input_template": share(keeps),
            "bleu": corpus_bleu(outputs, [pair.s2 for pair in pairs]) if pairs else None,
            "para_score": float(np.nanmean(para)) if len(para) and not np.isnan(para).all() else None,
            "simile": corpus_simile(simile) if len(simile) else None}


def parse_generator_row(pairs: list[EvalPair], generated: list[str | None]) -> dict:
    """The parse generator's own exact template match: template(p2^) == t2."""
    return {"system": "parse-generator", "pairs": len(pairs),
            "template_match": share([matches_template(p, pair.p2) for p, pair in zip(generated, pairs)]),
            "template_match_differing": share([matches_template(p, pair.p2) for p, pair in zip(generated, pairs)
                                               if pair.t1 != pair.t2])}


def kept_in_template(sources: int, templates: list[str], rows: list[dict]) -> float | None:
    """Percentage of the `sources` x `templates` requests answered by a kept row in the asked template. A row
    names its source by `source_id` and its `template` (None: it answers every template its
    `paraphrase_parse` has); rows of one source must share its source_id."""
    hits = set()
    for row in rows:
        if row["kept"] and row.get("paraphrase_parse"):
            for template in [row["template"]] if row["template"] is not None else templates:
                if matches_template(row["paraphrase_parse"], template):
                    hits.add((row["source_id"], template))
    requests = sources * len(templates)
    return 100.0 * len(hits) / requests if requests else None
