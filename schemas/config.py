"""Typed configuration of `paranmt build`: one dataclass per section, loaded from YAML, overridable by flags,
validated before any work, written (resolved, with its hash) next to the outputs.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

FORMATS = ("czeng16", "czeng20", "moses", "tsv", "shards")
PROJECT_ROOT = Path(__file__).resolve().parents[1]


class ConfigError(ValueError):
    """A configuration problem found before any work starts (one clear message)."""


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
    also: tuple[str, ...] = ()         # dotted keys of other sections the factory also gets (keyword = leaf name)


# The only place a stage is registered, in pipeline order.
STAGES = (
    StageSpec("read", "read"),
    StageSpec("clean", "clean", None, "paranmt.transforms.stage:clean_stage", "batch_rows"),
    StageSpec("xsim", "xsim", "encoder", "paranmt.transforms.score:xsim_stage", "batch_size",
              also=("clean.min_xsim",)),
    StageSpec("translate", "translate", "model", "paranmt.transforms.translate:translate_stage", "group_size"),
    StageSpec("score", "score", "encoder", "paranmt.transforms.score:score_stage", "batch_size"),
    StageSpec("parse", "parse", "model_dir", "paranmt.transforms.parse:parse_stage", "batch_size"),
)
STAGE_ORDER = tuple(spec.name for spec in STAGES)
STAGE_SPECS = {spec.name: spec for spec in STAGES}


def _at_least(section: str, config, minimum: int, *names: str) -> None:
    for name in names:
        if getattr(config, name) < minimum:
            raise ConfigError(f"{section}.{name} must be >= {minimum}")


@dataclass
class ReadConfig:
    """How bitext is read. `columns` maps field -> 0-based column for `tsv` (default: source TAB reference)."""
    suffixes: list[str] = field(default_factory=lambda: ["cs", "en"])
    columns: dict[str, int] = field(default_factory=lambda: {"cs": 0, "ref": 1})
    corpus: str | None = None            # corpus name; default: derived from each file name
    max_line_bytes: int = 1 << 20        # lines longer than this are rejected at read (`line_too_long`)
    strict_columns: bool = False         # tsv: reject lines with more columns than `columns` names (`extra_columns`)
    shard_rows: int = 20_000             # input records per output shard (a shard = a block of one input file);
                                         # a worker holds one shard in memory: see docs/dataflow.md, Scale

    def validate(self) -> None:
        _at_least("read", self, 1, "shard_rows", "max_line_bytes")


@dataclass
class CleanConfig:
    normalize_punctuation: bool = True   # sacremoses MosesPunctNormalizer (per language)
    min_tokens: int = 1
    max_tokens: int = 200
    max_length_ratio: float = 5.0        # max(len_cs, len_ref) / min(...), in tokens (0 disables)
    max_chars: int = 2000
    min_xsim: float | None = None        # reject pairs with xsim < this (`low_xsim`; needs the xsim stage); None: off
    batch_rows: int = 1024               # rows per stage batch

    def validate(self) -> None:
        if self.min_xsim is not None and not -1 <= self.min_xsim <= 1:
            raise ConfigError(f"clean.min_xsim must be in [-1, 1] (a cosine) or null, not {self.min_xsim}")
        if self.min_tokens < 0 or self.max_tokens < self.min_tokens:
            raise ConfigError("clean.min_tokens / clean.max_tokens: need 0 <= min_tokens <= max_tokens")
        if self.max_length_ratio and self.max_length_ratio < 1:
            raise ConfigError("clean.max_length_ratio must be >= 1 (or 0 to disable)")
        _at_least("clean", self, 1, "batch_rows", "max_chars")


@dataclass
class XsimConfig:
    """The xsim stage: cos(cs, ref) in a bilingual encoder's space, before translate (clean.min_xsim rejects)."""
    encoder: str = "assets/encoder-sp"   # bilingual encoder (Czech and English in one space)
    batch_size: int = 1024               # rows per stage batch and sentences per encoder call

    def validate(self) -> None:
        _at_least("xsim", self, 1, "batch_size")


