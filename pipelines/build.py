"""`paranmt build`: bitext (or existing shards) -> read -> clean -> xsim -> translate -> score -> parse -> Parquet
shards. Every stage runs by default; xsim is the cross-lingual similarity of cs and ref (docs/mining.md).

    paranmt build --input GLOB --format {czeng16,czeng20,moses,tsv,parquet,jsonl,shards} --output DIR
                  [--config FILE.yaml] [--stages read,clean,xsim,translate,score,parse] [--resume | --overwrite]
                  [--set KEY=VALUE ...] [Beam options ...]

An input with no records (empty files, or only separators) is one line on stderr and exit 2, like every other
user mistake; when every matched file is a plain local file with nothing in it, that is found before any work.

One stage shape: the element is one shard (`read.shard_rows` consecutive records of one input file, or one
existing shard); the reader yields shards one at a time as it reads, every stage maps a shard's rows in fixed
batches (a function of the shard alone, so shards are byte-identical whatever the runner), and the writer writes
the shard atomically in the same fused step: memory is workers x one shard, and shards land on disk as the run
goes (a killed run keeps them; --resume does the rest). Plain local files are planned into one task per shard
(byte offsets), so one big file spreads over every worker.

Runs on a local Beam runner that never reaches for the network (DirectRunner, multi-processing, one worker per
core) unless Beam options name another (`--runner DataflowRunner --project ... --region ... --temp_location ...`).
Shows progress (shards done/total, pairs/s, ETA) on a terminal. Rejects go to DIR/__paranmt__/rejects/; at the end
it writes DIR/__paranmt__/{manifest.json, metrics.json, config.yaml} (schemas/layout.py: pandas, pyarrow, Polars,
DuckDB and `datasets` load DIR as the pairs alone), prints the accounting line and fails (exit 1) if
`read != written + rejected`. Output directories of the old layout (`rejects/`, `config.yaml`) still resume.
An output that holds shards of an earlier build is refused unless `--resume` (finish it) or `--overwrite` (replace
it) says what to do, and an output that an input glob matches (or that is, or lies inside, an input) is refused
(docs/reliability.md, "Every command that writes").
"""
# The command: its jobs (flags, planning, output preparation, the graph, progress, supervision, reporting) live in
# pipelines/runtime/building/, one module each. Beam, the transforms and the models are imported inside the functions
# that use them, so that `paranmt build --help` costs no more than the config
# (pipelines/runtime/building/__init__.py).
from __future__ import annotations

import sys
import time

import yaml

from paranmt.pipelines.runtime.building.arguments import BUILD_ARGUMENTS
from paranmt.pipelines.runtime.building.graph import build_pipeline
from paranmt.pipelines.runtime.building.output import check_same_input, input_files, prepare_output
from paranmt.pipelines.runtime.building.plan import plan_build, planned_shards
from paranmt.pipelines.runtime.building.report import report_build, write_manifest
from paranmt.pipelines.runtime.building.supervise import run_supervised
from paranmt.pipelines.runtime.command import Command
from paranmt.pipelines.runtime.outputs import remove_temporaries
from paranmt.pipelines.runtime.rejects import EXIT_REJECTS, over_reject_rate
from paranmt.schemas import layout
from paranmt.schemas.build_config import BuildConfig


def run_build(config: BuildConfig, beam_args: list[str] | None = None, argv: list[str] | None = None,
              overwrite: bool = False) -> dict:
    """Plan (`plan_build`), prepare the output (`overwrite`: replace an earlier build there), run the pipeline
    (`run_supervised`), report (`report_build`). `argv` (the command's arguments) makes the --resume command a
    stop prints. Returns the totals."""
    import apache_beam as beam
    from paranmt.pipelines.runtime.options import pipeline_options
    from paranmt.pipelines.runtime.output_lock import OutputLock
    from paranmt.schemas.metadata import input_fingerprint
    from paranmt.transforms.shards import join_path

    plan = plan_build(config, pipeline_options(beam_args or []))
    lock = OutputLock(config.output)
    try:
        done = prepare_output(config, lock, overwrite)
        fingerprints = {path: input_fingerprint(path) for path in input_files(config, plan.inputs)}
        check_same_input(config, fingerprints, done)
        record_start(config, plan, fingerprints, done)
        planned = planned_shards(config, plan.inputs)
        start = time.time()
        pipeline = beam.Pipeline(options=plan.options)
        build_pipeline(pipeline, plan, done)
        result = run_supervised(pipeline, plan, done, planned, lock, argv)
        elapsed = time.time() - start
        remove_temporaries(config.output, join_path(config.output, layout.REJECTS))
        return report_build(plan, done, result, elapsed, fingerprints)
    finally:
        lock.release()


def record_start(config: BuildConfig, plan, fingerprints: dict, done) -> None:
    """The output's config.yaml (the settings and their hash) and its manifest, written before the pipeline runs, so
    that a run killed half-way has them."""
    from apache_beam.io.filesystems import FileSystems
    from paranmt.transforms.shards import join_path

    with FileSystems.create(join_path(config.output, layout.CONFIG)) as handle:
        handle.write(yaml.safe_dump({**config.to_dict(), "config_hash": config.hash()}, sort_keys=False).encode())
    write_manifest(plan, fingerprints, [], done)


def run(config: BuildConfig, args) -> int:
    """The build of `config` (`run_build`), its accounting and its reject rate checked."""
    from paranmt.transforms.io.writer import AccountingError

    try:
        totals = run_build(config, args.beam_args, getattr(args, "argv", None), args.overwrite)
    except AccountingError as error:
        print(f"paranmt build: ACCOUNTING FAILED: {error}")
        return 1
    if not totals["read"]:
        print(f"paranmt build: the input {config.input!r} holds no records (its files are empty or hold only "
              f"separators): nothing was written", file=sys.stderr)
        return 2
    if over_reject_rate("build", totals["rejected"], totals["read"], args.max_reject_rate):
        return EXIT_REJECTS
    return 0


COMMAND = Command("build", BuildConfig, run, help="bitext -> scored, parsed ParaNMT-style Parquet shards",
                  description=__doc__, **BUILD_ARGUMENTS)
