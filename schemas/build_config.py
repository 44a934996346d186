"""Typed configuration of `paranmt build`: one dataclass per section, loaded from YAML, overridable by flags,
validated before any work, written (resolved, with its hash) next to the outputs.
"""
from __future__ import annotations

import argparse
from dataclasses import dataclass, field
from typing import ClassVar

from paranmt.schemas.config import (CT2_COMPUTE_TYPES, DEVICES, NMT_BACKENDS, Config, bounded, check_ranges, choice,
                                    load_config, near_matches, setting)
from paranmt.schemas.errors import ConfigError
from paranmt.schemas.paths import asset_path
from paranmt.schemas.stages import STAGE_ORDER, STAGE_SPECS, STAGES, shard_rows_for

FORMATS = ("czeng16", "czeng20", "moses", "tsv", "parquet", "jsonl", "shards")
RECORD_FORMATS = ("parquet", "jsonl")   # inputs whose records name their fields (read.columns maps names only)


TSV_FIELDS = ("cs", "ref", "bt", "bt_score", "id", "corpus", "src_lang")   # what read.columns may map
# the flag settings of a field whose flag takes its text as given (a path, a comma list the loader splits): no type of
# its own, one value, and no default in the help (the help says it)
TEXT = {"type": None, "nargs": None, "show_default": False}
SWITCH = {"action": "store_true"}


def column_map(text: str) -> dict[str, int | str]:
    """`--columns FIELD=COLUMN,...` -> read.columns: a COLUMN of digits is a 0-based number, any other a header
    column name."""
    try:
        pairs = [(k.strip(), v.strip()) for k, v in (part.split("=") for part in text.split(","))]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expects FIELD=NUMBER or FIELD=NAME pairs, e.g. cs=0,ref=1 or "
                                         f"cs=source,ref=ref; got {text!r}") from None
    return {k: int(v) if v.lstrip("-").isdigit() else v for k, v in pairs}


@dataclass
class ReadConfig:
    """How bitext is read. `columns` maps field -> column for `tsv` (default: source TAB reference): a 0-based
    column number, or a column name of the file's header line. `cs` and `ref` are required; `bt`, `bt_score`,
    `id`, `corpus` and `src_lang` are optional (TSV_FIELDS; transforms/io/bitext.py says what each does).
    `header`: the first line of each file is a header, never a record; named columns imply it."""
    suffixes: list[str] = setting(help="moses: SOURCE,REFERENCE file suffixes (default cs,en)", flag=TEXT,
                                  default_factory=lambda: ["cs", "en"])
    columns: dict[str, int | str] = setting(
        help="tsv: FIELD=COLUMN pairs, a 0-based number or a header column name, e.g. cs=0,ref=1 or "
             "id=id,cs=source,ref=ref,bt=bt; fields: cs, ref (required), bt, bt_score, id, corpus, src_lang",
        flag={**TEXT, "type": column_map, "metavar": "COLUMNS"}, default_factory=lambda: {"cs": 0, "ref": 1})
    header: bool = setting(False, flag=SWITCH, help="tsv: the first line of each file is a header, not a record "
                                                    "(implied when --columns names columns)")
    corpus: str | None = setting(None, flag=TEXT, help="corpus name for every row (default: from file name / CzEng "
                                                       "id)")
    max_line_bytes: int = bounded(1 << 20, 1)   # lines longer than this are rejected at read (`line_too_long`)
    strict_columns: bool = setting(False, flag=SWITCH, help="tsv: reject lines with more columns than --columns "
                                                            "names (default: keep and count them)")
    # a shard = a block of one input file; None: follows the stages (`shard_rows_for`, set by BuildConfig.validate):
    # docs/dataflow.md
    shard_rows: int | None = bounded(None, 1, help=(
        "input records per shard (a worker holds one shard in memory; default: 2000 when a stage with a model runs, "
        "else 20000)"))

    def validate(self) -> None:
        check_ranges(self, "read.")
        unknown = [name for name in self.columns if name not in TSV_FIELDS]
        if unknown:
            raise ConfigError(f"read.columns: unknown field {unknown[0]!r}{near_matches(unknown[0], TSV_FIELDS)}; "
                              f"fields: {', '.join(TSV_FIELDS)}")
        for name, column in self.columns.items():
            if isinstance(column, bool) or not (isinstance(column, int) and column >= 0
                                                or isinstance(column, str) and column.strip()):
                raise ConfigError(f"read.columns.{name} must be a 0-based column number or a header column name, "
                                  f"not {column!r}")

    def has_header(self) -> bool:
        """Whether each input file's first line is a header: `header`, or any column given by name."""
        return self.header or any(isinstance(column, str) for column in self.columns.values())

    def record_fields(self) -> tuple[dict[str, str], set[str]]:
        """For inputs whose records name their fields (RECORD_FORMATS): (field -> the name it is read from, the
        fields named explicitly). Every field of TSV_FIELDS is read under its own name unless `columns` names
        another; the tsv default (cs=0, ref=1) counts as naming none. ConfigError for a column number."""
        named = {} if self.columns == ReadConfig().columns else dict(self.columns)
        numbered = {name: column for name, column in named.items() if not isinstance(column, str)}
        if numbered:
            raise ConfigError(f"read.columns: Parquet and JSONL fields are named, not numbered: {numbered}")
        return {**{name: name for name in TSV_FIELDS}, **named}, set(named)


