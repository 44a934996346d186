"""Every trainer at the machine's limit (issue 43): per `paranmt train --encoder` kind, `train-bgt`,
`train-paraphraser` (its three tasks) and `train-nmt`, the cost of one update step beside this CPU's matmul speed
and, for the encoders, beside a reference built from torch's fused modules.

    python benchmarks/bench_train_limit.py --input PAIRS [--pairs 4000] [--kinds lstm gran-3 ...] [--threads 1 2]
        [--megabatch 40] [--batch-size 100] [--dim 300] [--profile] [--bgt-input BITEXT [--bgt-steps 5]]
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
"""
from __future__ import annotations

import itertools
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import torch
from threadpoolctl import threadpool_limits
from torch.utils.flop_counter import FlopCounterMode, sdpa_backward_flop_count, sdpa_flop_count

from paranmt.models.device import reuse_freed_memory, select_device
from paranmt.models.encoders import BASE_KINDS
from paranmt.models.encoders.featurizers import WordFeaturizer
from paranmt.models.loop import LoopState
from paranmt.models.nmt.recipe import load_recipe_config
from paranmt.models.pairs import TrainingDataError, read_pairs
from paranmt.models.training.trainer import EncoderTask, TrainConfig, scramble_pairs
from paranmt.pipelines.cli import CommandLineParser, exit_code
from paranmt.schemas.errors import ConfigError
from paranmt.schemas.paths import asset_path

ROOT = Path(__file__).resolve().parents[1]
PARAPHRASER_TASKS = ("scpn", "plain", "parse-generator")
DEFAULT_KINDS = ("word", "lstm", "blstm", "lstm-last", "gran", "gran-3", "lstm-og", "rnn")
RNN_LAYER = torch.ops.aten.mkldnn_rnn_layer
RNN_LAYER_BACKWARD = torch.ops.aten.mkldnn_rnn_layer_backward


def rnn_layer_flops(input_shape, weight_ih, weight_hh, *args, out_shape=None, **kwargs) -> int:
    """oneDNN's fused LSTM layer, forward: 2 x rows x steps x (in + hidden) x 4 hidden (the gates' matmuls)."""
    rows_steps = input_shape[0] * input_shape[1]
    return 2 * rows_steps * (weight_ih[1] + weight_hh[1]) * weight_ih[0]


def rnn_layer_backward_flops(*shapes, out_shape=None, **kwargs) -> int:
    """Its backward: the gradients of the inputs, the states and both weight matrices, twice the forward."""
    return 2 * rnn_layer_flops(*shapes[:3])


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
                 torch.ops.aten.addmm_: inplace_addmm_flops,
                 torch.ops.aten._scaled_dot_product_flash_attention_for_cpu: cpu_attention_flops,
                 torch.ops.aten._scaled_dot_product_flash_attention_for_cpu_backward: cpu_attention_backward_flops}


def matmul_gflops(repeats: int = 20) -> float:
    """The best GFLOP per CPU-second of a 1024 x 1024 fp32 matmul (2 n^3 FLOPs) over `repeats` runs."""
    a, b = torch.randn(1024, 1024), torch.randn(1024, 1024)
    a @ b
    best = float("inf")
    for _ in range(repeats):
        start = time.process_time()
        a @ b
        best = min(best, time.process_time() - start)
    return 2 * 1024 ** 3 / best / 1e9


@contextmanager
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
    """One kind's trainer (`EncoderTask`, a fresh encoder of seed 1 over the pairs) and its measurements."""

    def __init__(self, kind: str, pairs: list[tuple[str, str]], args, work: Path):
        self.config = TrainConfig(encoder=kind, dim=args.dim, batch_size=args.batch_size,
                                  megabatch_size=args.megabatch, anneal_every=0, threads=0, device="cpu")
        self.task = EncoderTask(self.config, work / kind, pairs)
        torch.manual_seed(self.config.seed)
        self.task.setup(None, select_device("cpu", 0))
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
        """(wall, CPU) seconds per update of one mega-batch of m x batch pairs, its pairs, and the profile table."""
        batch = self.megabatch(m)
        with profiled(profile) as tables:
            wall, cpu = time.perf_counter(), time.process_time()
            updates, _ = self.task.step(batch, self.state)
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        return wall / updates, cpu / updates, batch[1], "".join(tables)


