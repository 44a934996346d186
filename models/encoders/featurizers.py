"""Featurizers: sentence -> token ids for the encoders (pure Python + sentencepiece, no torch).

Every featurizer lowercases its input (the papers' models are case-insensitive) and maps a list of sentences to a
list of id lists. Id 0 is the unknown token in every vocabulary (sentencepiece's `<unk>` is id 0 too).

- `WordFeaturizer`: tokens = regex `\\w+|[^\\w\\s]` over the lowercased sentence (words and single punctuation
  marks), looked up in a frequency-ranked vocabulary.
- `CharTrigramFeaturizer`: character trigrams of `" " + " ".join(sentence.lower().split())`, so trigrams span word
  boundaries (`"a cat"` -> `" a "`, `"a c"`, `" ca"`, `"cat"`), as in the authors' code.
- `CharNgramFeaturizer` (CHARAGRAM, SPEC §8): character n-grams of the given orders (default 2, 3, 4) of the
  lowercased text with a space padded at each edge; `span_words=True` (sentences/phrases) takes them over
  `" " + " ".join(words) + " "`, so n-grams span word boundaries; `span_words=False` takes them inside each
  `" " + word + " "` only. The vocabulary keeps the n-grams seen at least `min_count` times; unknown n-grams are
  dropped (the indicator 1[x in V] of the CHARAGRAM formula), not mapped to `<unk>`.
- `SentencePieceFeaturizer`: a sentencepiece model's piece ids (the model file is saved beside the weights); its
  `tokens` are the pieces, by id.
"""
from __future__ import annotations

import io
import shutil
from collections import Counter
from collections.abc import Iterable
from itertools import repeat
from pathlib import Path

import regex

from paranmt.models.files import reading

UNK = "<unk>"
WORD_PATTERN = regex.compile(r"\w+|[^\w\s]")


def word_tokens(sentence: str) -> list[str]:
    """Lowercased words and punctuation marks: `"Don't stop!"` -> `["don", "'", "t", "stop", "!"]`."""
    return WORD_PATTERN.findall(sentence.lower())


def char_trigrams(sentence: str) -> list[str]:
    """Character trigrams of `" " + " ".join(sentence.lower().split())` (whitespace normalized); a sentence with
    fewer than 3 characters after the leading space gives its whole padded string as the only unit."""
    text = " " + " ".join(sentence.lower().split())
    if len(text) < 3:
        return [text] if text.strip() else []
    return [text[i:i + 3] for i in range(len(text) - 2)]


def char_ngrams(sentence: str, orders: tuple[int, ...] = (2, 3, 4), span_words: bool = True) -> list[str]:
    """Character n-grams of each order in `orders` (all of order 2 first, then 3, ...):
    `char_ngrams("a cat", (3,))` -> `[" a ", "a c", " ca", "cat", "at "]`; with `span_words=False` ->
    `[" a ", " ca", "cat", "at "]`. A sentence without words gives []; a piece shorter than n gives no n-gram."""
    words = sentence.lower().split()
    if not words:
        return []
    pieces = [" " + " ".join(words) + " "] if span_words else [" " + word + " " for word in words]
    return [piece[i:i + n] for n in orders for piece in pieces for i in range(len(piece) - n + 1)]


class VocabularyFeaturizer:
    """Units (words or character trigrams) looked up in a vocabulary; unknown units map to id 0 (`<unk>`)."""

    kind = ""
    units = staticmethod(word_tokens)

    def __init__(self, tokens: list[str]):
        if not tokens or tokens[0] != UNK:
            raise ValueError(f"a vocabulary must start with {UNK!r}")
        self.tokens = tokens
        self.index = {token: i for i, token in enumerate(tokens)}

    @property
    def vocab_size(self) -> int:
        return len(self.tokens)

    @classmethod
    def build(cls, texts: Iterable[str], max_size: int, min_count: int = 1) -> "VocabularyFeaturizer":
        """The `max_size - 1` most frequent units of `texts` (count >= min_count; ties broken alphabetically)."""
        counts = Counter()
        for text in texts:
            counts.update(cls.units(text))
        ranked = sorted((u for u, c in counts.items() if c >= min_count and u != UNK), key=lambda u: (-counts[u], u))
        return cls([UNK] + ranked[:max_size - 1])

    def ids(self, sentences: list[str]) -> list[list[int]]:
        get, units, unknown = self.index.get, self.units, repeat(0)
        return [list(map(get, units(sentence), unknown)) for sentence in sentences]

    def save(self, directory: Path) -> dict:
        (directory / "vocab.txt").write_text("\n".join(self.tokens) + "\n", encoding="utf-8")
        return {"kind": self.kind, "file": "vocab.txt"}

    @classmethod
    def load(cls, directory: Path, spec: dict) -> "VocabularyFeaturizer":
        text = (directory / spec["file"]).read_text(encoding="utf-8")
        return cls(text.split("\n")[:-1])


class WordFeaturizer(VocabularyFeaturizer):
    kind = "word"
    units = staticmethod(word_tokens)


class CharTrigramFeaturizer(VocabularyFeaturizer):
    kind = "trigram"
    units = staticmethod(char_trigrams)


