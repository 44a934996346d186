"""`paranmt paraphrase`: syntactically controlled (SCPN) or plain paraphrases of sentences.

    paranmt paraphrase --input sentences.txt --output paraphrases.parquet          # the shipped demo models
    paranmt paraphrase --model DIR --templates top20:out/stats --input FILE --output OUT.jsonl
    paranmt paraphrase --templates "(SBARQ(WHADVP)(SQ)(.))" --input FILE --output OUT.tsv
    paranmt paraphrase --input SHARDS --output DIR [--column ref] [Beam options]   # a whole corpus, on Beam

Text input: one sentence a line. Each sentence is parsed (`--parser`, default the shipped assets/parser-en), the
parse generator makes a full target parse for each template, SCPN realizes it with beam search, the paraphrase is
re-parsed (template_match) and post-filtered (trigram overlap >= --min-overlap, para_score >= --min-similarity
with --encoder). Decoding guards: `--no-repeat-ngram N` forbids a repeated N-gram of output units in beam search;
`--rerank template` (the default) generates the whole beam and returns the `--n-best` hypotheses the post-filter
keeps that match the template first (`simile`: closest to the source by SIMILE; `score`: the generator's best as
they come; models/generation/pipeline.py).
Output by suffix: .parquet, .jsonl or .tsv, one row per paraphrase (schemas/paraphrases.py); dropped candidates
and sources that could not be paraphrased are counted in the summary line, and written too with `--all`
(kept=false, reason). Templates (`--templates`, models/generation/templates.py): `top20` (default:
the model's 20 most frequent training templates), `top<N>:STATS` (a `paranmt stats` output), a file (one
template a line) or one template, in paranmt's notation `(S(NP)(VP)(.))` or the SCPN authors'
`( ROOT ( S ( NP ) ( VP ) ( . ) ) ) EOP`. `--task plain` uses the uncontrolled paraphraser instead.

Text input is paraphrased in parts of 64 sentences, each kept in OUT.parts/ as soon as it is done
(`paraphrase_file`): Ctrl-C, SIGTERM or a full disk end the run with one line naming the command with
`--resume`, which does only the missing parts and writes the file an uninterrupted run writes. An output that
holds an earlier run's result (or its parts) is refused unless `--resume` or `--overwrite` says what to do; an
output that is an input is refused (docs/reliability.md, "Every command that writes").

Shard input (a `paranmt build` / `paranmt filter` output directory or a glob of its Parquet files): the same, as a
Beam pipeline over shards (transforms/paraphrase.py), writing DIR/<shard>.parquet and a summary in
DIR/__paranmt__/; `--column` names the sentence column (ref or bt). Beam options pass through (DataflowRunner
with a GPU: `--accelerator`, as the build's translate stage).

Settings (ParaphraseCommandConfig: a ParaphraseConfig with the run's input and output): defaults <- `--config
FILE.yaml` (its keys: the flags' names with underscores, e.g. `beam: 8`, `templates: top10`) <- flags <- `--set
KEY=VALUE` (any key, also those without a flag: `--set max_tokens=60`).
"""
from __future__ import annotations

import dataclasses
import json
import logging
import os
import shutil
from collections import Counter
from pathlib import Path
from typing import ClassVar

from paranmt.models.generation.config import ParaphraseConfig
from paranmt.pipelines.runtime.command import Command, RunFolder, RunLayout
from paranmt.schemas import layout
from paranmt.schemas.config import choice, setting
from paranmt.schemas.errors import ConfigError
from paranmt.schemas.paths import asset_path
from paranmt.transforms.io.paraphrases import check_output_file, write_paraphrases
from paranmt.transforms.io.streams import read_sentences

LOG = logging.getLogger(__name__)


def summary_line(counts: Counter, sources: int, templates: int, output: str) -> str:
    """One line: sources x templates (no templates: the plain paraphraser), candidates, kept, the rest by reason."""
    dropped = {k: v for k, v in sorted(counts.items()) if k not in ("candidates", "kept")}
    how = f"x {templates} template(s)" if templates else "(plain paraphraser)"
    return (f"paraphrased {sources} sentences {how}: {counts['candidates']} candidates, "
            f"{counts['kept']} kept; not kept: {json.dumps(dropped) if dropped else 'none'} -> {output}")


