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
# Beam, the transforms and the models are imported inside the functions that use them, so that importing this module
# (`paranmt build --help`, `paranmt check-dataflow --help`) costs no more than the config (benchmarks/RESULTS.md,
# "CLI start-up": 17.7 s -> 0.97 s on a loaded machine; 3-5 s idle before).
from __future__ import annotations

import json
import logging
import os
import shlex
import sys
import threading
import time
from dataclasses import dataclass, field

import yaml

from paranmt.pipelines.runtime.outputs import check_apart, check_flags, claim, remove_temporaries, resume_command
from paranmt.schemas import layout
from paranmt.pipelines.runtime.extras import require_extra
from paranmt.schemas.config import (FORMATS, STAGE_ORDER, STAGE_SPECS, BuildConfig, ConfigError, is_remote,
                                    load_build_config, parse_assignments)

log = logging.getLogger(__name__)


def input_patterns(config: BuildConfig) -> list[str]:
    """The paths and globs the build reads (a Moses prefix glob with each suffix), for the output contract."""
    patterns = [part.strip() for part in config.input.split(",") if part.strip()]
    if config.format == "moses":
        return [f"{pattern}.{suffix}" for pattern in patterns for suffix in config.read.suffixes]
    return patterns


def prepare_output(config: BuildConfig, lock: OutputLock, overwrite: bool = False) -> set[str]:
    """Check the output directory before any work; returns the shards already complete (resume). An output that
    is a file, cannot be written, or overlaps the input (pipelines/runtime/outputs.py `check_apart`: e.g. an input glob
    that matches it) is a ConfigError. Takes `lock` first (one build per output directory: another build's lock is
    a ConfigError naming it; a stale one is taken over by --resume or --overwrite), so that nothing below touches
    the files of a build still running. Refuses to mix runs (`claim`): existing shards need --resume or
    --overwrite (which deletes the earlier build's files first), --resume needs a build to continue and the same
    config (the differing keys are named)."""
    from apache_beam.io.filesystems import FileSystems
    from paranmt.transforms.shards import completed_shards, join_path

    check_apart(config.output, input_patterns(config))
    if "://" not in config.output and os.path.exists(config.output) and not os.path.isdir(config.output):
        raise ConfigError(f"output {config.output} is a file, not a directory")
    check_flags(config.output, config.resume, overwrite)
    holds_shards = FileSystems.exists(config.output) and bool(completed_shards(config.output))
    try:
        note = lock.acquire(take_stale=config.resume or overwrite, holds_shards=holds_shards)
    except OSError as error:
        raise ConfigError(f"output {config.output} cannot be written: {error}") from None
    if note:
        print(f"paranmt build: {note}", file=sys.stderr)
    done = completed_shards(config.output)
    previous = next((p for p in (join_path(config.output, name) for name in
                                  (layout.CONFIG, layout.LEGACY_NAMES[layout.CONFIG])) if FileSystems.exists(p)), None)
    held = (f"{len(done)} shard(s) of an earlier build" if done else
            "a build that stopped before its first shard" if previous and config.resume else None)
    if claim(config.output, held, config.resume, overwrite) == "overwrite":
        remove_build(config.output)
        done, previous = set(), None
    if done and previous:
        with FileSystems.open(previous) as handle:
            old = yaml.safe_load(handle.read()) or {}
        differences = config.differences(old) if old.get("config_hash") != config.hash() else []
        if differences:
            hint = (f"; give --shard-rows {old.get('read', {}).get('shard_rows')} to resume with the shard size it "
                    f"was written with (without --shard-rows the size follows the stages)"
                    if any(d.startswith("read.shard_rows:") for d in differences) else "")
            raise ConfigError(f"--resume: the config differs from the one that wrote {config.output}: "
                              + "; ".join(differences) + hint)
    try:
        for directory in (config.output, join_path(config.output, layout.REJECTS)):
            if not FileSystems.exists(directory):
                FileSystems.mkdirs(directory)
        remove_temporaries(config.output, join_path(config.output, layout.REJECTS))
        probe = join_path(config.output, f".write-check-{os.getpid()}")
        with FileSystems.create(probe) as handle:
            handle.write(b"")
        FileSystems.delete([probe])
    except (OSError, IOError) as error:
        raise ConfigError(f"output {config.output} cannot be written: {error}") from None
    return done