@dataclass
class CleanConfig:
    normalize_punctuation: bool = True   # sacremoses MosesPunctNormalizer (per language)
    min_tokens: int = bounded(1, 0)
    max_tokens: int = bounded(200, 0)
    max_length_ratio: float = bounded(5.0, 0)   # max(len_cs, len_ref) / min(...), in tokens (0 disables)
    max_chars: int = bounded(2000, 1)
    batch_rows: int = bounded(1024, 1)   # rows per stage batch

    def validate(self) -> None:
        check_ranges(self, "clean.")
        if self.max_tokens < self.min_tokens:
            raise ConfigError(f"clean.max_tokens ({self.max_tokens}) must be >= clean.min_tokens ({self.min_tokens})")
        if self.max_length_ratio and self.max_length_ratio < 1:
            raise ConfigError("clean.max_length_ratio must be >= 1 (or 0 to disable)")


@dataclass
class XsimConfig:
    """The xsim stage: cos(cs, ref) in a bilingual encoder's space, before translate. `min_xsim`: rows below it
    become rejects `xsim/low_xsim` (None: none rejected)."""
    encoder: str = "assets/encoder-xling"   # bilingual encoder (Czech and English in one space)
    min_xsim: float | None = bounded(None, -1, 1)   # a cosine; None: off
    batch_size: int = bounded(1024, 1)   # rows per stage batch and sentences per encoder call

    def validate(self) -> None:
        check_ranges(self, "xsim.")


@dataclass
class TranslateConfig:
    backend: str = choice("ctranslate2", NMT_BACKENDS)   # transformers: Hugging Face MarianMT/M2M-100/NLLB
    model: str = "assets/nmt-cs-en"
    beam: int = bounded(12, 1)
    nbest: int = bounded(0, 0)           # > 0 also writes bt_nbest with this many hypotheses
    batch_tokens: int = bounded(2048, 1)  # rows x longest source per model call (best measured on CPU; raise on GPU)
    max_source_tokens: int = bounded(250, 1)
    device: str = choice("auto", DEVICES)   # auto: CUDA when available
    threads: int = bounded(0, 0)         # CPU threads (0 = backend default)
    group_size: int = bounded(1024, 1)   # rows per stage batch: dedup and length bucketing happen inside it
    share_across_processes: bool | None = None   # one model per machine (None = only on CUDA)
    accelerator: str = ""                # Beam accelerator resource hint (Dataflow GPU), see docs/translate.md
    use_vmap: bool = False               # ctranslate2: decode over the model's vocabulary map (ct2/vmap.txt,
                                         # written by convert-nmt); off: the map can change the best hypothesis
    compute_type: str = choice("auto", CT2_COMPUTE_TYPES)   # ctranslate2 compute type; auto: int8 on CPU for int8
                                         # weights, float16 on CUDA (paranmt.models.device.ct2_compute_type);
                                         # int8_float16: GPU opt-in

    def validate(self) -> None:
        """Settings only; the model itself is checked by the stage factory (paranmt.transforms.translate)."""
        check_ranges(self, "translate.")
        if self.nbest > self.beam:
            raise ConfigError(f"translate.nbest must be between 0 and beam ({self.beam}), not {self.nbest}")


