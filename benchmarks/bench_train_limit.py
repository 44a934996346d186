"""Every trainer at the machine's limit (issue 43): per `paranmt train --encoder` kind, `train-bgt`,
`train-paraphraser` (its three tasks) and `train-nmt`, the cost of one update step beside this CPU's matmul speed
and, for the encoders, beside a reference built from torch's fused modules.

    python benchmarks/bench_train_limit.py --input PAIRS [--pairs 4000] [--kinds lstm gran-3 ...] [--threads 1 2]
        [--device cpu|cuda] [--fp16 off|auto|on|bf16] [--megabatch 40] [--batch-size 100] [--dim 300] [--profile]
        [--bgt-input BITEXT [--bgt-steps 5]]
        [--paraphrasers scpn plain parse-generator [--paraphraser-input PATH] [--paraphraser-pairs 640]
         [--paraphraser-steps 5] [--units-from assets/paraphraser-scpn] [--parser assets/parser-en]]
        [--nmt-config YAML [--nmt-steps 5]] [--scpn-encoder-buckets 8 16 32 64]

PAIRS is anything `paranmt train` reads (at most 40 words a side are kept; the first --pairs of them). A step is
the trainer's steady state: one mega-batch of M x batch pairs through the trainer's own code (`EncoderTask.step`:
scramble, the negative search over the mega-batch's embeddings, M mini-batch updates, each forward + backward over
the 4 x batch sentences of its pairs and negatives, then SparseAdam + Adam), divided by M. Per kind and thread
count, printed as a Markdown table:
- wall and CPU seconds per step (CPU: the process's, all threads) and pairs per CPU-second;
- GFLOP per step: a warm-up mega-batch of 2 x batch pairs run under torch.utils.flop_counter.FlopCounterMode
  (the torch ops a step runs; oneDNN's fused LSTM layer, which the counter does not know, counted as
  2 x rows x steps x (in + hidden) x 4 hidden forward and twice that backward, and in-place `addmm_` as `addmm`),
  per update, plus the negative search's similarity matrices (numpy, 2 x anchors x pool x dim per side) at M;
- achieved GFLOP/s (GFLOP per step / CPU seconds per step) and its share of this machine's matmul GFLOP/s (a
  1024 x 1024 fp32 matmul, best of 20, per CPU-second as the steps are);
- `x ref`: the step's CPU time over the reference's: per mini-batch, a torch `nn.LSTM` (word dim -> hidden) +
  mean pooling over the real positions, forward + backward + Adam over input tensors of exactly the mini-batch's
  padded shapes (the 4 x batch sentences of the step, padded to their longest), plus the no-gradient forward over
  the mega-batch's share (2 x batch sentences per update, padded per 2048 as `encode` batches them); the same
  sentences (word units) the step sees.
The other trainers' step is one update over a batch as the trainer cuts it, through the trainer's own step
(the timed batches run once before under the FLOP counter, which is also the warm-up; no fused reference):
- `--bgt-input BITEXT` adds `train-bgt` (`BGTTask.step`, its defaults, the sentencepiece model of --bgt-sp-model);
- `--paraphrasers TASK ...` adds `train-paraphraser` per task (`ParaphraserTask.step`, arch scpn, the trainer's
  defaults: batch 64, embed 256, hidden 384, 2 decoder layers; scpn and plain on the units of --units-from, the
  shipped SCPN's 6,000 sentencepiece pieces, as the shipped plain model is trained): the first --paraphraser-pairs
  pairs of --paraphraser-input (default: --input; anything `train-paraphraser --input` reads), parsed with
  --parser where they have no parses (kept in WORK/parses.tsv, so a rerun parses nothing), made into instances as
  train-paraphraser makes them (at most 40 words a side);
- `--nmt-config YAML` adds `train-nmt`: the recipe's data, spm and preprocess steps (models/nmt/recipe.py) in
  WORK/train-nmt (done once: a rerun with another config needs another --work), then fairseq's own `Trainer` set up
  from the recipe's fairseq-train arguments as fairseq_cli.train sets it up; a step is `Trainer.train_step` over one
  batch of the epoch iterator (`max_tokens` of the config; update_freq batches when the config sets it).
`--scpn-encoder-buckets ROWS ...` (with `--paraphrasers scpn`) adds a table: the SCPN's two BiLSTM encoders alone
(sentence and parse, forward + backward of the sum of their states) over the scpn row's timed batches, CPU seconds
per batch with length buckets of each ROWS (models/generation/scpn.py ENCODER_BUCKET_ROWS) and over a packed
sequence (`pack_padded_sequence`, the encoders' code before issue 43 item 2), best of 3 passes after a warm-up.
For these the rate column is target units (pieces, parse tokens, fairseq's `ntokens`; EOS included) per
CPU-second beside pairs (instances, sentence pairs) per CPU-second. What the FLOP counter counts: matmuls,
convolutions and attention (torch's CPU flash attention `_scaled_dot_product_flash_attention_for_cpu`, which its
table lacks, counted by the same formula as its other fused attentions); not the elementwise work (activations,
softmax, layer norm, dropout, the copy mechanism's scatter), the embedding lookups and their gradients, the
optimizer, nor the data's preparation: those show in `--profile`.
`--profile` adds, per row, the top torch operators of the timed steps by self CPU time (torch.profiler), which say
where the time goes. Threads: torch's intra-op threads and numpy's BLAS (threadpoolctl) are set to each --threads
value in turn.
Device and precision: every trainer but train-nmt is built with `device` --device (default cpu) and `fp16` --fp16
(default off: fp32; the trainers' setting, models/device.py `training_dtype`) and set up as the training loop sets
it up (models/loop.py `select`: a CUDA request without CUDA, fp16 `on` on the CPU, are one line); each trainer's
step runs its forward under its own `MixedPrecision` autocast, so the timed steps are the trainer's. The fused
reference runs in the same precision (autocast, loss scaling), its LSTM under CPU autocast as the encoders' (bf16
where oneDNN has a bf16 LSTM for the CPU, models/recurrence.py `cpu_autocast_lstm`, else fp32).
With a half precision (fp16, or bf16 also on the CPU) the matmul is also timed in that dtype, and `% matmul` is of
that one. train-nmt (fairseq's Trainer, which takes the GPU whenever torch sees one and its precision from the
recipe) is timed only with --device cpu --fp16 off (or auto) on a machine without CUDA: otherwise one line.
On --device cuda: a first line `device: NAME, torch X, CUDA Y` and a note; --threads is ignored (one pass, torch's
host threads as they are, the threads column says how many); every timed region starts and ends with
torch.cuda.synchronize(), so its wall seconds are the device's time for it, and the rates (pairs and target units
per second, GFLOP/s, % matmul, x ref) are per WALL second (the headers say `/s`, not `/CPU-s`); the CPU column is
still the host process's CPU time. The matmul is 4096 x 4096 (fp32, and the half dtype), best of 20 by synchronized
wall time, its row naming the card. The FLOP counter counts cuDNN's fused RNN (`_cudnn_rnn`: nn.LSTM on CUDA, every
layer and direction in one op, counted per layer and direction from its flat weight list; its backward twice that)
as it counts oneDNN's layer; CUDA's fused attentions are in torch's own table. The SCPN encoders' table runs their
forward under the trainer's autocast, per wall second on CUDA.
"""
from __future__ import annotations

