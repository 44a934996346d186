"""CTranslate2's vocabulary map (`vmap.txt` in a converted model directory), built from bitext, and its check.

With `translate_batch(use_vmap=True)` CTranslate2 restricts the output layer, per batch, to the target tokens the
map lists for the batch's source tokens plus the always-candidates (the line with an empty key) and the special
tokens: the 62k-word softmax of an OPUS-MT-size model shrinks to a few thousand rows. The file format (CTranslate2
`VocabularyMap`): one line per source n-gram, `src_1 ... src_N<TAB>tgt_1 ... tgt_K`; here N = 1 (one line per
source subword piece) and every target is a token of the model's target vocabulary.

How the map is built (`build_vmap`), from up to `max_pairs` sentence pairs in the model's own subword pieces:
- always-candidates: the `common` target pieces that occur in the most target sentences;
- per source piece s: the `per_source` target pieces t with the highest Dice association over sentences,
      dice(s, t) = 2 c(s, t) / (c(s) + c(t)),
  c(.) counting the sentences a piece occurs in (c(s, t): the pairs where s is in the source and t in the target),
  ties broken by c(s, t) then by the piece; plus s itself when the target vocabulary has it (names, numbers and
  punctuation are copied). Pieces seen in fewer than `min_count` pairs get no line of their own.
A source piece absent from the map contributes nothing but the always-candidates: the restriction can change
the best hypothesis; `paranmt eval-nmt --use-vmap` and benchmarks/bench_ct2_settings.py measure how often.

Where the pairs come from (`make_vmap`): a bitext (the model's training data, or any in-domain parallel text), or,
without a target side, the model's own statistics: its unrestricted translations of monolingual source text
stand in for the targets, so the map lists the pieces the model itself produces for each source piece (the way to
build a map for a downloaded model whose training data one does not have).
"""
from __future__ import annotations

import json
from collections import Counter, defaultdict
from pathlib import Path
from typing import Iterable

VMAP_FILE = "vmap.txt"


class VmapError(ValueError):
    """No usable map (no pairs, or a model directory without one when it is asked for)."""


def target_vocabulary(ct2_dir: Path) -> list[str]:
    """The target vocabulary of a converted CTranslate2 model (target_vocabulary.* or shared_vocabulary.*, JSON
    list or one token per line)."""
    for name in ("target_vocabulary", "shared_vocabulary"):
        if (ct2_dir / f"{name}.json").exists():
            return json.loads((ct2_dir / f"{name}.json").read_text(encoding="utf-8"))
        if (ct2_dir / f"{name}.txt").exists():
            return (ct2_dir / f"{name}.txt").read_text(encoding="utf-8").splitlines()
    raise VmapError(f"{ct2_dir} has no target_vocabulary or shared_vocabulary file")


def build_vmap(pairs: Iterable[tuple[list[str], list[str]]], vocabulary: Iterable[str], max_pairs: int = 100_000,
               per_source: int = 20, common: int = 300, min_count: int = 2) -> tuple[list[str], dict[str, list[str]]]:
    """(always-candidates, {source piece: target pieces}) from (source pieces, target pieces) pairs (see the
    module docstring); VmapError when there is no pair."""
    vocabulary = set(vocabulary)
    source_count: Counter = Counter()
    target_count: Counter = Counter()
    together: dict[str, Counter] = defaultdict(Counter)
    used = 0
    for source, target in pairs:
        if used >= max_pairs:
            break
        used += 1
        targets = {t for t in target if t in vocabulary}
        target_count.update(targets)
        for piece in set(source):
            source_count[piece] += 1
            together[piece].update(targets)
    if not used:
        raise VmapError("no sentence pairs to build the vocabulary map from")
    always = [t for t, _ in sorted(target_count.items(), key=lambda tc: (-tc[1], tc[0]))[:common]]
    mapping = {}
    for piece, count in sorted(source_count.items()):
        if count < min_count:
            continue
        ranked = sorted(together[piece].items(),
                        key=lambda tc: (-2 * tc[1] / (count + target_count[tc[0]]), -tc[1], tc[0]))
        candidates = [t for t, _ in ranked[:per_source]]
        if piece in vocabulary and piece not in candidates:
            candidates.append(piece)
        mapping[piece] = candidates
    return always, mapping


def write_vmap(ct2_dir: Path, always: list[str], mapping: dict[str, list[str]]) -> Path:
    """`ct2_dir`/vmap.txt in CTranslate2's format: the always-candidates under the empty key first."""
    path = Path(ct2_dir) / VMAP_FILE
    lines = ["\t" + " ".join(always)] + [f"{piece}\t{' '.join(targets)}" for piece, targets in mapping.items()
                                         if piece and not any(c.isspace() for c in piece)]
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def read_pairs_as_pieces(source_file: Path, target_file: Path, source_spm, target_spm, max_pairs: int
                         ) -> Iterable[tuple[list[str], list[str]]]:
    """Up to `max_pairs` aligned lines of two plain-text files, as the model's sentencepiece pieces."""
    with open(source_file, encoding="utf-8") as sources, open(target_file, encoding="utf-8") as targets:
        for number, (source, target) in enumerate(zip(sources, targets)):
            if number >= max_pairs:
                return
            yield (source_spm.encode(source.strip(), out_type=str), target_spm.encode(target.strip(), out_type=str))


