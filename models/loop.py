"""The training loop of every trainer: `paranmt train` (models/training/trainer.py), `train-bgt`
(models/bgt/trainer.py), `train-paraphraser` (models/generation/train.py), `finetune-sts`
(models/training/sts_finetune.py) and `train-words` (models/training/paragram.py) are `Task`s that `run` drives.

A task says how to build its model, cut an epoch into batches, take one batch (`step`), summarize a window of
steps, evaluate on its dev data and save itself; the loop owns everything else:
- order: an epoch's order is `epoch_order(seed, epoch, n)`, the permutation of range(n) drawn by numpy's
  default_rng(seed + epoch), so a resumed run sees the order it would have seen; the task cuts its batches from it
  and yields them from `state.position` (its own unit: pairs, batches) on;
- stopping: after `epochs` epochs, after `max_steps` updates (0: no limit), after `time_budget_minutes` of
  training time summed over resumes (0: no limit), checked after every batch, or, with `patience` N > 0, once the
  dev metric of keep-best has not improved for N dev evaluations in a row (counted over resumes; logged as
  "stopped: dev metric not improved for N evaluations", and the `done` line gets "stopped": "patience"; a warning
  when that comes before the task's learning-rate warm-up ended, `Task.warmup_updates`); a task without a dev
  metric refuses a patience (ConfigError);
- memory: on CPU, glibc's malloc keeps what a step frees for the next step (`reuse_freed_memory`, models/device.py;
  `PARANMT_MALLOC=system` leaves it as it is);
- progress: a tqdm bar over the updates showing the last window's `Task.shown` fields;
- metrics (JSON lines, `<output>/metrics.jsonl` or the file given): with `log_every` N > 0, a line whenever the update
  count passes a multiple of N, {"step", "epoch" (epochs completed), the task's fields of the window (`Task.record`:
  means and rates since the last line), "elapsed_s"}, a line per dev evaluation {"step", "epoch", the task's dev
  metrics} and, with an output directory, a last line {"done": true, "step", "epoch", "device" (where it trained: cpu
  or cuda, also when the config said auto), the task's `summary`}; with `log_every` 0 one line per epoch, {"epoch"
  (its number, from 1), "step", the window's fields and the dev metrics}, also for an epoch cut short by a stop; a run
  that diverges ends the file with {"done": false, "stopped": "diverged", "step" (the update after which the weights
  are not finite), "epoch", "device"}; a resume appends (after a newline when the stopped run left its last line
  partly written);
- curves (with a metrics file): `metrics.png` beside it, the whole metrics.jsonl drawn by models/curves.py
  (the `Task.shown` fields and the dev metrics against the update, the best evaluation marked, epoch ends, the
  stop reason), redrawn after a dev evaluation and at a checkpoint when lines were written since the last drawing,
  at most once per `Loop.draw_every_s` (30 s; a redraw costs 0.2-0.3 CPU-s at a few hundred lines, under 1 s at
  20,000, plus 0.6-1 s for matplotlib's import at the first), and at the end; written atomically (`.tmp`,
  renamed); a failure to draw is one warning and the run goes on without it;
- checkpoints (with an output directory; `checkpoint_every` N updates, 0: only at the end, and at the end): the
  directory `<output>/checkpoint/` holding the model as the task saves it (`Task.save`) and `trainer_state.pt` =
  the counters (step, epoch, position, elapsed, best_dev, stale), the task's optimizer / scheduler / RNG states
  (`Task.state_dict`), torch's CPU and CUDA RNG states and the config; filled beside the current one and swapped in
  (`write_directory`), so a crash never leaves a half-written checkpoint;
- resume: from `<output>/checkpoint/` (or `checkpoint.old`, left when a swap was cut short) or, when there is
  neither, from `<output>/checkpoint.pt`, the single file train-bgt wrote before this loop (its dict is read as
  trainer_state.pt, its "model" entry being the model's state); counters, task state and torch RNG are restored
  and the run goes on as if it had not stopped (the commands resume with the config the stopped run saved,
  `Config.SAVED_AS`; one that differs from the checkpoint's is a warning naming each field, old -> new value),
  except that `check_resume` refuses a change of a field that makes the checkpoint (`LoopConfig.SHAPES`) and the
  resume of a finished run (its last checkpoint, written at the end, says `finished`) whose limits were not raised;
  a resumed run already at a limit makes no update;
- divergence: the weights are checked before every save (and when a step's loss is not finite): weights that are
  no longer finite numbers stop the run (TrainingDiverged) before a checkpoint or model of NaNs is written, after
  the metrics file's last line saying so;
- dev evaluation: `Task.evaluate` at each epoch end (`evaluate_at = "epoch"`; with per-epoch lines also at a stop
  inside an epoch) or at each checkpoint and at the end (`"checkpoint"`);
- keep-best: a task that names a dev metric (`best = (key, "min" | "max")`; a metric that is a mapping counts as
  the mean of its values, e.g. {"dev": {dataset: Pearson}}) gets `Task.keep_best` each time the metric beats every
  value before it (strictly); the best value so far and the number of evaluations since it (`stale`, what
  `patience` compares) are persisted in the checkpoints as best_dev and stale.
"""
from __future__ import annotations

