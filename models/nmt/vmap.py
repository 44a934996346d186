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
the best hypothesis; `paranmt eval-nmt` and the agreement test measure how often.
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


def make_vmap(model_path: str, source_file: Path, target_file: Path, max_pairs: int = 100_000) -> Path:
    """Build the map of the model directory `model_path` (its ct2 model and sentencepiece models) from the bitext
    `source_file` / `target_file` and write it beside the ct2 model; the path written."""
    import sentencepiece

    from paranmt.models.nmt.model_dir import ModelDir

    model = ModelDir.open(model_path)
    if model.ct2_dir is None:
        raise VmapError(f"{model_path} has no CTranslate2 model (model.bin) to write {VMAP_FILE} beside")
    source_spm = sentencepiece.SentencePieceProcessor(model_file=str(model.spm))
    target_spm = (sentencepiece.SentencePieceProcessor(model_file=str(model.target_spm)) if model.target_spm
                  else source_spm)
    always, mapping = build_vmap(read_pairs_as_pieces(source_file, target_file, source_spm, target_spm, max_pairs),
                                 target_vocabulary(model.ct2_dir), max_pairs)
    return write_vmap(model.ct2_dir, always, mapping)