def read_sources(source_file: Path, max_pairs: int) -> list[str]:
    """The first `max_pairs` non-empty lines of `source_file`, stripped."""
    sources = []
    with open(source_file, encoding="utf-8") as lines:
        for line in lines:
            if len(sources) >= max_pairs:
                break
            if line.strip():
                sources.append(line.strip())
    return sources


def self_translated_pairs(model_path: str, sources: list[str], beam: int, threads: int, source_lang: str,
                          target_lang: str) -> Iterable[tuple[list[str], list[str]]]:
    """(source pieces, the target pieces of the model's own unrestricted CTranslate2 translation into
    `target_lang`, as produced, not re-tokenized) for each of `sources`, in token-budget batches with progress."""
    from tqdm import tqdm

    from paranmt.models.nmt.stage import token_budget_batches
    from paranmt.models.nmt.translator import open_translator

    translator = open_translator(model_path, "ctranslate2", "auto", threads, source_lang=source_lang,
                                 target_lang=target_lang)
    pieces = translator.pieces(sources)
    with tqdm(total=len(sources), desc="vocabulary map: translate", unit="sent") as bar:
        for batch in token_budget_batches([len(p) for p in pieces], 2048):
            for index, target in zip(batch, translator.best_pieces([sources[i] for i in batch], beam)):
                yield pieces[index], target
            bar.update(len(batch))


def make_vmap(model_path: str, source_file: Path, target_file: Path | None = None, max_pairs: int = 100_000,
              beam: int = 4, threads: int = 0, source_lang: str = "cs", target_lang: str = "en",
              per_source: int = 20, common: int = 300) -> Path:
    """Build the map of the model directory `model_path` (its ct2 model and sentencepiece models) and write it
    beside the ct2 model; the path written. Pairs: the first `max_pairs` lines of the bitext `source_file` /
    `target_file`, or, with `target_file` None, of `source_file` and the model's own translations of them (beam
    `beam`, `threads` CPU threads, source_lang -> target_lang; see the module docstring); `per_source` and
    `common` as in build_vmap."""
    import sentencepiece

    from paranmt.models.nmt.model_dir import ModelDir

    model = ModelDir.open(model_path)
    if model.ct2_dir is None:
        raise VmapError(f"{model_path} has no CTranslate2 model (model.bin) to write {VMAP_FILE} beside")
    source_spm = sentencepiece.SentencePieceProcessor(model_file=str(model.spm))
    target_spm = (sentencepiece.SentencePieceProcessor(model_file=str(model.target_spm)) if model.target_spm
                  else source_spm)
    if target_file is None:
        pairs = self_translated_pairs(model_path, read_sources(source_file, max_pairs), beam, threads, source_lang,
                                      target_lang)
    else:
        pairs = read_pairs_as_pieces(source_file, target_file, source_spm, target_spm, max_pairs)
    always, mapping = build_vmap(pairs, target_vocabulary(model.ct2_dir), max_pairs, per_source, common)
    return write_vmap(model.ct2_dir, always, mapping)


def vocabulary_map(model_path: str, config, source: str | None, target: str | None,
                   default_files: tuple[Path, Path] | None = None) -> str | None:
    """vmap.txt for the model directory `model_path` (`make_vmap`, with `config`'s vmap_pairs, vmap_per_source,
    vmap_common and languages: a ConvertConfig, models/nmt/export.py) from the bitext `source` / `target` (else
    `default_files` when both exist), or from `source` and the model's own translations of it; the line saying
    what was written, None when no data was given. ConfigError for a missing file or a model it cannot serve."""
    from paranmt.models.nmt.model_dir import ModelDirError
    from paranmt.schemas.errors import ConfigError

    if target and not source:
        raise ConfigError("--vmap-target needs --vmap-source (the aligned source side)")
    if source:
        files = (Path(source), Path(target) if target else None)
    elif default_files and all(path.is_file() for path in default_files):
        files = default_files
    else:
        return None
    for path in files:
        if path is not None and not path.is_file():
            raise ConfigError(f"vocabulary map data {path} does not exist")
    try:
        written = make_vmap(model_path, *files, max_pairs=config.vmap_pairs, source_lang=config.source_lang,
                            target_lang=config.target_lang, per_source=config.vmap_per_source,
                            common=config.vmap_common)
    except (VmapError, ModelDirError) as error:
        raise ConfigError(f"vocabulary map: {error}") from None
    target_side = files[1] or "the model's own translations of it"
    return f"wrote {written} from {files[0]} / {target_side}"
