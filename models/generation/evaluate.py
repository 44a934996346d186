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

import dataclasses
import hashlib
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

import numpy as np

from paranmt.models.generation.templates import matches_template, template_of
from paranmt.models.scoring.simile import SimileScorer, corpus_simile
from paranmt.schemas.errors import ConfigError

LOG = logging.getLogger(__name__)

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


def read_tsv_pairs(input_path: str, max_pairs: int, cache, parser_dir: str) -> tuple[list[EvalPair], int]:
    """The first `max_pairs` pairs of a pair TSV (models/generation/data.py) with both sides and both parses
    (missing parses made by the parser into `cache`, a ParseCache, batch by batch until enough pairs have them),
    named `<file name>:<row>`; and the rows skipped (the lines rejected as `paranmt build` rejects them among them:
    not UTF-8, blank, short of columns; a warning line per file with lines that are not UTF-8)."""
    from paranmt.models.encoding import LineRejects
    from paranmt.models.generation.data import GenerationDataError, fill_parses, read_parsed_pairs

    rejects = LineRejects()
    try:
        rows = read_parsed_pairs([input_path], rejects)
    except (GenerationDataError, OSError) as error:
        raise ConfigError(f"--input {input_path}: {error}") from None
    for advice in rejects.advice():
        LOG.warning("--input: %s", advice)
    name = Path(input_path).name
    usable = [(f"{name}:{i + 1}", pair) for i, pair in enumerate(rows) if pair.s1.strip() and pair.s2.strip()]
    pairs, start = [], 0
    while len(pairs) < max_pairs and start < len(usable):
        chunk = usable[start:start + max_pairs - len(pairs)]
        start += len(chunk)
        fill_parses([pair for _, pair in chunk], cache, parser_dir, "parse-generator")   # both sides parsed
        pairs += [EvalPair(pair_id, p.s1, p.s2, p.p1, p.p2) for pair_id, p in chunk if p.p1 and p.p2]
    return pairs, rejects.total + len(rows) - len(pairs) - (len(usable) - start)


def best_of_each(rows: list[dict]) -> tuple[list[str], list[str | None]]:
    """The output and its parse of the best row (rank 0) of each job."""
    rows = [row for row in rows if row["rank"] == 0]
    return [row.get("paraphrase") or "" for row in rows], [row.get("paraphrase_parse") for row in rows]


def reparsed(pipeline, texts: list[str]) -> list[str | None]:
    """The parse of each text by the pipeline's parser."""
    parsed, _ = pipeline.parser.parse_texts(texts)
    return [parsed[text][0] for text in texts]


@dataclass
class Systems:
    """The generators of an evaluation over loaded `models`: SCPN with its parse generator (`scpn`) and, once
    opened, the plain paraphraser (`plain`), whose post-filter (`post_filter`) is set aside while Table 60's
    columns are made; `scorer` SIMILE of the paraphrastic encoder."""
    models: object
    scpn: object
    post_filter: object
    scorer: SimileScorer
    plain: object = None

    @classmethod
    def open(cls, config) -> "Systems":
        """SCPN's pipeline of a resolved ParaphraseConfig, its models loaded, its post-filter set aside."""
        from paranmt.models.generation.pipeline import load_models, open_pipeline

        models = load_models(config)
        scpn = open_pipeline(config, models)
        post_filter, scpn.post_filter = scpn.post_filter, None     # Table 60 scores every output, unfiltered
        return cls(models, scpn, post_filter, SimileScorer(models.encoder))

    def open_plain(self, config, plain_dir: str) -> None:
        """The plain paraphraser of `plain_dir` on the same parser and encoder, its post-filter set aside."""
        from paranmt.models.generation.paraphraser import load_generator
        from paranmt.models.generation.pipeline import LoadedModels, open_pipeline

        self.plain = open_pipeline(dataclasses.replace(config, task="plain"), LoadedModels(
            load_generator(plain_dir, config.device, config.threads), None, self.models.parser, self.models.encoder))
        self.plain.post_filter = None

    def outputs(self, config, pairs: list[EvalPair], plain_dir: str | None) -> tuple[dict, list[dict]]:
        """Each system's (outputs, their parses), one per pair, before any post-filter; and the parse generator's
        rows (their `target_parse` is its p2^)."""
        from paranmt.models.generation.pipeline import Job

        sources = [pair.s1 for pair in pairs]
        LOG.info("SCPN with gold target parses on %d pairs", len(pairs))
        gold = self.scpn.run_jobs(sources, [Job(i, None, pair.p2) for i, pair in enumerate(pairs)])
        LOG.info("parse generator + SCPN on %d pairs", len(pairs))
        generated = [row for row in self.scpn.run_jobs(sources, [Job(i, pair.t2) for i, pair in enumerate(pairs)])
                     if row["rank"] == 0]
        systems = {"scpn-gold-parse": best_of_each(gold), "scpn-generated-parse": best_of_each(generated)}
        if plain_dir:
            LOG.info("plain paraphraser on %d pairs", len(pairs))
            self.open_plain(config, plain_dir)
            systems["plain"] = best_of_each(self.plain.run_jobs(sources, [Job(i) for i in range(len(pairs))]))
        systems["copy-input"] = (sources, reparsed(self.scpn, sources))
        return systems, generated

    def answers(self, pairs: list[EvalPair], templates: list[str], with_bt: list[int], bt_texts: list[str]
                ) -> tuple[dict[str, list[dict]], int]:
        """Each system's rows for the requests (distinct sources x `templates`), post-filtered as `paranmt
        paraphrase` filters them, and the number of distinct sources."""
        sources = [pair.s1 for pair in pairs]
        sentences = list(dict.fromkeys(sources))
        number = {sentence: str(i + 1) for i, sentence in enumerate(sentences)}
        LOG.info("requests: %d sentences x %d templates, post-filtered", len(sentences), len(templates))
        self.scpn.post_filter = self.post_filter
        answers = {"scpn-generated-parse": self.scpn.paraphrase(sentences, templates)}
        if self.plain is not None:
            self.plain.post_filter = self.post_filter
            answers["plain"] = self.plain.paraphrase(sentences)
        for name, indices, outputs in (("copy-input", range(len(pairs)), sources), ("nmt-bt", with_bt, bt_texts)):
            rows = [{"source_id": number[sources[i]], "source": sources[i], "paraphrase": output, "template": None}
                    for i, output in zip(indices, outputs)]
            if rows:
                self.scpn.score_candidates(rows)
            answers[name] = rows
        return answers, len(sentences)