import contextlib
import itertools
import math
import sys
import time
from pathlib import Path

import numpy as np
import torch
from threadpoolctl import threadpool_limits
from torch.utils.flop_counter import FlopCounterMode, sdpa_backward_flop_count, sdpa_flop_count

from paranmt.models.device import (Device, MixedPrecision, cuda_available, reuse_freed_memory, select_device,
                                   training_dtype)
from paranmt.models.encoders import BASE_KINDS
from paranmt.models.encoders.featurizers import WordFeaturizer
from paranmt.models.loop import LoopConfig, LoopState, select
from paranmt.models.nmt.recipe import load_recipe_config
from paranmt.models.pairs import TrainingDataError, read_pairs
from paranmt.models.recurrence import cpu_autocast_lstm
from paranmt.models.training.trainer import EncoderTask, TrainConfig, scramble_pairs
from paranmt.pipelines.cli import CommandLineParser, exit_code
from paranmt.schemas.config import FP16_CHOICES
from paranmt.schemas.errors import ConfigError
from paranmt.schemas.paths import asset_path

ROOT = Path(__file__).resolve().parents[1]
PARAPHRASER_TASKS = ("scpn", "plain", "parse-generator")
DEFAULT_KINDS = ("word", "lstm", "blstm", "lstm-last", "gran", "gran-3", "lstm-og", "rnn")
RNN_LAYER = torch.ops.aten.mkldnn_rnn_layer
RNN_LAYER_BACKWARD = torch.ops.aten.mkldnn_rnn_layer_backward
HALF_NAMES = {torch.float16: "fp16", torch.bfloat16: "bf16"}


def gate_flops(rows_steps: int, weight_ih, weight_hh) -> int:
    """One recurrent layer and direction over `rows_steps` positions: 2 x positions x (in + hidden) x gates x hidden
    (the gates' matmuls; weight_ih is gates x hidden by in, weight_hh gates x hidden by hidden)."""
    return 2 * rows_steps * (weight_ih[1] + weight_hh[1]) * weight_ih[0]


def rnn_layer_flops(input_shape, weight_ih, weight_hh, *args, out_shape=None, **kwargs) -> int:
    """oneDNN's fused LSTM layer (nn.LSTM on the CPU, one op per layer and direction), forward: 2 x rows x steps x
    (in + hidden) x 4 hidden (the gates' matmuls)."""
    return gate_flops(input_shape[0] * input_shape[1], weight_ih, weight_hh)


def rnn_layer_backward_flops(*shapes, out_shape=None, **kwargs) -> int:
    """Its backward: the gradients of the inputs, the states and both weight matrices, twice the forward."""
    return 2 * rnn_layer_flops(*shapes[:3])


