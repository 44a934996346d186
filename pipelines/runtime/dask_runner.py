"""`--runner dask`: every paranmt pipeline on a Dask cluster, through Beam's DaskRunner
(`apache_beam.runners.dask.dask_runner.DaskRunner`), with what paranmt needs of a runner added:

    paranmt build ... --runner dask --dask-workers 2                  a LocalCluster of 2 worker processes (closed
                                                                      at the end; default: one per core)
    paranmt build ... --runner dask --dask-start-method spawn         its workers each a fresh interpreter (default:
                                                                      forked from a forkserver, START_METHODS)
    paranmt build ... --runner dask --dask-address tcp://HOST:8786    join a running cluster (Slurm, PBS, SGE or
                                                                      Kubernetes workers: `paranmt cluster-config`)
    DASK_CONFIG=dask-client.yaml paranmt build ... --dask-address tls://HOST:8786    the same over TLS (Dask's
                                                                      TLS settings: `client_security`)

`pipelines/runtime/options.py` turns those flags into the Beam options of `ParanmtDaskRunner` (`--dask_workers`, Beam's
`--dask_client_address`); Beam's other Dask options (`--dask_scheduler_file`, `--dask_connection_timeout`,
`--dask_npartitions`, `--dask_partition_size`) pass through. What this runner adds to Beam's:

- One element per Dask partition (`--dask_partition_size 1` unless given): one shard per task, spread over every
  worker. (Beam's default packs 128 elements into one partition, so one worker did a whole build.)
- Bundles stream: each step is a generator over its partition, so a task holds one shard at a time even when one
  read task yields many shards (a compressed file). Beam's runner collects a bundle's outputs in a list.
- Beam metrics: each step of each task runs under its own MetricsContainer; the task sends its counters and
  distributions to the client as a Dask event (topic per run) and the client adds them up, once per (task, step):
  a task re-run because its worker died is counted once (`committed`); every run counts in `attempted`.
  (Beam's runner reports no metrics: `metrics()` raised NotImplementedError.)
- The cluster's lifecycle: a LocalCluster started here is closed here and the client is always closed, so nothing
  prints a `CommClosedError` traceback at exit. A cluster lost mid-run (scheduler gone, or a task whose workers
  died `distributed.scheduler.allowed-failures` + 1 times) stops the run with one line (`PipelineStopped`); shards
  already written stay, and `--resume` finishes the run.
- Worker resources: on a joined cluster, a step with a Beam `accelerator` resource hint (the translate stage with
  `translate.accelerator` set) runs only on workers with the Dask resource `GPU`, and every other step only on
  workers with the resource `CPU` (`paranmt cluster-config` starts both kinds). Those tasks are then not fused
  with their neighbours (Dask drops the annotations of fused tasks), so a shard moves from a CPU worker to a GPU
  worker and back, as between Dataflow's worker pools. A LocalCluster ignores the hints (like the DirectRunner).

What Dask retries (docs/cluster.md, "Faults"): a task whose worker process died (killed, out of memory, lost
node) is re-run on another worker, up to `allowed-failures` times; a shard's files are written atomically, so a
re-run rewrites the whole shard and nothing is lost or doubled. An exception raised by paranmt's code is not
retried by Dask (the stages already split and retry failing batches; a sentence that still fails is a reject row).
"""
from __future__ import annotations

import contextlib
import logging
import os
import pickle
import re
import uuid
from concurrent.futures import CancelledError

from apache_beam.internal import pickler
from apache_beam.metrics.execution import MetricsContainer
from apache_beam.options.pipeline_options import PipelineOptions
from apache_beam.runners.dask.dask_runner import DaskOptions, DaskRunner
from apache_beam.runners.runner import PipelineResult, PipelineState
from apache_beam.runners.direct.direct_metrics import DirectMetrics
from apache_beam.runners.worker import statesampler
from apache_beam.utils import counters

from paranmt.pipelines.runtime.listening import listen_host
from paranmt.pipelines.runtime.options import START_METHODS
from paranmt.pipelines.runtime.worker_logging import WorkerLogging
from paranmt.schemas.errors import ConfigError, PipelineStopped

log = logging.getLogger(__name__)