import dataclasses
import json
import logging
import math
import shutil
import time
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Iterable, Iterator

import numpy as np
import torch
from tqdm import tqdm

from paranmt.models.device import Device, reuse_freed_memory, select_device, training_dtype
from paranmt.models.safe_load import load_weights_only
from paranmt.schemas.config import (DEVICES, FP16_CHOICES, WEIGHTS_DTYPES, Config, bounded, check_fits,
                                    check_ranges, choice, setting)
from paranmt.schemas.errors import ConfigError, TrainingDiverged

log = logging.getLogger(__name__)
STATE_FILE = "trainer_state.pt"
LEGACY_FILE = "checkpoint.pt"


@dataclass
class LoopConfig(Config):
    """The settings every trainer shares (a trainer's config subclasses it; its own defaults redeclare a field, its
    own help texts are its `HELP`: schemas/config.py `Config`).
    `FIXED`: the fields a trainer does not use (e.g. device and checkpoints of a CPU-only run without an output
    directory): validate() refuses a value other than the trainer's default, so none is ignored silently.
    `SHAPES`: the fields that make the checkpoint what it is (the model's architecture and vocabulary, and which
    training pairs it keeps): `--resume` refuses a change of any of them (`check_resume`); the others may change on
    a resume (a warning names each), paths among them (a model file the run started from, named by its path, which
    a moved directory changes; the checkpoint holds what was read from it). validate() also refuses a model the machine cannot hold
    (`model_size`, schemas/config.check_fits) before anything is allocated.
    `fp16`: the training precision (auto: fp16 on CUDA; on; off: fp32; bf16), resolved with the device by
    models/device.py `training_dtype` (`select`: a precision the device cannot run is a ConfigError); each task
    trains through `MixedPrecision.select(device, fp16)` (autocast, loss scaling, the update)."""
    FIXED: ClassVar[tuple[str, ...]] = ()
    SHAPES: ClassVar[tuple[str, ...]] = ()
    epochs: int = bounded(10, 0, help="passes over the training data (0: the model as initialized is saved)")
    lr: float = bounded(1e-3, 0, help="learning rate")
    max_steps: int = bounded(0, 0, help="stop after this many mini-batches in total (0: no limit)")
    time_budget_minutes: float = bounded(0, 0, help="stop after this much training time in total (0: no limit)")
    patience: int = bounded(0, 0, help="stop after N dev evaluations in a row without a new best (0: off)")
    checkpoint_every: int = bounded(1000, 0, help="write <output>/checkpoint every N mini-batches (and at the end)")
    log_every: int = bounded(100, 0, help="a line of <output>/metrics.jsonl every N mini-batches (0: one per epoch)")
    seed: int = setting(1, help="random seed (data order, initialization, dropout)")
    threads: int = bounded(0, 0, help="CPU threads of torch (0: one per core, or OMP_NUM_THREADS when set)")
    device: str = choice("auto", DEVICES, help="training device: auto = CUDA when available")
    fp16: str = choice("auto", FP16_CHOICES, help="half-precision training: auto = on CUDA")
    weights_dtype: str = choice("float32", WEIGHTS_DTYPES, help="dtype of the saved final weights (float16 halves the "
                                "size)")

    def validate(self) -> "LoopConfig":
        check_ranges(self)
        defaults = type(self)()
        for name in self.FIXED:
            if getattr(self, name) != getattr(defaults, name):
                raise ConfigError(f"{name} is not a setting of this trainer (it trains on the CPU, without "
                                  f"checkpoints): leave it at {getattr(defaults, name)!r}, not {getattr(self, name)!r}")
        size = self.model_size()
        if size is not None:
            check_fits(*size)
        return self

    def model_size(self) -> tuple[int, str] | None:
        """(about how many parameters the model of these settings has at most, the settings that make it so) for
        the memory check of validate(); None where the settings alone do not tell (the data or a model file
        does)."""
        return None


