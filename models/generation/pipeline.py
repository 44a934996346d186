"""Paraphrasing sentences with trained generators (thesis §6.3, SPEC §7): parse, target parses, SCPN, re-parse,
post-filter. Pure Python (no Beam); `paranmt paraphrase` and the Beam stage (transforms/paraphrase.py) run it.

For a controlled model (task `scpn`), per source sentence s1 and target template t2:
1. parse s1 with the configured parser -> p1 (linearized, no leaves) and its template t1;
2. the parse generator turns (p1, t2) into a full target parse p2^ (its best beam hypothesis; with `parses` = k > 1
   its k best distinct ones, each decoded in step 3, the hypotheses of all pooled before `rerank` chooses);
3. SCPN turns (s1, p2^) into `n_best` paraphrases by beam search (`beam`);
4. each paraphrase is re-parsed; `template_match` = its top two levels equal t2 (thesis Table 60);
5. the post-filter scores it (trigram overlap, para_score) and keeps or drops it (models/generation/postfilter.py).
A job may also come with its target parse (evaluation with gold parses: step 2 is skipped).
For a plain model (task `plain`) there is no template: s1 -> `n_best` paraphrases, then steps 4 (parse only) and 5.

Decoding guards and reranking: `no_repeat_ngram` (> 0) is passed to the paraphraser's beam search (not to the
parse generator's: parse tokens repeat by nature). `fusion` = (plain paraphraser on the SCPN's units, weight w):
SCPN's beam search is fused with it (models/generation/scpn.py: log P_scpn + w log P_plain per unit; w = 0 is off,
Paraphraser.generate); scpn task only. `rerank` chooses which `n_best` of the beam a job returns:
    score     the generator's n_best best hypotheses (by length-normalized log-probability), as they come (with
              `parses` > 1: the n_best best of all the target parses' hypotheses);
    template  all `beam` hypotheses generated, then ordered by (kept by the post-filter, template_match, score);
    simile    all `beam` hypotheses generated, then ordered by (kept by the post-filter, SIMILE(source,
              paraphrase) with the post-filter's encoder (models/scoring/simile.py; undefined = lowest), score);
and the first `n_best` are returned with their new `rank`. Without a post-filter every row counts as kept.

The paraphrasers are English models: a source whose probability of being English, P(en | source) by the language
identifier of the build's signals (models/scoring/langid.py: py3langid, full language set), is below `min_english`
is not paraphrased (reason `not_english`; 0 turns the check off; a source without any letter is not judged).

Every source ends as rows (one per template x n-best rank; schemas/paraphrases.py) or as one row with a reason:
`source_empty` (no text), `not_english` (above), `source_unparsed` (controlled model only: the parser gave no parse,
e.g. longer than
`parse.max_tokens`), `generation_failed` (the generator raised on that input even alone: split-and-retry,
models/stage.split_retry), `bad_target_parse` (the parse generator's output is empty or not a tree: SCPN is not
run on it). Identical inputs are generated once per call (sources, (p1, t2) pairs, paraphrases to
re-parse).
"""
from __future__ import annotations

import logging
import math
from collections import Counter
from dataclasses import dataclass

from paranmt.models.generation import RERANK
from paranmt.models.generation.postfilter import PostFilter
from paranmt.models.generation.templates import matches_template, normalize_template, template_of
from paranmt.models.parsing.stage import ParseStage
from paranmt.models.scoring.langid import LanguageIdentifier
from paranmt.models.scoring.simile import SimileScorer
from paranmt.models.stage import split_retry
from paranmt.schemas.build_config import ParseConfig
from paranmt.schemas.paths import asset_path

LOG = logging.getLogger(__name__)
CONTROLLED, PLAIN, PARSE_GENERATOR = "scpn", "plain", "parse-generator"


@dataclass(frozen=True)
class Job:
    """One generation request: source index, target template (None: plain), gold target parse (None: generate)."""
    source: int
    template: str | None = None
    target_parse: str | None = None


