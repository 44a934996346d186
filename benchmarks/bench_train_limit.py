"""The encoder trainer at the machine's limit (issue 43): per `paranmt train --encoder` kind, the cost of one update
step beside this CPU's matmul speed and beside a reference built from torch's fused modules.

    python benchmarks/bench_train_limit.py --input PAIRS [--pairs 4000] [--kinds lstm gran-3 ...] [--threads 1 2]
        [--megabatch 40] [--batch-size 100] [--dim 300] [--profile] [--bgt-input BITEXT [--bgt-steps 5]]

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
`--bgt-input BITEXT` adds `train-bgt` (its defaults, the sentencepiece model of --bgt-sp-model): a step is one
update over a token batch as the trainer cuts them (FLOPs counted on a warm-up update; no reference yet).
`--profile` adds, per kind, the top torch operators of one timed step by self CPU time (torch.profiler), which say
where the time goes. Threads: torch's intra-op threads and numpy's BLAS (threadpoolctl) are set to each --threads
value in turn.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np
import torch
from threadpoolctl import threadpool_limits
from torch.utils.flop_counter import FlopCounterMode

from paranmt.models.device import reuse_freed_memory, select_device
from paranmt.models.encoders import BASE_KINDS
from paranmt.models.encoders.featurizers import WordFeaturizer
from paranmt.models.loop import LoopState
from paranmt.models.pairs import TrainingDataError, read_pairs
from paranmt.models.training.trainer import EncoderTask, TrainConfig, scramble_pairs
from paranmt.pipelines.cli import CommandLineParser, exit_code
from paranmt.schemas.errors import ConfigError

ROOT = Path(__file__).resolve().parents[1]
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


FLOP_FORMULAS = {RNN_LAYER: rnn_layer_flops, RNN_LAYER_BACKWARD: rnn_layer_backward_flops,
                 torch.ops.aten.addmm_: inplace_addmm_flops}


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
        profiler = torch.profiler.profile() if profile else None
        if profiler:
            profiler.__enter__()
        wall, cpu = time.perf_counter(), time.process_time()
        updates, _ = self.task.step(batch, self.state)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        table = ""
        if profiler:
            profiler.__exit__(None, None, None)
            table = profiler.key_averages().table(sort_by="self_cpu_time_total", row_limit=10)
        return wall / updates, cpu / updates, batch[1], table


class BGT:
    """`train-bgt` (BGTTask with its defaults and the sentencepiece model given) on a bitext: a step is one update
    over a batch of up to max_tokens tokens, as the trainer cuts them."""

    def __init__(self, pairs: list[tuple[str, str]], sp_model: str, work: Path):
        from paranmt.models.bgt.trainer import BGTConfig, BGTTask

        config = BGTConfig(sp_model=sp_model, threads=0, device="cpu")
        self.task = BGTTask(config, work / "train-bgt", pairs)
        torch.manual_seed(config.seed)
        self.task.setup(None, select_device("cpu", 0))
        self.state = LoopState()
        self.order = [batch for _, batch in self.task.batches(self.state)]

    def count_flops(self) -> float:
        """FLOPs of a warm-up update."""
        counter = FlopCounterMode(display=False)
        with counter:
            self.task.step(self.order[0], self.state)
        return counter.get_total_flops()

    def timed(self, steps: int) -> tuple[float, float, int]:
        """(wall, CPU) seconds per update over the next `steps` batches, and the pairs they held."""
        batches = [self.order[1 + i % (len(self.order) - 1)] for i in range(steps)]
        wall, cpu = time.perf_counter(), time.process_time()
        for batch in batches:
            self.task.step(batch, self.state)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        return wall / steps, cpu / steps, sum(map(len, batches))


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
    if not Path(args.input).exists():
        raise ConfigError(f"--input {args.input} does not exist")
    pairs = read("--input", args.input)
    needed = args.batch_size * args.megabatch
    if min(len(pairs), args.pairs) < needed:
        raise ConfigError(f"a mega-batch of {args.megabatch} x {args.batch_size} pairs needs {needed} pairs; --input "
                          f"{args.input} has {len(pairs)} of at most 40 words, --pairs {args.pairs}")
    return [(a, b) for a, b, *_ in pairs[:args.pairs]]


def main() -> None:
    parser = CommandLineParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--input", required=True, help="training pairs (anything `paranmt train` reads)")
    parser.add_argument("--pairs", type=int, default=4000, help="use the first N pairs of at most 40 words")
    parser.add_argument("--kinds", nargs="+", choices=BASE_KINDS, default=list(DEFAULT_KINDS))
    parser.add_argument("--threads", nargs="+", type=int, choices=(1, 2), default=[1])
    parser.add_argument("--megabatch", type=int, default=40, help="M of the timed mega-batch")
    parser.add_argument("--batch-size", type=int, default=100)
    parser.add_argument("--dim", type=int, default=300)
    parser.add_argument("--work", default="work/bench-train-limit", help="scratch directory (vocabularies)")
    parser.add_argument("--profile", action="store_true", help="print each kind's top operators")
    parser.add_argument("--bgt-input", help="also time train-bgt on this bitext (anything `paranmt train-bgt` reads)")
    parser.add_argument("--bgt-sp-model", default=str(ROOT / "assets/nmt-cs-en/spm.model"),
                        help="the sentencepiece model of train-bgt (default: the shipped NMT model's cs-en one)")
    parser.add_argument("--bgt-steps", type=int, default=5, help="timed train-bgt updates")
    args = parser.parse_args()
    if min(args.pairs, args.megabatch, args.batch_size, args.dim, args.bgt_steps) < 1:
        raise ConfigError("--pairs, --megabatch, --batch-size, --dim and --bgt-steps must be positive")
    pairs = load(args)
    bitext = [(a, b) for a, b, *_ in read("--bgt-input", args.bgt_input)] if args.bgt_input else []
    reuse_freed_memory()
    words = WordFeaturizer.build([s for pair in pairs for s in pair], 200_000)
    print("| kind | threads | wall s/step | CPU s/step | pairs/CPU-s | GFLOP/step | GFLOP/s | % matmul | x ref |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    profiles = []
    for threads in args.threads:
        torch.set_num_threads(threads)
        with threadpool_limits(threads):
            peak = matmul_gflops()
            reference = Reference(words, args.dim, args.batch_size)
            for kind in args.kinds:
                bench = Kind(kind, pairs, args, Path(args.work))
                search = similarity_flops(args.megabatch * args.batch_size, args.dim) / args.megabatch
                flops = bench.count_flops() + search
                wall, cpu, seen, table = bench.timed(args.megabatch, args.profile)
                ref = reference.cpu_seconds(seen)
                gflops = flops / 1e9
                print(f"| {kind} | {threads} | {wall:.3f} | {cpu:.3f} | {args.batch_size / cpu:.0f} | {gflops:.2f} | "
                      f"{gflops / cpu:.1f} | {100 * gflops / cpu / peak:.0f}% | {cpu / ref:.2f} |", flush=True)
                if table:
                    profiles.append(f"{kind}, {threads} thread(s):\n{table}")
            if args.bgt_input:
                bgt = BGT(bitext, args.bgt_sp_model, Path(args.work))
                gflops = bgt.count_flops() / 1e9
                wall, cpu, seen = bgt.timed(args.bgt_steps)
                print(f"| train-bgt | {threads} | {wall:.3f} | {cpu:.3f} | {seen / args.bgt_steps / cpu:.0f} | "
                      f"{gflops:.2f} | {gflops / cpu:.1f} | {100 * gflops / cpu / peak:.0f}% | |", flush=True)
            print(f"| matmul 1024² fp32 | {threads} | | | | | {peak:.1f} | 100% | |", flush=True)
    for table in profiles:
        print(table)


if __name__ == "__main__":
    sys.exit(exit_code(main))