# The Dask settings of a LocalCluster started for a run (`--dask-workers`): what makes Dask cost more CPU than the
# DirectRunner for the same work (benchmarks/RESULTS.md, "Dask parity (issue 34)"), turned off or down:
# - glibc's malloc trim threshold, which Dask's nanny sets to 64 KiB in its workers to return memory to the system:
#   setting it also turns off glibc's dynamic mmap threshold, so every buffer over 128 KiB (the model stages allocate
#   them per batch) is a fresh mmap, page faults and munmap: 10x the system CPU time of the DirectRunner's workers;
# - the statistical profiler of each worker (a stack sample of every thread every 10 ms, for the dashboard, which a
#   run does not start), the event loops' 20 ms tick (a warning when a loop blocks), the memory monitors' 100 ms
#   and the system monitor's 500 ms polls: together ~4 CPU-seconds a minute for an idle 2-worker cluster, 0.7 here.
# What a LocalCluster's nannies set in their parent's os.environ (`restore_environ`): the variables of Dask's
# pre-spawn environment, the hash seed they add to it, and the parent pid of distributed's process titles.
PRE_SPAWN_ENVIRON = "distributed.nanny.pre-spawn-environ"
NANNY_ENVIRON = ("PYTHONHASHSEED", "__DASK_PARENT_PID")
LOCAL_CLUSTER_CONFIG = {
    "distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None,
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "1s",
    "distributed.worker.memory.monitor-interval": "1s",
    "distributed.admin.system-monitor.interval": "5s",
}
# How a LocalCluster's nannies start its workers (`--dask-start-method`, options.START_METHODS; Dask's
# `distributed.worker.multiprocessing-method`): "forkserver" (the default) starts one server process per cluster that
# imports FORKSERVER_PRELOAD once, then forks every worker (and every replacement of a dead one) from it: a worker
# costs ~0.4 CPU-s instead of the ~4.4 CPU-s of a fresh interpreter importing Dask and Beam (benchmarks/RESULTS.md,
# "Dask worker start (issue 45)"). "spawn" (Dask's default) starts each worker as a fresh interpreter.
START_METHOD_KEY = "distributed.worker.multiprocessing-method"
# What every build's workers import; not torch or the model stages (a read/clean-only build's workers never load
# them, and a worker's resident memory, which its memory limit counts, would hold them from the fork).
FORKSERVER_PRELOAD = ["distributed", "apache_beam", "paranmt.pipelines.runtime.dask_runner", "paranmt.transforms.stage",
                      "paranmt.transforms.shards", "paranmt.transforms.io.bitext", "paranmt.transforms.io.readers",
                      "paranmt.transforms.io.writer", "paranmt.transforms.heartbeat"]
# The Dask worker resources of `paranmt cluster-config`'s workers: CPU workers advertise CPU=<threads>, GPU workers
# GPU=<gpus>; a task needing one unit of a resource runs only where that resource is free.
CPU_RESOURCE, GPU_RESOURCE = "CPU", "GPU"


class DaskClusterOptions(PipelineOptions):
    """paranmt's Dask option beside Beam's DaskOptions: `--dask_workers N` starts a LocalCluster of N worker
    processes (one thread each) for this run and closes it at the end; `--dask_start_method` says how its workers
    start (START_METHODS)."""

    @classmethod
    def _add_argparse_args(cls, parser):
        parser.add_argument("--dask_workers", type=int, default=None,
                            help="start a LocalCluster of this many worker processes for the run")
        parser.add_argument("--dask_start_method", choices=START_METHODS, default=START_METHODS[0],
                            help="how the LocalCluster's nannies start its workers")


def accelerator_resources(hints: dict) -> dict[str, int]:
    """The Dask resources of a step's Beam resource hints: an `accelerator` hint (`type:T;count:N;...`, Beam's
    format) needs N (default 1) units of GPU; a step without one needs one unit of CPU."""
    accelerator = next((v for k, v in hints.items() if "accelerator" in k), None)
    if accelerator is None:
        return {CPU_RESOURCE: 1}
    text = accelerator.decode() if isinstance(accelerator, bytes) else str(accelerator)
    fields = dict(part.split(":", 1) for part in text.split(";") if ":" in part)
    return {GPU_RESOURCE: int(fields.get("count", 1))}


