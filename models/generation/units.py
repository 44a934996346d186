"""The units the `scpn` architecture reads and writes: sentencepiece pieces for sentences, parse tokens for parses.

Every vocabulary reserves ids 0 <pad>, 1 <unk>, 2 <s>, 3 </s>.
- `SentencePieceUnits`: a sentencepiece model (unigram) trained in memory on the training sentences (or one given),
  with those four ids; decode() gives detokenized text. New vocabularies are trained with byte fallback: a
  character the training sentences lack is encoded as its UTF-8 bytes (256 `<0xNN>` pieces in the vocabulary)
  instead of `<unk>`, so it can be copied and decoded back (`Novotná` stays `Novotná`). Vocabularies trained
  before have no byte pieces and still load: there a character the vocabulary lacks is encoded as its base
  letters (`base_letters`: á -> a) when the vocabulary has them, else as `<unk>` (which decodes to nothing), and
  the generator's `restore_source_words` puts the source's spelling back (models/generation/paraphraser.py). A
  byte sequence that is not valid UTF-8 (a generated stray byte) decodes to nothing.
- `ParseUnits`: a linearized parse `(S(NP(PRP))(VP(VBD)))` as the tokens `(S`, `(NP`, `(PRP`, `)`, `)`, `(VP`, ...
  (an opening bracket with its label is one token, a closing bracket another); decode() joins them back.
"""
from __future__ import annotations

import io
import json
import re
import unicodedata
from collections import Counter
from pathlib import Path

from paranmt.models.files import ModelFileError, read_json, reading
from paranmt.schemas.errors import ConfigError

PAD, UNK, BOS, EOS = 0, 1, 2, 3
SPECIALS = ("<pad>", "<unk>", "<s>", "</s>")
PARSE_TOKEN = re.compile(r"\([^()\s]+|\)")
INVALID_BYTES = "\ufffd"            # what sentencepiece decodes a byte-fallback sequence that is not UTF-8 to


class SentencePieceUnits:
    kind = "sentencepiece"
    file_name = "units.model"

    def __init__(self, model: bytes):
        import sentencepiece

        self.model = model
        self.processor = sentencepiece.SentencePieceProcessor(model_proto=model)
        self.byte_fallback = any(self.processor.is_byte(i) for i in range(len(self)))
        self.replacements: dict[str, str] = {}     # character the vocabulary lacks -> what is encoded instead

    @classmethod
    def train(cls, texts: list[str], vocab_size: int) -> "SentencePieceUnits":
        import sentencepiece

        writer = io.BytesIO()
        try:
            sentencepiece.SentencePieceTrainer.train(
                sentence_iterator=iter(texts), model_writer=writer, vocab_size=vocab_size, model_type="unigram",
                character_coverage=1.0, hard_vocab_limit=False, num_threads=1, minloglevel=2,
                pad_id=PAD, unk_id=UNK, bos_id=BOS, eos_id=EOS, input_sentence_size=2_000_000,
                shuffle_input_sentence=True, byte_fallback=True)
        except RuntimeError as error:
            needed = re.search(r"smaller than required_chars\. \d+ vs (\d+)", str(error))
            if needed:
                raise ConfigError(f"vocab_size {vocab_size} is below the {needed.group(1)} units every vocabulary "
                                  "needs here (the training data's characters, 256 byte pieces, 4 specials)") from None
            raise
        return cls(writer.getvalue())

    def __len__(self) -> int:
        return self.processor.get_piece_size()

    def encode(self, text: str) -> list[int]:
        return self.processor.encode(text if self.byte_fallback or text.isascii() else self.known(text))

    def known(self, text: str) -> str:
        """`text` with each character the vocabulary lacks replaced by its base letters where the vocabulary has
        them (a vocabulary without byte fallback; module docstring)."""
        def replacement(char: str) -> str:
            if char not in self.replacements:
                base = base_letters(char)
                known = char.isspace() or self.processor.piece_to_id(char) != UNK
                self.replacements[char] = char if known or not base or any(
                    self.processor.piece_to_id(c) == UNK for c in base) else base
            return self.replacements[char]

        return "".join(char if char.isascii() else replacement(char) for char in text)

    def decode(self, ids: list[int]) -> str:
        return " ".join(self.processor.decode([i for i in ids if i > EOS]).replace(INVALID_BYTES, "").split())

    def save(self, directory: Path) -> None:
        (directory / self.file_name).write_bytes(self.model)

    @classmethod
    def load(cls, directory: Path) -> "SentencePieceUnits":
        with reading(directory / cls.file_name, "sentencepiece model"):
            data = (directory / cls.file_name).read_bytes()
            if not data:        # sentencepiece takes an empty model without a word, and then has no pieces
                raise ValueError("the file is empty")
            return cls(data)


class ParseUnits:
    kind = "parse"
    file_name = "parse_units.json"

    def __init__(self, tokens: list[str]):
        self.tokens = list(tokens)
        self.index = {token: i for i, token in enumerate(self.tokens)}

    @classmethod
    def train(cls, parses: list[str], vocab_size: int = 0) -> "ParseUnits":
        counts = Counter(token for parse in parses for token in PARSE_TOKEN.findall(parse))
        ordered = [token for token, _ in counts.most_common(vocab_size - len(SPECIALS) if vocab_size else None)]
        return cls(list(SPECIALS) + sorted(ordered))

    def __len__(self) -> int:
        return len(self.tokens)

    def encode(self, parse: str) -> list[int]:
        return [self.index.get(token, UNK) for token in PARSE_TOKEN.findall(parse)]

    def decode(self, ids: list[int]) -> str:
        return "".join(self.tokens[i] for i in ids if i > EOS)

    def save(self, directory: Path, name: str | None = None) -> None:
        (directory / (name or self.file_name)).write_text(json.dumps(self.tokens) + "\n")

    @classmethod
    def load(cls, directory: Path, name: str | None = None) -> "ParseUnits":
        file = directory / (name or cls.file_name)
        tokens = read_json(file, list, "unit list")
        if not all(isinstance(token, str) for token in tokens):
            raise ModelFileError(f"{file} is not a readable unit list: it holds values other than strings")
        return cls(tokens)


def base_letters(char: str) -> str:
    """A letter without its diacritics: the NFKD decomposition without combining marks (á -> a, ü -> u; ß, ł
    and non-letters -> ''). Only a letter whose decomposition differs has base letters."""
    if not char.isalpha():
        return ""
    base = "".join(c for c in unicodedata.normalize("NFKD", char) if not unicodedata.combining(c))
    return base if base != char else ""


def balance_parse(parse: str) -> str:
    """A generated linearized parse made well-formed: a `)` without an open bracket is dropped, unclosed brackets
    are closed at the end, and only the first complete tree is kept (`(S(NP)` -> `(S(NP))`)."""
    out, depth = [], 0
    for token in PARSE_TOKEN.findall(parse):
        if token == ")":
            if depth == 0:
                continue
            depth -= 1
            out.append(token)
            if depth == 0:
                break
        else:
            depth += 1
            out.append(token)
    return "".join(out) + ")" * depth
