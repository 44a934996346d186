"""`paranmt build`: bitext (or existing shards) -> read -> clean -> translate -> score -> parse -> Parquet shards.

    paranmt build --input GLOB --format {czeng16,czeng20,moses,tsv,shards} --output DIR [--config FILE.yaml]
                  [--stages read,clean,translate,score,parse] [--resume] [Beam options ...]

Runs on a local Beam runner that never reaches for the network (DirectRunner, multi-processing, one worker per
core) unless Beam options name another (`--runner DataflowRunner --project ... --region ... --temp_location ...`).
At the end it writes DIR/_manifest.json, DIR/metrics.json and DIR/config.yaml, prints the accounting line and
fails (exit 1) if `read != written + rejected`.
"""
from __future__ import annotations

import dataclasses
import importlib
import json
import logging
import os
import time

import apache_beam as beam
import yaml
from apache_beam.io.filesystems import FileSystems
from apache_beam.options.pipeline_options import PipelineOptions

from paranmt.models.text.clean import CleanStage
from paranmt.schemas.config import STAGE_ORDER, BuildConfig, ConfigError, asset_path, load_build_config
from paranmt.schemas.metadata import model_identity, package_version, shard_metadata, verify_manifest
from paranmt.schemas.records import SCHEMA_VERSION
from paranmt.transforms.io.bitext import ReadOptions
from paranmt.transforms.io.readers import ReadBitext, ReadShards, plan_bitext, shard_files, shard_of
from paranmt.transforms.io.writer import AccountingError, WriteShards, join_path, read_shard_counts
from paranmt.transforms.stage import ApplyStage

log = logging.getLogger(__name__)

MODEL_STAGES = {"translate": "paranmt.transforms.translate", "score": "paranmt.transforms.score",
                "parse": "paranmt.transforms.parse"}


def model_paths(config: BuildConfig) -> dict[str, str]:
    """The model location each enabled model stage uses."""
    paths = {"translate": config.translate.model, "score": config.score.encoder, "parse": config.parse.model_dir}
    return {stage: asset_path(path) for stage, path in paths.items() if stage in config.stages}


def stage_transform(name: str, config: BuildConfig) -> beam.PTransform:
    """The PTransform of one processing stage; model stages come from their module's `stage_transform(config)`,
    which validates its config (ConfigError) before any work."""
    if name == "clean":
        return ApplyStage(CleanStage(**dataclasses.asdict(config.clean)), max_batch=1024)
    module_name = MODEL_STAGES[name]
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        if error.name == module_name:
            raise ConfigError(f"stage {name!r} is not available in this version of paranmt "
                              f"({module_name} is not installed)") from None
        raise
    return module.stage_transform(config)


def completed_shards(output: str) -> set[str]:
    pattern = join_path(output, "*.parquet")
    return {shard_of(m.path) for m in FileSystems.match([pattern])[0].metadata_list}


def prepare_output(config: BuildConfig) -> set[str]:
    """Check the output directory; returns the shards already complete (resume). Refuses to mix runs: existing
    shards need --resume, and --resume needs the same config hash."""
    done = completed_shards(config.output) if FileSystems.exists(config.output) else set()
    if done and not config.resume:
        raise ConfigError(f"output {config.output} already holds {len(done)} shard(s); use --resume to finish "
                          f"that run, or choose a new output directory")
    previous = join_path(config.output, "config.yaml")
    if done and FileSystems.exists(previous):
        with FileSystems.open(previous) as handle:
            old_hash = (yaml.safe_load(handle.read()) or {}).get("config_hash")
        if old_hash != config.hash():
            raise ConfigError(f"--resume: the config differs from the one that wrote {config.output} "
                              f"(hash {old_hash} != {config.hash()})")
    for directory in (config.output, join_path(config.output, "rejects")):
        if not FileSystems.exists(directory):
            FileSystems.mkdirs(directory)
        stale = FileSystems.match([join_path(directory, ".*.tmp-*")])[0].metadata_list
        if stale:   # temporaries of writes a killed run left behind; their shards are rewritten
            FileSystems.delete([m.path for m in stale])
    return done


