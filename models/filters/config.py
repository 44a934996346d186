"""Typed configuration of `paranmt filter` (one dataclass, loaded from YAML, overridable by flags, validated before
any work, written resolved with its hash next to the output). Presets live in configs/filters/.

YAML shape:
    filters:                       # ordered; a row is dropped by the FIRST filter that rejects it
      - {type: quantile, column: para_score, lower: 0.8, upper: 1.0}
      - {type: tokens, max_tokens: 30}
    dedup: [pair]                  # any of pair, ref, bt (applied after the filters)
    dedup_normalization: normalized   # or exact
    sample: 5000000                # keep this many rows (deterministic by id hash), null = all
    seed: paranmt
    write_tsv: false               # also write pairs.tsv (ref TAB bt)
    write_dropped: false           # also write dropped/ with each dropped row and its reason
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from paranmt.models.filters.pair_filters import PairFilter, build_filter
from paranmt.models.filters.plan import FilterPlan
from paranmt.models.filters.text_keys import DEDUP_FIELDS, NORMALIZATIONS
from paranmt.schemas import layout
from paranmt.schemas.config import Config, bounded, check_ranges, choice, load_config, preset_path, setting
from paranmt.schemas.errors import ConfigError
from paranmt.schemas.paths import PROJECT_ROOT

PRESETS_DIR = PROJECT_ROOT / "configs" / "filters"


@dataclass
class FilterConfig(Config):
    RUN_FIELDS: ClassVar[tuple[str, ...]] = ("input", "output")

    input: str = setting("", help="shard directory (top-level *.parquet) or glob")
    output: str = setting("", help="output directory (local or any Beam filesystem)")
    filters: list[dict] = field(default_factory=list)
    dedup: list[str] = setting(default_factory=list, flag={"nargs": None, "type": str}, help="comma-separated: "
                               "pair,ref,bt")
    dedup_normalization: str = choice("normalized", NORMALIZATIONS, help="compare the dedup keys as they are (exact) "
                                      "or normalized (models/filters/text_keys.py)")
    sample: int | None = bounded(None, 1, help="keep this many rows (deterministic, by id hash)")
    seed: str = setting("paranmt", help="sampling seed")
    write_tsv: bool = setting(False, flag={"name": "--tsv", "action": "store_true"},
                              help=f"also write {layout.PAIRS_TSV} (header ref TAB bt, a table TSV)")
    write_dropped: bool = setting(False, flag={"action": "store_true"}, help=f"also write {layout.DROPPED}/<shard>"
                                  f"{layout.SIDE_TABLE_SUFFIX} (Parquet) with each dropped row and its reason")

    def build_filters(self) -> list[PairFilter]:
        """The configured filters, validated (unknown type / bad parameter / duplicate name -> ConfigError)."""
        if not isinstance(self.filters, list):
            raise ConfigError("`filters` must be a list of filter mappings")
        built = [build_filter(spec) for spec in self.filters]
        names = [f.name for f in built]
        duplicates = sorted({n for n in names if names.count(n) > 1})
        if duplicates:
            raise ConfigError(f"filter names must be unique (they are the drop reasons); repeated: {duplicates}; "
                              "give each a distinct `name:`")
        return built

    def plan(self) -> FilterPlan:
        return FilterPlan(self.build_filters(), list(self.dedup), self.dedup_normalization, self.sample, self.seed)

    def validate(self) -> "FilterConfig":
        check_ranges(self)
        if not self.input:
            raise ConfigError("no input: give --input SHARDS (a directory of shards or a glob)")
        if not self.output:
            raise ConfigError("no output: give --output DIR")
        self.build_filters()
        if not isinstance(self.dedup, list) or any(f not in DEDUP_FIELDS for f in self.dedup):
            raise ConfigError(f"dedup must be a list drawn from {list(DEDUP_FIELDS)}, got {self.dedup!r}")
        return self


def preset_names() -> list[str]:
    return sorted(path.stem for path in PRESETS_DIR.glob("*.yaml"))


def load_filter_config(path: str | None = None, overrides: dict | None = None) -> FilterConfig:
    """Defaults <- YAML file (a path, or a preset name from configs/filters/) <- overrides (flags; None values
    ignored). Unknown keys are errors."""
    return load_config(FilterConfig, preset_path(path, PRESETS_DIR, "filter config") if path else None, overrides,
                       "filter config")