def _run_bundle(items, step: str, topic: str, invoker_parts: bytes, side_specs: bytes, *side_values):
    """One step of one Dask task: the DoFn over the partition's elements, as a generator (outputs leave as each
    element is done), under a MetricsContainer whose updates go to the client as a Dask event at the end.
    `side_values`: each side input's elements (computed by Dask before the task), described by `side_specs`."""
    from apache_beam.runners.common import DoFnInvoker, DoFnSignature, _OutputHandler
    from apache_beam.runners.dask.transform_evaluator import OneReceiver, get_windowed_value
    from apache_beam.transforms.sideinputs import SideInputMap

    fn, window_fn, context, args, kwargs, finalizer = pickler.loads(invoker_parts)
    side_inputs = [SideInputMap(view, view_options, [get_windowed_value(v, mapping) for v in values])
                   for (view, view_options, mapping), values in zip(pickler.loads(side_specs), side_values)]
    receivers = OneReceiver()
    handler = _OutputHandler(window_fn=window_fn, main_receivers=receivers[None], tagged_receivers=receivers,
                             per_element_output_counter=None, output_batch_converter=None,
                             process_yields_batches=False, process_batch_yields_elements=False)
    invoker = DoFnInvoker.create_invoker(DoFnSignature(fn), handler, context=context,
                                         side_inputs=side_inputs or None, input_args=args, input_kwargs=kwargs,
                                         user_state_context=None, bundle_finalizer_param=finalizer)
    # a sampler of its own (a sampler keeps the first container it saw per step name), current only while the
    # step's own code runs: the steps of a fused task interleave on one thread
    sampler = statesampler.StateSampler("", counters.CounterFactory())
    container = MetricsContainer(step)
    state = sampler.scoped_state(step, "process", metrics_container=container)

    @contextlib.contextmanager
    def metered():
        previous = statesampler.get_current_tracker()
        statesampler.set_current_tracker(sampler)
        try:
            with state:
                yield
        finally:
            statesampler.set_current_tracker(previous)

    def drain():
        outputs = [v.value for v in receivers.values]
        receivers.values.clear()
        return outputs

    with metered():
        invoker.invoke_setup()
        invoker.invoke_start_bundle()
    for item in items:
        with metered():
            invoker.invoke_process(item)
        yield from drain()
    with metered():
        invoker.invoke_finish_bundle()
        invoker.invoke_teardown()
    yield from drain()
    _send_metrics(topic, step, container)


def _run_bundle_list(*args) -> list:
    """`_run_bundle` collected: the output of a step that runs as a task of its own (resources: not fused)."""
    return list(_run_bundle(*args))


def _send_metrics(topic: str, step: str, container: MetricsContainer) -> None:
    from distributed import get_worker

    try:
        worker = get_worker()
    except ValueError:          # not on a Dask worker (a local scheduler): no client to tell
        return
    worker.log_event(topic, {"task": str(worker.get_current_task()), "step": step,
                             "updates": pickle.dumps(container.get_cumulative())})


def _metered_pardo(op_class):
    """Beam's ParDo translation with `_run_bundle` as the partition function (and resources, see the module
    docstring)."""

    class MeteredParDo(op_class):
        topic, annotate = "", False

        def apply(self, input_bag, side_inputs=None):
            import dask
            from apache_beam import DoFn
            from apache_beam.runners.common import DoFnContext
            from apache_beam.runners.dask.transform_evaluator import get_windowed_value
            from dask.bag.core import reify

            transform = self.transform
            args, kwargs = transform.raw_side_inputs
            main_input = next(iter(self.applied.main_inputs.values()))
            window_fn = main_input.windowing.windowfn if hasattr(main_input, "windowing") else None
            parts = pickler.dumps((transform.fn, window_fn, DoFnContext(transform.label, state=None), list(args),
                                  kwargs, DoFn.BundleFinalizerParam()))
            side_inputs = side_inputs or []
            specs = pickler.dumps([(type(si), si._view_options(), si._window_mapping_fn) for si, _ in side_inputs])
            values = [dask.delayed(list)(bag) for _, bag in side_inputs]
            resources = accelerator_resources(self.applied.resource_hints) if self.annotate else None
            label = re.sub(r"\W+", "_", self.applied.full_label)    # task names: the step's
            with dask.annotate(resources=resources) if resources else contextlib.nullcontext():
                bag = input_bag.map(get_windowed_value, window_fn)
                if self.annotate:       # not fused: every step's output is a concrete list
                    return bag.map_partitions(_run_bundle_list, self.applied.full_label, self.topic, parts, specs,
                                              *values, token=label)
                # the generator, then Dask bag's `reify`: dask.optimize fuses the two (the generator never leaves
                # the task) and drops a `reify` that feeds the next step fused into the same task (its `lazify`),
                # so shards stream through a fused chain and any task's result is a list
                return bag.map_partitions(_run_bundle, self.applied.full_label, self.topic, parts, specs, *values,
                                          token=label).map_partitions(reify, token=f"{label}_out")

    return MeteredParDo


