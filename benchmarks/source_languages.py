"""Which language to translate from (P19 §4.2 Table 5, thesis Table 46), issue 44 item 1: per source language of
wmt-bt, the quality of its English paraphrase pairs against the language's distance from English and the
sentencepiece overlap of its source side with the English side.

    python benchmarks/source_languages.py --wmt-bt DIR --output DIR
        (--measure NAME=LANG:VALUE,LANG:VALUE,... ... | --probe RESULTS_CSV [--dataset STS2017/track5.en-en])
        [--segments 1000] [--sp-vocab 4000]

Quality (the y of each correlation): a `--measure` per quantity (e.g. the per-language probe's STS2017, para_score,
the share of pairs keeping the reference's template), or `--probe`, the results.csv of `paranmt probe` over one
corpus per language named `lang-LANG` (benchmarks/wmt_bt_probes.sh), averaged over its models on `--dataset`.
Per language (the two-letter codes of the data's src_lang; wmt-bt labels Livonian `li`, its files `liv`):
- **SP overlap**: a unigram sentencepiece model (models/encoders/featurizers.py `SentencePieceFeaturizer.train`,
  `--sp-vocab` pieces) trained on the first `--segments` distinct source segments of the language's
  `<year>.<xx>-en.tsv.gz` files of `--wmt-bt` (read with transforms/io/streams.py `read_sentences`, files in name
  order) and their English references, the same number for every language (fewer where the data has fewer:
  Livonian has 420) so that the overlap does not follow the amount of text; the overlap is the share of the piece
  types the English side uses that the source side uses too (P19: "% of the SPs of the English corpus also found in
  the non-English corpus");
- **URIEL distances** from English (`urielplus`, URIEL+ 1.3.2, its bundled original URIEL database, offline):
  angular distance of the syntactic, phonological, inventory, featural, genetic and geographic vectors
  (`URIELPlus.new_distance`); a distance URIEL has no data for is left empty and out of its correlations.
Printed as Markdown: the per-language table, then Spearman's rho x100 (and its two-sided p) of each quality measure
with each language property, over the languages with both values; OUTPUT/languages.tsv holds the table,
OUTPUT/languages.png plots each quality measure against the SP overlap and the syntactic distance.
"""
from __future__ import annotations

import csv
import re
import sys
import tempfile
from pathlib import Path

import numpy as np
from scipy.stats import spearmanr

from paranmt.models.encoders.featurizers import SentencePieceFeaturizer
from paranmt.models.nmt.hf import ISO_639_3
from paranmt.pipelines.cli import CommandLineParser, exit_code
from paranmt.pipelines.runtime.logs import configure_logging
from paranmt.schemas.errors import ConfigError
from paranmt.schemas.metadata import LANGUAGE_ALIASES
from paranmt.transforms.io.streams import read_sentences

FILE_LANGUAGE = {code: label for label, code in LANGUAGE_ALIASES.items()}   # a file's code -> the src_lang label
DISTANCES = ("syntactic", "phonological", "inventory", "featural", "genetic", "geographic")
FILE = re.compile(r"^wmt\d+\.(\w+)-en\.tsv\.gz$")
SOURCE, REFERENCE = 2, 3                    # columns of a wmt-bt file: id, src_lang, source, ref, bt, system


def iso3(lang: str) -> str:
    """URIEL's ISO 639-3 code of a src_lang label (wmt-bt's `li` is Livonian, `liv`: schemas/metadata.py
    LANGUAGE_ALIASES; the others through models/nmt/hf.py ISO_639_3)."""
    code = LANGUAGE_ALIASES.get(lang, lang)
    return ISO_639_3.get(code, code)


def parse_measure(spec: str) -> tuple[str, dict[str, float]]:
    name, _, values = spec.partition("=")
    try:
        pairs = dict(item.split(":") for item in values.split(","))
        return name, {lang: float(value) for lang, value in pairs.items()}
    except ValueError:
        raise ConfigError(f"--measure {spec}: give NAME=LANG:VALUE,LANG:VALUE,...") from None


def probe_measure(path: str, dataset: str) -> tuple[str, dict[str, float]]:
    """`probe <dataset>` -> language -> mean Pearson x100 over the models of the corpora named `lang-LANG`."""
    from paranmt.models.training.probe import read_results     # imports the trainer (torch): only when needed

    if not Path(path).is_file():
        raise ConfigError(f"--probe {path} does not exist")
    scores: dict[str, list[float]] = {}
    for row in read_results(Path(path)):
        if row["corpus"].startswith("lang-") and row["dataset"] == dataset:
            scores.setdefault(row["corpus"][5:], []).append(100 * float(row["pearson"]))
    if not scores:
        raise ConfigError(f"--probe {path} has no corpus lang-LANG scored on {dataset}")
    return f"probe {dataset}", {lang: float(np.mean(values)) for lang, values in scores.items()}


def language_texts(directory: Path, segments: int) -> dict[str, tuple[list[str], list[str]]]:
    """language -> (its first `segments` distinct source segments, their English references) of its wmt-bt files."""
    texts: dict[str, dict[str, str]] = {}
    for path in sorted(directory.glob("wmt*-en.tsv.gz")):
        code = FILE.match(path.name).group(1)
        pairs = texts.setdefault(FILE_LANGUAGE.get(code, code), {})
        lines = read_sentences(str(path), what="--wmt-bt file")
        next(lines, None)                                   # the header
        for line in lines:
            fields = line.split("\t")
            if len(pairs) >= segments:
                break
            if len(fields) > REFERENCE:
                pairs.setdefault(fields[SOURCE], fields[REFERENCE])
    return {lang: (list(pairs), list(pairs.values())) for lang, pairs in texts.items()}


