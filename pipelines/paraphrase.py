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
"""
from __future__ import annotations

import dataclasses
import json
import logging
import os
import shutil
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from paranmt.models.generation import RERANK
from paranmt.pipelines.runtime import outputs
from paranmt.schemas.config import ConfigError, ParseConfig, ScoreConfig, asset_path

LOG = logging.getLogger(__name__)
OUTPUT_SUFFIXES = (".parquet", ".jsonl", ".tsv")
DEFAULT_MODELS = "assets"


@dataclass
class ParaphraseConfig:
    """Everything a paraphrasing run needs besides its input and output (also what the Beam stage pickles)."""
    model: str = DEFAULT_MODELS
    task: str = "scpn"
    arch: str | None = None
    parse_generator: str | None = None
    templates: str | None = None
    parser: str = ParseConfig.model_dir
    max_tokens: int = ParseConfig.max_tokens
    encoder: str = ScoreConfig.encoder
    min_overlap: float = 0.5
    min_similarity: float = 0.7
    beam: int = 4
    n_best: int = 1
    rerank: str = "template"                # score | template | simile (models/generation/pipeline.py; the
                                            # default measured in docs/paraphrase.md, Decoding guards)
    no_repeat_ngram: int = 0                # > 0: no repeated n-gram of output units in beam search
    batch_size: int = 32
    device: str = "auto"
    threads: int = 0
    template_list: list[str] = field(default_factory=list)     # resolved by `resolve`

    def resolve(self) -> "ParaphraseConfig":
        """Check the settings and the model directories and resolve the templates (ConfigError before any
        work). Loads no model weights. Models on a remote filesystem (gs://) are checked on a local copy
        (`local_model_path`, the launcher needs read access) and kept as remote paths for the workers."""
        from paranmt.models.generation.models import ModelSetError, find_models
        from paranmt.models.generation.paraphraser import read_templates
        from paranmt.models.generation.templates import TemplateError, choose_templates
        from paranmt.models.parsing.parser import ParserModelError, model_files
        from paranmt.transforms.io.model_cache import is_remote, local_model_path

        if not 1 <= self.n_best <= self.beam:
            raise ConfigError(f"need 1 <= --n-best <= --beam, got --n-best {self.n_best} --beam {self.beam}")
        if self.rerank not in RERANK:
            raise ConfigError(f"--rerank must be one of {', '.join(RERANK)}, not {self.rerank!r}")
        if self.no_repeat_ngram < 0:
            raise ConfigError(f"--no-repeat-ngram must be >= 0 (0: off), not {self.no_repeat_ngram}")
        if self.device not in ("auto", "cpu", "cuda"):
            raise ConfigError(f"--device must be auto, cpu or cuda, not {self.device!r}")
        for name in ("min_overlap", "min_similarity"):
            if not -1 <= getattr(self, name) <= 1:
                raise ConfigError(f"--{name.replace('_', '-')} must be in [-1, 1], not {getattr(self, name)}")
        remote = [name for name in ("model", "parse_generator", "parser", "encoder")
                  if getattr(self, name) and is_remote(getattr(self, name))]
        if remote and ("model" in remote) != ("parse_generator" in remote or self.task != "scpn"):
            raise ConfigError("a model on a remote filesystem needs --parse-generator there too (a directory of "
                              "models is found by listing, which only local paths get)")
        local = {name: local_model_path(getattr(self, name)) if name in remote else asset_path(getattr(self, name))
                 for name in ("model", "parse_generator", "parser", "encoder") if getattr(self, name)}
        try:
            models = find_models(local["model"], self.task, self.arch, local.get("parse_generator"))
        except ModelSetError as error:
            raise ConfigError(str(error)) from None
        try:
            model_files(local["parser"])
        except ParserModelError as error:
            raise ConfigError(f"--parser: {error}") from None
        if not (Path(local["encoder"]) / "config.json").is_file():
            raise ConfigError(f"--encoder {self.encoder} is not an encoder directory (no config.json)")
        if self.task == "scpn":
            try:
                self.template_list = choose_templates(
                    self.templates, [t for t, _ in read_templates(models.paraphraser.path)])
            except TemplateError as error:
                raise ConfigError(f"--templates: {error}") from None
        if "model" not in remote:       # remote paths stay as given: each worker copies them (local_model_path)
            self.model = str(models.paraphraser.path)
            self.parse_generator = str(models.parse_generator.path) if models.parse_generator else None
        self.parser, self.encoder = (getattr(self, n) if n in remote else local[n] for n in ("parser", "encoder"))
        return self


def output_kind(path: str) -> str:
    """`.parquet`, `.jsonl` or `.tsv` from the output's name; ConfigError for anything else."""
    suffix = Path(path).suffix.lower()
    if suffix not in OUTPUT_SUFFIXES:
        raise ConfigError(f"--output {path}: the name must end in {', '.join(OUTPUT_SUFFIXES)} (the format), or "
                          "give a shard directory as --input to write a directory of Parquet shards")
    return suffix


def check_output_file(path: str) -> None:
    output_kind(path)
    parent = Path(path).resolve().parent
    if Path(path).is_dir():
        raise ConfigError(f"--output {path} is a directory; give a file name")
    if not parent.is_dir() or not os.access(parent, os.W_OK):
        raise ConfigError(f"--output {path}: directory {parent} does not exist or is not writable")


def tsv_field(value) -> str:
    """A value as text in the TSV output: null and NaN empty, floats with 6 decimals, booleans `true`/`false`."""
    if value is None:
        return ""
    if isinstance(value, float):
        return "" if value != value else f"{value:.6f}"
    return value if isinstance(value, str) else str(value).lower()


def write_paraphrases(rows: list[dict], path: str) -> None:
    """Write rows in the format of the file's suffix, atomically (a temporary name, then renamed); .tsv is a table
    TSV (schemas/tsv.py)."""
    from paranmt.schemas import tsv
    from paranmt.schemas.paraphrases import COLUMNS, paraphrases_to_table
    from paranmt.transforms.shards import write_table_atomically, write_text_atomically

    kind = output_kind(path)
    table = paraphrases_to_table(rows)
    if kind == ".parquet":
        write_table_atomically(table, os.path.abspath(path))
    elif kind == ".jsonl":
        write_text_atomically(os.path.abspath(path), "".join(
            json.dumps(row, ensure_ascii=False) + "\n" for row in table.to_pylist()))
    else:
        write_text_atomically(os.path.abspath(path), tsv.header(COLUMNS) + "".join(
            tsv.table_line(tsv_field(row[c]) for c in COLUMNS) for row in table.to_pylist()))


def read_sentences(path: str) -> list[str]:
    """One sentence a line (UTF-8); ConfigError for a missing, undecodable or empty file."""
    from paranmt.models.files import read_text

    if not Path(path).is_file():
        raise ConfigError(f"--input {path} is not a file")
    lines = read_text(path, "--input").splitlines()
    if not lines:
        raise ConfigError(f"--input {path} is empty")
    return lines


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
    """Paraphrase the sentences of a text file into `output` (config resolved; `mode` from the output contract:
    "fresh", "overwrite" or "resume"); returns the counts. The sentences are paraphrased PART_SENTENCES at a time;
    each finished part is written as soon as it is done, atomically, to `OUT.parts/<index>.parquet` (its rows, and
    its counts in the footer as `paranmt.counts`), beside `OUT.parts/run.json` (the input's size and sha256 and the
    resolved settings). When every part is there, OUT is written from them, atomically, in the format of its
    suffix, and OUT.parts/ is removed. So a stop loses at most the part in progress, and `--resume` (which checks
    that the input and the settings are those of run.json) paraphrases only the missing parts; a part's rows depend
    on its own sentences alone, so the result is the file an uninterrupted run writes."""
    import pyarrow.parquet as pq

    from paranmt.models.generation.pipeline import open_pipeline
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


def parts_progress(output: str, sentences: int) -> str:
    """How far a run got, for the line a stop ends with."""
    done = min(sentences, finished_parts(output) * PART_SENTENCES)
    return f"{done} of {sentences} sentences done (kept in {parts_directory(output)})"


def parts_advice(output: str, argv: list[str] | None) -> str:
    """How to go on after a stop: the --resume command once the run has its OUT.parts/, else the same command."""
    if (parts_directory(output) / RUN_FILE).is_file():
        return outputs.resume_command(argv, "paraphrase")
    return "run the same command again"


def config_from_args(args) -> ParaphraseConfig:
    return ParaphraseConfig(model=args.model, task=args.task, arch=args.arch, parse_generator=args.parse_generator,
                            templates=args.templates, n_best=args.n_best, batch_size=args.batch_size,
                            **decoding_settings(args))


def decoding_settings(args) -> dict:
    """The ParaphraseConfig fields of `add_model_arguments`' options that every command passes as they are."""
    return {name: getattr(args, name) for name in ("beam", "parser", "encoder", "min_overlap", "min_similarity",
                                                   "rerank", "no_repeat_ngram", "device", "threads")}


def run(args) -> int:
    config = config_from_args(args)
    argv = getattr(args, "argv", None)
    inputs = [args.input, *(asset_path(path) for path in (args.model, args.parse_generator, args.parser,
                                                           args.encoder) if path)]
    if Path(args.input).is_dir() or args.input.endswith(".parquet") or "*" in args.input:
        from paranmt.pipelines.paraphrase_corpus import run_paraphrase_corpus

        outputs.check_apart(args.output, inputs)
        counts = run_paraphrase_corpus(config.resolve(), args.input, args.output, args.column, args.all,
                                       args.accelerator, args.beam_args, args.resume, args.overwrite, argv)
        print(summary_line(counts, counts.pop("sources", 0), len(config.template_list), args.output))
        return 0
    if args.beam_args:
        raise ConfigError(f"unrecognized arguments: {' '.join(args.beam_args)} (Beam options are for shard input)")
    check_output_file(args.output)
    outputs.check_apart(args.output, inputs)
    outputs.check_apart(str(parts_directory(args.output)), [args.input])
    sentences = len(read_sentences(args.input))
    config.resolve()
    what, unfinished = held_output(args.output)
    mode = outputs.claim(args.output, what, args.resume, args.overwrite, unfinished=unfinished)
    with outputs.stops_in_one_line(lambda: parts_progress(args.output, sentences),
                                   lambda: parts_advice(args.output, argv),
                                   str(Path(args.output).resolve().parent)):
        counts = paraphrase_file(config, args.input, args.output, args.all, mode)
    print(summary_line(counts, sentences, len(config.template_list), args.output))
    return 0


def add_model_arguments(parser) -> None:
    """The options that choose and run the generators (shared with eval-paraphraser and adversarial)."""
    parser.add_argument("--beam", type=int, default=4, help="beam size (default 4)")
    parser.add_argument("--parser", default=ParseConfig.model_dir,
                        help=f"parser model directory (default {ParseConfig.model_dir})")
    parser.add_argument("--encoder", default=ScoreConfig.encoder,
                        help=f"post-filter / para_score encoder (default {ScoreConfig.encoder})")
    parser.add_argument("--min-overlap", type=float, default=0.5, help="post-filter: trigram overlap (0.5)")
    parser.add_argument("--min-similarity", type=float, default=0.7, help="post-filter: para_score (0.7)")
    parser.add_argument("--rerank", default="template", choices=RERANK,
                        help="which hypotheses of the beam are returned: template (default) / simile = the whole "
                             "beam, kept ones first, then by template match / SIMILE to the source; score = the "
                             "generator's best as they come")
    parser.add_argument("--no-repeat-ngram", type=int, default=0, metavar="N",
                        help="beam search never repeats an N-gram of output units (default 0: off)")
    parser.add_argument("--batch-size", type=int, default=32, help="sentences per generator call")
    parser.add_argument("--device", default="auto", choices=("auto", "cpu", "cuda"))
    parser.add_argument("--threads", type=int, default=0, help="CPU threads (0 = torch's default)")


def register(subparsers) -> None:
    parser = subparsers.add_parser("paraphrase", help="paraphrase sentences (or a corpus) with SCPN templates or "
                                   "the plain paraphraser", description=__doc__.split("\n\n")[0])
    parser.add_argument("--input", required=True, help="text file (one sentence a line) or shard directory/glob")
    parser.add_argument("--output", required=True, help="OUT.parquet | OUT.jsonl | OUT.tsv (text input) or a "
                        "directory (shard input)")
    parser.add_argument("--model", default=DEFAULT_MODELS,
                        help="model directory or directory of models (default: the shipped demo models in assets/)")
    parser.add_argument("--task", default="scpn", choices=("scpn", "plain"))
    parser.add_argument("--arch", choices=("scpn", "transformers"), help="architecture, when --model has both")
    parser.add_argument("--parse-generator", help="parse generator directory (default: the one beside the model)")
    parser.add_argument("--templates", help="top<N> | top<N>:STATS_DIR | FILE | one template (default top20)")
    parser.add_argument("--n-best", type=int, default=1, help="paraphrases per source and template (default 1)")
    parser.add_argument("--all", action="store_true", help="also write dropped candidates and unparaphrased "
                        "sources (kept=false, with the reason)")
    parser.add_argument("--resume", action="store_true", help="finish the run that stopped (text input: the "
                        "parts in OUT.parts/; shard input: the shards not yet in DIR); refused when there is none")
    parser.add_argument("--overwrite", action="store_true", help="replace the output of an earlier run (without "
                        "--resume or --overwrite, an output holding one is refused)")
    parser.add_argument("--column", default="ref", choices=("ref", "bt"), help="shard input: the sentence column")
    parser.add_argument("--accelerator", default="", help="shard input: Beam accelerator resource hint for the "
                        "generation step, e.g. type:nvidia-tesla-t4;count:1;install-nvidia-driver")
    add_model_arguments(parser)
    parser.set_defaults(func=run, accepts_beam_options=True)