class DaskMetrics(DirectMetrics):
    """The Beam metrics the tasks of one run sent (`_send_metrics`): committed once per (task, step), attempted
    for every run of a task."""

    def __init__(self):
        super().__init__()
        self.seen = set()

    def add(self, message: dict) -> None:
        updates = pickle.loads(message["updates"])
        key = (message["task"], message["step"])
        self.commit_physical(key, updates)
        if key not in self.seen:
            self.seen.add(key)
            self.commit_logical(key, updates)


class ClusterStopped(PipelineStopped):
    """The Dask cluster could not finish the run; `cause` says why (the watchdog's line of a LocalCluster run puts
    it beside the exact --resume command)."""

    def __init__(self, cause: str):
        super().__init__(f"stopped: {cause}; the shards written so far are complete: run again with --resume to "
                         f"finish")
        self.cause = cause


class DaskPipelineResult(PipelineResult):
    """The futures of one run; `wait_until_finish` waits for them, then collects the metrics and closes the client
    (and the LocalCluster this run started) in every case."""

    def __init__(self, client, cluster, futures, topic: str, metrics: DaskMetrics):
        super().__init__(PipelineState.RUNNING)
        self.client, self.cluster, self.futures, self.topic, self._metrics = client, cluster, futures, topic, metrics

    def wait_until_finish(self, duration=None):
        from distributed import as_completed
        from distributed.comm import CommClosedError
        from distributed.scheduler import KilledWorker

        if self._state != PipelineState.RUNNING:
            return self._state
        try:
            for _ in as_completed(self.futures, with_results=True):
                pass        # results are gathered (and dropped) so that a task's exception is raised here
            unfinished = [f for f in self.futures if f.status != "finished"]
            if unfinished:  # as_completed ends quietly on futures cancelled by a lost scheduler
                raise CancelledError(f"{len(unfinished)} of {len(self.futures)} result(s) "
                                     f"{unfinished[0].status} (client {self.client.status})")
            self._state = PipelineState.DONE
        except KilledWorker as error:
            self._state = PipelineState.FAILED
            raise ClusterStopped(f"Dask gave up on a task after its workers died {_allowed_failures() + 1} times "
                                 f"({error.args[0] if error.args else error})") from None
        except (CommClosedError, OSError, TimeoutError, CancelledError) as error:
            self._state = PipelineState.FAILED
            if not isinstance(error, (CommClosedError, CancelledError)) and self.client.status == "running":
                raise       # raised by a task (e.g. an unwritable output): not the cluster's doing
            raise ClusterStopped(f"lost the Dask cluster ({type(error).__name__}: {error})") from None
        except BaseException:
            self._state = PipelineState.FAILED
            raise
        finally:
            self._collect_metrics()
            self.close()
        return self._state

    def _collect_metrics(self):
        try:
            for _, message in self.client.get_events(self.topic):
                self._metrics.add(message)
        except Exception as error:  # noqa: BLE001 - the scheduler is gone: the run has already failed
            log.debug("no metrics from the Dask scheduler: %s", error)

    def close(self):
        close(self.client, self.cluster)
        self.client = self.cluster = None

    def cancel(self):
        if self.client is not None:
            self.client.cancel(self.futures)
        self.close()
        self._state = PipelineState.CANCELLED
        return self._state

    def metrics(self):
        return self._metrics


def close(client, cluster: StartedCluster | None) -> None:
    """Close the client, then the LocalCluster of the run, if it started one (`StartedCluster.close`)."""
    with contextlib.suppress(Exception):
        if client is not None:
            client.close()
    if cluster is not None:
        cluster.close()


class StartedCluster:
    """A LocalCluster `start_client` started for one run (`cluster`), and the one place that undoes what starting
    it changed in this process: `close()` closes the cluster, gives Dask's start method and the variables its nannies
    set in os.environ their values again (`restore_environ`) and ends its forkserver (`end_forkserver`)."""

    def __init__(self, cluster, undo: contextlib.ExitStack):
        self.cluster, self._undo = cluster, undo

    def close(self) -> None:
        self._undo.close()


def close_cluster(cluster) -> None:
    """Close a LocalCluster. Its workers have imported Beam, after which a worker process does not exit on its own
    and its nanny kills it after 4 s: expected here, so not logged."""
    nanny = logging.getLogger("distributed.nanny")
    level = nanny.level
    nanny.setLevel(logging.ERROR)
    try:
        with contextlib.suppress(Exception):
            cluster.close()
    finally:
        nanny.setLevel(level)