class ParaphrasePipeline:
    """`model`: a generator of task scpn or plain (`paranmt.models.generation.load_generator`); `parse_generator`:
    the task-parse-generator model SCPN needs for template-only requests; `parser`: a ParseStage (its cache and
    dedup serve sources and paraphrases); `post_filter`: None keeps every row (scores left null); `rerank`,
    `no_repeat_ngram`, `fusion`, `min_english`: the module docstring; `simile`: the scorer `rerank="simile"`
    needs."""

    def __init__(self, model, parser: ParseStage, post_filter: PostFilter | None = None, parse_generator=None,
                 beam: int = 4, n_best: int = 1, batch_size: int = 32, rerank: str = "score",
                 no_repeat_ngram: int = 0, simile: SimileScorer | None = None,
                 fusion: tuple[object, float] | None = None, parses: int = 1, min_english: float = 0.0):
        if model.task not in (CONTROLLED, PLAIN):
            raise ValueError(f"a paraphraser model has task scpn or plain, not {model.task!r} (a parse generator "
                             "goes with an scpn model)")
        if parse_generator is not None and parse_generator.task != PARSE_GENERATOR:
            raise ValueError(f"the parse generator's task is {parse_generator.task!r}, not parse-generator")
        if not 1 <= n_best <= beam or parses < 1:
            raise ValueError(f"need 1 <= n_best <= beam and parses >= 1, got n_best={n_best}, beam={beam}, "
                             f"parses={parses}")
        if rerank not in RERANK or (rerank == "simile" and simile is None) or no_repeat_ngram < 0:
            raise ValueError(f"rerank must be one of {', '.join(RERANK)} (simile with a SimileScorer) and "
                             f"no_repeat_ngram >= 0, got {rerank!r}, {no_repeat_ngram}")
        self.model, self.parse_generator, self.parser, self.post_filter = model, parse_generator, parser, post_filter
        self.beam, self.n_best, self.batch_size = beam, n_best, batch_size
        self.rerank, self.no_repeat_ngram, self.simile = rerank, no_repeat_ngram, simile
        self.fusion = fusion if model.task == CONTROLLED else None
        self.parses = parses
        self.min_english = min_english
        self.identifier = LanguageIdentifier() if min_english > 0 else None
        self.counts: Counter = Counter()

    @property
    def controlled(self) -> bool:
        return self.model.task == CONTROLLED

    def generate(self, generator, sources: list[str], conditions: list[str | None], n_best: int, beam: int,
                 no_repeat_ngram: int = 0, fusion=None) -> list[list[tuple[str, float]] | None]:
        """Distinct (source, condition) inputs generated once; an input the generator fails on even alone gets
        None (logged, counted as `generation_failed`)."""
        inputs = list(dict.fromkeys(zip(sources, conditions)))

        def run(batch):
            return generator.generate([s for s, _ in batch], [c for _, c in batch], beam=beam, n_best=n_best,
                                      batch_size=self.batch_size, no_repeat_ngram=no_repeat_ngram, fusion=fusion)

        def fail(item, error):
            LOG.warning("%s generator failed on %r: %s", generator.task, item[0][:200], error)
            return None

        results = dict(zip(inputs, split_retry(inputs, run, fail))) if inputs else {}
        return [results[key] for key in zip(sources, conditions)]

    def target_parses(self, parses: list[str], templates: list[str]) -> list[list[str] | None]:
        """The parse generator's `parses` best distinct full parses for each (source parse, template) pair, best
        first (None: it failed)."""
        if self.parse_generator is None:
            raise ValueError("an scpn model needs a parse generator to paraphrase from templates alone")
        outputs = self.generate(self.parse_generator, parses, templates, n_best=self.parses,
                                beam=max(self.beam, self.parses))
        return [list(dict.fromkeys(text for text, _ in output)) if output else None for output in outputs]

    def paraphrase(self, sources: list[str], templates: list[str] | None = None,
                   source_ids: list[str] | None = None) -> list[dict]:
        """Rows for every source x template (controlled) or every source (plain); see the module docstring."""
        if self.controlled and not templates:
            raise ValueError("an scpn model needs at least one template")
        targets = [normalize_template(t) for t in templates] if self.controlled else [None]
        jobs = [Job(i, template) for i in range(len(sources)) for template in targets]
        return self.run_jobs(sources, jobs, source_ids)

    def run_jobs(self, sources: list[str], jobs: list[Job], source_ids: list[str] | None = None) -> list[dict]:
        """Rows for explicit jobs, in job order (evaluation gives gold target parses this way)."""
        ids = source_ids or [str(i + 1) for i in range(len(sources))]
        foreign = self.not_english(sources)
        parsed, _ = self.parser.parse_texts([s for s in sources if s.strip() and s not in foreign])
        bases, refused = [], set()
        for job in jobs:
            source = sources[job.source]
            parse, source_template = parsed.get(source, (None, None))
            reason = ("source_empty" if not source.strip() else "not_english" if source in foreign else
                      "source_unparsed" if self.controlled and job.target_parse is None and parse is None else None)
            if reason and job.source in refused:
                continue                    # one row per source that cannot be paraphrased, not one per template
            if reason:
                refused.add(job.source)
            bases.append({"source_id": ids[job.source], "source": source, "source_template": source_template,
                          "template": job.template or template_of(job.target_parse),
                          "target_parse": job.target_parse, "source_parse": parse, "rank": 0, "kept": False,
                          "reason": reason})
        targets_of = {k: [base["target_parse"]] for k, base in enumerate(bases)}
        if self.controlled:
            need = [k for k, b in enumerate(bases) if b["reason"] is None and b["target_parse"] is None]
            for k, targets in zip(need, self.target_parses([bases[k]["source_parse"] for k in need],
                                                           [bases[k]["template"] for k in need])):
                targets_of[k] = [target for target in targets or [] if template_of(target)]
                reason = "generation_failed" if targets is None else None if targets_of[k] else "bad_target_parse"
                bases[k].update(target_parse=(targets_of[k] or targets or [None])[0], reason=reason)
        todo = [k for k, base in enumerate(bases) if base["reason"] is None]
        inputs = [(k, target) for k in todo for target in targets_of[k]]
        outputs = self.generate(self.model, [bases[k]["source"] for k, _ in inputs], [t for _, t in inputs],
                                n_best=self.n_best if self.rerank == "score" else self.beam, beam=self.beam,
                                no_repeat_ngram=self.no_repeat_ngram, fusion=self.fusion)
        rows_of_job = [[base] for base in bases]
        made: dict[int, list[dict]] = {}
        for (k, target), hypotheses in zip(inputs, outputs):
            if hypotheses is not None:
                made.setdefault(k, []).extend({**bases[k], "target_parse": target, "paraphrase": text, "score": score}
                                              for text, score in hypotheses)
        for k in todo:
            if k in made:
                rows_of_job[k] = [dict(row, rank=rank) for rank, row in enumerate(made[k])]
            else:
                bases[k]["reason"] = "generation_failed"
        self.score_candidates([row for k in todo for row in rows_of_job[k] if "paraphrase" in row])
        if self.rerank != "score" or self.parses > 1:
            self.rerank_jobs([rows_of_job[k] for k in todo if "paraphrase" in rows_of_job[k][0]])
        candidates = [row for k in todo for row in rows_of_job[k] if "paraphrase" in row]
        rows = [row for job_rows in rows_of_job for row in job_rows]
        for row in rows:
            del row["source_parse"]
        self.counts["candidates"] += len(candidates)
        self.counts["kept"] += sum(row["kept"] for row in candidates)
        self.counts.update(row["reason"] for row in rows if row["reason"])
        return rows

    def not_english(self, sources: list[str]) -> set[str]:
        """The sources whose P(en | source) is below `min_english` (none when the check is off)."""
        if self.identifier is None:
            return set()
        texts = [s for s in dict.fromkeys(sources) if s.strip()]
        return {text for text, english in zip(texts, self.identifier.probability(texts, "en"))
                if english is not None and english < self.min_english}

    def rerank_jobs(self, jobs: list[list[dict]]) -> None:
        """In place: each job's hypotheses cut to the `n_best` best by `rerank` (module docstring), ranked anew;
        SIMILE is computed for all the jobs' rows in one call."""
        rows = [row for job in jobs for row in job]
        if self.rerank == "simile":
            similes = self.simile.score([row["source"] for row in rows], [row["paraphrase"] for row in rows])
            second = dict(zip(map(id, rows), (-math.inf if math.isnan(v) else float(v) for v in similes)))
        else:
            second = {id(row): float(row["template_match"] is True) for row in rows}
        for job in jobs:
            order = sorted(job, key=lambda row: (-row["score"], row["rank"])) if self.rerank == "score" else \
                sorted(job, key=lambda row: (not row["kept"], -second[id(row)], -row["score"], row["rank"]))
            job[:] = [dict(row, rank=rank) for rank, row in enumerate(order[:self.n_best])]

    def score_candidates(self, candidates: list[dict]) -> None:
        """Re-parse the paraphrases (template_match) and post-filter them, in place."""
        reparsed, _ = self.parser.parse_texts([row["paraphrase"] for row in candidates if row["paraphrase"].strip()])
        for row in candidates:
            row["paraphrase_parse"] = reparsed.get(row["paraphrase"], (None, None))[0]
            row["template_match"] = (None if row["template"] is None or row["paraphrase_parse"] is None
                                     else matches_template(row["paraphrase_parse"], row["template"]))
        if self.post_filter is None:
            for row in candidates:
                row.update(kept=True, reason=None)
            return
        scores = self.post_filter.score([row["source"] for row in candidates],
                                        [row["paraphrase"] for row in candidates])
        for row, overlap, para, reason in zip(candidates, scores.overlap, scores.para_score, scores.reasons):
            row.update(overlap=overlap, para_score=float(para), kept=reason is None, reason=reason)


