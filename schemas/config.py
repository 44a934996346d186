"""Typed configuration of `paranmt build`: one dataclass per section, loaded from YAML, overridable by flags,
validated before any work, written (resolved, with its hash) next to the outputs.
"""
from __future__ import annotations

import dataclasses
import difflib
import hashlib
import json
import logging
import math
import os
import types
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

import yaml

FORMATS = ("czeng16", "czeng20", "moses", "tsv", "parquet", "jsonl", "shards")
RECORD_FORMATS = ("parquet", "jsonl")   # inputs whose records name their fields (read.columns maps names only)
PROJECT_ROOT = Path(__file__).resolve().parents[1]
log = logging.getLogger(__name__)


class ConfigError(ValueError):
    """A configuration problem found before any work starts (one clear message)."""


class PipelineStopped(RuntimeError):
    """A running pipeline failed (a worker's exception, a full disk); the message is the one line the CLI prints
    (exit 1): what stopped, how far the run got, what to do (pipelines/runtime/watchdog.py)."""


def is_remote(path: str) -> bool:
    """True for a URL of a non-local Beam filesystem (`scheme://...` other than `file://`)."""
    scheme, sep, _ = path.partition("://")
    return bool(sep) and scheme.lower() != "file"


def asset_path(path: str) -> str:
    """Resolve a model path: absolute or URL paths as given; `assets/...` relative to the project if it exists
    there (so configs work from any working directory), else relative to the working directory."""
    if "://" in path or os.path.isabs(path):
        return path
    project = PROJECT_ROOT / path
    return str(project) if project.exists() else path


def make_output_dir(path: str | Path, flag: str = "--output") -> Path:
    """The local output directory `path`, created if missing; ConfigError when it is a file or cannot be
    created (a user's mistake: one line, before any work)."""
    output = Path(path)
    if output.exists() and not output.is_dir():
        raise ConfigError(f"{flag} {path} exists and is not a directory")
    try:
        output.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ConfigError(f"{flag} {path} is not writable: {error}") from None
    return output


@dataclass(frozen=True)
class StageSpec:
    """One stage of `paranmt build`. `section`: the BuildConfig attribute holding its config; `model_field`: the
    field of that section naming its model (None: no model); `factory`: `module:function` that builds the stage's
    PairStage from its config section (validating the model: ConfigError), imported only when the stage runs."""
    name: str
    section: str
    model_field: str | None = None
    factory: str | None = None
    batch_field: str | None = None     # field of the section holding the rows per batch
    also: tuple[str, ...] = ()         # top-level BuildConfig keys the factory also gets, as keywords
    fills: tuple[str, ...] = ()        # the numeric columns (schemas/records.py) the stage computes


# The only place a stage is registered, in pipeline order.
STAGES = (
    StageSpec("read", "read"),
    StageSpec("clean", "clean", None, "paranmt.transforms.stage:clean_stage", "batch_rows",
              also=("source_lang", "target_lang"), fills=("ref_len",)),
    StageSpec("xsim", "xsim", "encoder", "paranmt.transforms.score:xsim_stage", "batch_size",
              also=("source_lang",), fills=("xsim",)),
    StageSpec("translate", "translate", "model", "paranmt.transforms.translate:translate_stage", "group_size",
              also=("source_lang", "target_lang"), fills=("bt_score", "bt_len")),
    StageSpec("score", "score", "encoder", "paranmt.transforms.score:score_stage", "batch_size",
              fills=("trigram_overlap", "para_score", "simile", "bt_repetition", "unigram_f1", "kendall_tau",
                     "cs_lang_conf", "ref_lang_conf", "bt_lang_conf")),
    StageSpec("parse", "parse", "model_dir", "paranmt.transforms.parse:parse_stage", "batch_size",
              also=("stages",)),
)
STAGE_ORDER = tuple(spec.name for spec in STAGES)
STAGE_SPECS = {spec.name: spec for spec in STAGES}