def remove_build(output: str) -> None:
    """Delete what a build wrote into `output` (the shards, their rejects and the side files, in both layouts),
    except the lock this build holds."""
    from apache_beam.io.filesystems import FileSystems
    from paranmt.transforms.shards import join_path

    names = [layout.REJECTS, layout.CONFIG, layout.METRICS, layout.MANIFEST, layout.WORKER_LOG,
             *(layout.LEGACY_NAMES[key] for key in (layout.REJECTS, layout.CONFIG, layout.METRICS, layout.MANIFEST))]
    shards = [m.path for m in FileSystems.match([join_path(output, "*.parquet")])[0].metadata_list]
    FileSystems.delete(shards + [p for p in (join_path(output, name) for name in names) if FileSystems.exists(p)])


def input_files(config: BuildConfig, inputs: list) -> list[str]:
    """Every file the planned work items read (both files of a Moses pair; the shard files for `shards`)."""
    if config.format == "shards":
        return sorted(inputs)
    return sorted({path for task in inputs for path in task.unit.paths})


def check_same_input(config: BuildConfig, fingerprints: dict[str, dict], done: set[str]) -> None:
    """ConfigError when a --resume that has shards to keep would read inputs that differ from the ones the run
    recorded at its start (manifest `input_files`), naming each changed file and how, unless
    `allow_changed_input`. Outputs of versions that recorded no fingerprints are resumed unchecked."""
    from apache_beam.io.filesystems import FileSystems
    from paranmt.schemas.metadata import input_changes
    from paranmt.transforms.shards import join_path

    if not done or config.allow_changed_input:
        return
    path = next((p for p in (join_path(config.output, name) for name in
                             (layout.MANIFEST, layout.LEGACY_NAMES[layout.MANIFEST])) if FileSystems.exists(p)), None)
    if path is None:
        return
    with FileSystems.open(path) as handle:
        recorded = json.loads(handle.read()).get("input_files")
    changes = input_changes(recorded, fingerprints) if recorded is not None else []
    if changes:
        raise ConfigError(f"--resume: the input changed since the run that wrote {config.output} started, so its "
                          f"{len(done)} finished shard(s) would mix with shards of the new input: "
                          f"{'; '.join(changes[:5])}{f' (and {len(changes) - 5} more)' if len(changes) > 5 else ''}"
                          f"; build into a new output, or add --allow-changed-input if the change is harmless")


def processing_stages(config: BuildConfig, remote: bool = False) -> list[RunStage]:
    """The transform of every configured stage after `read`, in pipeline order (validates their configs and
    models: ConfigError before any work)."""
    from paranmt.transforms.stage import build_stage

    return [build_stage(name, config, remote) for name in STAGE_ORDER if name in config.stages and name != "read"]


def read_options(config: BuildConfig) -> ReadOptions:
    """The reader's settings: the `read` section and the input format."""
    from paranmt.transforms.io.read_plan import ReadOptions

    return ReadOptions(**vars(config.read), format=config.format, source_lang=config.source_lang)


def plan_input(config: BuildConfig) -> list:
    """The work items, matched and checked before any work: ReadTasks for bitext (one per shard of a plain
    local file, one per other file), shard paths for `shards`."""
    from paranmt.transforms.io.read_plan import plan_reads
    from paranmt.transforms.io.readers import plan_bitext
    from paranmt.transforms.shards import list_shards

    if config.format == "shards":
        return list_shards(config.input)
    return plan_reads(plan_bitext(config.input, read_options(config)), read_options(config))


def planned_shards(config: BuildConfig, inputs: list) -> list[str] | None:
    """The names of every shard the inputs make, when known before reading (None for whole-file tasks)."""
    from paranmt.transforms.shards import shard_name

    if config.format == "shards":
        return [shard_name(p) for p in inputs]
    names = [task.shard_names() for task in inputs]
    return None if any(n is None for n in names) else [name for group in names for name in group]


def build_pipeline(pipeline: beam.Pipeline, plan: BuildPlan, done: set[str]):
    """Compose the graph: Read -> Clean -> Xsim -> Translate -> Score -> Parse -> Write (the plan's stages), one
    element per shard; shards in `done` are not read again."""
    from paranmt.transforms.io.readers import ReadBitext, ReadShards
    from paranmt.transforms.io.writer import WriteShards

    config = plan.config
    if config.format == "shards":
        shards = pipeline | "ReadShards" >> ReadShards(plan.inputs, done)
    else:
        tasks = [t for t in plan.inputs if not t.shard_names() or not set(t.shard_names()) <= done]
        shards = pipeline | "ReadBitext" >> ReadBitext(tasks, read_options(config), done)
    for transform in plan.stages:
        shards = shards | transform
    return shards | "Write" >> WriteShards(config.output, plan.metadata)