@dataclass
class CpuLoopConfig(LoopConfig):
    """The loop's settings of a minutes-long trainer on the CPU that writes its output once, at the end (finetune-sts,
    train-words): no checkpoints, no device or dtype of saved weights to choose (`FIXED`), one metrics line per
    epoch unless `log_every` says otherwise, at least one epoch (its config words `epochs`' help in its `HELP`)."""
    FIXED: ClassVar[tuple[str, ...]] = ("checkpoint_every", "device", "fp16", "weights_dtype")
    epochs: int = bounded(10, 1)
    checkpoint_every: int = bounded(0, 0)
    log_every: int = bounded(0, 0)              # 0: one metrics line per epoch
    device: str = "cpu"


def dev_value(dev: dict, key: str) -> float:
    """The dev metric `key` of an evaluation as keep-best compares it: the value, or the mean of a mapping's values
    (the encoder trainers' {"dev": {dataset: Pearson x100}})."""
    value = dev[key]
    return float(np.mean(list(value.values()))) if isinstance(value, dict) else value


def epoch_order(seed: int, epoch: int, n: int) -> np.ndarray:
    """The order of epoch `epoch`: a permutation of range(n) from numpy's default_rng(seed + epoch)."""
    return np.random.default_rng(seed + epoch).permutation(n)


@dataclass
class LoopState:
    """Where training stands: updates done, epochs completed, position in the current epoch (the task's unit),
    training seconds, the best dev metric so far (keep-best) and the dev evaluations since it (patience)."""
    step: int = 0
    epoch: int = 0
    position: int = 0
    elapsed: float = 0.0
    best_dev: float = math.inf
    stale: int = 0

    COUNTERS = ("step", "epoch", "position", "elapsed")


@dataclass
class Checkpoint:
    """A checkpoint to resume from: `state` is its trainer_state.pt; `directory` holds the model as the task saved
    it (None for train-bgt's old single checkpoint.pt, whose state holds the model under "model")."""
    directory: Path | None
    state: dict


@dataclass
class Window:
    """The steps since the last metrics line: their summed `Task.step` quantities, updates and wall seconds."""
    sums: dict[str, float] = field(default_factory=dict)
    updates: int = 0
    started: float = field(default_factory=time.perf_counter)

    def add(self, updates: int, quantities: dict[str, float]) -> None:
        self.updates += updates
        for key, value in quantities.items():
            self.sums[key] = self.sums.get(key, 0.0) + value

    @property
    def seconds(self) -> float:
        return time.perf_counter() - self.started


class Task(ABC):
    """One trainer as the loop sees it (module docstring). Class attributes: `description` and `unit` of the
    progress bar, `shown`: the window fields on it, `evaluate_at`: "epoch" | "checkpoint", `best`: (dev metric,
    "min" | "max") to keep the best model by (and `patience` to watch), or None (also as an instance attribute:
    None when the run has no dev data), `warmup_updates`: the updates of its learning-rate warm-up (0: none; a
    patience stop before they are done is warned about: the dev scores it compared are of a model still warming
    up)."""
    description = "train"
    unit = "batch"
    shown: tuple[str, ...] = ("loss",)
    evaluate_at = "epoch"
    best: tuple[str, str] | None = None
    warmup_updates = 0

    @abstractmethod
    def setup(self, checkpoint: Checkpoint | None, device: Device) -> None:
        """Build the model and optimizer on `device` (torch seeded), or load them and the task's state from
        `checkpoint`."""

    @abstractmethod
    def steps_per_epoch(self) -> int:
        """Updates in one epoch (the progress bar's total)."""

    @abstractmethod
    def epoch_size(self) -> int:
        """Positions in one epoch (the unit `batches` advances `state.position` by)."""

    @abstractmethod
    def batches(self, state: LoopState) -> Iterator[tuple[int, Any]]:
        """The batches of epoch `state.epoch` from `state.position` on, each as (positions it covers, batch); the
        loop advances `state` between two batches."""

    @abstractmethod
    def step(self, batch: Any, state: LoopState) -> tuple[int, dict[str, float]]:
        """Train on `batch`; returns the updates made and the quantities a window sums (losses, items)."""

    @abstractmethod
    def record(self, window: Window, state: LoopState) -> dict:
        """The fields of a metrics line for `window`."""

    @abstractmethod
    def parameters(self) -> Iterable[torch.Tensor]:
        """The model's weights, which the loop checks are finite numbers before it saves anything."""

    def evaluate(self, state: LoopState) -> dict | None:
        """Dev metrics of the model as it is now (None: no dev data)."""
        return None

    def keep_best(self, state: LoopState, metrics: dict) -> None:
        """Keep the model as it is now: `metrics` beat every dev evaluation before."""

    def state_dict(self) -> dict:
        """The task's state for a checkpoint (optimizer, scheduler, scaler, its RNG), beside the loop's."""
        return {}

    def save(self, directory: Path) -> None:
        """Save the model into a new checkpoint directory."""

    def summary(self, state: LoopState) -> dict:
        """The task's fields of the last metrics line."""
        return {}