def pipeline_options(beam_args: list[str]) -> PipelineOptions:
    """Beam options as given; without --runner, a local DirectRunner that never tries to download a runner
    binary: multi-processing with one worker per core on machines with more than 2 cores; in-process on smaller
    ones, where the multi-process runner measured slower (0.68-0.78x, benchmarks/RESULTS.md, Scale) because the
    model stages already use both cores."""
    args = list(beam_args)
    if not any(a == "--runner" or a.startswith("--runner=") for a in args):
        cores = os.cpu_count() or 1
        args += ["--runner=DirectRunner"] + (
            ["--direct_running_mode=multi_processing", f"--direct_num_workers={cores}"] if cores > 2
            else ["--direct_running_mode=in_memory"])
    if not any(a.startswith("--default_sdk_harness_log_level") for a in args):
        args.append("--default_sdk_harness_log_level=WARNING")
    return PipelineOptions(args)


def processing_stages(config: BuildConfig) -> list[tuple[str, beam.PTransform]]:
    """(name, transform) of every configured stage after `read`, in pipeline order (validates their configs)."""
    return [(name, stage_transform(name, config)) for name in STAGE_ORDER if name in config.stages and name != "read"]


def read_options(config: BuildConfig) -> ReadOptions:
    return ReadOptions(format=config.format, suffixes=tuple(config.read.suffixes), columns=dict(config.read.columns),
                       corpus=config.read.corpus, max_line_bytes=config.read.max_line_bytes,
                       shard_rows=config.read.shard_rows)


def plan_input(config: BuildConfig) -> list:
    """The input files (InputFiles for bitext, shard paths for `shards`), matched and checked before any work."""
    if config.format == "shards":
        return shard_files(config.input)
    return plan_bitext(config.input, read_options(config))


def build_pipeline(pipeline: beam.Pipeline, config: BuildConfig, done: set[str], metadata: dict,
                   stages: list[tuple[str, beam.PTransform]] | None = None, inputs: list | None = None):
    """Compose the graph: Read -> Clean -> Translate -> Score -> Parse -> Write (stages as configured)."""
    inputs = plan_input(config) if inputs is None else inputs
    if config.format == "shards":
        rows, rejects, counts = pipeline | "ReadShards" >> ReadShards(inputs, done)
    else:
        rows, rejects, counts = pipeline | "ReadBitext" >> ReadBitext(inputs, read_options(config), done)
    stage_rejects = [rejects]
    for name, transform in stages if stages is not None else processing_stages(config):
        rows, new_rejects = rows | name.capitalize() >> transform
        stage_rejects.append(new_rejects)
    all_rejects = stage_rejects | "AllRejects" >> beam.Flatten()
    return (rows, all_rejects, counts) | "Write" >> WriteShards(config.output, metadata)


def summarize(output: str) -> tuple[list[dict], dict]:
    """Per-shard counts read back from every data shard in `output`, and their totals."""
    shards = []
    for path in sorted(FileSystems.match([join_path(output, "*.parquet")])[0].metadata_list, key=lambda m: m.path):
        shards.append({"name": shard_of(path.path), **read_shard_counts(path.path)})
    totals = {"read": 0, "separators": 0, "written": 0, "rejected": 0, "rejects_by_reason": {}}
    for shard in shards:
        for key in ("read", "separators", "written", "rejected"):
            totals[key] += shard.get(key, 0)
        for reason, n in shard.get("rejects_by_reason", {}).items():
            totals["rejects_by_reason"][reason] = totals["rejects_by_reason"].get(reason, 0) + n
    totals["rejects_by_reason"] = dict(sorted(totals["rejects_by_reason"].items()))
    return shards, totals


def beam_counters(result) -> dict[str, int]:
    try:
        counters = result.metrics().query()["counters"]
    except Exception:  # noqa: BLE001 - not every runner reports metrics
        return {}
    return {f"{c.key.metric.namespace}/{c.key.metric.name}": c.committed or c.attempted for c in counters}


def write_json(path: str, data: dict) -> None:
    with FileSystems.create(path) as handle:
        handle.write(json.dumps(data, indent=2, sort_keys=True).encode())