def bounded(default, low: float | None = None, high: float | None = None, **kwargs) -> Any:
    """A dataclass field with `default` whose value must lie in [low, high] (None: open); checked, naming the key,
    by `check_ranges` (every config's validate())."""
    return field(default=default, metadata={"range": (low, high)}, **kwargs)


class Config:
    """Base of every typed config (build, filter, train, NMT recipe, parser recipe): `to_dict()` and `hash()`
    exist here once. `RUN_FIELDS`: where a run reads and writes, left out of the hash (the same settings on other
    data hash alike); `RENAMED`: deprecated dotted key -> its new key (load_config still reads the old one)."""
    RUN_FIELDS: ClassVar[tuple[str, ...]] = ()
    RENAMED: ClassVar[dict[str, str]] = {}

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    def hash(self) -> str:
        """sha256 of the resolved config minus the RUN_FIELDS (sorted-key JSON), 16 hex digits."""
        data = {k: v for k, v in self.to_dict().items() if k not in self.RUN_FIELDS}
        return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]

    def differences(self, written: dict) -> list[str]:
        """`key: old -> new` for each dotted key outside RUN_FIELDS whose value differs between the settings an
        earlier run wrote (`written`, e.g. its config.yaml: keys since renamed (RENAMED) moved to their new names
        and values typed, so an output written before a key moved still compares; as written when it no longer
        loads; its `config_hash` ignored) and this config."""
        settings = {k: v for k, v in written.items() if k != "config_hash"}
        try:
            settings = load_config(type(self), mapping=settings).to_dict()
        except ConfigError:
            pass
        old, new = ({k: v for k, v in _flat(data).items() if k.split(".")[0] not in self.RUN_FIELDS}
                    for data in (settings, self.to_dict()))
        return [f"{key}: {old.get(key)!r} -> {new.get(key)!r}" for key in sorted(set(old) | set(new))
                if old.get(key) != new.get(key)]


def _flat(data, prefix: str = "") -> dict:
    """A nested mapping as {dotted key: leaf value}."""
    if not isinstance(data, dict):
        return {prefix.rstrip("."): data}
    return {k: v for key, value in data.items() for k, v in _flat(value, f"{prefix}{key}.").items()}


def check_choice(key: str, value, choices) -> None:
    """ConfigError naming `key` when `value` is not one of `choices` (with the near matches)."""
    if value not in choices:
        raise ConfigError(f"{key} must be one of {', '.join(map(str, choices))}, not {value!r}"
                          + near_matches(str(value), map(str, choices)))


# The choices of the device settings, for every config and flag that has them (resolved by models/device.py).
DEVICES = ("auto", "cpu", "cuda")                 # device: auto = CUDA when torch sees it, else CPU
FP16_CHOICES = ("auto", "on", "off")              # fp16 training: auto = on CUDA (models/device.half_precision)
WEIGHTS_DTYPES = ("float32", "float16")           # weights_dtype: of a trained model's saved weights
CT2_WEIGHT_TYPES = ("int8", "int8_float16", "int8_float32", "int8_bfloat16", "int16", "float16", "bfloat16",
                    "float32")                    # CTranslate2's types: convert-nmt --quantization, compute types
CT2_COMPUTE_TYPES = ("auto", "default") + CT2_WEIGHT_TYPES   # auto: paranmt.models.device.ct2_compute_type


SHARD_ROWS = 20_000              # rows per shard of a build without model stages (read, clean)
MODEL_STAGE_SHARD_ROWS = 2_000   # rows per shard when a stage with a model runs (xsim, translate, score, parse)


def shard_rows_for(stages: list[str]) -> int:
    """The default shard size of a build running `stages`: MODEL_STAGE_SHARD_ROWS when any of them loads a model,
    else SHARD_ROWS. Each worker process holds its models, one shard of rows with every column and its caches; with
    models loaded a 20,000-row shard per worker made an all-stages build's peak memory grow +42% from 4k to 64k
    pairs (two workers busy only from the third shard on), 2,000-row shards kept it within +9%; without models the
    rows are all there is and bigger shards mean fewer files and less per-shard work (benchmarks/RESULTS.md, "Flat
    memory with all stages (issue 25)")."""
    return MODEL_STAGE_SHARD_ROWS if any(STAGE_SPECS[s].model_field for s in stages if s in STAGE_SPECS) \
        else SHARD_ROWS


