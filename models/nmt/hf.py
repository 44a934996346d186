"""Hugging Face translation models (MarianMT / OPUS-MT, M2M-100, NLLB-200): family, language tokens, conversion.

Read without importing transformers (only JSON files), so that `paranmt build` can check a model directory before
any work and CTranslate2 workers never import transformers.

Families and their language conventions (the build's `source_lang` / `target_lang` are ISO 639-1 codes such as
`cs`, `en`; ISO 639-3 codes and the family's own codes such as `ces_Latn` are accepted too):

| family | detected by | source tokens | forced first target token |
|---|---|---|---|
| marian | config `model_type: marian` | `>>xxx<<` (ISO 639-3 or the vocabulary's code) first, only when the vocabulary has such target-language tokens (multilingual-target OPUS-MT); a bilingual model checks its `tokenizer_config.json` `source_lang`/`target_lang` | none |
| m2m100 | `model_type: m2m_100`, tokenizer not NLLB | `__cs__` first | `__en__` |
| nllb | `model_type: m2m_100` with `NllbTokenizer(Fast)` | `ces_Latn` first (the one `ces_*` code, or the exact code given) | `eng_Latn` |

Every family ends the source with `</s>`; generation starts from the family's decoder start token (Marian: `<pad>`,
M2M-100/NLLB: `</s>`), then the forced target token, which is not part of `bt` and not scored (see
paranmt.schemas.records, `bt_score`).
"""
from __future__ import annotations

import difflib
import json
import logging
import re
from dataclasses import dataclass, field
from pathlib import Path

from paranmt.models import files

log = logging.getLogger(__name__)

FAMILIES = ("marian", "m2m100", "nllb")
WEIGHT_FILES = ("model.safetensors", "pytorch_model.bin", "model.safetensors.index.json",
                "pytorch_model.bin.index.json")

# ISO 639-1 -> ISO 639-3 for the languages of M2M-100 (NLLB and multilingual OPUS-MT models use 639-3 codes)
ISO_639_3 = {
    "af": "afr", "am": "amh", "ar": "ara", "az": "aze", "ba": "bak", "be": "bel", "bg": "bul", "bn": "ben",
    "br": "bre", "bs": "bos", "ca": "cat", "cs": "ces", "cy": "cym", "da": "dan", "de": "deu", "el": "ell",
    "en": "eng", "es": "spa", "et": "est", "fa": "fas", "ff": "ful", "fi": "fin", "fr": "fra", "fy": "fry",
    "ga": "gle", "gd": "gla", "gl": "glg", "gu": "guj", "ha": "hau", "he": "heb", "hi": "hin", "hr": "hrv",
    "ht": "hat", "hu": "hun", "hy": "hye", "id": "ind", "ig": "ibo", "is": "isl", "it": "ita", "ja": "jpn",
    "jv": "jav", "ka": "kat", "kk": "kaz", "km": "khm", "kn": "kan", "ko": "kor", "lb": "ltz", "lg": "lug",
    "ln": "lin", "lo": "lao", "lt": "lit", "lv": "lav", "mg": "mlg", "mk": "mkd", "ml": "mal", "mn": "mon",
    "mr": "mar", "ms": "msa", "my": "mya", "ne": "nep", "nl": "nld", "no": "nor", "oc": "oci", "or": "ori",
    "pa": "pan", "pl": "pol", "ps": "pus", "pt": "por", "ro": "ron", "ru": "rus", "sd": "snd", "si": "sin",
    "sk": "slk", "sl": "slv", "so": "som", "sq": "sqi", "sr": "srp", "ss": "ssw", "su": "sun", "sv": "swe",
    "sw": "swa", "ta": "tam", "th": "tha", "tl": "tgl", "tn": "tsn", "tr": "tur", "uk": "ukr", "ur": "urd",
    "uz": "uzb", "vi": "vie", "wo": "wol", "xh": "xho", "yi": "yid", "yo": "yor", "zh": "zho", "zu": "zul",
}
ISO_639_1 = {three: one for one, three in ISO_639_3.items()}
NLLB_CODE = re.compile(r"^[a-z]{3}_[A-Z][a-z]{3}$")
M2M_CODE = re.compile(r"^__([a-z]{2,3})__$")
MARIAN_CODE = re.compile(r"^>>(.+)<<$")
LISTED_CODES = 10         # a LanguageError lists all of a model's codes up to this many, else the near matches


class LanguageError(ValueError):
    """A language the model does not know (the message names the ones it does)."""


class NotATranslationModel(ValueError):
    """A directory with a config.json that is not a supported sequence-to-sequence translation model."""


@dataclass
class LanguageTokens:
    """What goes around a source and in front of the target for one language pair."""
    source_prefix: list[str] = field(default_factory=list)
    target_prefix: list[str] = field(default_factory=list)