class Updates:
    """A trainer whose step is one update over a batch it cuts itself (train-bgt, train-paraphraser, train-nmt):
    `order` holds its batches in the trainer's order; the batches after the first (cycling when there are fewer)
    are run twice, first under the FLOP counter (also the warm-up), then timed: batches differ in length, so the
    FLOPs are those of the batches timed."""
    name: str
    order: list

    def start(self, task, seed: int) -> None:
        """Set up the loop task `task` (models/loop.py) on the CPU with a fresh model of `seed`; `order`: its batches
        of the first epoch."""
        self.task, self.state = task, LoopState()
        torch.manual_seed(seed)
        task.setup(None, select_device("cpu", 0))
        self.order = [batch for _, batch in task.batches(self.state)]

    def update(self, batch) -> None:
        """One update of the trainer's own step over `batch`."""
        self.task.step(batch, self.state)

    def sizes(self, batch) -> tuple[int, int | None]:
        """(pairs or instances, target units or None) of `batch`."""
        raise NotImplementedError

    def measured(self, steps: int, profile: bool) -> tuple[float, float, float, int, int | None, str]:
        """(FLOPs, wall seconds, CPU seconds) per update over `steps` batches, the pairs and target units they
        held, and the profile table of the timed pass."""
        batches = [self.order[(1 + i) % len(self.order)] for i in range(steps)]
        counter = FlopCounterMode(display=False, custom_mapping=FLOP_FORMULAS)
        with counter:
            for batch in batches:
                self.update(batch)
        with profiled(profile) as tables:
            wall, cpu = time.perf_counter(), time.process_time()
            for batch in batches:
                self.update(batch)
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        sizes = [self.sizes(batch) for batch in batches]
        units = None if sizes[0][1] is None else sum(unit for _, unit in sizes)
        return (counter.get_total_flops() / steps, wall / steps, cpu / steps, sum(pairs for pairs, _ in sizes), units,
                "".join(tables))


class BGT(Updates):
    """`train-bgt` (BGTTask with its defaults and the sentencepiece model given) on a bitext: a step is one update
    over a batch of up to max_tokens tokens, as the trainer cuts them."""
    name = "train-bgt"

    def __init__(self, pairs: list[tuple[str, str]], sp_model: str, work: Path):
        from paranmt.models.bgt.trainer import BGTConfig, BGTTask

        config = BGTConfig(sp_model=sp_model, threads=0, device="cpu")
        self.start(BGTTask(config, work / "train-bgt", pairs), config.seed)

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
    return pairs


class Paraphraser(Updates):
    """`train-paraphraser --task TASK` (arch scpn, ParaphraserTask with the trainer's defaults; module docstring): a
    step is one update over a batch of `batch_size` instances in the trainer's order."""

    def __init__(self, task: str, pairs: list, units_from: str | None, work: Path):
        from paranmt.models.generation.data import pair_instances, top_templates
        from paranmt.models.generation.train import ParaphraserTask, ParaphraserTrainConfig

        self.name = f"train-paraphraser {task}"
        units = asset_path(units_from) if units_from and task != "parse-generator" else None
        config = ParaphraserTrainConfig(task=task, max_words=40, threads=0, device="cpu", units_from=units).validate()
        instances, _ = pair_instances(task, pairs, config.require_different, config.max_words)
        if not instances:
            raise ConfigError(f"--paraphraser-input: no {task} instances in its first {len(pairs)} pairs")
        templates = top_templates([p for pair in pairs for p in (pair.p1, pair.p2) if p], 20)
        self.start(ParaphraserTask(config, work / f"train-paraphraser-{task}", instances, templates, [], {}),
                   config.seed)

    def sizes(self, batch) -> tuple[int, int]:
        """Instances and target units: each target's units as the model's loss cuts them, plus EOS."""
        model = self.task.model
        limit = model.settings["max_target_units"] - 1
        return len(batch), sum(min(limit, len(model.units.encode(i.target))) + 1 for i in batch)