# Text input in parts (`paraphrase_file`)
PART_SENTENCES = 64         # sentences per part: what a stop can lose, and what --resume skips at once
RUN_FILE = "run.json"


def parts_directory(output: str) -> Path:
    return Path(f"{output}.parts")


def part_path(output: str, index: int) -> Path:
    return parts_directory(output) / f"{index:06d}.parquet"


def finished_parts(output: str) -> int:
    parts = parts_directory(output)
    return len(list(parts.glob("[0-9]*.parquet"))) if parts.is_dir() else 0


def check_parts_directory(output: str) -> None:
    """ConfigError unless `OUT.parts` is absent, an empty folder, or paranmt's own parts folder (a folder holding
    run.json, a real one): a symbolic link there, a file, or a folder of the user's is neither written through
    nor deleted."""
    parts = parts_directory(output)
    if parts.is_symlink():
        raise ConfigError(f"{parts} is a symbolic link; paraphrase keeps its parts in a folder of its own there: "
                          f"remove the link or choose another --output")
    if not parts.exists() or parts.is_dir() and not any(parts.iterdir()):
        return
    run_file = parts / RUN_FILE
    if not parts.is_dir() or run_file.is_symlink() or not run_file.is_file():
        raise ConfigError(f"{parts} exists and is not the parts folder of a `paranmt paraphrase` run (no "
                          f"{RUN_FILE}); paraphrase keeps its parts there: move it away or choose another --output")


def held_output(output: str) -> tuple[str | None, bool]:
    """What `output` holds of an earlier run, for the output contract (pipelines/runtime/outputs.py `claim`): a
    description and whether --resume has something to do (None, False when nothing)."""
    parts = parts_directory(output)
    if (parts / RUN_FILE).is_file():
        return (f"an unfinished run ({finished_parts(output)} part(s) of {PART_SENTENCES} sentences done in "
                f"{parts})"), True
    if os.path.exists(output):
        return "the paraphrases of a finished run", False
    return None, False


def run_record(run, input_path: str, write_all: bool) -> dict:
    """What a resumed run must share with the run it continues: the input file and every setting."""
    from paranmt.schemas.metadata import input_fingerprint

    return {"input": os.path.abspath(input_path), "input_file": input_fingerprint(input_path),
            "part_sentences": PART_SENTENCES, "all": write_all, "settings": run.record()}


def check_same_run(recorded: dict, current: dict, output: str) -> None:
    """ConfigError naming what differs between the run in OUT.parts/ and this one."""
    differences = [key for key in current if key != "settings" and recorded.get(key) != current[key]]
    settings = recorded.get("settings", {})
    differences += [key for key, value in current["settings"].items() if settings.get(key) != value]
    if differences:
        raise ConfigError(f"--resume: the run in {parts_directory(output)} was started with another "
                          f"{', '.join(differences)}; resume it with the same input and settings, or give "
                          f"--overwrite to start again")


def paraphrase_file(run, input_path: str, output: str, write_all: bool = False, mode: str = "fresh") -> Counter:
    """Paraphrase the sentences of a text file into `output` (`run` a ParaphraseRun; `mode` from the output
    contract: "fresh", "overwrite" or "resume"); returns the counts, and the sentences read as `sources`. The
    sentences are paraphrased PART_SENTENCES at a time; each finished part is written as soon as it is done,
    atomically, to `OUT.parts/<index>.parquet` (its rows, and its counts in the footer as `paranmt.counts`), beside
    `OUT.parts/run.json` (the input's size and sha256 and the resolved settings). When every part is there, OUT is
    written from them, atomically, in the format of its suffix, and OUT.parts/ is removed. So a stop loses at most
    the part in progress, and `--resume` (which checks that the input and the settings are those of run.json)
    paraphrases only the missing parts; a part's rows depend on its own sentences alone, so the result is the file
    an uninterrupted run writes."""
    from paranmt.transforms.shards import write_json

    sentences = list(read_sentences(input_path, what="--input", strict=True, empty_ok=False))
    parts = parts_directory(output)
    current = run_record(run, input_path, write_all)
    if mode == "resume":
        check_same_run(json.loads((parts / RUN_FILE).read_text()), current, output)
    else:
        shutil.rmtree(parts, ignore_errors=True)
        parts.mkdir()
        write_json(str(parts / RUN_FILE), current)
    write_parts(run, sentences, output, write_all)
    counts = assemble_parts(output, len(range(0, len(sentences), PART_SENTENCES)))
    counts["sources"] = len(sentences)
    return counts


