"""The xsim signal's calibration per language (issue 48): for each language of an encoder, the xsim (cosine of a
source and an English sentence through the scorer the build's xsim stage uses) of its held-out aligned pairs
against its misaligned pairs (the source of pair i with the English of pair j, every j != i), on the held-out pairs
of benchmarks/xling_data.py (1,000 Tatoeba pairs of ../shared/data/bitext/X-en; for a language only wmt-bt has, its
held-out WMT segments): each side's mean, the ROC AUC of aligned over misaligned, and the thresholds at which 95% /
99% of the misaligned pairs are rejected (`xsim.min_xsim`) with the share of aligned pairs each keeps; and what
min_xsim 0.2 (docs/mining.md's cs-en value) rejects of each.

    python benchmarks/xsim_calibration.py --encoder assets/encoder-multi --data ../shared/data \\
        [--languages es,ja] [--limit N] [--wmt] [--output work/xsim_calibration.tsv]
"""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from paranmt.models.encoders import load_encoder
from paranmt.models.scoring.para_score import ParaScorer
from paranmt.pipelines.cli import CommandLineParser, exit_code
from paranmt.schemas.errors import ConfigError
from paranmt.schemas.metadata import LANGUAGE_ALIASES, covers, manifest_languages
from paranmt.schemas.paths import asset_path
from xling_data import split, wmt_bt_split

MIN_XSIM = 0.2            # docs/mining.md: "0.15-0.2 is a reasonable opt-in value for CzEng-like data"
COLUMNS = ("lang", "held_out", "pairs", "aligned_mean", "aligned_p5", "misaligned_mean", "misaligned_p95",
           "misaligned_p99", "auc", "t95", "aligned_kept_t95", "t99", "aligned_kept_t99",
           "aligned_rejected_0.2", "misaligned_rejected_0.2")


def held_out_pairs(data: Path, lang: str, wmt: bool = False) -> tuple[str, list[tuple[str, str]]]:
    """(what they are, the (source, English) held-out pairs of `lang`): Tatoeba of bitext/<lang>-en where there
    is one and `wmt` is False, else wmt-bt's held-out segments of that source language."""
    if not wmt and (data / "bitext" / f"{lang}-en").is_dir():
        return "Tatoeba", split(data / "bitext" / f"{lang}-en")[1]
    _, heldout, _ = wmt_bt_split(data / "wmt-bt", LANGUAGE_ALIASES.get(lang, lang))     # wmt-bt's `li`: files liv
    return "WMT", heldout


def calibration(scorer: ParaScorer, pairs: list[tuple[str, str]]) -> dict:
    """The aligned-vs-misaligned numbers of COLUMNS (from pairs on) for `pairs`: xsim of every (source i,
    English j) through `scorer`, the diagonal aligned, the rest misaligned."""
    sources, english = [x for x, _ in pairs], [e for _, e in pairs]
    n = len(pairs)
    aligned = scorer.score(sources, english).astype(np.float64)
    vectors = scorer.encoder.encode(list(dict.fromkeys(sources + english)), scorer.batch_size)
    index = {s: i for i, s in enumerate(dict.fromkeys(sources + english))}
    a = vectors[[index[s] for s in sources]].astype(np.float64)
    b = vectors[[index[s] for s in english]].astype(np.float64)
    a /= np.maximum(np.linalg.norm(a, axis=1, keepdims=True), 1e-12)
    b /= np.maximum(np.linalg.norm(b, axis=1, keepdims=True), 1e-12)
    matrix = a @ b.T
    misaligned = np.sort(matrix[~np.eye(n, dtype=bool)])
    below = np.searchsorted(misaligned, aligned, side="left")
    ties = np.searchsorted(misaligned, aligned, side="right") - below
    t95, t99 = np.quantile(misaligned, [0.95, 0.99])
    return {"pairs": n, "aligned_mean": aligned.mean(), "aligned_p5": np.quantile(aligned, 0.05),
            "misaligned_mean": misaligned.mean(), "misaligned_p95": t95, "misaligned_p99": t99,
            "auc": float(np.mean((below + 0.5 * ties) / len(misaligned))),
            "t95": t95, "aligned_kept_t95": np.mean(aligned >= t95), "t99": t99,
            "aligned_kept_t99": np.mean(aligned >= t99), "aligned_rejected_0.2": np.mean(aligned < MIN_XSIM),
            "misaligned_rejected_0.2": np.mean(misaligned < MIN_XSIM)}


def main() -> int:
    parser = CommandLineParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--encoder", default="assets/encoder-multi", help="an encoder directory")
    parser.add_argument("--data", type=Path, required=True, help="the shared data folder (bitext/, wmt-bt/)")
    parser.add_argument("--languages", help="comma-separated source languages (default: the encoder's "
                                            "MANIFEST.json languages but en)")
    parser.add_argument("--limit", type=int, default=0, help="the first N held-out pairs of each language (0: all)")
    parser.add_argument("--wmt", action="store_true", help="wmt-bt's held-out segments for every language, "
                                                           "also those with a Tatoeba set (news, not Tatoeba)")
    parser.add_argument("--output", type=Path, help="also write the table as TSV here")
    args = parser.parse_args()
    listed = manifest_languages(asset_path(args.encoder))
    if listed is None:
        raise ConfigError(f"--encoder {args.encoder}: no MANIFEST.json listing its languages")
    languages = args.languages.split(",") if args.languages else [lang for lang in listed if lang != "en"]
    unknown = [lang for lang in languages if not covers(listed, lang)]
    if unknown:
        raise ConfigError(f"--languages: {args.encoder} lists {', '.join(listed)}, not {', '.join(unknown)}")
    scorer = ParaScorer(load_encoder(asset_path(args.encoder)))
    lines = ["\t".join(COLUMNS)]
    print(lines[0], flush=True)
    for lang in languages:
        kind, pairs = held_out_pairs(args.data, lang, args.wmt)
        row = {"lang": lang, "held_out": kind, **calibration(scorer, pairs[:args.limit] if args.limit else pairs)}
        lines.append("\t".join(f"{row[c]:.3f}" if isinstance(row[c], float) else str(row[c]) for c in COLUMNS))
        print(lines[-1], flush=True)
    if args.output:
        args.output.parent.mkdir(parents=True, exist_ok=True)
        args.output.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(exit_code(main))