def packed_states(encoder, embedded: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
    """An SCPN encoder's LSTM over a packed sequence (its code before issue 43 item 2), the reference."""
    from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

    packed = pack_padded_sequence(embedded, lengths.clamp(min=1), batch_first=True, enforce_sorted=False)
    return pad_packed_sequence(encoder.lstm(packed)[0], batch_first=True, total_length=embedded.size(1))[0]


def scpn_encoder_seconds(trainer: Paraphraser, steps: int, bucket_rows: list[int]) -> dict[str, float]:
    """CPU seconds per batch of the SCPN's two encoders alone, forward + backward, over the batches `measured`
    times, per variant: packed, then buckets of each of `bucket_rows` (module docstring)."""
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
        cpu = time.process_time()
        for batch in inputs:
            for encoder, embedded, lengths in batch:
                forward(encoder, embedded.requires_grad_(True), lengths).sum().backward()
        return (time.process_time() - cpu) / len(inputs)

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

    def update(self, samples) -> None:
        self.trainer.train_step(samples)

    def sizes(self, samples) -> tuple[int, int]:
        """Sentence pairs and target tokens (fairseq's `nsentences`, `ntokens`)."""
        return sum(s["nsentences"] for s in samples), sum(s["ntokens"] for s in samples)


class Reference:
    """nn.LSTM + mean pooling over the padded shapes of a step's sentences (module docstring)."""

    def __init__(self, featurizer, dim: int, batch_size: int):
        torch.manual_seed(1)
        self.featurizer, self.dim, self.batch_size = featurizer, dim, batch_size
        self.lstm = torch.nn.LSTM(dim, dim, batch_first=True)
        self.optimizer = torch.optim.Adam(self.lstm.parameters(), lr=1e-3)

    def lengths(self, sentences: list[str]) -> torch.Tensor:
        return torch.tensor([max(1, len(ids)) for ids in self.featurizer.ids(sentences)])

    def pooled(self, lengths: torch.Tensor) -> torch.Tensor:
        x = torch.randn(len(lengths), int(lengths.max()), self.dim)
        mask = (torch.arange(x.shape[1])[None, :] < lengths[:, None]).float()
        return (self.lstm(x)[0] * mask[..., None]).sum(1) / lengths[:, None]

    def cpu_seconds(self, pairs: list[tuple[str, str]]) -> float:
        """CPU seconds per update over the sentences of a timed mega-batch (the sides stand in for the negatives,
        which are sentences of the same mega-batch)."""
        n, b = len(pairs), self.batch_size
        side1, side2 = [p[0] for p in pairs], [p[1] for p in pairs]
        start = time.process_time()
        with torch.no_grad():
            for sentences in (side1, side2):
                for i in range(0, n, 2048):
                    self.pooled(self.lengths(sentences[i:i + 2048]))
        for i in range(0, n, b):
            j = (i + b) % n
            self.optimizer.zero_grad()
            sentences = side1[i:i + b] + side2[i:i + b] + side2[j:j + b] + side1[j:j + b]
            self.pooled(self.lengths(sentences)).pow(2).sum().backward()
            self.optimizer.step()
        return (time.process_time() - start) / (n // b)


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


def row(name: str, threads: int, wall: float, cpu: float, pairs: float, units: float | None, flops: float,
        peak: float, ref: float | None = None) -> str:
    """A table row: per step `wall` and `cpu` seconds, `pairs` and target `units` (or None) and `flops`."""
    gflops = flops / 1e9
    return (f"| {name} | {threads} | {wall:.3f} | {cpu:.3f} | {pairs / cpu:.0f} | "
            f"{'' if units is None else f'{units / cpu:.0f}'} | {gflops:.2f} | {gflops / cpu:.1f} | "
            f"{100 * gflops / cpu / peak:.0f}% | {'' if ref is None else f'{cpu / ref:.2f}'} |")


def update_trainers(args, work: Path, paraphraser_pairs: list, bitext: list, nmt_config):
    """The update-step trainers asked for, built one at a time (with the number of updates to time)."""
    if args.bgt_input:
        yield BGT(bitext, args.bgt_sp_model, work), args.bgt_steps
    for task in args.paraphrasers:
        yield Paraphraser(task, paraphraser_pairs, args.units_from or None, work), args.paraphraser_steps
    if nmt_config:
        yield NMT(nmt_config, args.nmt_steps), args.nmt_steps


def main() -> None:
    parser = CommandLineParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--input", required=True, help="training pairs (anything `paranmt train` reads)")
    parser.add_argument("--pairs", type=int, default=4000, help="use the first N pairs of at most 40 words")
    parser.add_argument("--kinds", nargs="*", choices=BASE_KINDS, default=list(DEFAULT_KINDS),
                        help="encoder kinds (none: only the trainers below)")
    parser.add_argument("--threads", nargs="+", type=int, choices=(1, 2), default=[1])
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
    work = Path(args.work)
    pairs = load(args)
    bitext = [(a, b) for a, b, *_ in read("--bgt-input", args.bgt_input)] if args.bgt_input else []
    paraphraser_pairs = parsed_pairs(args.paraphraser_input or [args.input], args.paraphraser_pairs,
                                     args.paraphrasers, args.parser, work) if args.paraphrasers else []
    nmt_config = load_recipe_config(args.nmt_config, {"work_dir": str(work / "train-nmt")}) \
        if args.nmt_config else None
    reuse_freed_memory()
    words = WordFeaturizer.build([s for pair in pairs for s in pair], 200_000) if args.kinds else None
    print("| kind | threads | wall s/step | CPU s/step | pairs/CPU-s | target units/CPU-s | GFLOP/step | GFLOP/s | "
          "% matmul | x ref |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    profiles, encoder_rows = [], []
    for threads in args.threads:
        torch.set_num_threads(threads)
        with threadpool_limits(threads):
            peak = matmul_gflops()
            reference = Reference(words, args.dim, args.batch_size) if args.kinds else None
            for kind in args.kinds:
                bench = Kind(kind, pairs, args, work)
                search = similarity_flops(args.megabatch * args.batch_size, args.dim) / args.megabatch
                flops = bench.count_flops() + search
                wall, cpu, seen, table = bench.timed(args.megabatch, args.profile)
                ref = reference.cpu_seconds(seen)
                print(row(kind, threads, wall, cpu, args.batch_size, None, flops, peak, ref), flush=True)
                if table:
                    profiles.append(f"{kind}, {threads} thread(s):\n{table}")
            for trainer, steps in update_trainers(args, work, paraphraser_pairs, bitext, nmt_config):
                flops, wall, cpu, seen, units, table = trainer.measured(steps, args.profile)
                print(row(trainer.name, threads, wall, cpu, seen / steps, units and units / steps, flops, peak),
                      flush=True)
                if table:
                    profiles.append(f"{trainer.name}, {threads} thread(s):\n{table}")
                if args.scpn_encoder_buckets and trainer.name == "train-paraphraser scpn":
                    encoder_rows += [f"| {name} | {threads} | {cpu:.3f} |" for name, cpu in
                                     scpn_encoder_seconds(trainer, steps, args.scpn_encoder_buckets).items()]
            print(f"| matmul 1024² fp32 | {threads} | | | | | | {peak:.1f} | 100% | |", flush=True)
    if encoder_rows:
        print("\n| SCPN encoders alone (sentence + parse, forward + backward) | threads | CPU s/batch |")
        print("|---|---:|---:|")
        print("\n".join(encoder_rows))
    for table in profiles:
        print(table)


if __name__ == "__main__":
    sys.exit(exit_code(main))