def cudnn_rnn_flops(input_shape, weights, weight_stride0, *args, out_shape=None, **kwargs) -> int:
    """cuDNN's fused RNN (nn.LSTM, nn.GRU on CUDA: every layer and direction in one `_cudnn_rnn`), forward: the sum
    of `gate_flops` over the layers and directions, read from the flat weight list (`weight_stride0` tensors per
    layer and direction, w_ih and w_hh first); positions: the input's rows x steps (time-major, batch-first or
    packed: all dimensions but the last)."""
    rows_steps = math.prod(input_shape[:-1])
    return sum(gate_flops(rows_steps, weights[i], weights[i + 1]) for i in range(0, len(weights), weight_stride0))


def cudnn_rnn_backward_flops(input_shape, weights, weight_stride0, *args, out_shape=None, **kwargs) -> int:
    """`_cudnn_rnn_backward` (same leading arguments): twice the forward, as oneDNN's backward is counted."""
    return 2 * cudnn_rnn_flops(input_shape, weights, weight_stride0)


def inplace_addmm_flops(self_shape, a_shape, b_shape, *args, out_shape=None, **kwargs) -> int:
    """`addmm_` (in place: the stepped cells' W_h h_{t-1}), which the counter's table lacks: 2 x rows x in x out."""
    return 2 * a_shape[0] * a_shape[1] * b_shape[1]


def cpu_attention_flops(query_shape, key_shape, value_shape, *args, out_shape=None, **kwargs) -> int:
    """torch's CPU flash attention (F.scaled_dot_product_attention on the CPU: fairseq's and nn.Transformer's
    attention), which the counter's table lacks: counted as its other fused attentions are."""
    return sdpa_flop_count(query_shape, key_shape, value_shape)


def cpu_attention_backward_flops(grad_out_shape, query_shape, key_shape, value_shape, *args, out_shape=None,
                                 **kwargs) -> int:
    return sdpa_backward_flop_count(grad_out_shape, query_shape, key_shape, value_shape)


FLOP_FORMULAS = {RNN_LAYER: rnn_layer_flops, RNN_LAYER_BACKWARD: rnn_layer_backward_flops,
                 torch.ops.aten._cudnn_rnn: cudnn_rnn_flops,
                 torch.ops.aten._cudnn_rnn_backward: cudnn_rnn_backward_flops,
                 torch.ops.aten.addmm_: inplace_addmm_flops,
                 torch.ops.aten._scaled_dot_product_flash_attention_for_cpu: cpu_attention_flops,
                 torch.ops.aten._scaled_dot_product_flash_attention_for_cpu_backward: cpu_attention_backward_flops}


@contextlib.contextmanager
def timing(device: Device):
    """Times the block on `device`: the list yielded gets its (wall, CPU) seconds (CPU: the process's, all
    threads). On CUDA the device's queued work is waited for (torch.cuda.synchronize) before the clocks are read at
    the start and at the end, so the wall seconds are the device's time for the block."""
    times: list[float] = []
    if device.kind == "cuda":
        torch.cuda.synchronize()
    wall, cpu = time.perf_counter(), time.process_time()
    yield times
    if device.kind == "cuda":
        torch.cuda.synchronize()
    times += [time.perf_counter() - wall, time.process_time() - cpu]


def rate_seconds(device: Device, wall: float, cpu: float) -> float:
    """The seconds the rates divide by: CPU seconds on the CPU, wall seconds on CUDA (the device's time)."""
    return wall if device.kind == "cuda" else cpu


def matmul_size(device: Device) -> int:
    """n of the peak's n x n matmul: 1024 on the CPU, 4096 on CUDA (enough work to fill the device)."""
    return 4096 if device.kind == "cuda" else 1024


def matmul_gflops(device: Device, dtype=torch.float32, repeats: int = 20) -> float:
    """The best GFLOP/s of an n x n matmul of `dtype` (`matmul_size`; 2 n^3 FLOPs) over `repeats` runs, per
    `rate_seconds` (CPU seconds on the CPU, CUDA-synchronized wall seconds on CUDA)."""
    n = matmul_size(device)
    a, b = (torch.randn(n, n, device=device.kind).to(dtype) for _ in range(2))
    a @ b
    best = float("inf")
    for _ in range(repeats):
        with timing(device) as times:
            a @ b
        best = min(best, rate_seconds(device, *times))
    return 2 * n ** 3 / best / 1e9


@contextlib.contextmanager
def profiled(enabled: bool):
    """torch.profiler over the block when `enabled`: the list yielded gets the table of its top operators by self
    CPU time."""
    tables: list[str] = []
    if not enabled:
        yield tables
        return
    with torch.profiler.profile() as profiler:
        yield tables
    tables.append(profiler.key_averages().table(sort_by="self_cpu_time_total", row_limit=12))


def similarity_flops(pairs: int, dim: int) -> int:
    """The negative search's two similarity matrices (monolingual: each side's anchors against both sides)."""
    return 2 * (2 * pairs * pairs * 2 * dim)