def write_parts(run, sentences: list[str], output: str, write_all: bool) -> None:
    """Paraphrase the sentences of each part not yet in OUT.parts/ and write it there (`paraphrase_file`)."""
    from paranmt.models.generation.pipeline import open_pipeline
    from paranmt.schemas.paraphrases import PARAPHRASE_SCHEMA, paraphrases_to_table
    from paranmt.transforms.shards import ParquetShardWriter

    pipeline = None
    for index, start in enumerate(range(0, len(sentences), PART_SENTENCES)):
        if part_path(output, index).exists():
            continue
        pipeline = pipeline or open_pipeline(run.settings)
        pipeline.counts = Counter()
        part = sentences[start:start + PART_SENTENCES]
        rows = pipeline.paraphrase(part, run.templates or None, [str(start + i + 1) for i in range(len(part))])
        with ParquetShardWriter(str(part_path(output, index)), PARAPHRASE_SCHEMA) as writer:
            writer.write_table(paraphrases_to_table(rows if write_all else [row for row in rows if row["kept"]]))
            writer.close(dict(pipeline.counts))
        LOG.info("paraphrased %d/%d sentences", min(start + PART_SENTENCES, len(sentences)), len(sentences))


def assemble_parts(output: str, parts: int) -> Counter:
    """OUT written from its `parts` parts, OUT.parts/ removed; returns the summed counts of the parts."""
    import pyarrow.parquet as pq

    from paranmt.transforms.shards import read_shard_counts

    counts, rows = Counter(), []
    for index in range(parts):
        counts.update(read_shard_counts(str(part_path(output, index))))
        rows += pq.read_table(part_path(output, index)).to_pylist()
    write_paraphrases(rows, output)
    shutil.rmtree(parts_directory(output))
    return counts


def parts_progress(output: str, sentences: int) -> str:
    """How far a run got, for the line a stop ends with."""
    done = min(sentences, finished_parts(output) * PART_SENTENCES)
    return f"{done} of {sentences} sentences done (kept in {parts_directory(output)})"


COLUMNS = ("ref", "bt")     # shard input: the sentence columns


@dataclasses.dataclass
class ParaphraseCommandConfig(ParaphraseConfig):
    """The settings of `paranmt paraphrase`: the generator's (a ParaphraseConfig, its keys at the top: `beam: 4`)
    and where the run reads and writes; the keys of `--config FILE.yaml`, the flags (one per field) and `--set`."""
    RUN_FIELDS: ClassVar[tuple[str, ...]] = ("input", "output")
    input: str = setting("", help="text file (one sentence a line) or shard directory/glob")
    output: str = setting("", help="OUT.parquet | OUT.jsonl | OUT.tsv (text input) or a directory (shard input)")
    all: bool = setting(False, flag={"action": "store_true"}, help="also write dropped candidates and unparaphrased "
                        "sources (kept=false, with the reason)")
    column: str = choice("ref", COLUMNS, help="shard input: the sentence column")
    accelerator: str = setting("", help="shard input: Beam accelerator resource hint for the generation step, e.g. "
                               "type:nvidia-tesla-t4;count:1;install-nvidia-driver")

    def validate(self, where: str = "") -> "ParaphraseCommandConfig":
        return super().validate(where)

    def generator(self) -> ParaphraseConfig:
        """The ParaphraseConfig of these settings (what the pipeline, OUT.parts/run.json and the Beam stage take)."""
        return ParaphraseConfig(**{spec.name: getattr(self, spec.name)
                                   for spec in dataclasses.fields(ParaphraseConfig)})


def shard_input(c: ParaphraseCommandConfig) -> bool:
    """Whether `--input` names shards (a directory or a glob of Parquet files), not a text file."""
    return Path(c.input).is_dir() or c.input.endswith(layout.DATA_SUFFIX) or "*" in c.input


