"""Language of each side of a pair (schema v2 `cs_lang`/`ref_lang`/`bt_lang` and their `*_conf`): a label and the
identifier's confidence in it, so that a wrong-language source, reference or translation is one filter away.

Identifier: py3langid 0.4.0 (a modernized langid.py: naive Bayes over byte n-grams, its model inside the package,
no download at run time), chosen by measurement on the shared cs-en data (docs/signals.md,
benchmarks/bench_langid.py): the best mean accuracy over short and long Czech and English sentences of the five
packaged identifiers measured, at ~10k sentences/s on one core, 4.4 MB installed (numpy it needs is already here).

    label = argmax_l P(l | s) over the identifier's FULL language set (140 labels; ISO 639-1 where the language
            has one, e.g. `cs`, `en`, `sk`; else its ISO 639-3 code, e.g. `pcm`, `ltg`)
    conf  = P(label | s), the naive Bayes posterior normalized over all languages with the identifier's length
            calibration (scores scaled by 1 / sqrt(bytes) before the softmax)        in (0, 1]

The full set, not {cs, en}: restricted to two languages every German, Slovak or garbage side would still be
labelled cs or en, and detecting exactly those is the point. The price is confusion between close languages on
very short sentences (Czech -> Slovak is the most frequent error, 3% of Czech sentences of <= 8 words).
Edge cases: a null, empty or whitespace-only side -> (None, None); a side without any letter (digits,
punctuation: nothing for the identifier to read) -> ("zxx", 1.0), ISO 639's "no linguistic content" (which is also
one of the identifier's labels).
"""
from __future__ import annotations

import regex

from paranmt.models.stage import process_model

NO_LANGUAGE = "zxx"
LETTER = regex.compile(r"\p{L}")


def load_identifier():
    """py3langid's packaged model, full language set, normalized probabilities."""
    from py3langid.langid import MODEL_FILE, LanguageIdentifier

    return LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)


class LanguageIdentifier:
    """(label, confidence) per sentence (module docstring); one loaded model per process."""

    def __init__(self):
        self.identifier = None

    def setup(self) -> None:
        if self.identifier is None:
            self.identifier = process_model(("langid", "py3langid"), load_identifier)

    def identify(self, sentences: list[str | None]) -> list[tuple[str | None, float | None]]:
        """One (label, conf) per sentence, same order; each distinct sentence is classified once."""
        self.setup()
        results = {}
        for sentence in dict.fromkeys(sentences):
            if sentence is None or not sentence.strip():
                results[sentence] = (None, None)
            elif not LETTER.search(sentence):
                results[sentence] = (NO_LANGUAGE, 1.0)
            else:
                label, conf = self.identifier.classify(sentence)
                results[sentence] = (label, float(conf))
        return [results[sentence] for sentence in sentences]

    def probability(self, sentences: list[str], language: str) -> list[float | None]:
        """P(`language` | sentence) per sentence, same order (the identifier's normalized posterior over its full
        set, as `conf`); None for a sentence without any letter (nothing to judge)."""
        self.setup()
        results = {sentence: dict(self.identifier.rank(sentence)).get(language, 0.0) if LETTER.search(sentence)
                   else None for sentence in dict.fromkeys(sentences)}
        return [results[sentence] for sentence in sentences]