class CharNgramFeaturizer(VocabularyFeaturizer):
    kind = "charngram"

    def __init__(self, tokens: list[str], orders: tuple[int, ...] = (2, 3, 4), span_words: bool = True):
        super().__init__(tokens)
        if not orders or min(orders) < 1:
            raise ValueError(f"n-gram orders must be positive integers, got {orders!r}")
        self.orders, self.span_words = tuple(orders), span_words

    def units(self, sentence: str) -> list[str]:
        return char_ngrams(sentence, self.orders, self.span_words)

    @classmethod
    def build(cls, texts: Iterable[str], max_size: int, min_count: int = 2, orders: tuple[int, ...] = (2, 3, 4),
              span_words: bool = True) -> "CharNgramFeaturizer":
        """The `max_size - 1` most frequent n-grams of `texts` with count >= `min_count` (ties alphabetical)."""
        counts = Counter()
        for text in texts:
            counts.update(char_ngrams(text, orders, span_words))
        ranked = sorted((u for u, c in counts.items() if c >= min_count), key=lambda u: (-counts[u], u))
        return cls([UNK] + ranked[:max_size - 1], orders, span_words)

    def ids(self, sentences: list[str]) -> list[list[int]]:
        get = self.index.get
        return [[i for i in map(get, self.units(sentence)) if i] for sentence in sentences]

    def save(self, directory: Path) -> dict:
        return {**super().save(directory), "orders": list(self.orders), "span_words": self.span_words}

    @classmethod
    def load(cls, directory: Path, spec: dict) -> "CharNgramFeaturizer":
        text = (directory / spec["file"]).read_text(encoding="utf-8")
        return cls(text.split("\n")[:-1], tuple(spec["orders"]), spec["span_words"])


class SentencePieceFeaturizer:
    """Piece ids of a sentencepiece model applied to the lowercased sentence."""

    kind = "sp"

    def __init__(self, model_file: str | Path):
        import sentencepiece as spm

        self.model_file = Path(model_file)
        self.processor = spm.SentencePieceProcessor(model_file=str(model_file))

    @property
    def vocab_size(self) -> int:
        return self.processor.get_piece_size()

    @property
    def tokens(self) -> list[str]:
        """The piece of each id (id 0: `<unk>`), as a vocabulary's tokens."""
        return self.processor.id_to_piece(list(range(self.vocab_size)))

    def ids(self, sentences: list[str]) -> list[list[int]]:
        return self.processor.encode([s.lower() for s in sentences])

    def save(self, directory: Path) -> dict:
        target = directory / "sp.model"
        if self.model_file.resolve() != target.resolve():
            shutil.copyfile(self.model_file, target)
        return {"kind": self.kind, "file": "sp.model"}

    @classmethod
    def load(cls, directory: Path, spec: dict) -> "SentencePieceFeaturizer":
        return cls(directory / spec["file"])

    @classmethod
    def train(cls, texts: Iterable[str], model_prefix: str | Path, vocab_size: int,
              character_coverage: float = 0.9999, seed_sentences: int = 2_000_000) -> "SentencePieceFeaturizer":
        """Train a unigram sentencepiece model on the lowercased `texts` (one thread, deterministic order) into
        `<model_prefix>.model`. The model is written by Python, atomically (models/files.py
        `write_bytes_atomically`): sentencepiece's own writer leaves a truncated file without a word on a full disk;
        here a full disk is the OSError (ENOSPC) the trainers stop on in one line, and the file is whole or absent.
        The training corpus beside it is removed, also when training fails."""
        import sentencepiece as spm

        from paranmt.models.files import write_bytes_atomically

        model_prefix = Path(model_prefix)
        model_prefix.parent.mkdir(parents=True, exist_ok=True)
        corpus, model = model_prefix.with_suffix(".train.txt"), io.BytesIO()
        try:
            with corpus.open("w", encoding="utf-8") as handle:
                for text in texts:
                    text = " ".join(text.lower().split())
                    if text:
                        handle.write(text + "\n")
            spm.SentencePieceTrainer.train(
                input=str(corpus), model_writer=model, vocab_size=vocab_size, model_type="unigram",
                character_coverage=character_coverage, input_sentence_size=seed_sentences,
                shuffle_input_sentence=False, num_threads=1, unk_id=0, bos_id=-1, eos_id=-1, pad_id=-1,
                hard_vocab_limit=False, minloglevel=2)
        finally:
            corpus.unlink(missing_ok=True)
        write_bytes_atomically(model_prefix.with_suffix(".model"), model.getvalue())
        return cls(model_prefix.with_suffix(".model"))


FEATURIZERS = {cls.kind: cls for cls in (WordFeaturizer, CharTrigramFeaturizer, CharNgramFeaturizer,
                                         SentencePieceFeaturizer)}


def load_featurizer(directory: Path, spec: dict):
    """The featurizer `spec` (an encoder config's `featurizer` entry) describes, from its file in `directory`."""
    with reading(directory / str(spec["file"]), f"{spec['kind']} featurizer file"):
        return FEATURIZERS[spec["kind"]].load(directory, spec)