@dataclass
class ScoreConfig:
    encoder: str = "assets/encoder-sp"   # English paraphrase encoder (para_score)
    batch_size: int = bounded(512, 1)    # rows per stage batch and sentences per encoder call

    def validate(self) -> None:
        check_ranges(self, "score.")


@dataclass
class ParseConfig:
    model_dir: str = "assets/parser-en"
    max_tokens: int = bounded(100, 1)    # longer sentences (PTB tokens) get null parses (reason counted)
    batch_size: int = bounded(64, 1)     # rows per stage batch and sentences per stanza call
    device: str = choice("auto", DEVICES)   # auto: CUDA when available
    threads: int = bounded(1, 0)         # torch threads per worker process on CPU (0 = torch's default, one per
                                         # core); 1: the worker processes are the parallelism (issue 25's measure)
    cache_size: int = bounded(100_000, 0)   # per-worker LRU cache of parsed sentences (0 = batch dedup only)
    only_if: str | None = None           # parse only rows satisfying this condition over score columns, e.g.
                                         # `para_score >= 0.5` (schemas/row_condition.py); the others keep null
                                         # parses with parse_skipped = `only_if`; None: parse every row

    def validate(self) -> None:
        check_ranges(self, "parse.")
        if self.only_if is not None:
            self.condition()

    def condition(self):
        """`only_if` parsed (a callable row -> bool), None when unset; ConfigError naming the key when it is not a
        condition."""
        from paranmt.schemas.row_condition import ConditionError, parse_condition
        if self.only_if is None:
            return None
        try:
            return parse_condition(self.only_if)
        except ConditionError as error:
            raise ConfigError(f"parse.only_if {self.only_if!r}: {error}") from None


@dataclass
class WorkersConfig:
    """Supervision of the worker processes of a local run (docs/reliability.md): a build stops with one line when
    no stage batch finished anywhere for `stall_seconds`, or when a worker's resident memory goes over
    `memory_limit_mb` (checked by the launcher every second and by the worker after each batch). The default stall
    limit is 30 minutes, several times the slowest batch measured on a CPU (a translate group of 1,024 rows at
    beam 12 with a large NMT model); a model loading counts as activity."""
    stall_seconds: int = bounded(1800, 0)   # 0 disables the stall check
    # per worker process; 0: no limit (the kernel's OOM killer decides)
    memory_limit_mb: int = bounded(0, 0, flag={"name": "--worker-memory-mb", "metavar": "MB", "show_default": False},
                                   help="stop the build (one line naming the setting to lower) when a worker "
                                        "process's memory goes over this (workers.memory_limit_mb; default: no limit)")

    def validate(self) -> None:
        check_ranges(self, "workers.")