@dataclass
class HFModel:
    """What paranmt needs to know about a Hugging Face model directory (read from its JSON files)."""
    root: Path
    family: str
    language_codes: dict[str, str]               # code the user may write -> the model's token
    pair: tuple[str | None, str | None]         # a bilingual Marian model's (source_lang, target_lang)
    spm: Path                                   # source-side sentencepiece model
    target_spm: Path | None                     # Marian's target-side sentencepiece model
    special_tokens: list[str]                   # tokens never shown in text (special, language, madeupword)
    vocab_gaps: list[int] = field(default_factory=list)   # ids below the largest one vocab.json gives no token


def read_json(path: Path) -> dict:
    """The JSON object in `path`, {} when there is no such file; a corrupt one is models.files' one line."""
    return files.read_json(path, dict, "Hugging Face model file") if path.is_file() else {}


def additional_special_tokens(root: Path) -> list[str]:
    """`additional_special_tokens` of tokenizer_config.json and special_tokens_map.json (strings or dicts)."""
    found: list[str] = []
    for name in ("tokenizer_config.json", "special_tokens_map.json"):
        for token in read_json(root / name).get("additional_special_tokens") or []:
            content = token.get("content") if isinstance(token, dict) else token
            if content and content not in found:
                found.append(content)
    return found


def vocabulary(root: Path) -> list[str]:
    """Tokens of vocab.json, of tokenizer.json (model vocabulary and added tokens) and the additional special
    tokens, without duplicates."""
    tokens = dict.fromkeys(read_json(root / "vocab.json"))
    tokenizer = read_json(root / "tokenizer.json")
    vocab = (tokenizer.get("model") or {}).get("vocab") or {}
    tokens.update(dict.fromkeys(vocab if isinstance(vocab, dict) else (entry[0] for entry in vocab)))
    tokens.update(dict.fromkeys(t["content"] for t in tokenizer.get("added_tokens") or []))
    tokens.update(dict.fromkeys(additional_special_tokens(root)))
    return list(tokens)


def missing_ids(vocab: dict[str, int]) -> list[int]:
    """The ids below the largest id of `vocab` (token -> id) that no token has: a vocab.json that "skips" ids."""
    used = set(vocab.values())
    return [i for i in range(max(used) + 1) if i not in used] if used else []


def gap_note(root: Path, gaps: list[int]) -> str:
    """One line about a vocab.json that skips ids (model_dir/vocab.json, the ids, what follows)."""
    shown = ", ".join(map(str, gaps[:5])) + (", ..." if len(gaps) > 5 else "")
    return (f"{root / 'vocab.json'} skips {len(gaps)} id(s) ({shown}): token ids are still the embedding rows "
            f"(transformers reads them as given); `paranmt convert-nmt --transformers` fills each gap with a "
            f"placeholder token so that CTranslate2 keeps them aligned (without it, every token after a gap is read "
            f"as its neighbour)")


def aligned_vocabulary(vocab: dict[str, int], rows: int) -> list[str]:
    """The tokens of `vocab` (token -> id) as the list CTranslate2 writes, position = id = embedding row: every
    missing id below `rows` gets the placeholder `<unused_id_N>`. NotATranslationModel when two tokens share an id
    or an id is not below `rows` (no list can keep those aligned)."""
    by_id: dict[int, str] = {}
    for token, index in vocab.items():
        if index in by_id:
            raise NotATranslationModel(f"vocab.json gives id {index} to two tokens ({by_id[index]!r}, {token!r}): "
                                       f"ids cannot be aligned with the embedding rows")
        by_id[index] = token
    if vocab and (max(by_id) >= rows or min(by_id) < 0):
        raise NotATranslationModel(f"vocab.json has ids from {min(by_id)} to {max(by_id)}, but the model has {rows} "
                                   f"embedding rows")
    return [by_id.get(i, f"<unused_id_{i}>") for i in range(max(rows, len(by_id)))]


def detect_family(config: dict, tokenizer_config: dict) -> str | None:
    """marian | m2m100 | nllb from config.json / tokenizer_config.json, None for anything else."""
    model_type = config.get("model_type")
    if model_type == "marian":
        return "marian"
    if model_type == "m2m_100":
        tokenizer_class = tokenizer_config.get("tokenizer_class") or config.get("tokenizer_class") or ""
        return "nllb" if tokenizer_class.startswith("Nllb") else "m2m100"
    return None


def language_codes(family: str, tokens: list[str]) -> dict[str, str]:
    """{code: token} of the language tokens in `tokens` (marian `>>ces<<` -> `ces`, m2m100 `__cs__` -> `cs`,
    nllb `ces_Latn` -> `ces_Latn`)."""
    codes = {}
    for token in tokens:
        match = {"marian": MARIAN_CODE, "m2m100": M2M_CODE}.get(family, NLLB_CODE).match(token)
        if match:
            codes[match.group(1) if family != "nllb" else token] = token
    return codes


