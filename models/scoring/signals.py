"""The pair-signals stage of `paranmt build` (pure; runs after the score stage): the schema v2 columns that corpus
builders filter on, filled batch-wise, never rejecting a row (score once, decide later).

- `simile` = para_score * LP(ref, bt) ** 0.25 (paranmt.models.scoring.simile; lengths in the units of the encoder
  that made para_score, the score stage's `score.encoder`); null when para_score is null (bt null or the cosine
  undefined) or a side has no units,
- `bt_repetition`: share of bt's tokens that continue an immediate loop (paranmt.models.scoring.repetition),
- `unigram_f1`, `kendall_tau`: word-bag overlap and word-order change of bt against ref
  (paranmt.models.scoring.diversity; kendall_tau null under 2 shared words),
- `cs_lang`, `ref_lang`, `bt_lang` and their `*_conf`: language label and confidence of each side
  (paranmt.models.scoring.langid: py3langid, full language set); null where the side is null or empty.
Rows without a back-translation (`bt` null) get only the language columns of cs and ref; the others stay null.
"""
from __future__ import annotations

import numpy as np

from paranmt.models.encoders import shared_encoder
from paranmt.models.scoring.diversity import kendall_tau, unigram_f1
from paranmt.models.scoring.langid import LanguageIdentifier
from paranmt.models.scoring.repetition import repetition
from paranmt.models.scoring.simile import simile_rows, unit_counts
from paranmt.models.stage import PairStage

SIDES = ("cs", "ref", "bt")
COLUMNS = ("simile", "bt_repetition", "unigram_f1", "kendall_tau",
           *(f"{side}_lang{suffix}" for side in SIDES for suffix in ("", "_conf")))


class SignalsStage(PairStage):
    name = "signals"
    requires = ("ref",)

    def __init__(self, encoder_dir: str):
        self.encoder_dir = encoder_dir
        self.identifier = LanguageIdentifier()
        self.encoder = None

    def setup(self) -> None:
        if self.encoder is None:
            self.encoder = shared_encoder(self.encoder_dir)
            self.identifier.setup()

    def process_batch(self, rows: list[dict]) -> list[dict]:
        self.setup()
        outputs = [dict(row, **dict.fromkeys(COLUMNS)) for row in rows]
        for side in SIDES:
            for output, (label, conf) in zip(outputs, self.identifier.identify([row.get(side) for row in rows])):
                output[f"{side}_lang"], output[f"{side}_lang_conf"] = label, conf
        translated = [i for i, row in enumerate(rows) if row.get("bt") is not None]
        for i in translated:
            ref, bt = rows[i]["ref"], rows[i]["bt"]
            outputs[i].update(bt_repetition=repetition(bt), unigram_f1=unigram_f1(ref, bt),
                              kendall_tau=kendall_tau(ref, bt))
        scored = [i for i in translated if rows[i].get("para_score") is not None]
        if scored:
            values = simile_rows(np.array([rows[i]["para_score"] for i in scored], dtype=np.float64),
                                 unit_counts(self.encoder, [rows[i]["ref"] for i in scored]),
                                 unit_counts(self.encoder, [rows[i]["bt"] for i in scored]))
            for i, value in zip(scored, values):
                outputs[i]["simile"] = None if np.isnan(value) else float(value)
        return outputs