class Progress:
    """Launcher-side progress of a local build. A thread polls the output directory for finished shards and the
    workers' heartbeats (`heartbeats()`: pid -> last heartbeat, transforms/heartbeat.py) for rows finished inside
    shards: pairs count as stages finish batches (a shard's row counts 1/len(stages) per stage it has been
    through), so a one-shard input moves too. On a terminal a tqdm bar (pairs done / estimated total, pairs/s,
    ETA, shards, each worker's stage); otherwise one line per finished shard on stderr, and a line saying what each
    worker does after `quiet_line_seconds` without one; nothing printed under CI or pytest (`CI`,
    `PYTEST_CURRENT_TEST` set). `activity()` is the watchdog's other activity."""

    def __init__(self, output: str, done: set[str], total: int | None, shard_rows: int = 0,
                 stages: list[str] | None = None, heartbeats=lambda: {}, interval: float = 1.0,
                 quiet_line_seconds: float = 60.0):
        self.output, self.seen, self.total, self.interval = output, set(done), total, interval
        self.shard_rows, self.stages, self.heartbeats = shard_rows, list(stages or []), heartbeats
        self.quiet = bool(os.environ.get("CI") or os.environ.get("PYTEST_CURRENT_TEST"))
        self.quiet_line_seconds = quiet_line_seconds
        self.stop_event = threading.Event()
        self.thread = threading.Thread(target=self.run, name="paranmt-progress", daemon=True)
        self.bar = None
        self.start = self.printed = time.time()
        self.changed = 0.0
        self.pairs = 0

    def __enter__(self):
        if not self.quiet and sys.stderr.isatty():
            from tqdm import tqdm
            self.bar = tqdm(total=self.estimated_total(), unit="pair", desc="paranmt build", dynamic_ncols=True)
        self.start = self.printed = time.time()
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop_event.set()
        self.thread.join()
        self.poll()
        if self.bar is not None:
            self.bar.close()

    def run(self):
        while not self.stop_event.wait(self.interval):
            self.poll()

    def activity(self) -> float:
        """The time the last shard landed (0 before the first); now once every shard has: the run is finishing,
        and closing its workers (a Dask cluster's take seconds) is not a stall."""
        if self.total is not None and len(self.seen) >= self.total:
            return time.time()
        return self.changed

    def estimated_total(self) -> int | None:
        """Pairs of this run: those of the shards finished so far plus `shard_rows` for each shard to come."""
        if self.total is None or not self.shard_rows:
            return None
        return self.pairs + max(self.total - len(self.seen), 0) * self.shard_rows

    def in_flight(self, beats: dict[int, dict]) -> float:
        """Pairs of unfinished shards, counted as their rows go through the stages."""
        pairs = 0.0
        for beat in beats.values():
            if beat.get("state") == "running" and beat.get("shard") not in self.seen and beat["stage"] in self.stages:
                done = self.stages.index(beat["stage"]) * beat["shard_rows"] + beat["stage_rows"]
                pairs += done / len(self.stages)
        return pairs

    @staticmethod
    def doing(beats: dict[int, dict]) -> str:
        return ", ".join(f"{pid}: {beat['stage']}" + (" (loading)" if beat.get("state") == "loading" else
                                                      f" {beat['stage_rows']}/{beat['shard_rows']}")
                         for pid, beat in sorted(beats.items()))

    def poll(self):
        from paranmt.transforms.shards import completed_shards, join_path, read_shard_counts

        finished = sorted(completed_shards(self.output) - self.seen)
        for name in finished:
            self.seen.add(name)
            self.pairs += read_shard_counts(join_path(self.output, f"{name}.parquet")).get("read", 0)
            self.changed = time.time()
        if self.quiet:
            return
        beats = self.heartbeats()
        current = self.pairs + self.in_flight(beats)
        rate = current / max(time.time() - self.start, 1e-9)
        shards = f"{len(self.seen)}/{self.total}" if self.total else f"{len(self.seen)}"
        if self.bar is not None:
            self.bar.total = self.estimated_total()
            self.bar.n = int(current)
            self.bar.set_postfix_str("; ".join(filter(None, [f"shards {shards}", self.doing(beats)])), refresh=False)
            self.bar.refresh()
            return
        total = self.estimated_total()
        eta = f", ETA {time.strftime('%H:%M:%S', time.gmtime((total - current) / rate))}" if total and rate else ""
        for number, name in enumerate(finished, start=len(self.seen) - len(finished) + 1):
            counts = read_shard_counts(join_path(self.output, f"{name}.parquet"))
            print(f"paranmt build: shard {name} done ({number}{f'/{self.total}' if self.total else ''}): "
                  f"{counts.get('written', 0)} written, "
                  f"{counts.get('rejected', 0)} rejected; {int(current)}{f'/{total}' if total else ''} pairs, "
                  f"{rate:.0f} pairs/s{eta}", file=sys.stderr, flush=True)
            self.printed = time.time()
        if time.time() - self.printed > self.quiet_line_seconds and beats:
            print(f"paranmt build: working ({shards} shards, {int(current)}{f'/{total}' if total else ''} pairs"
                  f"{eta}): {self.doing(beats)}", file=sys.stderr, flush=True)
            self.printed = time.time()