TSV_FIELDS = ("cs", "ref", "bt", "bt_score", "id", "corpus", "src_lang")   # what read.columns may map


@dataclass
class ReadConfig:
    """How bitext is read. `columns` maps field -> column for `tsv` (default: source TAB reference): a 0-based
    column number, or a column name of the file's header line. `cs` and `ref` are required; `bt`, `bt_score`,
    `id`, `corpus` and `src_lang` are optional (TSV_FIELDS; transforms/io/bitext.py says what each does).
    `header`: the first line of each file is a header, never a record; named columns imply it."""
    suffixes: list[str] = field(default_factory=lambda: ["cs", "en"])
    columns: dict[str, int | str] = field(default_factory=lambda: {"cs": 0, "ref": 1})
    header: bool = False                 # tsv: skip each file's first line (implied by named columns)
    corpus: str | None = None            # corpus name; default: derived from each file name
    max_line_bytes: int = bounded(1 << 20, 1)   # lines longer than this are rejected at read (`line_too_long`)
    strict_columns: bool = False         # tsv: reject lines with more columns than `columns` names (`extra_columns`)
    shard_rows: int | None = bounded(None, 1)   # input records per output shard (a shard = a block of one input
                                         # file; a worker holds one shard in memory); None: follows the stages
                                         # (`shard_rows_for`, set by BuildConfig.validate): docs/dataflow.md

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
    encoder: str = "assets/encoder-sp"   # bilingual encoder (Czech and English in one space)
    min_xsim: float | None = bounded(None, -1, 1)   # a cosine; None: off
    batch_size: int = bounded(1024, 1)   # rows per stage batch and sentences per encoder call

    def validate(self) -> None:
        check_ranges(self, "xsim.")


@dataclass
class TranslateConfig:
    backend: str = "ctranslate2"         # ctranslate2 | fairseq | transformers (Hugging Face MarianMT/M2M-100/NLLB)
    model: str = "assets/nmt-cs-en"
    beam: int = bounded(12, 1)
    nbest: int = bounded(0, 0)           # > 0 also writes bt_nbest with this many hypotheses
    batch_tokens: int = bounded(2048, 1)  # rows x longest source per model call (best measured on CPU; raise on GPU)
    max_source_tokens: int = bounded(250, 1)
    device: str = "auto"                 # auto | cpu | cuda
    threads: int = bounded(0, 0)         # CPU threads (0 = backend default)
    group_size: int = bounded(1024, 1)   # rows per stage batch: dedup and length bucketing happen inside it
    share_across_processes: bool | None = None   # one model per machine (None = only on CUDA)
    accelerator: str = ""                # Beam accelerator resource hint (Dataflow GPU), see docs/translate.md
    use_vmap: bool = False               # ctranslate2: decode over the model's vocabulary map (ct2/vmap.txt,
                                         # written by convert-nmt); off: the map can change the best hypothesis
    compute_type: str = "auto"           # ctranslate2 compute type; auto: int8 on CPU for int8 weights, float16 on
                                         # CUDA (paranmt.models.device.ct2_compute_type); int8_float16: GPU opt-in

    def validate(self) -> None:
        """Settings only; the model itself is checked by the stage factory (paranmt.transforms.translate)."""
        check_ranges(self, "translate.")
        if self.nbest > self.beam:
            raise ConfigError(f"translate.nbest must be between 0 and beam ({self.beam}), not {self.nbest}")
        check_choice("translate.device", self.device, DEVICES)
        check_choice("translate.compute_type", self.compute_type, CT2_COMPUTE_TYPES)


@dataclass
class ScoreConfig:
    encoder: str = "assets/encoder-sp"
    batch_size: int = bounded(512, 1)    # rows per stage batch and sentences per encoder call

    def validate(self) -> None:
        check_ranges(self, "score.")