@dataclass
class LoadedModels:
    """The loaded models of a paraphrasing run: the heavy, read-only part that a process shares between pipelines."""
    generator: object
    parse_generator: object | None
    parser: object                  # a StanzaParser
    encoder: object                 # the post-filter's SentenceEncoder
    fusion: object | None = None    # the plain paraphraser SCPN's beam search is fused with (config.fusion_model)


def load_models(config) -> LoadedModels:
    """The models of a resolved ParaphraseConfig (local paths), loaded."""
    from paranmt.models.encoders import open_encoder
    from paranmt.models.generation.paraphraser import load_generator
    from paranmt.models.parsing.parser import StanzaParser

    if config.task == CONTROLLED:
        LOG.info("SCPN decoding: %s", f"fused with the plain paraphraser {config.fusion_model} (weight "
                 f"{config.fusion_weight})" if config.fusion_model else "no fusion (no plain paraphraser on its "
                 "units: fusion_model)")
    return LoadedModels(
        load_generator(config.model, config.device, config.threads),
        load_generator(config.parse_generator, config.device, config.threads) if config.parse_generator else None,
        StanzaParser(asset_path(config.parser), device=config.device, threads=config.threads or 1),
        open_encoder(config.encoder, config.threads or 1),
        load_generator(config.fusion_model, config.device, config.threads) if config.fusion_model else None)


def open_pipeline(config, models: LoadedModels | None = None) -> ParaphrasePipeline:
    """A ParaphrasePipeline of a resolved ParaphraseConfig over `models` (loaded here when None); its parse cache
    and counts are its own, so each Beam DoFn instance builds one over the process's shared models."""
    models = models or load_models(config)
    stage = ParseStage(lambda: models.parser, ParseConfig(max_tokens=config.max_tokens), keep_parsed=False)
    post_filter = PostFilter(models.encoder, config.min_overlap, config.min_similarity, keep=config.guards_kept())
    return ParaphrasePipeline(models.generator, stage, post_filter, models.parse_generator, beam=config.beam,
                              n_best=config.n_best, batch_size=config.batch_size, rerank=config.rerank,
                              no_repeat_ngram=config.no_repeat_ngram, simile=SimileScorer(models.encoder),
                              fusion=(models.fusion, config.fusion_weight) if models.fusion else None,
                              parses=config.parses, min_english=config.min_english)