def pair_outputs(pairs: list[EvalPair], systems: dict, generated: list[dict],
                 nmt_bt: list[tuple[str, str] | None]) -> list[dict]:
    """outputs.jsonl: per pair its sides, parses, templates, the parse generator's p2^ and every system's output."""
    return [{"id": pair.id, "s1": pair.s1, "s2": pair.s2, "t1": pair.t1, "t2": pair.t2,
             "generated_parse": generated[i]["target_parse"],
             **{name: texts[i] for name, (texts, _) in systems.items()},
             "nmt-bt": nmt_bt[i][1] if nmt_bt[i] else None, "nmt-bt_id": nmt_bt[i][0] if nmt_bt[i] else None}
            for i, pair in enumerate(pairs)]


def evaluate(paraphrase_run, pairs: list[EvalPair], plain_dir: str | None, nmt_bt: list[tuple[str, str] | None]
             ) -> tuple[list[dict], list[dict], list[dict]]:
    """(metric rows, per-pair outputs, SCPN rows of the template requests) of the systems of the module docstring;
    `paraphrase_run` a ParaphraseRun (its templates: the requests'), `plain_dir` the plain paraphraser (None: no
    plain row), `nmt_bt` the NMT-BT output (id, text) of each pair, or None."""
    config, templates = paraphrase_run.settings, paraphrase_run.templates
    run = Systems.open(config)
    systems, generated = run.outputs(config, pairs, plain_dir)
    results = {name: score_system(name, pairs, outputs, parses, run.scorer)
               for name, (outputs, parses) in systems.items()}
    with_bt = [i for i, found in enumerate(nmt_bt) if found]
    bt_texts = [nmt_bt[i][1] for i in with_bt]
    LOG.info("NMT-BT: another translation of the input for %d of %d pairs", len(with_bt), len(pairs))
    results["nmt-bt"] = score_system("nmt-bt", [pairs[i] for i in with_bt], bt_texts, reparsed(run.scpn, bt_texts),
                                     run.scorer)
    answers, sentences = run.answers(pairs, templates, with_bt, bt_texts)
    answered = {"nmt-bt": len({pairs[i].s1 for i in with_bt})}
    for name, rows in answers.items():
        results[name]["kept_in_template"] = kept_in_template(answered.get(name, sentences), templates, rows)
    ordered = list(results.values())
    ordered.insert(2, parse_generator_row(pairs, [row["target_parse"] for row in generated]))
    return ordered, pair_outputs(pairs, systems, generated, nmt_bt), answers["scpn-generated-parse"]


def markdown_table(results: list[dict]) -> str:
    """The results as a Markdown table: a row per system, a column per metric."""
    def cell(column: str, value) -> str:
        if value is None:
            return ""
        if isinstance(value, float):
            return f"{value:.3f}" if column in ("para_score", "simile") else f"{value:.1f}"
        return str(value)

    lines = ["| system | pairs | " + " | ".join(METRICS) + " |", "|---" * (len(METRICS) + 2) + "|"]
    lines += ["| " + " | ".join(cell(c, row.get(c)) for c in ("system", "pairs", *METRICS)) + " |" for row in results]
    return "\n".join(lines)


def report(paraphrase_run, input_path: str, pairs: list[EvalPair], skipped: int, table: str) -> str:
    """results.md: the settings (a ParaphraseRun, its templates the requests'), the requests of kept_in_template,
    and the table."""
    config, templates = paraphrase_run.settings, paraphrase_run.templates
    sentences = len({pair.s1 for pair in pairs})
    return (f"# eval-paraphraser\n\nmodel {config.model} (parse generator {config.parse_generator}), input "
            f"{input_path}: {len(pairs)} pairs ({skipped} rows skipped), beam {config.beam}, rerank "
            f"{config.rerank}, no_repeat_ngram {config.no_repeat_ngram}, fusion "
            f"{f'{config.fusion_model} (weight {config.fusion_weight})' if config.fusion_model else 'none'}"
            f"\n\nkept_in_template: {sentences} sentences "
            f"x {len(templates)} templates (--templates {config.templates}) = "
            f"{sentences * len(templates)} requests, n-best {config.n_best}, post-filter overlap >= "
            f"{config.min_overlap}, para_score >= {config.min_similarity}\n\n{table}\n")