def read_hf_model(path: str | Path) -> HFModel | None:
    """The HFModel of a `save_pretrained` / hub-snapshot directory; None when there is no config.json;
    NotATranslationModel when config.json describes another kind of model or files are missing."""
    root = Path(path)
    config = read_json(root / "config.json")
    if not (root / "config.json").is_file():
        return None
    tokenizer_config = read_json(root / "tokenizer_config.json")
    family = detect_family(config, tokenizer_config)
    if family is None:
        kind = config.get("model_type") or "unknown"
        raise NotATranslationModel(
            f"{root} holds a {kind!r} model (config.json), not a sequence-to-sequence translation model; "
            f"supported: MarianMT (OPUS-MT), M2M-100, NLLB-200")
    if family == "marian":
        spm, target_spm = root / "source.spm", root / "target.spm"
    else:
        spm, target_spm = root / "sentencepiece.bpe.model", None
    for required in [spm, target_spm] if target_spm else [spm]:
        if not required.is_file():
            raise NotATranslationModel(f"{root} is a {family} model without its sentencepiece model "
                                       f"{required.name}")
    tokens = vocabulary(root)
    special = [t for t in tokens if t in ("<s>", "</s>", "<pad>", "<unk>", "<mask>")]
    special += additional_special_tokens(root)
    codes = language_codes(family, tokens)
    special = list(dict.fromkeys(special + list(codes.values())))
    if family != "marian":
        declared = int(config.get("vocab_size", 0))
        special += [f"madeupword{i}" for i in range(max(0, declared - len(tokens)))]
    pair = (tokenizer_config.get("source_lang"), tokenizer_config.get("target_lang"))
    gaps = missing_ids(read_json(root / "vocab.json")) if family == "marian" else []
    return HFModel(root, family, codes, pair, spm, target_spm, special, gaps)


def candidates(lang: str) -> list[str]:
    """`lang` and its other ISO 639 forms (cs -> cs, ces; ces -> ces, cs)."""
    return list(dict.fromkeys([lang, ISO_639_3.get(lang, lang), ISO_639_1.get(lang, lang)]))


def resolve_code(family: str, codes: dict[str, str], lang: str, side: str) -> str:
    """The model's token for `lang` (LanguageError naming the known codes when there is none, or several)."""
    for candidate in candidates(lang):
        if candidate in codes:
            return codes[candidate]
    if family == "nllb":
        matches = sorted(c for c in codes if c.split("_")[0] in candidates(lang))
        if len(matches) == 1:
            return codes[matches[0]]
        if matches:
            raise LanguageError(f"{side}_lang {lang!r} is ambiguous for this NLLB model; "
                                f"give one of {', '.join(matches)}")
    if len(codes) <= LISTED_CODES:
        raise LanguageError(f"{side}_lang {lang!r} is not a language of this {family} model; "
                            f"it knows: {', '.join(sorted(codes)) or '(no language tokens)'}")
    near = [c for c in sorted(codes) if any(c.lower().startswith(x[:2].lower()) for x in candidates(lang))]
    near = list(dict.fromkeys(difflib.get_close_matches(lang, codes, n=5, cutoff=0.5) + near))[:8]
    raise LanguageError(f"{side}_lang {lang!r} is not a language of this {family} model; near matches: "
                        f"{', '.join(near) or '(none)'} (it knows {len(codes)} codes)")


def check_pair_language(pair_lang: str | None, lang: str, side: str) -> None:
    """A bilingual Marian model declares its languages; a single known code must match `lang`."""
    if pair_lang and (pair_lang in ISO_639_3 or pair_lang in ISO_639_1) and pair_lang not in candidates(lang):
        raise LanguageError(f"{side}_lang {lang!r} does not match this OPUS-MT model, which "
                            f"translates from {pair_lang!r}" if side == "source" else
                            f"{side}_lang {lang!r} does not match this OPUS-MT model, which "
                            f"translates into {pair_lang!r}")


def language_tokens(family: str, codes: dict[str, str], pair: tuple[str | None, str | None], source_lang: str,
                    target_lang: str) -> LanguageTokens:
    """The source prefix and forced target prefix of `family` for source_lang -> target_lang (module table)."""
    if family == "marian":
        check_pair_language(pair[0], source_lang, "source")
        if codes:
            return LanguageTokens(source_prefix=[resolve_code(family, codes, target_lang, "target")])
        check_pair_language(pair[1], target_lang, "target")
        return LanguageTokens()
    if family not in FAMILIES:
        raise ValueError(f"unknown model family {family!r}")
    return LanguageTokens([resolve_code(family, codes, source_lang, "source")],
                          [resolve_code(family, codes, target_lang, "target")])


