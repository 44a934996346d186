"""`paranmt eval-xling`: cross-lingual evaluation of a bilingual or multilingual encoder on a line-aligned bitext
(`--source` in `--source-lang`, default cs; `--target` in `--target-lang`, default en; an encoder whose
MANIFEST.json lists its languages must list both): (a) retrieval P@1 in both directions (every sentence against all
sentences of the other side; by cosine and by ratio margin; on a Tatoeba-style set of 1,000 held-out pairs this is
Tatoeba accuracy), (b) a BUCC-style mining task built from the bitext plus distractors
(docs/mining.md): precision, recall and F1 of `paranmt mine`'s selection at its threshold (calibrated on the data,
or `--threshold`) and at the best threshold. Writes `results.csv` (task,setting,metric,value,n) and `summary.md`.
An --output holding the results of an earlier run is refused unless `--overwrite`; one that is, holds or lies
inside an input is refused; Ctrl-C, SIGTERM or a full disk stop it in one line naming the rerun, leaving no
results file. Settings (XlingConfig): defaults <- `--config FILE.yaml` (keys: the flags' names with underscores)
<- flags <- `--set KEY=VALUE`.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from paranmt.models.mining.evaluate import evaluate, result_value, write_results
from paranmt.models.mining.settings import MiningSettings
from paranmt.pipelines.runtime.command import Command, ResultsFolder
from paranmt.schemas.config import bounded, setting
from paranmt.schemas.errors import ConfigError
from paranmt.transforms.io.streams import read_sentences

log = logging.getLogger(__name__)
RESULTS = ("results.csv", "summary.md")


def read_bitext(source: str, target: str) -> tuple[list[str], list[str]]:
    """Line-aligned pairs with both sides non-empty; different line counts are a ConfigError."""
    sources, targets = list(read_sentences(source)), list(read_sentences(target))
    if len(sources) != len(targets):
        raise ConfigError(f"{source} has {len(sources)} lines but {target} has {len(targets)}")
    pairs = [(s.strip(), t.strip()) for s, t in zip(sources, targets) if s.strip() and t.strip()]
    return [s for s, _ in pairs], [t for _, t in pairs]


@dataclass
class XlingConfig(MiningSettings):
    """The settings of `paranmt eval-xling`: the keys of `--config FILE.yaml`, the flags (one per field) and `--set`;
    the encoder, selection and search settings are `paranmt mine`'s (MiningSettings, the same flags)."""
    RUN_FIELDS: ClassVar[tuple[str, ...]] = ("source", "target", "output", "distractors_source",
                                             "distractors_target")
    source: str = setting("", help="source side of the bitext (in --source-lang), one sentence a line")
    target: str = setting("", help="target side (in --target-lang), line-aligned with --source")
    output: str = setting("", help="directory for results.csv and summary.md")
    gold_fraction: float = bounded(0.2, 0, 1, open_low=True, help="share of the usable pairs kept as gold pairs in "
                                   "the mining task")
    seed: int = setting(1, help="seed of the mining task's split and shuffle")
    distractors_source: str | None = setting(None, help="extra distractor sentences in --source-lang (one a line)")
    distractors_target: str | None = setting(None, help="extra distractor sentences in --target-lang (one a line)")


def run(c: XlingConfig, args) -> int:
    from paranmt.models.encoders import open_encoder

    sources, targets = read_bitext(c.source, c.target)
    if not sources:
        raise ConfigError(f"{c.source} / {c.target}: no pair with two non-empty sides")
    extra_sources = list(read_sentences(c.distractors_source)) if c.distractors_source else []
    extra_targets = list(read_sentences(c.distractors_target)) if c.distractors_target else []
    encoder = open_encoder(c.encoder, c.threads)
    rows = evaluate(encoder, sources, targets, k=c.k, strategy=c.strategy, threshold=c.threshold_value(),
                    gold_fraction=c.gold_fraction, seed=c.seed, search=c, batch_size=c.batch_size,
                    extra_sources=extra_sources, extra_targets=extra_targets,
                    languages=(c.source_lang, c.target_lang))
    write_results(rows, Path(c.output), f"Cross-lingual evaluation ({c.source_lang}-{c.target_lang}): "
                                        f"{c.encoder} on {c.source} / {c.target}")
    for row in rows:
        print(f"{row['task']}\t{row['setting']}\t{row['metric']}\t{result_value(row['value'])}\t{row['n']}")
    return 0


COMMAND = Command("eval-xling", XlingConfig, run, help="cross-lingual retrieval and mining evaluation of an encoder "
                  "(any language pair)", description=__doc__,
                  inputs=("encoder", "source", "target", "distractors_source", "distractors_target"),
                  output=ResultsFolder(RESULTS), required=("source", "target", "output"),
                  check=lambda c, args: c.check_encoder_languages(), example="gold_fraction=0.5")