@dataclass
class TranslateConfig:
    backend: str = "ctranslate2"         # ctranslate2 | fairseq | transformers (Hugging Face MarianMT/M2M-100/NLLB)
    model: str = "assets/nmt-cs-en"
    source_lang: str = "cs"              # ISO 639-1 codes, mapped to the model family's tokens (docs/translate.md)
    target_lang: str = "en"
    beam: int = 12
    nbest: int = 0                       # > 0 also writes bt_nbest with this many hypotheses
    batch_tokens: int = 2048             # rows x longest source per model call (best measured on CPU; raise on GPU)
    max_source_tokens: int = 250
    device: str = "auto"                 # auto | cpu | cuda
    threads: int = 0                     # CPU threads (0 = backend default)
    group_size: int = 1024               # rows per stage batch: dedup and length bucketing happen inside it
    share_across_processes: bool | None = None   # one model per machine (None = only on CUDA)
    accelerator: str = ""                # Beam accelerator resource hint (Dataflow GPU), see docs/translate.md

    def validate(self) -> None:
        """Settings only; the model itself is checked by the stage factory (paranmt.transforms.translate)."""
        _at_least("translate", self, 1, "beam", "batch_tokens", "max_source_tokens", "group_size")
        _at_least("translate", self, 0, "threads")
        if not 0 <= self.nbest <= self.beam:
            raise ConfigError(f"translate.nbest must be between 0 and beam ({self.beam}), not {self.nbest}")
        if self.device not in ("auto", "cpu", "cuda"):
            raise ConfigError(f"translate.device must be auto, cpu or cuda, not {self.device!r}")


@dataclass
class ScoreConfig:
    encoder: str = "assets/encoder-sp"
    batch_size: int = 512

    def validate(self) -> None:
        _at_least("score", self, 1, "batch_size")


@dataclass
class ParseConfig:
    model_dir: str = "assets/parser-en"
    max_tokens: int = 100                # longer sentences (PTB tokens) get null parses (reason counted)
    batch_size: int = 64                 # rows per stage batch and sentences per stanza call
    device: str = "auto"                 # auto | cpu | cuda
    cache_size: int = 100_000            # per-worker LRU cache of parsed sentences (0 = batch dedup only)

    def validate(self) -> None:
        _at_least("parse", self, 1, "max_tokens", "batch_size")
        _at_least("parse", self, 0, "cache_size")
        if self.device not in ("auto", "cpu", "cuda"):
            raise ConfigError(f"parse.device must be auto, cpu or cuda, not {self.device!r}")


# BuildConfig fields that say where and how a run goes, not what its shards hold: outside the config hash, and a
# --resume may change them.
RUN_FIELDS = ("input", "output", "resume", "allow_changed_input", "workers")


@dataclass
class WorkersConfig:
    """Supervision of the worker processes of a local run (docs/reliability.md): a build stops with one line when
    no stage batch finished anywhere for `stall_seconds`, or when a worker's resident memory goes over
    `memory_limit_mb` (checked by the launcher every second and by the worker after each batch). The default stall
    limit is 30 minutes, several times the slowest batch measured on a CPU (a translate group of 1,024 rows at
    beam 12 with a large NMT model); a model loading counts as activity."""
    stall_seconds: int = 1800            # 0 disables the stall check
    memory_limit_mb: int = 0             # per worker process; 0: no limit (the kernel's OOM killer decides)

    def validate(self) -> None:
        _at_least("workers", self, 0, "stall_seconds", "memory_limit_mb")


