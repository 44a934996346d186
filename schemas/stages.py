"""The stage table of `paranmt build` (the only place a stage is registered, in pipeline order) and the default
shard size that follows the stages a build runs."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class StageSpec:
    """One stage of `paranmt build`. `section`: the BuildConfig attribute holding its config; `model_field`: the
    field of that section naming its model (None: no model); `factory`: `module:function` that builds the stage's
    PairStage from its config section (validating the model: ConfigError), imported only when the stage runs."""
    name: str
    section: str
    model_field: str | None = None
    factory: str | None = None
    batch_field: str | None = None     # field of the section holding the rows per batch
    also: tuple[str, ...] = ()         # top-level BuildConfig keys the factory also gets, as keywords
    fills: tuple[str, ...] = ()        # the numeric columns (schemas/records.py) the stage computes


# The only place a stage is registered, in pipeline order.
STAGES = (
    StageSpec("read", "read"),
    StageSpec("clean", "clean", None, "paranmt.transforms.stage:clean_stage", "batch_rows",
              also=("source_lang", "target_lang"), fills=("ref_len",)),
    StageSpec("xsim", "xsim", "encoder", "paranmt.transforms.score:xsim_stage", "batch_size",
              also=("source_lang",), fills=("xsim",)),
    StageSpec("translate", "translate", "model", "paranmt.transforms.translate:translate_stage", "group_size",
              also=("source_lang", "target_lang"), fills=("bt_score", "bt_len")),
    StageSpec("score", "score", "encoder", "paranmt.transforms.score:score_stage", "batch_size",
              fills=("trigram_overlap", "para_score", "simile", "bt_repetition", "unigram_f1", "kendall_tau",
                     "cs_lang_conf", "ref_lang_conf", "bt_lang_conf")),
    StageSpec("parse", "parse", "model_dir", "paranmt.transforms.parse:parse_stage", "batch_size",
              also=("stages",)),
)
STAGE_ORDER = tuple(spec.name for spec in STAGES)
STAGE_SPECS = {spec.name: spec for spec in STAGES}


SHARD_ROWS = 20_000              # rows per shard of a build without model stages (read, clean)
MODEL_STAGE_SHARD_ROWS = 2_000   # rows per shard when a stage with a model runs (xsim, translate, score, parse)


def shard_rows_for(stages: list[str]) -> int:
    """The default shard size of a build running `stages`: MODEL_STAGE_SHARD_ROWS when any of them loads a model,
    else SHARD_ROWS. Each worker process holds its models, one shard of rows with every column and its caches; with
    models loaded a 20,000-row shard per worker made an all-stages build's peak memory grow +42% from 4k to 64k
    pairs (two workers busy only from the third shard on), 2,000-row shards kept it within +9%; without models the
    rows are all there is and bigger shards mean fewer files and less per-shard work (benchmarks/RESULTS.md, "Flat
    memory with all stages (issue 25)")."""
    return MODEL_STAGE_SHARD_ROWS if any(STAGE_SPECS[s].model_field for s in stages if s in STAGE_SPECS) \
        else SHARD_ROWS