class Kind:
    """One kind's trainer (`EncoderTask`, a fresh encoder of seed 1 over the pairs, on --device in --fp16's
    precision) and its measurements."""

    def __init__(self, kind: str, pairs: list[tuple[str, str]], args, work: Path):
        self.config = TrainConfig(encoder=kind, dim=args.dim, batch_size=args.batch_size,
                                  megabatch_size=args.megabatch, anneal_every=0, threads=0, device=args.device,
                                  fp16=args.fp16)
        self.task = EncoderTask(self.config, work / kind, pairs)
        self.device = select(self.config)
        torch.manual_seed(self.config.seed)
        self.task.setup(None, self.device)
        self.state, self.pairs, self.next = LoopState(), pairs, 0

    def megabatch(self, m: int) -> tuple[int, list[tuple[str, str]]]:
        """The next m x batch pairs (cycling), scrambled as the trainer does."""
        size = m * self.config.batch_size
        if self.next + size > len(self.pairs):
            self.next = 0
        chunk = self.pairs[self.next:self.next + size]
        self.next += size
        return m, scramble_pairs(chunk, self.config.scramble_probability, self.task.rng)

    def count_flops(self) -> float:
        """FLOPs per update of a warm-up mega-batch of 2 x batch pairs (torch ops only)."""
        counter = FlopCounterMode(display=False, custom_mapping=FLOP_FORMULAS)
        with counter:
            updates, _ = self.task.step(self.megabatch(2), self.state)
        return counter.get_total_flops() / updates

    def timed(self, m: int, profile: bool) -> tuple[float, float, list[tuple[str, str]], str]:
        """(wall, CPU) seconds per update of one mega-batch of m x batch pairs (`timing`), its pairs, and the
        profile table."""
        batch = self.megabatch(m)
        with profiled(profile) as tables, timing(self.device) as times:
            updates, _ = self.task.step(batch, self.state)
        wall, cpu = times
        return wall / updates, cpu / updates, batch[1], "".join(tables)


class Updates:
    """A trainer whose step is one update over a batch it cuts itself (train-bgt, train-paraphraser, train-nmt), on
    `device`:
    `order` holds its batches in the trainer's order; the batches after the first (cycling when there are fewer)
    are run twice, first under the FLOP counter (also the warm-up), then timed: batches differ in length, so the
    FLOPs are those of the batches timed."""
    name: str
    order: list

    def start(self, task, config: LoopConfig) -> None:
        """Set up the loop task `task` (models/loop.py) as `Loop.run` does: on the device of `config` (`select`), a
        fresh model of its seed; `order`: its batches of the first epoch."""
        self.task, self.state, self.device = task, LoopState(), select(config)
        torch.manual_seed(config.seed)
        task.setup(None, self.device)
        self.order = [batch for _, batch in task.batches(self.state)]

    def update(self, batch) -> None:
        """One update of the trainer's own step over `batch`."""
        self.task.step(batch, self.state)

    def sizes(self, batch) -> tuple[int, int | None]:
        """(pairs or instances, target units or None) of `batch`."""
        raise NotImplementedError

    def measured(self, steps: int, profile: bool) -> tuple[float, float, float, int, int | None, str]:
        """(FLOPs, wall seconds, CPU seconds (`timing`)) per update over `steps` batches, the pairs and target
        units they held, and the profile table of the timed pass."""
        batches = [self.order[(1 + i) % len(self.order)] for i in range(steps)]
        counter = FlopCounterMode(display=False, custom_mapping=FLOP_FORMULAS)
        with counter:
            for batch in batches:
                self.update(batch)
        with profiled(profile) as tables, timing(self.device) as times:
            for batch in batches:
                self.update(batch)
        wall, cpu = times
        sizes = [self.sizes(batch) for batch in batches]
        units = None if sizes[0][1] is None else sum(unit for _, unit in sizes)
        return (counter.get_total_flops() / steps, wall / steps, cpu / steps, sum(pairs for pairs, _ in sizes), units,
                "".join(tables))


class BGT(Updates):
    """`train-bgt` (BGTTask with its defaults and the sentencepiece model given) on a bitext: a step is one update
    over a batch of up to max_tokens tokens, as the trainer cuts them."""
    name = "train-bgt"

    def __init__(self, pairs: list[tuple[str, str]], sp_model: str, work: Path, device: str, fp16: str):
        from paranmt.models.bgt.trainer import BGTConfig, BGTTask

        config = BGTConfig(sp_model=sp_model, threads=0, device=device, fp16=fp16)
        self.start(BGTTask(config, work / "train-bgt", pairs), config)

    def sizes(self, batch) -> tuple[int, None]:
        return len(batch), None