def run_build(config: BuildConfig, beam_args: list[str] | None = None) -> dict:
    """Validate, run the pipeline, write manifest/metrics/config, check the accounting. Returns the totals."""
    config.validate()
    for stage, path in model_paths(config).items():
        if "://" not in path and not os.path.exists(path):
            raise ConfigError(f"stage {stage!r}: model {path} does not exist")
        problems = verify_manifest(path)
        if problems:
            raise ConfigError(f"stage {stage!r}: model {path}: " + "; ".join(problems))
    models = {stage: model_identity(path) for stage, path in model_paths(config).items()}
    stages = processing_stages(config)
    inputs = plan_input(config)
    done = prepare_output(config)
    with FileSystems.create(join_path(config.output, "config.yaml")) as handle:
        handle.write(yaml.safe_dump({**config.to_dict(), "config_hash": config.hash()}, sort_keys=False).encode())
    metadata = shard_metadata(config.hash(), models)
    start = time.time()
    pipeline = beam.Pipeline(options=pipeline_options(beam_args or []))
    build_pipeline(pipeline, config, done, metadata, stages, inputs)
    result = pipeline.run()
    result.wait_until_finish()
    elapsed = time.time() - start
    shards, totals = summarize(config.output)
    write_json(join_path(config.output, "_manifest.json"), {
        "schema_version": SCHEMA_VERSION, "package_version": package_version(), "config_hash": config.hash(),
        "input": config.input, "format": config.format, "stages": config.stages, "models": models,
        "shards": shards, "resumed_shards": sorted(done)})
    write_json(join_path(config.output, "metrics.json"), {
        **totals, "seconds": round(elapsed, 3), "beam_counters": beam_counters(result)})
    balanced = totals["read"] == totals["written"] + totals["rejected"]
    print(f"paranmt build: read {totals['read']} = written {totals['written']} + rejected {totals['rejected']}"
          f"{'' if balanced else '  MISMATCH'}  ({len(shards)} shards, {elapsed:.1f} s)")
    for reason, n in totals["rejects_by_reason"].items():
        print(f"  rejected {reason}: {n}")
    print(f"  outputs: {config.output}/*.parquet, rejects in {join_path(config.output, 'rejects')}/, "
          f"_manifest.json, metrics.json")
    if not balanced:
        raise AccountingError(f"read {totals['read']} != written {totals['written']} + rejected "
                              f"{totals['rejected']}")
    return totals


def _columns(text: str) -> dict[str, int]:
    try:
        return {k.strip(): int(v) for k, v in (part.split("=") for part in text.split(","))}
    except ValueError:
        raise ConfigError(f"--columns expects e.g. cs=0,ref=1; got {text!r}") from None


def _set(text: str) -> tuple[str, object]:
    key, sep, value = text.partition("=")
    if not sep:
        raise ConfigError(f"--set expects KEY=VALUE (dotted key, YAML value); got {text!r}")
    return key.strip(), yaml.safe_load(value)


def register(subparsers) -> None:
    parser = subparsers.add_parser("build", help="bitext -> scored, parsed ParaNMT-style Parquet shards",
                                   description=__doc__, formatter_class=lambda prog: __import__(
                                       "argparse").RawDescriptionHelpFormatter(prog))
    parser.add_argument("--input", help="input glob(s), comma-separated; for --format moses: PREFIX glob(s); "
                                        "for --format shards: a build output DIR")
    parser.add_argument("--format", choices=["czeng16", "czeng20", "moses", "tsv", "shards"])
    parser.add_argument("--output", help="output directory (local or any Beam filesystem, e.g. gs://)")
    parser.add_argument("--config", help="YAML config (everything a flag can say; flags win)")
    parser.add_argument("--stages", help=f"comma-separated subset of {','.join(STAGE_ORDER)}")
    parser.add_argument("--resume", action="store_true", default=None, help="skip shards already complete")
    parser.add_argument("--suffixes", help="moses: SOURCE,REFERENCE file suffixes (default cs,en)")
    parser.add_argument("--columns", help="tsv: 0-based columns, e.g. cs=0,ref=1")
    parser.add_argument("--corpus", help="corpus name for every row (default: from file name / CzEng id)")
    parser.add_argument("--shard-rows", type=int, help="input records per shard (default 50000)")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        help="override any config key, e.g. --set translate.beam=5 --set clean.max_tokens=100")
    parser.set_defaults(func=run, accepts_beam_options=True)


def config_from_args(args) -> BuildConfig:
    """The BuildConfig of `paranmt build`'s arguments: defaults <- --config YAML <- flags <- --set KEY=VALUE."""
    overrides = {
        "input": args.input, "format": args.format, "output": args.output, "resume": args.resume,
        "stages": args.stages.split(",") if args.stages else None,
        "read.suffixes": args.suffixes.split(",") if args.suffixes else None,
        "read.columns": _columns(args.columns) if args.columns else None,
        "read.corpus": args.corpus, "read.shard_rows": args.shard_rows,
    }
    overrides.update(dict(_set(item) for item in args.set))
    return load_build_config(args.config, overrides)


def run(args) -> int:
    config = config_from_args(args)
    try:
        run_build(config, args.beam_args)
    except AccountingError as error:
        print(f"paranmt build: ACCOUNTING FAILED: {error}")
        return 1
    return 0