def summarize(output: str) -> tuple[list[dict], dict]:
    """Per-shard counts read back from every data shard in `output`, and their totals."""
    from paranmt.transforms.shards import completed_shards, read_shard_counts, shard_path

    shards = [{"name": name, **read_shard_counts(shard_path(output, name))}
              for name in sorted(completed_shards(output))]
    totals = {"read": 0, "separators": 0, "written": 0, "rejected": 0, "rejects_by_reason": {}, "bt_sources": {}}
    for shard in shards:
        for key in ("read", "separators", "written", "rejected"):
            totals[key] += shard.get(key, 0)
        for key in ("rejects_by_reason", "bt_sources"):
            for name, n in shard.get(key, {}).items():
                totals[key][name] = totals[key].get(name, 0) + n
    for key in ("rejects_by_reason", "bt_sources"):
        totals[key] = dict(sorted(totals[key].items()))
    return shards, totals


def beam_counters(result) -> dict[str, int]:
    try:
        counters = result.metrics().query()["counters"]
    except Exception:  # noqa: BLE001 - not every runner reports metrics
        return {}
    return {f"{c.key.metric.namespace}/{c.key.metric.name}": c.committed or c.attempted for c in counters}


def encoding_hints(output: str, shards: list[dict]) -> list[str]:
    """One line per input file with lines that are not UTF-8 (encoding.encoding_advice: an encoding is guessed only
    when most of the file's lines fail; otherwise its first bad line is named), from the per-shard counts of
    `summarize` and the invalid_utf8 rejects of the file's first shard that has any."""
    from apache_beam.io.filesystems import FileSystems
    from paranmt.transforms.io.encoding import UTF8_PROBLEM, encoding_advice
    from paranmt.transforms.shards import reject_files, shard_name

    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    files: dict[str, list[dict]] = {}
    for shard in shards:
        files.setdefault(shard["name"].rsplit(".", 1)[0], []).append(shard)
    rejects = {shard_name(path): path for path in reject_files(output)}
    hints = []
    for stem, blocks in sorted(files.items()):
        invalid = [b for b in blocks if b.get("rejects_by_reason", {}).get("read/invalid_utf8")]
        if not invalid or invalid[0]["name"] not in rejects:
            continue
        with FileSystems.open(rejects[invalid[0]["name"]]) as handle:
            table = pq.read_table(handle, columns=["reason", "detail"])
        details = table.filter(pc.equal(table.column("reason"), "invalid_utf8")).column("detail").to_pylist()
        problems = [m for m in map(UTF8_PROBLEM.match, details) if m]
        first = min(problems, key=lambda m: int(m["line"]))[0] if problems else details[0]
        hints.append(encoding_advice(sum(b["rejects_by_reason"].get("read/invalid_utf8", 0) for b in blocks),
                                     sum(b.get("read", 0) for b in blocks), first, [m["guess"] for m in problems]))
    return hints