def has_weights(root: Path) -> bool:
    return any((root / name).is_file() for name in WEIGHT_FILES)


def use_fast_tokenizer(model_dir: str | Path) -> bool:
    """Load the fast tokenizer only when the directory ships its `tokenizer.json`; otherwise the slow sentencepiece
    tokenizer (building a fast one from a .model file needs sentencepiece's protobuf module, whose generated code
    does not load with the protobuf apache-beam pins: an NLLB directory saved without tokenizer.json failed)."""
    return (Path(model_dir) / "tokenizer.json").is_file()


def load_pretrained(directory: str | Path):
    """(tokenizer, model) of a local seq2seq checkpoint (fast tokenizer only when tokenizer.json is shipped);
    transformers loads weights-only, and a refused `pytorch_model.bin` is one UnsafeFileError line
    (paranmt.models.safe_load)."""
    from transformers import AutoModelForSeq2SeqLM, AutoTokenizer

    from paranmt.models.safe_load import refusing

    tokenizer = AutoTokenizer.from_pretrained(str(directory), use_fast=use_fast_tokenizer(directory))
    with refusing(directory):
        model = AutoModelForSeq2SeqLM.from_pretrained(str(directory))
    return tokenizer, model


def convert_transformers_to_ctranslate2(model_dir: str, output_dir: str, quantization: str | None = "int8",
                                        source_name: str | None = None) -> dict:
    """CTranslate2's TransformersConverter on a local model directory, plus the sentencepiece models and an
    `nmt.json` that the ctranslate2 backend reads (no transformers import at run time):

        {"family", "spm", "target_spm", "fairseq": null, "ctranslate2": ".", "language_codes": {code: token},
         "pair": [source, target], "special_tokens": [...], "ct2_quantization", "source_model": {"path", "sha256"}}

    `source_name` is the path recorded as the source model's (e.g. the gs:// URL it was copied from; default
    model_dir). Returns the descriptor. NotATranslationModel for a directory that is not a supported model."""
    import shutil

    from ctranslate2.converters import TransformersConverter

    from paranmt.models.nmt.export import NMT_DESCRIPTOR
    from paranmt.models.safe_load import refusing
    from paranmt.schemas.metadata import model_identity

    model = read_hf_model(model_dir)
    if model is None:
        raise NotATranslationModel(f"{model_dir} has no config.json: not a Hugging Face model directory")
    if not has_weights(model.root):
        raise NotATranslationModel(f"{model_dir} has no weights ({', '.join(WEIGHT_FILES[:2])})")
    if model.family != "marian" and not model.language_codes:    # CTranslate2's converter would fail obscurely
        raise NotATranslationModel(f"{model_dir}: this {model.family} model's files list no language tokens "
                                   f"(published snapshots list them under additional_special_tokens in "
                                   f"tokenizer_config.json)")
    identity = dict(model_identity(str(model.root)), path=source_name or str(model_dir))

    fillers: list[str] = []
    if model.family == "marian":
        vocab = read_json(model.root / "vocab.json")
        rows = int(read_json(model.root / "config.json").get("vocab_size") or 0) or max(vocab.values(), default=-1) + 1
        tokens = aligned_vocabulary(vocab, rows)
        fillers = [token for index, token in enumerate(tokens) if index in set(model.vocab_gaps)]
        if fillers:
            log.warning(gap_note(model.root, model.vocab_gaps))

    class Converter(TransformersConverter):
        def load_tokenizer(self, tokenizer_class, model_name_or_path, **kwargs):
            kwargs.setdefault("use_fast", use_fast_tokenizer(model_name_or_path))
            tokenizer = super().load_tokenizer(tokenizer_class, model_name_or_path, **kwargs)
            if fillers:      # CTranslate2 lists the tokens sorted by id: a gap would shift every later token
                vocab = {**tokenizer.get_vocab(), **{token: index for index, token in enumerate(tokens)
                                                     if token in fillers}}
                tokenizer.get_vocab = lambda: vocab
            return tokenizer

    with refusing(model.root):
        Converter(str(model.root)).convert(
            output_dir, quantization=None if quantization in (None, "float32") else quantization, force=True)
    out = Path(output_dir)
    shutil.copyfile(model.spm, out / model.spm.name)
    if model.target_spm:
        shutil.copyfile(model.target_spm, out / model.target_spm.name)
    descriptor = {"family": model.family, "spm": model.spm.name,
                  "target_spm": model.target_spm.name if model.target_spm else None,
                  "fairseq": None, "ctranslate2": ".", "language_codes": model.language_codes,
                  "pair": list(model.pair), "special_tokens": model.special_tokens + fillers,
                  "ct2_quantization": quantization or "float32", "source_model": identity}
    (out / NMT_DESCRIPTOR).write_text(json.dumps(descriptor, indent=2, ensure_ascii=False) + "\n")
    return descriptor