def parsed_pairs(paths: list[str], n: int, tasks: list[str], parser: str, work: Path) -> list:
    """The first `n` pairs of `paths` (anything `train-paraphraser --input` reads), with the parses the tasks need
    (parsed with `parser` where missing, through the parse cache WORK/parses.tsv)."""
    from paranmt.models.generation.data import GenerationDataError, ParseCache, fill_parses, read_parsed_pairs
    from paranmt.models.parsing.parser import ParserModelError, model_files

    try:
        pairs = read_parsed_pairs(paths)[:n]
        if any(task != "plain" for task in tasks):
            model_files(asset_path(parser))
            work.mkdir(parents=True, exist_ok=True)
            fill_parses(pairs, ParseCache(work / "parses.tsv"), asset_path(parser), "scpn", progress=False)
    except (GenerationDataError, ParserModelError, OSError) as error:
        raise ConfigError(f"--paraphraser-input: {error}") from None
    except ImportError as error:       # the parser's stanza, absent from an image that only trains
        raise ConfigError(f"--paraphraser-input: its pairs lack parses and the parser needs {error.name}, which is "
                          f"not installed: give pairs with their parses, or a --work whose parses.tsv holds them") \
            from None
    return pairs


class Paraphraser(Updates):
    """`train-paraphraser --task TASK` (arch scpn, ParaphraserTask with the trainer's defaults; module docstring): a
    step is one update over a batch of `batch_size` instances in the trainer's order."""

    def __init__(self, task: str, pairs: list, units_from: str | None, work: Path, device: str, fp16: str):
        from paranmt.models.generation.data import pair_instances, top_templates
        from paranmt.models.generation.train import ParaphraserTask, ParaphraserTrainConfig

        self.name = f"train-paraphraser {task}"
        units = asset_path(units_from) if units_from and task != "parse-generator" else None
        config = ParaphraserTrainConfig(task=task, max_words=40, threads=0, device=device, fp16=fp16,
                                        units_from=units).validate()
        instances, _ = pair_instances(task, pairs, config.require_different, config.max_words)
        if not instances:
            raise ConfigError(f"--paraphraser-input: no {task} instances in its first {len(pairs)} pairs")
        templates = top_templates([p for pair in pairs for p in (pair.p1, pair.p2) if p], 20)
        self.start(ParaphraserTask(config, work / f"train-paraphraser-{task}", instances, templates, [], {}), config)

    def sizes(self, batch) -> tuple[int, int]:
        """Instances and target units: each target's units as the model's loss cuts them, plus EOS."""
        model = self.task.model
        limit = model.settings["max_target_units"] - 1
        return len(batch), sum(min(limit, len(model.units.encode(i.target))) + 1 for i in batch)