def check(c: ParaphraseCommandConfig, args) -> None:
    """The settings resolved before the output is claimed (models found and checked, templates chosen:
    models/generation/config.py `resolve`), for `run` as `args.resolved`."""
    from paranmt.transforms.io.model_cache import local_model_path

    args.resolved = c.generator().resolve(local_model_path)


def run(c: ParaphraseCommandConfig, args) -> int:
    run = args.resolved
    if shard_input(c):
        from paranmt.pipelines.paraphrase_corpus import run_paraphrase_corpus

        counts = run_paraphrase_corpus(run, c.input, c.output, c.column, c.all, c.accelerator, args.beam_args,
                                       args.resume, args.overwrite, getattr(args, "argv", None), models(c))
    else:
        counts = paraphrase_file(run, c.input, c.output, c.all, "resume" if args.resume else "fresh")
    print(summary_line(counts, counts.pop("sources", 0), len(run.templates), c.output))
    return 0


def models(c: ParaphraseCommandConfig) -> list[str]:
    """The model paths the settings name (inputs an output must stay apart from)."""
    return [asset_path(path) for path in (c.model, c.parse_generator, c.parser, c.encoder) if path]


class PartsLayout(RunLayout):
    """Text input: OUT, written whole from the parts kept in OUT.parts/ (`paraphrase_file`), which --resume goes on
    with; locked by a lock file beside OUT. Shard input: none (`text_layout`)."""

    def __init__(self, c: ParaphraseCommandConfig, args):
        if args.beam_args:
            raise ConfigError(beam_arguments_refused(args.beam_args, c.input))
        check_output_file(c.output)
        self.directory, self.input, self.sentences = c.output, c.input, 0

    def folders(self) -> list[tuple[str, str]]:
        return [(self.directory, self.flag), (str(parts_directory(self.directory)), self.flag)]

    def locks(self, command: str) -> list:
        from paranmt.pipelines.runtime.output_lock import file_locked

        return [file_locked(self.directory, command)]

    def claim(self, resume: bool, overwrite: bool) -> None:
        self.sentences = len(list(read_sentences(self.input, what="--input", strict=True, empty_ok=False)))
        check_parts_directory(self.directory)
        super().claim(resume, overwrite)

    def held(self) -> tuple[str | None, bool]:
        return held_output(self.directory)

    def status(self) -> str:
        return parts_progress(self.directory, self.sentences)

    def resumable(self) -> bool:
        return (parts_directory(self.directory) / RUN_FILE).is_file()

    def where(self) -> str:
        return str(Path(self.directory).resolve().parent)


def text_layout(c: ParaphraseCommandConfig, args) -> PartsLayout | None:
    """The layout of the output of text input; None for shard input, whose shard job claims its output."""
    return None if shard_input(c) else PartsLayout(c, args)


def beam_arguments_refused(beam_args: list[str], input_path: str) -> str:
    """The one line for text input given arguments that only shard input passes on to Beam (pipelines/cli.py has
    already refused those close to one of the command's flags): Beam's pipeline options named as such, the rest as
    unrecognized."""
    from paranmt.pipelines.runtime.arguments import argument_groups, flag_name, unrecognized_arguments
    from paranmt.pipelines.runtime.options import beam_flags

    taken = beam_flags()
    groups = argument_groups(beam_args)
    beam = [" ".join(group) for group in groups if flag_name(group) in taken]
    other = [group for group in groups if flag_name(group) not in taken]
    return "; ".join(([unrecognized_arguments(other)] if other else []) + (
        [f"Beam pipeline options are for shard input (a directory or glob of Parquet shards), not the text file "
         f"{input_path}: {' '.join(beam)}"] if beam else []))


COMMAND = Command("paraphrase", ParaphraseCommandConfig, run, help="paraphrase sentences (or a corpus) with SCPN "
                  "templates or the plain paraphraser", description=__doc__.split("\n\n")[0],
                  required=("input", "output"), example="beam=8", defaults={"accepts_beam_options": True},
                  inputs=("input", "model", "parse_generator", "parser", "encoder"), check=check,
                  output=RunFolder(text_layout, "replace the output of an earlier run (without --resume or "
                                   "--overwrite, an output holding one is refused)",
                                   "finish the run that stopped (text input: the parts in OUT.parts/; shard "
                                   "input: the shards not yet in DIR); refused when there is none"))
