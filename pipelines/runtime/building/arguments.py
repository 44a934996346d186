"""The flags of `paranmt build` (and of `paranmt check-dataflow`, which launches the same build) and the
BuildConfig they make: defaults <- --config YAML <- flags <- --set KEY=VALUE."""
from __future__ import annotations

from paranmt.pipelines.runtime.arguments import add_rerun_flags
from paranmt.pipelines.runtime.rejects import add_reject_rate_flag
from paranmt.schemas.build_config import FORMATS, BuildConfig, load_build_config
from paranmt.schemas.config import parse_assignments
from paranmt.schemas.errors import ConfigError
from paranmt.schemas.stages import STAGE_ORDER


def _columns(text: str) -> dict[str, int | str]:
    """--columns FIELD=COLUMN,...: a COLUMN of digits is a 0-based number, any other a header column name."""
    try:
        pairs = [(k.strip(), v.strip()) for k, v in (part.split("=") for part in text.split(","))]
    except ValueError:
        raise ConfigError(f"--columns expects FIELD=NUMBER or FIELD=NAME pairs, e.g. cs=0,ref=1 or "
                          f"cs=source,ref=ref; got {text!r}") from None
    return {k: int(v) if v.lstrip("-").isdigit() else v for k, v in pairs}


def add_build_arguments(parser) -> None:
    """The build's flags on `parser` (`paranmt build`'s and `paranmt check-dataflow`'s)."""
    parser.add_argument("--input", help="input glob(s), comma-separated; for --format moses: PREFIX glob(s); "
                                        "for --format shards: a build output DIR")
    parser.add_argument("--format", choices=FORMATS)
    parser.add_argument("--output", help="output directory (local or any Beam filesystem, e.g. gs://)")
    parser.add_argument("--config", help="YAML config (everything a flag can say; flags win)")
    parser.add_argument("--stages", help=f"comma-separated subset of {','.join(STAGE_ORDER)}")
    add_rerun_flags(parser, "finish the build in --output: skip the shards already complete (refused when there is "
                    "no build to finish)", "replace the build in --output: delete its shards, rejects and side files "
                    "first (without --resume or --overwrite, an --output holding shards is refused)",
                    resume_default=None)
    parser.add_argument("--allow-changed-input", action="store_true", default=None,
                        help="--resume even though an input file changed since the run started (refused otherwise)")
    parser.add_argument("--suffixes", help="moses: SOURCE,REFERENCE file suffixes (default cs,en)")
    parser.add_argument("--columns", help="tsv: FIELD=COLUMN pairs, a 0-based number or a header column name, e.g. "
                                          "cs=0,ref=1 or id=id,cs=source,ref=ref,bt=bt; fields: cs, ref (required), "
                                          "bt, bt_score, id, corpus, src_lang")
    parser.add_argument("--header", action="store_true", default=None,
                        help="tsv: the first line of each file is a header, not a record (implied when --columns "
                             "names columns)")
    parser.add_argument("--strict-columns", action="store_true", default=None,
                        help="tsv: reject lines with more columns than --columns names (default: keep and count them)")
    parser.add_argument("--corpus", help="corpus name for every row (default: from file name / CzEng id)")
    parser.add_argument("--shard-rows", type=int, help="input records per shard (a worker holds one shard in memory; "
                                                       "default: 2000 when a stage with a model runs, else 20000)")
    parser.add_argument("--worker-memory-mb", type=int, metavar="MB",
                        help="stop the build (one line naming the setting to lower) when a worker process's memory "
                             "goes over this (workers.memory_limit_mb; default: no limit)")
    add_reject_rate_flag(parser)
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        help="override any config key, e.g. --set translate.beam=5 --set clean.max_tokens=100")


def config_from_args(args) -> BuildConfig:
    """The BuildConfig of `paranmt build`'s arguments: defaults <- --config YAML <- flags <- --set KEY=VALUE."""
    overrides = {
        "input": args.input, "format": args.format, "output": args.output, "resume": args.resume,
        "allow_changed_input": args.allow_changed_input, "workers.memory_limit_mb": args.worker_memory_mb,
        "stages": args.stages.split(",") if args.stages else None,
        "read.suffixes": args.suffixes.split(",") if args.suffixes else None,
        "read.columns": _columns(args.columns) if args.columns else None, "read.header": args.header,
        "read.corpus": args.corpus, "read.shard_rows": args.shard_rows, "read.strict_columns": args.strict_columns,
    }
    overrides.update(parse_assignments(args.set))
    return load_build_config(args.config, overrides)