@dataclass
class BuildConfig(Config):
    """`paranmt build`. `source_lang` / `target_lang`: the language pair of the bitext (ISO 639-1), used by clean
    (punctuation normalization) and translate (the model family's language tokens, docs/translate.md)."""
    # fields that say where and how a run goes, not what its shards hold: outside the config hash, and a --resume
    # may change them
    RUN_FIELDS: ClassVar[tuple[str, ...]] = ("input", "output", "resume", "allow_changed_input", "workers")
    RENAMED: ClassVar[dict[str, str]] = {"clean.min_xsim": "xsim.min_xsim", "translate.source_lang": "source_lang",
                                         "translate.target_lang": "target_lang"}

    input: str = setting("", flag=TEXT, help="input glob(s), comma-separated; for --format moses: PREFIX glob(s); "
                                             "for --format shards: a build output DIR")
    format: str = choice("tsv", FORMATS, flag={"type": None}, help="what --input holds")
    output: str = setting("", flag=TEXT, help="output directory (local or any Beam filesystem, e.g. gs://)")
    stages: list[str] = setting(help=f"comma-separated subset of {','.join(STAGE_ORDER)}", flag=TEXT,
                                default_factory=lambda: list(STAGE_ORDER))   # the whole pipeline by default
    resume: bool = setting(False, flag=SWITCH, help="finish the build in --output: skip the shards already complete "
                                                    "(refused when there is no build to finish)")
    allow_changed_input: bool = setting(False, flag=SWITCH, help="--resume even though an input file changed since "
                                                                 "the run started (refused otherwise)")
    source_lang: str = setting("cs", help="language of the bitext's source side, `cs` (ISO 639-1; clean's punctuation "
                                          "normalization, translate's language tokens)")
    target_lang: str = setting("en", help="language of the reference side, `ref`, and of the translations (ISO 639-1)")
    read: ReadConfig = field(default_factory=ReadConfig)
    clean: CleanConfig = field(default_factory=CleanConfig)
    xsim: XsimConfig = field(default_factory=XsimConfig)
    translate: TranslateConfig = field(default_factory=TranslateConfig)
    score: ScoreConfig = field(default_factory=ScoreConfig)
    parse: ParseConfig = field(default_factory=ParseConfig)
    workers: WorkersConfig = field(default_factory=WorkersConfig)

    def validate(self) -> "BuildConfig":
        """Check every section (ConfigError naming the key); a `read.shard_rows` left unset becomes
        `shard_rows_for(stages)`, so the resolved size is what the hash, config.yaml and the readers see."""
        check_ranges(self)
        if not self.input:
            raise ConfigError("no input: give --input GLOB (or `input:` in the config)")
        if not self.output:
            raise ConfigError("no output: give --output DIR (or `output:` in the config)")
        for stage in self.stages:
            if stage not in STAGE_ORDER:
                raise ConfigError(f"unknown stage {stage!r}{near_matches(stage, STAGE_ORDER)}; stages are "
                                  f"{', '.join(STAGE_ORDER)}")
        if self.format != "shards" and "read" not in self.stages:
            raise ConfigError("a bitext input needs the `read` stage; to run stages over shards use --format shards")
        order = [s for s in STAGE_ORDER if s in self.stages]
        if order != list(self.stages):
            raise ConfigError(f"stages must be in pipeline order {', '.join(STAGE_ORDER)}; got {self.stages}")
        if self.format == "moses" and len(self.read.suffixes) != 2:
            raise ConfigError("--suffixes needs exactly two suffixes: SOURCE,REFERENCE (e.g. cs,en)")
        if self.format == "tsv" and not {"cs", "ref"} <= set(self.read.columns):
            raise ConfigError(f"read.columns must map `cs` and `ref` to columns (and may map "
                              f"{', '.join(TSV_FIELDS[2:])}), not {self.read.columns}")
        if self.format != "tsv" and self.read.header:
            raise ConfigError(f"read.header (--header) is for --format tsv, not {self.format}")
        if self.format in RECORD_FORMATS:
            self.read.record_fields()
        for spec in STAGES:
            getattr(self, spec.section).validate()
        if self.read.shard_rows is None:      # not given: the shard size follows the stages (written as resolved)
            self.read.shard_rows = shard_rows_for(self.stages)
        if self.xsim.min_xsim is not None and "xsim" not in self.stages:
            raise ConfigError("xsim.min_xsim needs the xsim stage (add xsim to --stages, after clean)")
        self.check_only_if_columns()
        self.workers.validate()
        return self

    def check_only_if_columns(self) -> None:
        """A bitext build's `parse.only_if` may only read columns a stage before parse fills: a column nothing
        computes is null on every row, and a null fails every comparison, so nothing would be parsed. (Shards
        carry the columns of the build that wrote them: not checked here.)"""
        if self.format == "shards" or "parse" not in self.stages or self.parse.only_if is None:
            return
        filled = {column for spec in STAGES if spec.name in self.stages for column in spec.fills}
        for column in sorted(self.parse.condition().columns - filled):
            producer = next((spec.name for spec in STAGES if column in spec.fills), None)
            fix = (f"the {producer} stage fills it: add {producer} to --stages" if producer else
                   "no stage of a build fills it: condition on it when parsing shards that have it")
            raise ConfigError(f"parse.only_if reads {column}, which no stage of this build fills ({fix}); "
                              "every row would be left unparsed")

    def section(self, stage: str):
        """The config section of `stage`."""
        return getattr(self, STAGE_SPECS[stage].section)

    def model_paths(self) -> dict[str, str]:
        """The model location (asset_path resolved) of every enabled stage that has a model."""
        return {spec.name: asset_path(getattr(getattr(self, spec.section), spec.model_field))
                for spec in STAGES if spec.model_field and spec.name in self.stages}


def load_build_config(path: str | None = None, overrides: dict | None = None) -> BuildConfig:
    """Defaults <- YAML file (yaml.safe_load) <- overrides (flags; None values ignored; dotted keys allowed)."""
    return load_config(BuildConfig, path, overrides)