@dataclass
class ParseConfig:
    model_dir: str = "assets/parser-en"
    max_tokens: int = bounded(100, 1)    # longer sentences (PTB tokens) get null parses (reason counted)
    batch_size: int = bounded(64, 1)     # rows per stage batch and sentences per stanza call
    device: str = "auto"                 # auto | cpu | cuda
    threads: int = bounded(1, 0)         # torch threads per worker process on CPU (0 = torch's default, one per
                                         # core); 1: the worker processes are the parallelism (issue 25's measure)
    cache_size: int = bounded(100_000, 0)   # per-worker LRU cache of parsed sentences (0 = batch dedup only)
    only_if: str | None = None           # parse only rows satisfying this condition over score columns, e.g.
                                         # `para_score >= 0.5` (schemas/row_condition.py); the others keep null
                                         # parses with parse_skipped = `only_if`; None: parse every row

    def validate(self) -> None:
        check_ranges(self, "parse.")
        check_choice("parse.device", self.device, DEVICES)
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
    memory_limit_mb: int = bounded(0, 0)    # per worker process; 0: no limit (the kernel's OOM killer decides)

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

    input: str = ""
    format: str = "tsv"
    output: str = ""
    stages: list[str] = field(default_factory=lambda: list(STAGE_ORDER))   # the whole pipeline by default
    resume: bool = False
    allow_changed_input: bool = False    # --resume even though an input file changed since the run started
    source_lang: str = "cs"
    target_lang: str = "en"
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
        if not self.input:
            raise ConfigError("no input: give --input GLOB (or `input:` in the config)")
        if not self.output:
            raise ConfigError("no output: give --output DIR (or `output:` in the config)")
        check_choice("format", self.format, FORMATS)
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


class CommandLineValue(str):
    """The text of a `--set KEY=VALUE` value. The loader types it by the field it sets: a text field takes it as
    written (`--set source_lang=no` stays "no"; `null` or `~` gives None where None is allowed), any other
    field its YAML value (`100`, `0.5`, `true`, `[a, b]`), converted and checked like a YAML file's value."""


def parse_assignments(items: list[str] | None, flag: str = "--set") -> dict[str, CommandLineValue]:
    """`KEY=VALUE` strings (repeated `--set` flags) -> {dotted key: CommandLineValue}; later ones win. The
    project's only parser of --set."""
    assignments = {}
    for item in items or []:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ConfigError(f"{flag} expects KEY=VALUE with a dotted key, e.g. {flag} clean.max_tokens=100; "
                              f"got {item!r}")
        assignments[key.strip()] = CommandLineValue(value.strip())
    return assignments


def near_matches(name: str, known, prefix: str = "") -> str:
    """` (did you mean 'x'?)` for the (at most two) known names closest to a mistyped `name`, each written with
    `prefix` (e.g. the section: `clean.`), else ''."""
    close = difflib.get_close_matches(name, list(known), n=2, cutoff=0.6)
    return f" (did you mean {' or '.join(repr(prefix + c) for c in close)}?)" if close else ""


def _type_name(kind) -> str:
    names = {bool: "true or false", int: "an integer", float: "a number", str: "text"}
    if typing.get_origin(kind) in (types.UnionType, typing.Union):
        return " or ".join(_type_name(k) if k is not type(None) else "null" for k in typing.get_args(kind))
    origin = typing.get_origin(kind) or kind
    return names.get(kind) or {list: "a list", dict: "a mapping"}.get(origin, getattr(kind, "__name__", str(kind)))


