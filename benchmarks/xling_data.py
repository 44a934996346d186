"""Training and held-out files of the cross-lingual encoders (issue 48; benchmarks/xling_runs.sh).

For a language pair X-en of ../shared/data/bitext/X-en (Moses layout `<set>.<x3>` / `<set>.eng`): a Tatoeba-style
held-out set of 1,000 line-aligned pairs taken from its Tatoeba set (tatoeba-union; cs-en: tatoeba-test) at an even
stride (the file is sorted by its X side, so the tail would be sentences starting with Z), written as
`heldout.<x3>` / `heldout.eng`; and every
other pair of the folder, minus any pair sharing a side with a held-out pair (Tatoeba repeats sentences under
several translations), as `train.eng` / `train.<x3>` (English first, as `paranmt train --suffixes eng,<x3>`
reads them) and as `train.tsv` (English TAB X; tabs inside sentences made spaces), which a training on several
languages at once reads. `--limit N` keeps the first N training pairs of a seeded shuffle (the size curve).
`--wmt-bt DIR --lang X` does the same for a source language of ../shared/data/wmt-bt: its distinct (source,
English reference) pairs over all years, of which min(1,000, a quarter) are held out at an even stride.

    python benchmarks/xling_data.py --bitext ../shared/data/bitext/es-en --output work/xling/data/es-en [--limit N]
    python benchmarks/xling_data.py --wmt-bt ../shared/data/wmt-bt --lang ja --output work/xling/data/wmt-ja
"""
from __future__ import annotations

import csv
import gzip
import random
import sys
from pathlib import Path

from paranmt.pipelines.cli import CommandLineParser, exit_code

HELD_OUT = 1000
TATOEBA = "tatoeba"          # the held-out pairs come from the folder's one tatoeba-* set (cs-en: tatoeba-test-...)


def read_pairs(prefix: Path, code: str) -> list[tuple[str, str]]:
    """(X, English) pairs of PREFIX.<code> / PREFIX.eng with both sides non-empty."""
    foreign = prefix.with_name(f"{prefix.name}.{code}").read_text(encoding="utf-8").splitlines()
    english = prefix.with_name(f"{prefix.name}.eng").read_text(encoding="utf-8").splitlines()
    if len(foreign) != len(english):
        sys.exit(f"{prefix}: {len(foreign)} {code} lines but {len(english)} eng lines")
    return [(x.strip(), e.strip()) for x, e in zip(foreign, english) if x.strip() and e.strip()]


def held_out_at_stride(pairs: list, held_out: int) -> tuple[list, list]:
    """(held_out pairs taken at an even stride, the pairs sharing no side with them)."""
    stride = len(pairs) // held_out
    if stride < 1:
        sys.exit(f"{len(pairs)} pairs, fewer than the {held_out} to hold out")
    chosen = set(range(0, stride * held_out, stride))
    heldout = [pairs[i] for i in sorted(chosen)]
    seen_x, seen_en = {x for x, _ in heldout}, {e for _, e in heldout}
    return heldout, [(x, e) for i, (x, e) in enumerate(pairs)
                     if i not in chosen and x not in seen_x and e not in seen_en]


def wmt_bt_split(folder: Path, lang: str) -> tuple[str, list, list]:
    """(lang, held-out pairs, training pairs) of one source language of wmt-bt."""
    pairs = {}
    for path in sorted(folder.glob(f"wmt2*.{lang}-en.tsv.gz")):
        with gzip.open(path, "rt", encoding="utf-8") as handle:
            for row in csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE):
                if row["source"].strip() and row["ref"].strip():
                    pairs[(row["source"].strip(), row["ref"].strip())] = None
    if not pairs:
        sys.exit(f"{folder}: no wmt2*.{lang}-en.tsv.gz")
    pairs = list(pairs)
    return (lang, *held_out_at_stride(pairs, min(HELD_OUT, len(pairs) // 4)))


def split(bitext: Path, held_out: int = HELD_OUT, limit: int = 0, seed: int = 1):
    """(code, held-out pairs, training pairs) of one bitext folder."""
    sets = {p.with_suffix("") for p in bitext.glob(f"{TATOEBA}*.eng")}
    codes = {p.suffix[1:] for p in bitext.glob(f"{TATOEBA}*.*")} - {"eng"}
    if len(sets) != 1 or len(codes) != 1:
        sys.exit(f"{bitext}: expected one {TATOEBA}*.<x3> beside its .eng, found {sorted(map(str, sets))}")
    code, tatoeba = codes.pop(), sets.pop()
    heldout, train = held_out_at_stride(read_pairs(tatoeba, code), held_out)
    seen_x, seen_en = {x for x, _ in heldout}, {e for _, e in heldout}
    for prefix in sorted({p.with_suffix("") for p in bitext.glob(f"*.{code}")} - {tatoeba}):
        train += [(x, e) for x, e in read_pairs(prefix, code) if x not in seen_x and e not in seen_en]
    if limit:
        random.Random(seed).shuffle(train)
        train = train[:limit]
    return code, heldout, train


def write(path: Path, lines) -> None:
    path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")


def main() -> int:
    parser = CommandLineParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bitext", type=Path, help="a bitext folder X-en")
    parser.add_argument("--wmt-bt", type=Path, help="the wmt-bt folder (with --lang)")
    parser.add_argument("--lang", help="a source language of --wmt-bt")
    parser.add_argument("--output", required=True, type=Path)
    parser.add_argument("--limit", type=int, default=0, help="keep N training pairs (0: all)")
    args = parser.parse_args()
    if bool(args.bitext) == bool(args.wmt_bt and args.lang):
        parser.error("give --bitext, or --wmt-bt with --lang")
    code, heldout, train = split(args.bitext, limit=args.limit) if args.bitext else wmt_bt_split(args.wmt_bt, args.lang)
    args.output.mkdir(parents=True, exist_ok=True)
    write(args.output / f"heldout.{code}", (x for x, _ in heldout))
    write(args.output / "heldout.eng", (e for _, e in heldout))
    write(args.output / f"train.{code}", (x for x, _ in train))
    write(args.output / "train.eng", (e for _, e in train))
    write(args.output / "train.tsv", (f"{e}\t{x}".replace("\r", " ") for x, e in
                                      ((x.replace("\t", " "), e.replace("\t", " ")) for x, e in train)))
    print(f"{args.bitext or args.lang}: {len(heldout)} held-out pairs, {len(train)} training pairs -> {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(exit_code(main))