def sp_overlap(sources: list[str], references: list[str], vocab: int, work: Path) -> float:
    """The share of the piece types of `references` that `sources` use too, under one sentencepiece model trained
    on both."""
    featurizer = SentencePieceFeaturizer.train([*sources, *references], work / "sp", vocab)
    english = {piece for ids in featurizer.ids(references) for piece in ids}
    other = {piece for ids in featurizer.ids(sources) for piece in ids}
    return len(english & other) / len(english)


def uriel_distances(languages: list[str]) -> dict[str, dict[str, float]]:
    """language -> URIEL distance name -> angular distance from English (NaN where URIEL lacks the data)."""
    from urielplus import urielplus

    uriel = urielplus.URIELPlus()
    found: dict[str, dict[str, float]] = {}
    for lang in languages:
        found[lang] = {}
        for distance in DISTANCES:
            try:
                found[lang][distance] = float(uriel.new_distance(distance, ["eng", iso3(lang)]))
            except ValueError:                                 # no shared features with English
                found[lang][distance] = float("nan")
    return found


def figure(table: dict[str, dict[str, float]], measures: list[str], output: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(len(measures), 2, figsize=(9, 3.2 * len(measures)), squeeze=False)
    for row, measure in enumerate(measures):
        for column, x_name in enumerate(("SP overlap", "syntactic")):
            ax = axes[row][column]
            for lang, values in table.items():
                if not np.isnan(values[x_name]) and not np.isnan(values[measure]):
                    ax.scatter(values[x_name], values[measure], color="tab:blue")
                    ax.annotate(lang, (values[x_name], values[measure]), textcoords="offset points", xytext=(4, 2))
            ax.set_xlabel("SP overlap with English" if column == 0 else "URIEL syntactic distance from English")
            ax.set_ylabel(measure)
    fig.tight_layout()
    fig.savefig(output, dpi=100)
    plt.close(fig)


def main() -> None:
    configure_logging(False)        # as `paranmt` does: Beam's import-time warning dropped, urielplus' INFO lines too
    parser = CommandLineParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wmt-bt", required=True, help="the wmt-bt folder (<year>.<xx>-en.tsv.gz files)")
    parser.add_argument("--output", required=True, help="folder for languages.tsv and languages.png")
    parser.add_argument("--measure", nargs="+", default=[], metavar="NAME=LANG:VALUE,...")
    parser.add_argument("--probe", help="results.csv of `paranmt probe` over corpora lang-LANG")
    parser.add_argument("--dataset", default="STS2017/track5.en-en", help="the probe's dataset to average")
    parser.add_argument("--segments", type=int, default=1000, help="source segments per language")
    parser.add_argument("--sp-vocab", type=int, default=4000)
    args = parser.parse_args()
    measures = dict(parse_measure(spec) for spec in args.measure)
    if args.probe:
        measures.update([probe_measure(args.probe, args.dataset)])
    if not measures:
        raise ConfigError("no quality measure: give --measure NAME=LANG:VALUE,... or --probe RESULTS_CSV")
    if not Path(args.wmt_bt).is_dir():
        raise ConfigError(f"--wmt-bt {args.wmt_bt} is not a folder")
    texts = language_texts(Path(args.wmt_bt), args.segments)
    unknown = sorted({lang for values in measures.values() for lang in values if lang not in texts})
    if unknown:
        raise ConfigError(f"no wmt-bt source language {', '.join(unknown)} (the data has {', '.join(sorted(texts))})")
    languages = sorted({lang for values in measures.values() for lang in values})
    output = Path(args.output)
    output.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=output) as work:
        overlap = {lang: sp_overlap(*texts[lang], args.sp_vocab, Path(work)) for lang in languages}
    distances = uriel_distances(languages)
    table = {lang: {**{name: values.get(lang, float("nan")) for name, values in measures.items()},
                    "SP overlap": overlap[lang], **distances[lang]} for lang in languages}
    properties = ["SP overlap", *DISTANCES]
    columns = [*measures, *properties]
    with (output / "languages.tsv").open("w", newline="") as handle:
        writer = csv.writer(handle, delimiter="\t")
        writer.writerow(["language", "sources", "references", *columns])
        writer.writerows([lang, len(texts[lang][0]), len(texts[lang][1]), *(f"{table[lang][c]:.4f}" for c in columns)]
                         for lang in languages)
    print("| language | sources | " + " | ".join(columns) + " |")
    print("|---|---:|" + "---:|" * len(columns))
    for lang in languages:
        print(f"| {lang} | {len(texts[lang][0]):,} | " + " | ".join(
            "" if np.isnan(table[lang][c]) else f"{table[lang][c]:.3f}" for c in columns) + " |")
    print("\nSpearman rho x100 (p) over the languages with both values\n")
    print("| quality | " + " | ".join(properties) + " |")
    print("|---|" + "---:|" * len(properties))
    for measure in measures:
        cells = []
        for prop in properties:
            both = [(table[lang][measure], table[lang][prop]) for lang in languages
                    if not np.isnan(table[lang][measure]) and not np.isnan(table[lang][prop])]
            rho, p = spearmanr(*zip(*both)) if len(both) >= 3 else (float("nan"), float("nan"))
            cells.append(f"{100 * rho:.1f} (p {p:.2f}{'' if len(both) == len(languages) else f', n {len(both)}'})")
        print(f"| {measure} | " + " | ".join(cells) + " |")
    figure(table, list(measures), output / "languages.png")


if __name__ == "__main__":
    sys.exit(exit_code(main))