@dataclass
class BuildPlan:
    """What a build decided before any work, shared by `paranmt build` and `paranmt check-dataflow`: the validated
    config, the Beam options, each enabled model's identity (path + sha256), the transform of every stage after
    read, the work items (`plan_input`; [] when the input is remote and taken as given) and the remote paths not
    verified (what -> path; only check-dataflow leaves any)."""
    config: BuildConfig
    options: PipelineOptions
    models: dict[str, dict]
    stages: list[RunStage]
    inputs: list
    unverified: dict[str, str] = field(default_factory=dict)

    @property
    def metadata(self) -> dict[str, str]:
        """The Parquet key-value metadata of every shard the plan writes."""
        from paranmt.schemas.metadata import shard_metadata

        return shard_metadata(self.config.hash(), self.models)


def check_models(config: BuildConfig) -> None:
    """ConfigError for an enabled stage whose local model is missing (with how to give one) or fails its
    MANIFEST.json check (models/files.py, the check every loader runs); remote models are checked by the
    stage factories."""
    from paranmt.models.files import model_directory

    for stage, path in config.model_paths().items():
        if "://" in path:
            continue
        if not os.path.exists(path):
            spec = STAGE_SPECS[stage]
            hint = (f"; the shipped models are in a source checkout's assets/, not in the pip package: give a model "
                    f"(--set {spec.section}.{spec.model_field}=DIR) or fewer stages (--stages read,clean)"
                    if path.startswith("assets/") else "")
            raise ConfigError(f"stage {stage!r}: model {path} does not exist{hint}")
        model_directory(path, f"stage {stage!r}: model")


def remote_paths(config: BuildConfig) -> dict[str, str]:
    """What -> path of every path of `config` on a remote filesystem: the input glob (`input`), models
    (`<stage> model`)."""
    paths = {f"{stage} model": path for stage, path in config.model_paths().items() if is_remote(path)}
    if any(is_remote(part) for part in config.input.split(",")):
        paths = {"input": config.input, **paths}
    return paths


def plan_build(config: BuildConfig, options: PipelineOptions, verify_remote: bool = True) -> BuildPlan:
    """Validate `config` and plan its build for the runner of `options`, before any work (every problem a
    ConfigError): models checked and identified, stages built (their factories load-check the models), input
    matched and planned (before the models load). Without `verify_remote`, remote inputs and models are taken as
    given (check-dataflow)."""
    from apache_beam.options.pipeline_options import StandardOptions
    from paranmt.pipelines.runtime.options import runs_remotely
    from paranmt.schemas.metadata import model_identity
    from paranmt.transforms.stage import VERIFY_REMOTE_MODELS

    config.validate()
    if options.view_as(StandardOptions).runner in ("DataflowRunner", "dataflow"):
        require_extra("dataflow", "apache_beam.runners.dataflow.internal.apiclient")
    check_models(config)
    unverified = {} if verify_remote else remote_paths(config)
    models = {stage: model_identity(path) for stage, path in config.model_paths().items()}
    inputs = [] if "input" in unverified else plan_input(config)
    if not inputs and "input" not in unverified:     # plain local files are planned by block: none when empty
        raise ConfigError(f"input {config.input!r}: the matched file(s) are empty: nothing to build")
    token = VERIFY_REMOTE_MODELS.set(verify_remote)
    try:
        stages = processing_stages(config, runs_remotely(options))
    finally:
        VERIFY_REMOTE_MODELS.reset(token)
    return BuildPlan(config, options, models, stages, inputs, unverified)


def run_build(config: BuildConfig, beam_args: list[str] | None = None, argv: list[str] | None = None,
              overwrite: bool = False) -> dict:
    """Plan (`plan_build`), prepare the output (`overwrite`: replace an earlier build there), run the pipeline
    (`run_supervised`), report (`report_build`). `argv` (the command's arguments) makes the --resume command a
    stop prints. Returns the totals."""
    import apache_beam as beam
    from apache_beam.io.filesystems import FileSystems
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
        with FileSystems.create(join_path(config.output, layout.CONFIG)) as handle:
            handle.write(yaml.safe_dump({**config.to_dict(), "config_hash": config.hash()},
                                        sort_keys=False).encode())
        write_manifest(plan, fingerprints, [], done)     # now, so that a run killed half-way has it
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