def typed_value(value, kind, key: str):
    """`value` (from YAML, a flag or --set) as the annotated type `kind` of config key `key`, or ConfigError naming
    the key. Integers accept integral numbers (`2e4` -> 20000); numbers accept integers and numeric text (YAML
    reads `1e-3` as text); text accepts numbers (not true/false: quote them); a list of text accepts
    `a,b` (comma-separated); None only where the annotation allows it."""
    optional = typing.get_origin(kind) in (types.UnionType, typing.Union)
    members = [k for k in typing.get_args(kind) if k is not type(None)] if optional else [kind]
    if isinstance(value, CommandLineValue):
        if str in members and value not in ("null", "~"):
            return str(value)
        try:
            value = yaml.safe_load(value) if value else None
        except yaml.YAMLError:
            value = str(value)
    if value is None:
        if optional or kind is typing.Any:
            return None
        raise ConfigError(f"{key} must be {_type_name(kind)}, not null")
    if len(members) != 1:
        return value
    target, origin = members[0], typing.get_origin(members[0]) or members[0]

    def wrong() -> ConfigError:
        return ConfigError(f"{key} must be {_type_name(kind)}, not {value!r}"
                           + (" (quote it to mean the text)" if target is str and isinstance(value, bool) else ""))

    if target is bool:
        if isinstance(value, bool):
            return value
        raise wrong()
    if target in (int, float):
        number = value
        if isinstance(value, str):
            try:
                number = float(value.strip().replace("_", ""))
            except ValueError:
                raise wrong() from None
        if isinstance(number, bool) or not isinstance(number, (int, float)) or math.isnan(number):
            raise wrong()
        if target is float:
            return float(number)
        if isinstance(number, float) and not number.is_integer():
            raise wrong()
        return int(number)
    if target is str:
        if isinstance(value, str):
            return value
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return str(value)
        raise wrong()
    if origin is list:
        if isinstance(value, str) and typing.get_args(target) in ((str,), ()):
            value = [part.strip() for part in value.split(",") if part.strip()]
        if not isinstance(value, list):
            raise wrong()
        (item,) = typing.get_args(target) or (typing.Any,)
        return [typed_value(v, item, f"{key}[{i}]") for i, v in enumerate(value)]
    if origin is dict:
        if not isinstance(value, dict):
            raise wrong()
        key_type, item = typing.get_args(target) or (typing.Any, typing.Any)
        return {typed_value(k, key_type, key): typed_value(v, item, f"{key}.{k}") for k, v in value.items()}
    return value


def _field_types(target) -> dict:
    """Field name -> resolved annotation of the dataclass `target`'s fields."""
    hints = typing.get_type_hints(type(target))
    return {spec.name: hints[spec.name] for spec in dataclasses.fields(target)}


def _merge(target, data: dict, where: str, what: str) -> None:
    """Set `data`'s keys on the dataclass `target` (nested sections recursively), each value typed and checked by
    the field's annotation (`typed_value`); unknown keys are ConfigErrors naming the near matches."""
    kinds = _field_types(target)
    for key, value in data.items():
        if key not in kinds:
            raise ConfigError(f"unknown {what} key {where + str(key)!r}{near_matches(str(key), kinds, where)}; "
                              f"{where.rstrip('.') + ' keys' if where else 'top-level keys'}: "
                              f"{', '.join(sorted(kinds))}")
        current = getattr(target, key)
        if dataclasses.is_dataclass(current):
            if isinstance(value, CommandLineValue):
                value = typed_value(value, dict, where + key)
            if not isinstance(value, dict):
                raise ConfigError(f"{what} key {where + key!r} is a section: it must be a mapping of its keys")
            _merge(current, value, f"{where}{key}.", what)
        else:
            setattr(target, key, typed_value(value, kinds[key], where + key))


def check_ranges(config, where: str = "") -> None:
    """ConfigError naming the key for every field of the dataclass `config` (and of its sections) whose value lies
    outside the range its field declares (`bounded`)."""
    for spec in dataclasses.fields(config):
        value = getattr(config, spec.name)
        if dataclasses.is_dataclass(value):
            check_ranges(value, f"{where}{spec.name}.")
            continue
        low, high = spec.metadata.get("range", (None, None))
        if value is None or isinstance(value, bool) or not isinstance(value, (int, float)):
            continue
        if (low is not None and value < low) or (high is not None and value > high):
            bounds = (f"between {low} and {high}" if low is not None and high is not None
                      else f">= {low}" if low is not None else f"<= {high}")
            raise ConfigError(f"{where}{spec.name} must be {bounds}, not {value!r}")