def packed_states(encoder, embedded: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
    """An SCPN encoder's LSTM over a packed sequence (its code before issue 43 item 2), the reference."""
    from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

    packed = pack_padded_sequence(embedded, lengths.clamp(min=1).cpu(), batch_first=True, enforce_sorted=False)
    return pad_packed_sequence(encoder.lstm(packed)[0], batch_first=True, total_length=embedded.size(1))[0]


def scpn_encoder_seconds(trainer: Paraphraser, steps: int, bucket_rows: list[int]) -> dict[str, float]:
    """Seconds per batch (`rate_seconds`: CPU on the CPU, wall on CUDA) of the SCPN's two encoders alone, forward
    (under the trainer's autocast) + backward, over the batches `measured` times, per variant: packed, then buckets
    of each of `bucket_rows` (module docstring)."""
    from paranmt.models.generation import scpn
    from paranmt.models.generation.units import PAD

    model = trainer.task.model
    network = model.network
    inputs = []
    for batch in (trainer.order[(1 + i) % len(trainer.order)] for i in range(steps)):
        source, condition = model._tensors([i.source for i in batch], [i.condition for i in batch])
        inputs.append([(network.encoder, network.embed(source).detach(), (source != PAD).sum(1)),
                       (network.parse_encoder, network.parse_embed(condition).detach(), (condition != PAD).sum(1))])

    def seconds(forward) -> float:
        with timing(trainer.device) as times:
            for batch in inputs:
                for encoder, embedded, lengths in batch:
                    with trainer.task.precision.autocast():
                        states = forward(encoder, embedded.requires_grad_(True), lengths)
                    states.float().sum().backward()
        return rate_seconds(trainer.device, *times) / len(inputs)

    def bucketed(rows: int):
        def forward(encoder, embedded, lengths):
            kept, scpn.ENCODER_BUCKET_ROWS = scpn.ENCODER_BUCKET_ROWS, rows
            try:
                return encoder(embedded, lengths)
            finally:
                scpn.ENCODER_BUCKET_ROWS = kept
        return forward

    variants = {"packed sequence": packed_states, **{f"buckets of {rows} rows": bucketed(rows) for rows in bucket_rows}}
    times = {name: [] for name in variants}
    for forward in variants.values():
        seconds(forward)
    for _ in range(3):
        for name, forward in variants.items():
            times[name].append(seconds(forward))
    return {name: min(values) for name, values in times.items()}


class NMT(Updates):
    """`train-nmt` with the recipe config given (its work_dir WORK/train-nmt): its data, spm and preprocess steps, then
    fairseq's `Trainer` as fairseq_cli.train sets it up from the recipe's fairseq-train arguments; a step is
    `Trainer.train_step` over the next `update_freq` batches of fairseq's epoch iterator."""
    name = "train-nmt"

    def __init__(self, config, steps: int):
        from fairseq import checkpoint_utils, options, tasks, utils
        from fairseq.data import iterators
        from fairseq.dataclass.initialize import add_defaults
        from fairseq.dataclass.utils import convert_namespace_to_omegaconf
        from fairseq.logging import metrics
        from fairseq.trainer import Trainer

        from paranmt.models.nmt.recipe import NMTRecipe

        recipe = NMTRecipe(config)
        recipe.run(("data", "spm", "preprocess"))
        cfg = convert_namespace_to_omegaconf(options.parse_args_and_arch(options.get_training_parser(),
                                                                         input_args=recipe.train_args()))
        add_defaults(cfg)
        metrics.reset()
        np.random.seed(cfg.common.seed)
        utils.set_torch_seed(cfg.common.seed)
        task = tasks.setup_task(cfg.task)
        self.trainer = Trainer(cfg, task, task.build_model(cfg.model), task.build_criterion(cfg.criterion))
        _, epoch_itr = checkpoint_utils.load_checkpoint(cfg.checkpoint, self.trainer)
        itr = epoch_itr.next_epoch_itr(fix_batches_to_gpus=cfg.distributed_training.fix_batches_to_gpus,
                                       shuffle=epoch_itr.next_epoch_idx > cfg.dataset.curriculum)
        itr = iterators.GroupedIterator(itr, cfg.optimization.update_freq[0],
                                        skip_remainder_batch=cfg.optimization.skip_remainder_batch)
        self.trainer.begin_epoch(epoch_itr.epoch)
        self.order = list(itertools.islice(itr, steps + 1))
        self.device = select_device("cpu")        # `main` refuses --nmt-config where the recipe would take CUDA

    def update(self, samples) -> None:
        self.trainer.train_step(samples)

    def sizes(self, samples) -> tuple[int, int]:
        """Sentence pairs and target tokens (fairseq's `nsentences`, `ntokens`)."""
        return sum(s["nsentences"] for s in samples), sum(s["ntokens"] for s in samples)


class Reference:
    """nn.LSTM + mean pooling over the padded shapes of a step's sentences (module docstring), on `device` (oneDNN's
    LSTM on the CPU, cuDNN's on CUDA) in the trainers' precision `fp16` (MixedPrecision: the updates' forward under
    its autocast, its backward and step; the no-gradient forward outside it, as the trainer's `encode`; the LSTM
    under CPU autocast in bf16 or fp32 as the encoders' is, models/recurrence.py `cpu_autocast_lstm`)."""

    def __init__(self, featurizer, dim: int, batch_size: int, device: Device, fp16: str):
        torch.manual_seed(1)
        self.featurizer, self.dim, self.batch_size, self.device = featurizer, dim, batch_size, device
        self.lstm = torch.nn.LSTM(dim, dim, batch_first=True).to(device.kind)
        self.optimizer = torch.optim.Adam(self.lstm.parameters(), lr=1e-3)
        self.precision = MixedPrecision.select(device, fp16)

    def lengths(self, sentences: list[str]) -> torch.Tensor:
        return torch.tensor([max(1, len(ids)) for ids in self.featurizer.ids(sentences)], device=self.device.kind)

    def pooled(self, lengths: torch.Tensor) -> torch.Tensor:
        x = torch.randn(len(lengths), int(lengths.max()), self.dim, device=self.device.kind)
        mask = (torch.arange(x.shape[1], device=self.device.kind)[None, :] < lengths[:, None]).float()
        return (cpu_autocast_lstm(self.lstm, x)[0] * mask[..., None]).sum(1) / lengths[:, None]

    def seconds(self, pairs: list[tuple[str, str]]) -> float:
        """Seconds per update (`rate_seconds` of `timing`: CPU on the CPU, wall on CUDA) over the sentences of a
        timed mega-batch (the sides stand in for the negatives, which are sentences of the same mega-batch)."""
        n, b = len(pairs), self.batch_size
        side1, side2 = [p[0] for p in pairs], [p[1] for p in pairs]
        with timing(self.device) as times:
            with torch.no_grad():
                for sentences in (side1, side2):
                    for i in range(0, n, 2048):
                        self.pooled(self.lengths(sentences[i:i + 2048]))
            for i in range(0, n, b):
                j = (i + b) % n
                self.optimizer.zero_grad()
                sentences = side1[i:i + b] + side2[i:i + b] + side2[j:j + b] + side1[j:j + b]
                with self.precision.autocast():
                    loss = self.pooled(self.lengths(sentences)).pow(2).sum()
                self.precision.backward(loss)
                self.precision.step([self.optimizer])
        return rate_seconds(self.device, *times) / (n // b)


def read(flag: str, path: str) -> list[tuple]:
    """The pairs of at most 40 words of `path`, as `paranmt train` reads them."""
    try:
        return read_pairs([path], max_words=40)[0]
    except (TrainingDataError, OSError) as error:
        raise ConfigError(f"{flag}: {error}") from None


def load(args) -> list[tuple[str, str]]:
    """The first --pairs pairs of --input (none without encoder kinds), at least a mega-batch of them."""
    if not Path(args.input).exists():
        raise ConfigError(f"--input {args.input} does not exist")
    if not args.kinds:
        return []
    pairs = read("--input", args.input)
    needed = args.batch_size * args.megabatch
    if min(len(pairs), args.pairs) < needed:
        raise ConfigError(f"a mega-batch of {args.megabatch} x {args.batch_size} pairs needs {needed} pairs; --input "
                          f"{args.input} has {len(pairs)} of at most 40 words, --pairs {args.pairs}")
    return [(a, b) for a, b, *_ in pairs[:args.pairs]]


def row(device: Device, name: str, threads: int, wall: float, cpu: float, pairs: float, units: float | None,
        flops: float, peak: float, ref: float | None = None) -> str:
    """A table row: per step `wall` and `cpu` seconds, `pairs` and target `units` (or None) and `flops`; the rates
    per `rate_seconds` (CPU seconds on the CPU, wall seconds on CUDA), `ref`: the reference's seconds per update in
    the same clock."""
    gflops, per = flops / 1e9, rate_seconds(device, wall, cpu)
    return (f"| {name} | {threads} | {wall:.3f} | {cpu:.3f} | {pairs / per:.0f} | "
            f"{'' if units is None else f'{units / per:.0f}'} | {gflops:.2f} | {gflops / per:.1f} | "
            f"{100 * gflops / per / peak:.0f}% | {'' if ref is None else f'{per / ref:.2f}'} |")


def update_trainers(args, work: Path, paraphraser_pairs: list, bitext: list, nmt_config):
    """The update-step trainers asked for, built one at a time (with the number of updates to time)."""
    if args.bgt_input:
        yield BGT(bitext, args.bgt_sp_model, work, args.device, args.fp16), args.bgt_steps
    for task in args.paraphrasers:
        yield (Paraphraser(task, paraphraser_pairs, args.units_from or None, work, args.device, args.fp16),
               args.paraphraser_steps)
    if nmt_config:
        yield NMT(nmt_config, args.nmt_steps), args.nmt_steps


def main() -> None:
    parser = CommandLineParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--input", required=True, help="training pairs (anything `paranmt train` reads)")
    parser.add_argument("--pairs", type=int, default=4000, help="use the first N pairs of at most 40 words")
    parser.add_argument("--kinds", nargs="*", choices=BASE_KINDS, default=list(DEFAULT_KINDS),
                        help="encoder kinds (none: only the trainers below)")
    parser.add_argument("--threads", nargs="+", type=int, choices=(1, 2), default=[1],
                        help="torch's and BLAS's CPU threads, a pass per value (--device cpu; on cuda ignored)")
    parser.add_argument("--device", choices=("cpu", "cuda"), default="cpu", help="the trainers' device")
    parser.add_argument("--fp16", choices=FP16_CHOICES, default="off",
                        help="the trainers' precision setting (off: fp32; auto: fp16 on CUDA; on; bf16)")
    parser.add_argument("--megabatch", type=int, default=40, help="M of the timed mega-batch")
    parser.add_argument("--batch-size", type=int, default=100)
    parser.add_argument("--dim", type=int, default=300)
    parser.add_argument("--work", default="work/bench-train-limit",
                        help="scratch directory (vocabularies, the parse cache, the NMT recipe's data)")
    parser.add_argument("--profile", action="store_true", help="print each row's top operators")
    parser.add_argument("--bgt-input", help="also time train-bgt on this bitext (anything `paranmt train-bgt` reads)")
    parser.add_argument("--bgt-sp-model", default=str(ROOT / "assets/nmt-cs-en/spm.model"),
                        help="the sentencepiece model of train-bgt (default: the shipped NMT model's cs-en one)")
    parser.add_argument("--bgt-steps", type=int, default=5, help="timed train-bgt updates")
    parser.add_argument("--paraphrasers", nargs="+", choices=PARAPHRASER_TASKS, default=[],
                        help="also time train-paraphraser for these tasks (arch scpn)")
    parser.add_argument("--paraphraser-input", nargs="+", metavar="PATH",
                        help="their pairs (anything `train-paraphraser --input` reads; default: --input)")
    parser.add_argument("--paraphraser-pairs", type=int, default=640, help="use the first N pairs of it")
    parser.add_argument("--paraphraser-steps", type=int, default=5, help="timed train-paraphraser updates per task")
    parser.add_argument("--units-from", default="assets/paraphraser-scpn",
                        help="units of the scpn and plain tasks ('': sentencepiece trained on the pairs)")
    parser.add_argument("--parser", default="assets/parser-en", help="parser of pairs without parses")
    parser.add_argument("--nmt-config", help="also time train-nmt with this recipe config (e.g. "
                        "configs/nmt/cs-en-small.yaml, the shipped model's)")
    parser.add_argument("--nmt-steps", type=int, default=5, help="timed train-nmt updates")
    parser.add_argument("--scpn-encoder-buckets", nargs="+", type=int, default=[], metavar="ROWS",
                        help="also time the SCPN's encoders alone with these bucket sizes (needs --paraphrasers scpn)")
    args = parser.parse_args()
    if args.scpn_encoder_buckets and "scpn" not in args.paraphrasers:
        raise ConfigError("--scpn-encoder-buckets needs --paraphrasers scpn")
    if min(args.pairs, args.megabatch, args.batch_size, args.dim, args.bgt_steps, args.paraphraser_pairs,
           args.paraphraser_steps, args.nmt_steps, *args.scpn_encoder_buckets) < 1:
        raise ConfigError("--pairs, --megabatch, --batch-size, --dim, --scpn-encoder-buckets and the --*-steps and "
                          "--*-pairs counts must be positive")
    device = select(LoopConfig(device=args.device, fp16=args.fp16))
    half, cuda = training_dtype(device, args.fp16), device.kind == "cuda"
    if args.nmt_config and (cuda or half is not None or cuda_available()):
        where = ("on --device cuda" if cuda else "on a machine with CUDA" if cuda_available() else
                 f"with --fp16 {args.fp16}")
        raise ConfigError(f"train-nmt {where} is not benchmarked here (fairseq's Trainer takes its device and "
                          "precision from the recipe, models/nmt/recipe.py: the GPU whenever torch sees one, fp32 "
                          "unless the config sets fp16): leave out --nmt-config, or time it with --device cpu "
                          "--fp16 off on a machine without CUDA")
    work = Path(args.work)
    pairs = load(args)
    bitext = [(a, b) for a, b, *_ in read("--bgt-input", args.bgt_input)] if args.bgt_input else []
    paraphraser_pairs = parsed_pairs(args.paraphraser_input or [args.input], args.paraphraser_pairs,
                                     args.paraphrasers, args.parser, work) if args.paraphrasers else []
    nmt_config = load_recipe_config(args.nmt_config, {"work_dir": str(work / "train-nmt")}) \
        if args.nmt_config else None
    if cuda:
        print(f"device: {torch.cuda.get_device_name()}, torch {torch.__version__}, CUDA {torch.version.cuda}")
        print(f"rates per wall second (CUDA-synchronized); % matmul: of the {HALF_NAMES.get(half, 'fp32')} matmul\n")
    else:
        reuse_freed_memory()
    words = WordFeaturizer.build([s for pair in pairs for s in pair], 200_000) if args.kinds else None
    per = "s" if cuda else "CPU-s"
    print(f"| kind | threads | wall s/step | CPU s/step | pairs/{per} | target units/{per} | GFLOP/step | GFLOP/s | "
          "% matmul | x ref |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    profiles, encoder_rows = [], []
    for threads in [torch.get_num_threads()] if cuda else args.threads:
        torch.set_num_threads(threads)
        with contextlib.nullcontext() if cuda else threadpool_limits(threads):
            peaks = {"fp32": matmul_gflops(device)}
            if half is not None:
                peaks[HALF_NAMES[half]] = matmul_gflops(device, half)
            peak = peaks[HALF_NAMES.get(half, "fp32")]
            reference = Reference(words, args.dim, args.batch_size, device, args.fp16) if args.kinds else None
            for kind in args.kinds:
                bench = Kind(kind, pairs, args, work)
                search = similarity_flops(args.megabatch * args.batch_size, args.dim) / args.megabatch
                flops = bench.count_flops() + search
                wall, cpu, seen, table = bench.timed(args.megabatch, args.profile)
                ref = reference.seconds(seen)
                print(row(device, kind, threads, wall, cpu, args.batch_size, None, flops, peak, ref), flush=True)
                if table:
                    profiles.append(f"{kind}, {threads} thread(s):\n{table}")
            for trainer, steps in update_trainers(args, work, paraphraser_pairs, bitext, nmt_config):
                flops, wall, cpu, seen, units, table = trainer.measured(steps, args.profile)
                print(row(device, trainer.name, threads, wall, cpu, seen / steps, units and units / steps, flops,
                          peak), flush=True)
                if table:
                    profiles.append(f"{trainer.name}, {threads} thread(s):\n{table}")
                if args.scpn_encoder_buckets and trainer.name == "train-paraphraser scpn":
                    encoder_rows += [f"| {name} | {threads} | {seconds:.3f} |" for name, seconds in
                                     scpn_encoder_seconds(trainer, steps, args.scpn_encoder_buckets).items()]
            n, card = matmul_size(device), f" ({torch.cuda.get_device_name()})" if cuda else ""
            for dtype, gflops in peaks.items():
                print(f"| matmul {n}² {dtype}{card} | {threads} | | | | | | {gflops:.1f} | "
                      f"{100 * gflops / peak:.0f}% | |", flush=True)
    if encoder_rows:
        print("\n| SCPN encoders alone (sentence + parse, forward + backward) | threads | "
              f"{'s/batch (wall)' if cuda else 'CPU s/batch'} |")
        print("|---|---:|---:|")
        print("\n".join(encoder_rows))
    for table in profiles:
        print(table)


if __name__ == "__main__":
    sys.exit(exit_code(main))