def run_supervised(pipeline: beam.Pipeline, plan: BuildPlan, done: set[str], planned: list[str] | None,
                   lock: OutputLock, argv: list[str] | None):
    """Run the pipeline with progress and, on a local runner or a Dask LocalCluster, under the watchdog
    (pipelines/runtime/watchdog.py): a worker that dies (on Dask: that Dask gave up re-running), a stall
    (workers.stall_seconds), a worker over workers.memory_limit_mb, Ctrl-C, SIGTERM or a full disk end the build
    with one line (what stopped, how many shards are complete, the --resume command)."""
    from paranmt.pipelines.runtime.watchdog import Watchdog, worker_matcher
    from paranmt.transforms.shards import completed_shards, join_path

    config = plan.config
    total = len(planned) if planned is not None else None
    stages = [stage for stage in config.stages if stage != "read"]
    progress = Progress(config.output, done, total, config.read.shard_rows if config.format != "shards" else 0,
                        stages)
    match = worker_matcher(plan.options)
    if match is None:
        with progress:
            result = pipeline.run()
            result.wait_until_finish()
        return result

    def status() -> str:
        return f"{len(completed_shards(config.output))} of {total if total is not None else '?'} shards complete"

    settings = {stage: f"{STAGE_SPECS[stage].section}.{STAGE_SPECS[stage].batch_field}" for stage in stages}
    verbose = logging.getLogger().isEnabledFor(logging.DEBUG)
    worker_log = None if verbose or "://" in config.output else join_path(config.output, layout.WORKER_LOG)
    with Watchdog("build", status, resume_command(argv, "build"), config.workers.stall_seconds,
                  config.workers.memory_limit_mb, activity=progress.activity, on_stop=lock.release,
                  stage_settings=settings, worker_match=match, worker_log=worker_log) as watchdog:
        progress.heartbeats = watchdog.heartbeats
        try:
            with progress:
                result = pipeline.run()
                result.wait_until_finish()
        except Exception as error:  # noqa: BLE001 - whatever failed in a worker, the console gets one line
            raise watchdog.failed(error) from error
    return result


def write_manifest(plan: BuildPlan, fingerprints: dict[str, dict], shards: list[dict], done: set[str],
                   bt_sources: dict[str, int] | None = None) -> None:
    """DIR/__paranmt__/manifest.json: versions, config hash, input and its files' fingerprints (size, sha256:
    what --resume checks), stages, model identities, where the written rows' translations came from
    (`bt_sources`: `input`, `translate`; summed over the shards), the shards written and those a resume kept."""
    from paranmt.schemas.metadata import package_version
    from paranmt.schemas.records import SCHEMA_VERSION
    from paranmt.transforms.shards import join_path, write_json

    config = plan.config
    write_json(join_path(config.output, layout.MANIFEST), {
        "schema_version": SCHEMA_VERSION, "package_version": package_version(), "config_hash": config.hash(),
        "input": config.input, "format": config.format, "input_files": fingerprints, "stages": config.stages,
        "models": plan.models, "bt_sources": bt_sources or {}, "shards": shards, "resumed_shards": sorted(done)})


def report_build(plan: BuildPlan, done: set[str], result, elapsed: float, fingerprints: dict[str, dict]) -> dict:
    """After a run: write the manifest and metrics, print the accounting line, the rejects by reason and the
    notes, and raise AccountingError when read != written + rejected. Returns the totals."""
    from paranmt.models.nmt.model_dir import demo_model_notice
    from paranmt.transforms.io.writer import AccountingError
    from paranmt.transforms.shards import join_path, write_json

    config, counters = plan.config, beam_counters(result)
    shards, totals = summarize(config.output)
    write_manifest(plan, fingerprints, shards, done, totals["bt_sources"])
    write_json(join_path(config.output, layout.METRICS), {
        **totals, "seconds": round(elapsed, 3), "beam_counters": counters})
    balanced = totals["read"] == totals["written"] + totals["rejected"]
    print(f"paranmt build: read {totals['read']} = written {totals['written']} + rejected {totals['rejected']}"
          f"{'' if balanced else '  MISMATCH'}  ({len(shards)} shards, {elapsed:.1f} s; stages "
          f"{','.join(config.stages)})")
    for reason, n in totals["rejects_by_reason"].items():
        print(f"  rejected {reason}: {n}")
    if totals["bt_sources"]:
        print("  bt of the written rows: " + ", ".join(f"{n} from {'the ' if source == 'input' else ''}{source}"
                                                      for source, n in totals["bt_sources"].items()))
    notice = demo_model_notice(config.translate.model) if "translate" in config.stages else None
    if notice:
        print(f"  NOTE: {notice}")
    extra = counters.get("read/extra_columns", 0)
    if extra:
        print(f"  {extra} TSV line(s) had more columns than read.columns names; the extra columns were ignored "
              f"(--strict-columns rejects such lines)")
    other = counters.get("xsim/unsupported_language", 0)
    if other:
        print(f"  {other} row(s) have a src_lang the xsim encoder does not cover: their xsim is null")
    for hint in encoding_hints(config.output, shards):
        print(f"paranmt build: {hint}", file=sys.stderr)
    print(f"  outputs: {config.output}/*.parquet, rejects in {join_path(config.output, layout.REJECTS)}/*.pq, "
          f"{layout.MANIFEST}, {layout.METRICS}, {layout.CONFIG}")
    if not balanced:
        raise AccountingError(f"read {totals['read']} != written {totals['written']} + rejected "
                              f"{totals['rejected']}")
    if totals["read"] and not totals["written"]:
        print(f"paranmt build: WARNING: every one of the {totals['read']} input records was rejected (reasons "
              f"above, rows in {join_path(config.output, layout.REJECTS)}/): check --format, --columns and the "
              f"input encoding", file=sys.stderr)
    return totals