def read_yaml_mapping(path: str, what: str = "config") -> dict:
    """A YAML file's top-level mapping, loaded with yaml.safe_load; ConfigError for anything else."""
    try:
        data = yaml.safe_load(Path(path).read_text(encoding="utf-8")) or {}
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as error:
        raise ConfigError(f"cannot read {what} {path}: {' '.join(str(error).split())}") from None
    if not isinstance(data, dict):
        raise ConfigError(f"{what} {path} must be a YAML mapping")
    return data


def renamed_keys(data: dict, renamed: dict[str, str], note=None) -> dict:
    """`data` (a nested mapping) with each deprecated dotted key of `renamed` moved to its new key (the new key
    wins when both are given); `note(old, new)` is called for each one found."""
    data = {k: dict(v) if isinstance(v, dict) else v for k, v in data.items()}
    for old, new in renamed.items():
        *old_parents, old_leaf = old.split(".")
        node = data
        for parent in old_parents:
            node = node.get(parent) if isinstance(node, dict) else None
        if not isinstance(node, dict) or old_leaf not in node:
            continue
        value = node.pop(old_leaf)
        if note:
            note(old, new)
        *new_parents, new_leaf = new.split(".")
        target = data
        for parent in new_parents:
            target = target.setdefault(parent, {})
        target.setdefault(new_leaf, value)
    return data


def load_config(cls, path: str | None = None, overrides: dict | None = None, what: str = "config",
                mapping: dict | None = None):
    """`cls()` defaults <- YAML file (or `mapping`, e.g. a config an earlier run wrote) <- overrides, every value
    typed and checked by its field's annotation (ranges and cross-field rules are `config.validate()`'s, the
    caller's). Overrides are flags and --set values: None values are ignored and dotted keys (`translate.beam`,
    `train.lr`) reach nested dataclasses and dict fields. Unknown keys and sections are errors naming the near
    matches; keys a config class renamed (`cls.RENAMED`) still work, with a deprecation note for the user's
    YAML and flags. The project's only YAML config loader."""
    config = cls()
    renamed = getattr(cls, "RENAMED", {})

    def note(old: str, new: str) -> None:
        log.warning("%s key %s is deprecated: it is now %s (the old key still works)", what, old, new)

    if path:
        mapping = renamed_keys(read_yaml_mapping(path, what), renamed, note)
    if mapping:
        _merge(config, renamed_keys(mapping, renamed), "", what)
    for key, value in (overrides or {}).items():
        if value is None:
            continue
        if key in renamed:
            note(key, renamed[key])
            key = renamed[key]
        *parents, leaf = key.split(".")
        node = config
        for depth, parent in enumerate(parents):
            if isinstance(node, dict):
                node = node.setdefault(parent, {})
                continue
            kinds = _field_types(node)
            if parent not in kinds or not dataclasses.is_dataclass(getattr(node, parent)) and not isinstance(
                    getattr(node, parent), dict):
                where = ".".join(parents[:depth + 1])
                sections = [name for name in kinds if dataclasses.is_dataclass(getattr(node, name))
                            or isinstance(getattr(node, name), dict)]
                raise ConfigError(f"unknown {what} section {where!r} in {key!r}{near_matches(parent, sections)}; "
                                  f"sections: {', '.join(sorted(sections)) or 'none'}")
            node = getattr(node, parent)
        if isinstance(node, dict):
            node[leaf] = yaml.safe_load(value) if isinstance(value, CommandLineValue) and value else value
        else:
            _merge(node, {leaf: value}, ".".join(parents) + "." if parents else "", what)
    return config


def load_build_config(path: str | None = None, overrides: dict | None = None) -> BuildConfig:
    """Defaults <- YAML file (yaml.safe_load) <- overrides (flags; None values ignored; dotted keys allowed)."""
    return load_config(BuildConfig, path, overrides)
