"""The demo paraphrasers' training data, assembled from a `../shared/data`-style folder (`paranmt paraphrase-data`).

Human paraphrase pairs (corpus name in brackets):
- [sick] SICK train + trial pairs labeled ENTAILMENT with relatedness >= 4 (the released files carry one
  entailment direction; high relatedness stands in for "entail each other"); the SICK test set is left out
  (`paranmt adversarial --task sick-e` paraphrases it);
- [mrpc] MRPC train pairs with quality 1;
- [sts] STS pairs with gold >= 4: STS Benchmark train, STS 2012 train/test, 2013, 2014, 2015 test sets
  (STS 2017, the encoders' dev set, and STS Benchmark dev are left out).
English sentences (for sentence-only training): the English side of the bitext (`bitext/cs-en/*.eng`), the
sentences of the pairs above and of the left-out STS sets' neighbours (SUBJ, CR, MRPC sentences); MR and the SICK
test set are left out (the adversarial tasks use them). Sentences longer than `max_words` words are dropped;
duplicates once.

Held-out split (stable, by md5 of the text): a pair is held out when md5(s1 TAB s2) mod 1000 <
`held_out_per_mille`; a sentence when md5(sentence) mod 1000 < the same; the sentences of held-out pairs never go
into the training sentences. `max_sentences` keeps that many training sentences, the first in md5 order (an unbiased
sample), so that parsing fits a time budget.

The files are read as `paranmt build` reads lines (models/encoding.py `LineRejects`): a line that is not UTF-8 is a
reject (`read/invalid_utf8`; an STS input line with its gold line) and a TSV row without the columns its file needs
one too (`read/wrong_column_count`), counted, never read as U+FFFD characters; a file that is not text at all is a
DataFileError naming it (models/files.py `require_text`).
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from paranmt.models.encoding import LineRejects

STS_SETS = ("STS2012-train", "STS2012-test", "STS2013-test", "STS2014-test", "STS2015-test")


@dataclass(frozen=True)
class HumanPair:
    corpus: str
    id: str
    s1: str
    s2: str


def stable_bucket(text: str) -> int:
    """md5(text) mod 1000."""
    return int(hashlib.md5(text.encode("utf-8")).hexdigest(), 16) % 1000


def _lines(path: Path, rejects: LineRejects) -> list[str | None]:
    """The lines of the data file `path` (a byte order mark at its start dropped), None for one that is not UTF-8
    (the caller counts its record); DataFileError naming a file that is missing or not text at all."""
    from paranmt.models.files import require_text

    require_text(path, "data")
    lines = list(rejects.lines(path))
    if lines and lines[0] is not None:
        lines[0] = lines[0].removeprefix("\ufeff")
    return lines


def _tsv_rows(path: Path, columns: int, rejects: LineRejects, header: bool = True) -> list[tuple[int, list[str]]]:
    """(line number, fields) of the rows of the TSV `path` (after its header line) that have at least `columns`
    fields; the other lines are rejects (`read/invalid_utf8`, `read/wrong_column_count`; blank ones are skipped)."""
    rows = []
    for number, line in enumerate(_lines(path, rejects), 1):
        if header and number == 1:
            continue
        if line is None:
            rejects.add("invalid_utf8")
        elif line.strip():
            row = line.split("\t")
            if len(row) < columns:
                rejects.add("wrong_column_count")
            else:
                rows.append((number, row))
    return rows


def human_pairs(data: Path, rejects: LineRejects) -> list[HumanPair]:
    pairs = []
    for name in ("SICK_train.txt", "SICK_trial.txt"):
        for _, row in _tsv_rows(data / "sts" / "SICK" / name, 5, rejects):
            if row[4] == "ENTAILMENT" and float(row[3]) >= 4.0:
                pairs.append(HumanPair("sick", f"sick:{name}:{row[0]}", row[1], row[2]))
    for _, row in _tsv_rows(data / "transfer" / "mrpc-msr-para-train.tsv", 5, rejects):
        if row[0] == "1":
            pairs.append(HumanPair("mrpc", f"mrpc:train:{row[1]}-{row[2]}", row[3], row[4]))
    for line, row in _tsv_rows(data / "sts" / "stsbenchmark" / "sts-train.csv", 7, rejects, header=False):
        if _score(row[4]) >= 4.0:
            pairs.append(HumanPair("sts", f"sts:stsb-train:{line}", row[5], row[6]))
    for folder in STS_SETS:
        for gold_file in sorted((data / "sts" / folder).glob("STS.gs.*.txt")):
            name = gold_file.name[len("STS.gs."):-len(".txt")]
            if not gold_file.with_name(f"STS.input.{name}.txt").is_file():
                continue
            inputs = _lines(gold_file.with_name(f"STS.input.{name}.txt"), rejects)
            golds = _lines(gold_file, rejects)
            for line, (gold, text) in enumerate(zip(golds, inputs), 1):
                if gold is None or text is None:
                    rejects.add("invalid_utf8")
                elif gold.strip() and _score(gold) >= 4.0:
                    row = text.split("\t")
                    if len(row) < 2:
                        rejects.add("wrong_column_count")
                    else:
                        pairs.append(HumanPair("sts", f"sts:{folder}/{name}:{line}", row[0], row[1]))
    seen, unique = set(), []
    for pair in pairs:
        key = (pair.s1.strip(), pair.s2.strip())
        if key[0] and key[1] and key[0] != key[1] and key not in seen:
            seen.add(key)
            unique.append(pair)
    return unique


def _score(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        return -1.0


def english_sentences(data: Path, pairs: list[HumanPair], rejects: LineRejects) -> list[str]:
    sentences = []
    for path in sorted((data / "bitext" / "cs-en").glob("*.eng")):
        for line in _lines(path, rejects):
            if line is None:
                rejects.add("invalid_utf8")
            else:
                sentences.append(line)
    sentences += [s for p in pairs for s in (p.s1, p.s2)]
    for name in ("subj.tsv", "cr.tsv"):
        sentences += [row[1] for _, row in _tsv_rows(data / "transfer" / name, 2, rejects)]
    for _, row in _tsv_rows(data / "transfer" / "mrpc-msr-para-train.tsv", 5, LineRejects()):    # counted above
        sentences += row[3:5]
    return [" ".join(s.split()) for s in sentences]


def split_corpora(data: str | Path, held_out_per_mille: int = 50, max_words: int = 30,
                  max_sentences: int = 0, rejects: LineRejects | None = None) -> dict:
    """{"pairs_train", "pairs_held_out": [HumanPair], "sentences_train", "sentences_held_out": [str]}; the lines
    rejected while reading are counted in `rejects`."""
    data = Path(data)
    rejects = LineRejects() if rejects is None else rejects
    if not (data / "sts" / "SICK").is_dir():
        raise FileNotFoundError(f"{data} does not look like ../shared/data (no sts/SICK)")
    pairs = human_pairs(data, rejects)
    held = [p for p in pairs if stable_bucket(f"{p.s1}\t{p.s2}") < held_out_per_mille]
    train = [p for p in pairs if stable_bucket(f"{p.s1}\t{p.s2}") >= held_out_per_mille]
    held_sentences = {s for p in held for s in (p.s1, p.s2)}
    sentences = [s for s in dict.fromkeys(english_sentences(data, train, rejects))
                 if s and len(s.split()) <= max_words and s not in held_sentences]
    sentences_held = [s for s in sentences if stable_bucket(s) < held_out_per_mille]
    sentences_train = sorted((s for s in sentences if stable_bucket(s) >= held_out_per_mille),
                             key=lambda s: hashlib.md5(s.encode("utf-8")).hexdigest())
    if max_sentences:
        sentences_train = sentences_train[:max_sentences]
    return {"pairs_train": train, "pairs_held_out": held, "sentences_train": sentences_train,
            "sentences_held_out": sentences_held}


def pair_rows(pairs: list[HumanPair], parses: dict[str, str | None]) -> list[dict]:
    """Shard rows (schemas/records.py PAIR_SCHEMA) of human pairs: ref = s1, bt = s2, cs empty, parses filled."""
    from paranmt.models.generation.templates import template_of
    from paranmt.schemas.records import empty_row

    rows = []
    for pair in pairs:
        row = empty_row(pair.id, pair.corpus, "", pair.s1)
        row.update(bt=pair.s2, ref_parse=parses.get(pair.s1), bt_parse=parses.get(pair.s2))
        row.update(ref_template=template_of(row["ref_parse"]), bt_template=template_of(row["bt_parse"]))
        rows.append(row)
    return rows