def restore_environ(environ: dict) -> None:
    """Give the variables of `environ` (name -> value, None: unset) their values again. A LocalCluster's nannies set
    their pre-spawn environment (OMP_NUM_THREADS=1, MKL_NUM_THREADS=1, OPENBLAS_NUM_THREADS=1, PYTHONHASHSEED, ...)
    and __DASK_PARENT_PID in THIS process's os.environ as they start workers and leave them there: without this, a
    build run from Python would leave its caller's torch and numpy on one thread for the rest of the session."""
    for key, value in environ.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value


def end_forkserver() -> None:
    """End the forkserver of a LocalCluster, if it has one: the next cluster of this process gets a server of its
    own, forked from this process's environment and standard error as they are then (the watchdog's heartbeat
    directory, its worker log), as a spawned worker would be."""
    from multiprocessing import forkserver

    forkserver._forkserver._stop()      # multiprocessing's own way to end its server (a no-op when none runs)


def _allowed_failures() -> int:
    import dask

    return int(dask.config.get("distributed.scheduler.allowed-failures"))


def start_client(options: PipelineOptions):
    """The Dask client of a run, and the LocalCluster it started (a `StartedCluster`; None when it joined a running
    cluster), with LOCAL_CLUSTER_CONFIG and the start method of `--dask_start_method` (set until `close()`: a nanny
    reads it again to start the replacement of a dead worker)."""
    import dask
    from distributed import Client, LocalCluster
    from distributed.utils import get_mp_context

    if logging.getLogger().getEffectiveLevel() > logging.DEBUG:     # distributed sets INFO when imported; -v keeps it
        logging.getLogger("distributed").setLevel(logging.WARNING)
    dask_options = options.view_as(DaskOptions).get_all_options(drop_default=True, current_only=True)
    connect = {k: v for k, v in dask_options.items() if k in ("address", "scheduler_file", "timeout", "name",
                                                               "connection_limit")}
    workers = options.view_as(DaskClusterOptions).dask_workers
    if connect.get("address") or connect.get("scheduler_file"):
        if str(connect.get("address", "")).startswith("tls://"):
            connect["security"] = client_security(connect["address"])
        try:
            return Client(**connect), None
        except (OSError, TimeoutError) as error:
            where = connect.get("address") or connect.get("scheduler_file")
            raise ConfigError(f"cannot reach the Dask scheduler at {where}: {error}") from None
    # the scheduler, nannies and workers on 127.0.0.1 (Dask's default), or the interface PARANMT_LISTEN_HOST names
    # (pipelines/runtime/listening.py); no dashboard; the scheduler's HTTP routes (health, metrics) on a free port
    # of 127.0.0.1, not Dask's 8787, which another user's cluster may hold (Dask then warns on the console)
    host = (listen_host() or "127.0.0.1").strip("[]")
    method = options.view_as(DaskClusterOptions).dask_start_method
    with contextlib.ExitStack() as undo:        # undone at once if the cluster or its client does not start
        undo.callback(end_forkserver)
        undo.enter_context(dask.config.set({START_METHOD_KEY: method}))
        if method == "forkserver":      # Dask's own preload (its optional packages: pandas, lz4...) replaced by ours
            get_mp_context().set_forkserver_preload(FORKSERVER_PRELOAD)
        with dask.config.set(LOCAL_CLUSTER_CONFIG):     # read when the scheduler and nannies start (and by the workers)
            undo.callback(restore_environ, {key: os.environ.get(key)
                                            for key in (*dask.config.get(PRE_SPAWN_ENVIRON), *NANNY_ENVIRON)})
            cluster = LocalCluster(n_workers=workers or os.cpu_count() or 1, threads_per_worker=1, processes=True,
                                   host=host, dashboard_address=None,
                                   scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
                                   silence_logs=logging.WARNING)
        undo.callback(close_cluster, cluster)
        client = Client(cluster, **{k: v for k, v in connect.items() if k in ("name", "connection_limit")})
        return client, StartedCluster(cluster, undo.pop_all())


def client_security(address: str):
    """Dask's TLS settings of the client (`distributed.comm.tls.ca-file`, `.client.cert`/`.key` of the Dask config,
    e.g. DASK_CONFIG=dask-client.yaml of `paranmt cluster-config`) for a tls:// scheduler; ConfigError when the
    config has no CA file or client certificate."""
    from distributed.security import Security

    security = Security()
    if not (security.tls_ca_file and security.tls_client_cert):
        raise ConfigError(f"--dask-address {address}: Dask's config has no TLS CA file and client certificate "
                          f"(distributed.comm.tls.ca-file, distributed.comm.tls.client.cert); run with "
                          f"DASK_CONFIG=<the dask-client.yaml of paranmt cluster-config> (docs/cluster.md)")
    return security


