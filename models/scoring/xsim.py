"""Cross-lingual similarity of a pair (schema v2 `xsim`): cosine of the Czech source and the English reference in
a bilingual encoder's space (default `assets/encoder-xling`, trained on cs-en bitext with one shared vocabulary),

    xsim(cs, ref) = cos(f(cs), f(ref))        in [-1, 1]

computed for a whole batch at once (the batch's distinct sentences encoded in one call, one vectorized
row-wise cosine). A row with an empty side (null or whitespace only), or whose cosine is undefined (a zero
embedding), gets `xsim` null. The stage runs after clean and before translate, so that an optional threshold
keeps misaligned pairs away from the GPU: with `min_xsim` set, a row whose xsim is below it becomes a reject row
(stage `xsim`, reason `low_xsim`, the value in `detail`, the pair in `raw`); rows with a null xsim are never
rejected. `min_xsim` None (the default) rejects nothing. Settings: the build's `xsim` section (XsimConfig).

The encoder covers the languages its MANIFEST.json declares (`languages`: cs, en for assets/encoder-xling and
assets/encoder-sp; a multilingual encoder lists every language it was trained on). The build refuses, before any
work, a `source_lang` outside them (transforms/score.py); a row whose own `src_lang` (from the input, e.g. a
wmt-bt build's per-row source language) is outside them gets `xsim` null, counted as `xsim/unsupported_language`
and per language as `xsim/unsupported_language/<src_lang>` (the build prints both), and is never rejected. Labels
are matched through schemas/metadata.py's LANGUAGE_ALIASES: wmt-bt's Livonian rows, labelled `li`, are covered by
an encoder listing `liv`.
"""
from __future__ import annotations

import math
from collections import Counter

from paranmt.models.encoders import shared_encoder
from paranmt.models.scoring.para_score import ParaScorer
from paranmt.models.stage import PairStage
from paranmt.schemas.build_config import XsimConfig
from paranmt.schemas.metadata import covers
from paranmt.schemas.records import reject_row

REJECT_REASON = "low_xsim"


class XsimStage(PairStage):
    name = "xsim"
    requires = ("cs", "ref")

    def __init__(self, encoder_dir: str, config: XsimConfig, languages: list[str] | None):
        """`encoder_dir`: the resolved encoder location; `config`: the build's `xsim` section; `languages`: the
        source languages the encoder covers (None: not declared, every row is scored)."""
        config.validate()
        self.encoder_dir, self.min_xsim, self.batch_size = encoder_dir, config.min_xsim, config.batch_size
        self.languages = languages
        self.scorer: ParaScorer | None = None

    def setup(self) -> None:
        if self.scorer is None:
            import torch

            torch.set_num_threads(1)      # one thread per worker process: the processes are the parallelism
            self.scorer = ParaScorer(shared_encoder(self.encoder_dir), self.batch_size)

    def process_batch(self, rows: list[dict]) -> list[dict]:
        self.setup()
        covered = [not row.get("src_lang") or covers(self.languages, row["src_lang"]) for row in rows]
        self.last_counts = Counter(unsupported_language=covered.count(False))
        self.last_counts.update(f"unsupported_language/{language_key(row['src_lang'])}"
                                for row, ok in zip(rows, covered) if not ok)
        both = [i for i, row in enumerate(rows) if covered[i] and (row.get("cs") or "").strip()
                and (row.get("ref") or "").strip()]
        cosines = self.scorer.score([rows[i]["cs"] for i in both], [rows[i]["ref"] for i in both])
        outputs = [dict(row, xsim=None) for row in rows]
        for i, cosine in zip(both, cosines):
            if math.isnan(cosine):
                continue
            value = float(cosine)
            if self.min_xsim is not None and value < self.min_xsim:
                row = rows[i]
                outputs[i] = reject_row(row["id"], self.name, REJECT_REASON,
                                        f"xsim={value:.4f} < min_xsim={self.min_xsim}",
                                        f"{row['cs']}\t{row['ref']}")
            else:
                outputs[i]["xsim"] = value
        return outputs


def language_key(src_lang: str) -> str:
    """`src_lang` as a counter key: a language code as it is, anything else (a wrong column mapped to src_lang)
    as `other`, so that such input cannot make a counter per row."""
    code = str(src_lang)
    return code if len(code) <= 12 and code.replace("-", "").replace("_", "").isalnum() else "other"