@dataclass
class BuildConfig:
    input: str = ""
    format: str = "tsv"
    output: str = ""
    stages: list[str] = field(default_factory=lambda: list(STAGE_ORDER))   # the whole pipeline by default
    resume: bool = False
    allow_changed_input: bool = False    # --resume even though an input file changed since the run started
    read: ReadConfig = field(default_factory=ReadConfig)
    clean: CleanConfig = field(default_factory=CleanConfig)
    xsim: XsimConfig = field(default_factory=XsimConfig)
    translate: TranslateConfig = field(default_factory=TranslateConfig)
    score: ScoreConfig = field(default_factory=ScoreConfig)
    parse: ParseConfig = field(default_factory=ParseConfig)
    workers: WorkersConfig = field(default_factory=WorkersConfig)

    def validate(self) -> "BuildConfig":
        if not self.input:
            raise ConfigError("no input: give --input GLOB (or `input:` in the config)")
        if not self.output:
            raise ConfigError("no output: give --output DIR (or `output:` in the config)")
        if self.format not in FORMATS:
            raise ConfigError(f"unknown format {self.format!r}; choose one of {', '.join(FORMATS)}")
        unknown = [s for s in self.stages if s not in STAGE_ORDER]
        if unknown:
            raise ConfigError(f"unknown stage(s) {unknown}; stages are {', '.join(STAGE_ORDER)}")
        if self.format != "shards" and "read" not in self.stages:
            raise ConfigError("a bitext input needs the `read` stage; to run stages over shards use --format shards")
        order = [s for s in STAGE_ORDER if s in self.stages]
        if order != list(self.stages):
            raise ConfigError(f"stages must be in pipeline order {', '.join(STAGE_ORDER)}; got {self.stages}")
        if self.format == "moses" and len(self.read.suffixes) != 2:
            raise ConfigError("--suffixes needs exactly two suffixes: SOURCE,REFERENCE (e.g. cs,en)")
        if self.format == "tsv" and set(self.read.columns) != {"cs", "ref"}:
            raise ConfigError("read.columns must map exactly `cs` and `ref` to column numbers")
        for spec in STAGES:
            if spec.name in self.stages:
                getattr(self, spec.section).validate()
        if self.clean.min_xsim is not None and "xsim" not in self.stages:
            raise ConfigError("clean.min_xsim needs the xsim stage (add xsim to --stages, after clean)")
        self.workers.validate()
        return self

    def section(self, stage: str):
        """The config section of `stage`."""
        return getattr(self, STAGE_SPECS[stage].section)

    def model_paths(self) -> dict[str, str]:
        """The model location (asset_path resolved) of every enabled stage that has a model."""
        return {spec.name: asset_path(getattr(getattr(self, spec.section), spec.model_field))
                for spec in STAGES if spec.model_field and spec.name in self.stages}

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    def hash(self) -> str:
        """sha256 of the resolved config minus the fields that do not change a shard's bytes (RUN_FIELDS), 16 hex
        digits."""
        data = {k: v for k, v in self.to_dict().items() if k not in RUN_FIELDS}
        return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]


def _merge(target, data: dict, where: str, what: str) -> None:
    names = {f.name for f in dataclasses.fields(target)}
    for key, value in data.items():
        if key not in names:
            raise ConfigError(f"unknown {what} key {where}{key!r}; known: {', '.join(sorted(names))}")
        current = getattr(target, key)
        if dataclasses.is_dataclass(current):
            if not isinstance(value, dict):
                raise ConfigError(f"{what} key {where}{key!r} must be a mapping")
            _merge(current, value, f"{where}{key}.", what)
        else:
            setattr(target, key, value)


def read_yaml_mapping(path: str, what: str = "config") -> dict:
    """A YAML file's top-level mapping, loaded with yaml.safe_load; ConfigError for anything else."""
    try:
        data = yaml.safe_load(Path(path).read_text()) or {}
    except (OSError, yaml.YAMLError) as error:
        raise ConfigError(f"cannot read {what} {path}: {error}") from None
    if not isinstance(data, dict):
        raise ConfigError(f"{what} {path} must be a YAML mapping")
    return data


def load_config(cls, path: str | None = None, overrides: dict | None = None, what: str = "config"):
    """`cls()` defaults <- YAML file <- overrides (validation is the caller's: `config.validate()`). Overrides are
    flags: None values are ignored and dotted keys (`translate.beam`, `train.lr`) reach nested dataclasses and
    dict fields. Unknown keys are errors (ConfigError). The project's only YAML config loader."""
    config = cls()
    if path:
        _merge(config, read_yaml_mapping(path, what), "", what)
    for key, value in (overrides or {}).items():
        if value is None:
            continue
        *parents, leaf = key.split(".")
        node = config
        for depth, parent in enumerate(parents):
            if isinstance(node, dict):
                node = node.setdefault(parent, {})
                continue
            if parent not in {f.name for f in dataclasses.fields(node)}:
                raise ConfigError(f"unknown {what} key {'.'.join(parents[:depth + 1])!r}")
            node = getattr(node, parent)
        if isinstance(node, dict):
            node[leaf] = value
        else:
            _merge(node, {leaf: value}, ".".join(parents) + "." if parents else "", what)
    return config


def load_build_config(path: str | None = None, overrides: dict | None = None) -> BuildConfig:
    """Defaults <- YAML file (yaml.safe_load) <- overrides (flags; None values ignored; dotted keys allowed)."""
    return load_config(BuildConfig, path, overrides)