def swap_in(new: Path, checkpoint: Path) -> None:
    """Make the finished directory `new` the checkpoint: the current one is renamed to `<checkpoint>.old`, `new`
    to `checkpoint`, then the old one is deleted, so a crash at any point leaves a complete checkpoint (under its
    name or as `.old`, which resuming looks for)."""
    old = checkpoint.with_name(checkpoint.name + ".old")
    if old.exists():
        shutil.rmtree(old)
    if checkpoint.exists():
        checkpoint.rename(old)
    new.rename(checkpoint)
    if old.exists():
        shutil.rmtree(old)


def write_directory(target: Path, write) -> None:
    """Fill `<target>.tmp` with `write(tmp)`, then make it `target` (`swap_in`): a crash never leaves a half-written
    `target` (checkpoints, a trainer's `best/`)."""
    tmp = target.with_name(target.name + ".tmp")
    if tmp.exists():
        shutil.rmtree(tmp)
    write(tmp)
    swap_in(tmp, target)


def find_checkpoint(output: Path) -> Checkpoint | None:
    """The checkpoint of `output` to resume from (module docstring: the directory, its `.old`, the old single file),
    read weights-only (models/safe_load.py: a file holding anything else is refused, UnsafeFileError)."""
    directory = output / "checkpoint"
    interrupted = output / "checkpoint.old"
    if not directory.exists() and interrupted.exists():
        interrupted.rename(directory)
    if (directory / STATE_FILE).is_file():
        return Checkpoint(directory, load_weights_only(directory / STATE_FILE))
    if (output / LEGACY_FILE).is_file():
        return Checkpoint(None, load_weights_only(output / LEGACY_FILE))
    return None


def limits_reached(config: LoopConfig, state: dict) -> list[str]:
    """The limits of `config` that the checkpoint counters `state` (trainer_state.pt) have reached, each as `key
    value`: what ends a run there before its first update."""
    reached = [("epochs", state["epoch"] >= config.epochs),
               ("max_steps", config.max_steps and state["step"] >= config.max_steps),
               ("time_budget_minutes", config.time_budget_minutes and
                state["elapsed"] >= 60 * config.time_budget_minutes),
               ("patience", config.patience and state.get("stale", 0) >= config.patience)]
    return [f"{key} {getattr(config, key)}" for key, hit in reached if hit]


def check_resume(config: LoopConfig, checkpoint: Checkpoint, output: Path) -> None:
    """ConfigError (one line, before anything is written) when `--resume` cannot go on from `checkpoint` of
    `output` under `config`: a setting that makes the checkpoint what it is (`config.SHAPES`) changed (the loaded
    model would be trained on under settings it does not have), or the run it holds finished (its last checkpoint)
    and `config` raises none of the limits it reached (a resume would train one update more and overwrite the
    model: it is left as it is). A resume whose raised limit lets it go on, and one of a run that stopped before
    its end, are fine."""
    saved = checkpoint.state
    changed = [line for line in config.differences(saved["config"]) if
               line.split(":")[0].split(".")[0] in config.SHAPES] if "config" in saved else []
    if changed:
        raise ConfigError(f"--resume: the checkpoint in {output} was made with other settings of its model or data "
                          f"({'; '.join(changed)}), which cannot change on a resume; leave them out (--resume goes on "
                          f"with the checkpoint's) or give its values, or --overwrite to start again")
    reached = limits_reached(config, saved) if saved.get("finished") else []
    if reached:
        flags = " and ".join(f"--{line.split()[0].replace('_', '-')}" for line in reached)
        raise ConfigError(f"--resume: {output} holds a finished training (update {saved['step']}, epoch "
                          f"{saved['epoch']}; it reached {' and '.join(reached)}): nothing to resume; raise {flags} "
                          f"to train further, or --overwrite to start again")