def _columns(text: str) -> dict[str, int | str]:
    """--columns FIELD=COLUMN,...: a COLUMN of digits is a 0-based number, any other a header column name."""
    try:
        pairs = [(k.strip(), v.strip()) for k, v in (part.split("=") for part in text.split(","))]
    except ValueError:
        raise ConfigError(f"--columns expects FIELD=NUMBER or FIELD=NAME pairs, e.g. cs=0,ref=1 or "
                          f"cs=source,ref=ref; got {text!r}") from None
    return {k: int(v) if v.lstrip("-").isdigit() else v for k, v in pairs}


def register(subparsers) -> None:
    parser = subparsers.add_parser("build", help="bitext -> scored, parsed ParaNMT-style Parquet shards",
                                   description=__doc__, formatter_class=lambda prog: __import__(
                                       "argparse").RawDescriptionHelpFormatter(prog))
    parser.add_argument("--input", help="input glob(s), comma-separated; for --format moses: PREFIX glob(s); "
                                        "for --format shards: a build output DIR")
    parser.add_argument("--format", choices=FORMATS)
    parser.add_argument("--output", help="output directory (local or any Beam filesystem, e.g. gs://)")
    parser.add_argument("--config", help="YAML config (everything a flag can say; flags win)")
    parser.add_argument("--stages", help=f"comma-separated subset of {','.join(STAGE_ORDER)}")
    parser.add_argument("--resume", action="store_true", default=None,
                        help="finish the build in --output: skip the shards already complete (refused when there "
                             "is no build to finish)")
    parser.add_argument("--overwrite", action="store_true",
                        help="replace the build in --output: delete its shards, rejects and side files first "
                             "(without --resume or --overwrite, an --output holding shards is refused)")
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
    parser.add_argument("--max-reject-rate", type=float, metavar="R",
                        help="exit 1 when more than this fraction (0-1) of the input records was rejected")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        help="override any config key, e.g. --set translate.beam=5 --set clean.max_tokens=100")
    parser.set_defaults(func=run, accepts_beam_options=True)


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


def run(args) -> int:
    from paranmt.transforms.io.writer import AccountingError

    config = config_from_args(args)
    if args.max_reject_rate is not None and not 0 <= args.max_reject_rate <= 1:
        raise ConfigError("--max-reject-rate must be between 0 and 1")
    try:
        totals = run_build(config, args.beam_args, getattr(args, "argv", None), args.overwrite)
    except AccountingError as error:
        print(f"paranmt build: ACCOUNTING FAILED: {error}")
        return 1
    if not totals["read"]:
        print(f"paranmt build: the input {config.input!r} holds no records (its files are empty or hold only "
              f"separators): nothing was written", file=sys.stderr)
        return 2
    rate = totals["rejected"] / totals["read"]
    if args.max_reject_rate is not None and rate > args.max_reject_rate:
        print(f"paranmt build: reject rate {rate:.1%} > --max-reject-rate {args.max_reject_rate:.1%}",
              file=sys.stderr)
        return 1
    return 0