def check_resources(client) -> None:
    """On a joined cluster whose build isolates a stage by resources: both kinds of worker must be there, else
    those tasks would wait forever. ConfigError naming what is missing."""
    workers = client.scheduler_info(n_workers=-1)["workers"].values()
    have = {name for worker in workers for name, amount in (worker.get("resources") or {}).items() if amount}
    missing = [name for name in (CPU_RESOURCE, GPU_RESOURCE) if name not in have]
    if missing:
        raise ConfigError(f"the build runs translate on GPU workers (translate.accelerator is set) but no worker of "
                          f"the Dask cluster has the resource {' or '.join(missing)} ({len(workers)} workers now); "
                          f"start workers with `paranmt cluster-config` (or `dask worker --resources GPU=1` / "
                          f"`CPU=N`), or clear translate.accelerator")


class ParanmtDaskRunner(DaskRunner):
    """Beam's DaskRunner with paranmt's additions (module docstring): `--runner dask`."""

    def run_pipeline(self, pipeline, options):
        import dask
        from apache_beam.pipeline import PipelineVisitor
        from apache_beam.runners.dask import transform_evaluator
        from apache_beam.runners.dask.overrides import dask_overrides

        dask_options = options.view_as(DaskOptions).get_all_options(drop_default=True, current_only=True)
        bag_kwargs = DaskOptions._extract_bag_kwargs(dask_options) or {"partition_size": 1}
        client, cluster = start_client(options)
        try:
            client.register_plugin(WorkerLogging(logging.getLogger().getEffectiveLevel() <= logging.DEBUG))
            isolating = cluster is None and any(node.resource_hints for node in _transforms(pipeline))
            if isolating:
                check_resources(client)
            topic = f"paranmt-beam-metrics-{uuid.uuid4().hex}"
            pardo = _metered_pardo(transform_evaluator.ParDo)
            pardo.topic, pardo.annotate = topic, isolating
            translations = {**transform_evaluator.TRANSLATIONS, transform_evaluator.apache_beam.ParDo: pardo}
            pipeline.replace_all(dask_overrides())
            visitor = _bag_visitor(PipelineVisitor, translations, bag_kwargs)
            pipeline.visit(visitor)
            last = list(visitor.bags.values())[-1]
            # fused (one task per shard through every step) unless resources must place steps on their workers
            graph = last if isolating else dask.optimize(last)[0]
            futures = client.compute([graph], optimize_graph=not isolating)
        except BaseException:
            close(client, cluster)
            raise
        return DaskPipelineResult(client, cluster, futures, topic, DaskMetrics())


def _transforms(pipeline) -> list:
    nodes = []

    class Collect:
        def enter_composite_transform(self, node):
            pass

        def leave_composite_transform(self, node):
            pass

        def visit_value(self, value, producer):
            pass

        def visit_transform(self, node):
            nodes.append(node)

    pipeline.visit(Collect())
    return nodes


def _bag_visitor(base, translations: dict, bag_kwargs: dict):
    """Beam's DaskBagVisitor (`DaskRunner.to_dask_bag_visitor`) over `translations` instead of its fixed table."""
    from apache_beam import pvalue
    from apache_beam.runners.dask.transform_evaluator import Flatten, NoOp

    class BagVisitor(base):
        def __init__(self):
            self.bags = {}

        def visit_transform(self, node):
            op = translations.get(node.transform.__class__, NoOp)(node, bag_kwargs=bag_kwargs)
            kwargs = {"input_bag": None, "side_inputs": None}
            inputs = list(node.inputs)
            if inputs:
                bags = [self.bags[value.producer] for value in inputs
                        if not isinstance(value, pvalue.PBegin) and value.producer in self.bags]
                bags += [None for value in inputs if isinstance(value, pvalue.PBegin)]
                kwargs["input_bag"] = bags[0] if len(bags) == 1 and not isinstance(op, Flatten) else bags
            if node.side_inputs:    # (view, its bag): MeteredParDo makes the bag a dependency of its tasks
                kwargs["side_inputs"] = [(si, self.bags[si.pvalue.producer]) for si in node.side_inputs]
            self.bags[node] = op.apply(**kwargs)

    return BagVisitor()