def select(config: LoopConfig) -> Device:
    """The device of `config` (models/device.py); a CUDA request without CUDA, and a precision (`fp16`) the device
    cannot train in, are a ConfigError (before anything is written)."""
    try:
        device = select_device(config.device, config.threads)
    except ValueError as error:
        raise ConfigError(str(error)) from None
    training_dtype(device, config.fp16)
    return device


class Loop:
    """One training run of `task` under `config` (module docstring). `output`: the directory of checkpoints and
    metrics.jsonl (None: no checkpoints, metrics into `metrics_file` if given), where the config is written as JSON
    into its `SAVED_AS` with `save_config` (`Config.save`); `resume`: continue from its checkpoint when there is
    one. `draw_every_s`: the least wall time between two redraws of metrics.png but the last."""
    draw_every_s = 30.0

    def __init__(self, task: Task, config: LoopConfig, output: Path | None = None,
                 metrics_file: Path | None = None, resume: bool = False, save_config: bool = False):
        self.task, self.config, self.resume, self.save_config = task, config, resume, save_config
        self.output = Path(output) if output is not None else None
        self.metrics_file = self.output / "metrics.jsonl" if self.output is not None else metrics_file
        self.state = LoopState(best_dev=-math.inf if task.best and task.best[1] == "max" else math.inf)
        self.metrics = None
        self.stopped: str | None = None          # "patience" once the patience ran out
        self.evaluated_at: int | None = None
        self.lines = 0                            # metrics lines written by this run
        self.drawn_lines = 0                      # ... when metrics.png was last drawn
        self.drawn_at = time.perf_counter()       # when it was last drawn (or the run began)
        self.draw_pending = False                 # a redraw was asked for and put off (`draw_every_s`)
        self.draw_failed = False

    def run(self) -> LoopState:
        """Train to the end (or a stop); returns the final state. The caller saves the final model."""
        c, task, state = self.config, self.task, self.state
        if c.patience and task.best is None:
            raise ConfigError(f"patience {c.patience} needs a dev evaluation to watch, and {task.description} has "
                              "none here: give it a dev set")
        if c.threads:
            torch.set_num_threads(c.threads)
        device = select(c)
        self.device_kind = device.kind
        if device.kind == "cpu":
            reuse_freed_memory()
        torch.manual_seed(c.seed)
        checkpoint = None
        if self.output is not None:
            self.output.mkdir(parents=True, exist_ok=True)
            checkpoint = find_checkpoint(self.output) if self.resume else None
            if checkpoint is not None:
                check_resume(c, checkpoint, self.output)
            if self.save_config:
                c.save(self.output)
        task.setup(checkpoint, device)
        if checkpoint is not None:
            self._restore(checkpoint)
        total = task.steps_per_epoch() * c.epochs
        if c.max_steps:
            total = min(total, c.max_steps)
        # the bar exists before metrics.jsonl does: a stop signalled once that file appears (as a supervisor
        # watching it would) cannot land inside tqdm's constructor, whose half-built object prints a traceback
        bar = tqdm(total=total, initial=min(state.step, total), desc=task.description, unit=task.unit,
                   dynamic_ncols=True)
        try:
            self._train(bar, checkpoint is not None)
        except TrainingDiverged:
            # the run's record says why it ended: a last line, and the curves drawn with it
            self._write({"done": False, "stopped": "diverged", "step": state.step, "epoch": state.epoch,
                         "device": self.device_kind})
            self._close()
            raise
        self._close()
        return state

    def _train(self, bar, resumed: bool) -> None:
        """Open the metrics file, train the epochs, then (with an output directory) the last evaluation, the last
        checkpoint and the `done` line."""
        task, state = self.task, self.state
        try:
            if self.metrics_file is not None:
                self.metrics = Path(self.metrics_file).open("a" if resumed else "w")
                if resumed and _cut_short(Path(self.metrics_file)):
                    self.metrics.write("\n")       # a line the stopped run left partly written stays alone
            self._epochs(bar)
        finally:
            bar.close()
        self._check_finite()
        if self.output is not None:
            if task.evaluate_at == "checkpoint" and self.evaluated_at != state.step:
                self._evaluate()
            self._save(finished=True)
            stopped = {"stopped": self.stopped} if self.stopped else {}
            self._write({"done": True, "step": state.step, "epoch": state.epoch, "device": self.device_kind,
                         **task.summary(state), **stopped})

    def _close(self) -> None:
        """Close the metrics file and draw the curves a last time."""
        if self.metrics is not None:
            self.metrics.close()
        self._draw(final=True)

    def _epochs(self, bar) -> None:
        c, task, state = self.config, self.task, self.state
        stop, window = self._at_limit(), Window()   # a resumed run may be at a limit already: no update more
        while state.epoch < c.epochs and not stop:
            for advance, batch in task.batches(state):
                started = time.perf_counter()
                updates, quantities = task.step(batch, state)
                state.position += advance
                state.step += updates
                self._check_finite(quantities)
                state.elapsed += time.perf_counter() - started
                window.add(updates, quantities)
                bar.update(updates)
                if c.log_every and _passed(state.step, updates, c.log_every):
                    self._line({"step": state.step, "epoch": state.epoch, **task.record(window, state),
                                "elapsed_s": state.elapsed}, bar)
                    window = Window()
                if self.output is not None and c.checkpoint_every and _passed(state.step, updates, c.checkpoint_every):
                    if task.evaluate_at == "checkpoint":
                        self._evaluate()
                    self._save()
                stop = self._at_limit()
                if stop:
                    break
            ended = state.position >= task.epoch_size()
            if ended:
                state.epoch += 1
                state.position = 0
            if not c.log_every and window.updates:
                dev = self._dev() if task.evaluate_at == "epoch" else None
                self._line({"epoch": state.epoch if ended else state.epoch + 1, "step": state.step,
                            **task.record(window, state), **(dev or {})}, bar, dev)
                window = Window()
            elif ended and task.evaluate_at == "epoch":
                self._evaluate()
            stop = stop or self._out_of_patience()

    def _at_limit(self) -> bool:
        """Has the run reached max_steps, its time budget or the end of its patience?"""
        c, state = self.config, self.state
        return bool((c.max_steps and state.step >= c.max_steps) or
                    (c.time_budget_minutes and state.elapsed >= 60 * c.time_budget_minutes) or
                    self._out_of_patience())

    def _out_of_patience(self) -> bool:
        """Has the dev metric gone `patience` evaluations without a new best? (logged once)"""
        patience = self.config.patience
        if not patience or self.state.stale < patience:
            return False
        if self.stopped is None:
            self.stopped = "patience"
            log.info("stopped: dev metric not improved for %d evaluations (best %s)", self.state.stale,
                     f"{self.state.best_dev:.4g}")
            if self.state.step < self.task.warmup_updates:
                log.warning("the patience ran out at update %d, before the learning-rate warm-up's %d updates "
                            "ended: the dev scores it compared are of a model still warming up (a larger "
                            "patience or a shorter warm-up lets the schedule run)", self.state.step,
                            self.task.warmup_updates)
        return True

    def _dev(self) -> dict | None:
        self.evaluated_at = self.state.step
        return self.task.evaluate(self.state)

    def _evaluate(self) -> None:
        """A dev evaluation as its own metrics line (keep-best follows)."""
        dev = self._dev()
        if dev is not None:
            self._line({"step": self.state.step, "epoch": self.state.epoch, **dev}, None, dev)

    def _line(self, record: dict, bar, dev: dict | None = None) -> None:
        self._write(record)
        if bar is not None:
            bar.set_postfix({k: f"{record[k]:.4g}" for k in self.task.shown if k in record})
        if dev is not None:
            self._draw()
            log.info("step %d: dev %s", self.state.step, dev)
            best = self.task.best
            if best is not None:
                value, previous = dev_value(dev, best[0]), self.state.best_dev
                if (value < previous) if best[1] == "min" else (value > previous):
                    self.state.best_dev, self.state.stale = value, 0
                    self.task.keep_best(self.state, record)
                else:
                    self.state.stale += 1

    def _write(self, record: dict) -> None:
        if self.metrics is not None:
            self.metrics.write(json.dumps(record) + "\n")
            self.metrics.flush()
            self.lines += 1
            if self.draw_pending:
                self._draw()

    def _draw(self, final: bool = False) -> None:
        """Redraw `metrics.png` beside metrics.jsonl from the whole file (models/curves.py) when lines were written
        since the last drawing, at most once per `draw_every_s` (a redraw asked for sooner waits for the next line
        after it) except the `final` one; a failure is one warning, and the run goes on without the plot."""
        if self.metrics_file is None or self.draw_failed:
            return
        self.draw_pending = self.lines != self.drawn_lines
        if not self.draw_pending or (not final and time.perf_counter() - self.drawn_at < self.draw_every_s):
            return
        try:
            from paranmt.models import curves        # matplotlib only once a run draws
            metrics = Path(self.metrics_file)
            curves.draw_curves(metrics, metrics.with_suffix(".png"), self.task.shown, self.task.best,
                               self.task.description)
            self.drawn_lines, self.draw_pending = self.lines, False
        except Exception as error:                   # a plot never stops a training
            self.draw_failed = True
            log.warning("metrics.png not drawn (%s: %s); training goes on without it", type(error).__name__, error)
        self.drawn_at = time.perf_counter()

    def _check_finite(self, quantities: dict[str, float] | None = None) -> None:
        """TrainingDiverged when the model's weights are no longer finite numbers: checked when a step's
        `quantities` (its loss) are not finite (a step that fp16's loss scaling skipped leaves the weights as they
        were and goes on) and, without `quantities`, before anything is saved, so no checkpoint or model of NaNs
        is written."""
        if quantities is not None and all(math.isfinite(value) for value in quantities.values()):
            return
        if all(bool(torch.isfinite(weights).all()) for weights in self.task.parameters()):
            return
        loss = next((f"the loss is {value} and " for value in (quantities or {}).values()
                     if not math.isfinite(value)), "")
        raise TrainingDiverged(f"the training diverged: {loss}the weights are no longer finite numbers after update "
                               f"{self.state.step} (lr {self.config.lr} is likely too high): lower it, then")

    def _save(self, finished: bool = False) -> None:
        """Write the checkpoint (`finished`: the last one of a run that reached its end, which `check_resume`
        knows by it)."""
        self._check_finite()
        state = self.state

        def write(tmp: Path) -> None:
            tmp.mkdir(parents=True, exist_ok=True)
            self.task.save(tmp)
            saved = {**{name: getattr(state, name) for name in LoopState.COUNTERS}, "best_dev": state.best_dev,
                     "stale": state.stale,
                     **self.task.state_dict(), "torch_rng": torch.get_rng_state(),
                     "config": dataclasses.asdict(self.config), "finished": finished}
            if torch.cuda.is_available() and torch.cuda.is_initialized():
                saved["cuda_rng"] = torch.cuda.get_rng_state_all()
            torch.save(saved, tmp / STATE_FILE)

        write_directory(self.output / "checkpoint", write)
        legacy = self.output / LEGACY_FILE
        if legacy.exists():
            legacy.unlink()                   # train-bgt's old single file: the directory replaces it
        if not finished:
            self._draw()                      # the last one follows the done line

    def _restore(self, checkpoint: Checkpoint) -> None:
        saved, state = checkpoint.state, self.state
        for name in LoopState.COUNTERS:
            setattr(state, name, saved[name])
        state.best_dev = saved.get("best_dev", state.best_dev)   # checkpoints from before keep-best: none yet
        state.stale = saved.get("stale", 0)                       # ... and from before patience
        changed = self.config.differences(saved["config"]) if "config" in saved else []
        if changed:
            log.warning("resuming with a changed config (fields: %s)", "; ".join(changed))
        torch.set_rng_state(saved["torch_rng"].cpu())
        if "cuda_rng" in saved and torch.cuda.is_available():
            torch.cuda.set_rng_state_all(saved["cuda_rng"])
        log.info("resuming at update %d (epoch %d, position %d)", state.step, state.epoch, state.position)


def _passed(step: int, updates: int, every: int) -> bool:
    """Did the last `updates` updates, ending at `step`, pass a multiple of `every`?"""
    return step // every != (step - updates) // every


def _cut_short(path: Path) -> bool:
    """Does the file at `path` end inside a line (a run killed while writing it)?"""
    with path.open("rb") as file:
        if file.seek(0, 2) == 0:
            return False
        file.seek(-1, 2)
        return file.read(1) != b"\n"
