"""What the declarations of `paranmt build` and of `paranmt check-dataflow` (which takes the same arguments: it
describes the job of the same build) share: the flags of BuildConfig's fields and of the `read` and `workers` fields
named here (pipelines/runtime/arguments.py `add_config_flags`; the build's flags of before keep their names), its
`--config` and `--set`, the output kind (the build's shards: `--resume` is BuildConfig's, `--overwrite` the
output's) and `--max-reject-rate`."""
from __future__ import annotations

from paranmt.pipelines.runtime.command import Shards

BUILD_ARGUMENTS = dict(
    sections={"read": ("suffixes", "columns", "header", "corpus", "strict_columns", "shard_rows"),
              "workers": ("memory_limit_mb",)},
    config_help="YAML config (everything a flag can say; flags win)",
    example="translate.beam=5 --set clean.max_tokens=100",
    output=Shards("replace the build in --output: delete its shards, rejects and side files first (without --resume "
                  "or --overwrite, an --output holding shards is refused)"),
    rejects=True, raw_description=True)
