"""`paranmt paraphrase --input FILE --output OUT`: a text file paraphrased in parts that outlive a stop.

The sentences are paraphrased PART_SENTENCES at a time; each finished part is written as soon as it is done,
atomically, to `OUT.parts/<index>.parquet` (its rows, and its counts in the footer as `paranmt.counts`), beside
`OUT.parts/run.json` (the input's size and sha256 and the resolved settings). When every part is there, OUT is
written from them, atomically, in the format of its suffix, and OUT.parts/ is removed. So Ctrl-C, SIGTERM or a
full disk lose at most the part in progress: the one line they end with names the command with `--resume`, which
checks that the input and the settings are those of run.json and paraphrases only the missing parts. A part's rows
depend on its own sentences alone, so the result is the file an uninterrupted run writes.
"""
from __future__ import annotations

import dataclasses
import json
import logging
import os
import shutil
from collections import Counter
from pathlib import Path

from paranmt.schemas.config import ConfigError

LOG = logging.getLogger(__name__)
PART_SENTENCES = 64         # sentences per part: what a stop can lose, and what --resume skips at once
RUN_FILE = "run.json"


def parts_directory(output: str) -> Path:
    return Path(f"{output}.parts")


def part_path(output: str, index: int) -> Path:
    return parts_directory(output) / f"{index:06d}.parquet"


def finished_parts(output: str) -> int:
    parts = parts_directory(output)
    return len(list(parts.glob("[0-9]*.parquet"))) if parts.is_dir() else 0


def held(output: str) -> tuple[str | None, bool]:
    """What `output` holds of an earlier run, for the output contract (pipelines/outputs.py `claim`): a
    description and whether --resume has something to do (None, False when nothing)."""
    parts = parts_directory(output)
    if (parts / RUN_FILE).is_file():
        return (f"an unfinished run ({finished_parts(output)} part(s) of {PART_SENTENCES} sentences done in "
                f"{parts})"), True
    if os.path.exists(output):
        return "the paraphrases of a finished run", False
    return None, False


def run_record(config, input_path: str, write_all: bool) -> dict:
    """What a resumed run must share with the run it continues: the input file and every setting."""
    from paranmt.schemas.metadata import input_fingerprint

    return {"input": os.path.abspath(input_path), "input_file": input_fingerprint(input_path),
            "part_sentences": PART_SENTENCES, "all": write_all, "settings": dataclasses.asdict(config)}


def check_same_run(recorded: dict, current: dict, output: str) -> None:
    """ConfigError naming what differs between the run in OUT.parts/ and this one."""
    differences = [key for key in current if key != "settings" and recorded.get(key) != current[key]]
    settings = recorded.get("settings", {})
    differences += [key for key, value in current["settings"].items() if settings.get(key) != value]
    if differences:
        raise ConfigError(f"--resume: the run in {parts_directory(output)} was started with another "
                          f"{', '.join(differences)}; resume it with the same input and settings, or give "
                          f"--overwrite to start again")


def paraphrase_file(config, input_path: str, output: str, write_all: bool = False, mode: str = "fresh") -> Counter:
    """Paraphrase the sentences of a text file into `output` (module docstring; config resolved; `mode` from the
    output contract: "fresh", "overwrite" or "resume"); returns the counts."""
    import pyarrow.parquet as pq

    from paranmt.pipelines.paraphrase import open_pipeline, read_sentences, write_paraphrases
    from paranmt.schemas.paraphrases import PARAPHRASE_SCHEMA, paraphrases_to_table
    from paranmt.transforms.shards import ParquetShardWriter, read_shard_counts, write_json

    sentences = read_sentences(input_path)
    parts = parts_directory(output)
    current = run_record(config, input_path, write_all)
    if mode == "resume":
        check_same_run(json.loads((parts / RUN_FILE).read_text()), current, output)
    else:
        shutil.rmtree(parts, ignore_errors=True)
        parts.mkdir()
        write_json(str(parts / RUN_FILE), current)
    starts = range(0, len(sentences), PART_SENTENCES)
    pipeline = None
    for index, start in enumerate(starts):
        if part_path(output, index).exists():
            continue
        pipeline = pipeline or open_pipeline(config)
        pipeline.counts = Counter()
        part = sentences[start:start + PART_SENTENCES]
        rows = pipeline.paraphrase(part, config.template_list or None, [str(start + i + 1) for i in range(len(part))])
        with ParquetShardWriter(str(part_path(output, index)), PARAPHRASE_SCHEMA) as writer:
            writer.write_table(paraphrases_to_table(rows if write_all else [row for row in rows if row["kept"]]))
            writer.close(dict(pipeline.counts))
        LOG.info("paraphrased %d/%d sentences", min(start + PART_SENTENCES, len(sentences)), len(sentences))
    counts, rows = Counter(), []
    for index in range(len(starts)):
        counts.update(read_shard_counts(str(part_path(output, index))))
        rows += pq.read_table(part_path(output, index)).to_pylist()
    write_paraphrases(rows, output)
    shutil.rmtree(parts)
    return counts


def progress(output: str, sentences: int) -> str:
    """How far a run got, for the line a stop ends with."""
    done = min(sentences, finished_parts(output) * PART_SENTENCES)
    return f"{done} of {sentences} sentences done (kept in {parts_directory(output)})"


def advice(output: str, argv: list[str] | None) -> str:
    """How to go on after a stop: the --resume command once the run has its OUT.parts/, else the same command."""
    from paranmt.pipelines.outputs import resume_command

    if (parts_directory(output) / RUN_FILE).is_file():
        return resume_command(argv, "paraphrase")
    return "run the same command again"
