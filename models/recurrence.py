"""torch's LSTM over padded batches of rows of different lengths, run as its fused layer (pure torch; shared by the
sentence encoders, models/encoders/recurrent.py, and the SCPN's encoders, models/generation/scpn.py).

Rows are left-aligned: a row of length L holds its units at positions 0..L-1 and padding after them.
- `length_order`: the rows sorted by length, longest first (stable), and the permutation that undoes it.
- `length_buckets`: that order cut into buckets of BUCKET_ROWS rows, each to be cut to its own longest row, so a
  batch of mixed lengths computes less padding than padded to its longest row as a whole.
- `lstm_states`: a one-layer torch LSTM (one or two directions) over the real positions of each row: its states at
  every position, 0 at the padding; the same states as the LSTM over the rows as a packed sequence. It gives torch
  padded input, not a packed sequence: on the CPU padded input runs oneDNN's fused LSTM layer forward and backward,
  a packed sequence ATen's step-by-step loop, whose backward zero-fills and accumulates a full-size gradient for
  each step (benchmarks/RESULTS.md, "Trainers at the machine's limit"). A row's forward states at its real
  positions do not depend on the padding after them; the backward direction runs over each row reversed within
  its length (the same index reverses its states back), so it starts at the row's last real unit.
- `bucketed_lstm`: a one-direction torch LSTM from given initial states over rows in length buckets (the SCPN's
  teacher-forced decoder): each row's outputs at its real positions, as over the whole padded batch.
- `cpu_autocast_lstm`: a call of torch's LSTM (`lstm_states`, `bucketed_lstm`, the SCPN's decoder) under CPU
  autocast runs in bfloat16 where oneDNN has a bf16 LSTM for this CPU (AMX or avx512_bf16: `cpu_runs_bf16_lstm`
  finds out once per process by running one), else in fp32: on CPUs without them torch 2.13 has no bf16 or fp16
  LSTM primitive ("could not create a primitive descriptor for the LSTM forward propagation primitive" on an AVX2
  CPU). fp16 autocast on the CPU (only forced, in tests) keeps the LSTM in fp32. On CUDA the LSTM autocasts (cuDNN).
  Measured on a CPU with AMX, one thread (benchmarks/RESULTS.md, "On a CPU with AMX, session 23"): an `lstm`
  encoder's training step 1.7-2.2x faster in bf16, a 1024^2 matmul 6.8x.
"""
from __future__ import annotations

import functools

import torch
from torch import nn

from paranmt.models.device import in_fp32

BUCKET_ROWS = 64       # rows per length bucket (measured, 400 sentences: 25-100 rows cost a third of one bucket)


def length_order(lengths: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """(order, inverse) of the rows of lengths [n]: `order` sorts them longest first (stable), `inverse` undoes it
    (rows in `order`, indexed by `inverse`, are back in their own order)."""
    order = torch.argsort(lengths, descending=True, stable=True)
    inverse = torch.empty_like(order)
    inverse[order] = torch.arange(len(order), device=order.device)
    return order, inverse


def length_buckets(lengths: torch.Tensor, rows: int = BUCKET_ROWS) -> tuple[list[tuple[torch.Tensor, int]],
                                                                            torch.Tensor]:
    """The rows of lengths [n] (CPU) in length buckets: ([(a bucket's row indices, its longest length, at least
    1)], inverse); the buckets' results concatenated in that order and indexed by `inverse` are in the rows' order."""
    order, inverse = length_order(lengths)
    return [(bucket, max(1, int(lengths[bucket[0]]))) for bucket in order.split(rows)], inverse


@functools.lru_cache(maxsize=None)
def cpu_runs_bf16_lstm() -> bool:
    """Whether oneDNN runs torch's LSTM in bfloat16 on this CPU: one step of a 2-unit LSTM in bf16, forward and
    backward, tried once per process (False where creating its primitive fails: a CPU without AMX or
    avx512_bf16). It runs with gradients and without autocast, whatever the caller's context."""
    try:
        with torch.inference_mode(False), torch.enable_grad(), torch.autocast("cpu", enabled=False):
            lstm = nn.LSTM(2, 2, batch_first=True).to(torch.bfloat16)
            lstm(torch.zeros(1, 1, 2, dtype=torch.bfloat16, requires_grad=True))[0].sum().backward()
    except RuntimeError:
        return False
    return True


def cpu_autocast_lstm(call, *args):
    """`call(*args)`, a call of torch's LSTM, under CPU autocast: as it is (in bf16) when the autocast is to bfloat16
    and `cpu_runs_bf16_lstm()`, else in fp32 (models/device.py `in_fp32`, which also leaves a call on CUDA tensors,
    or outside autocast, as it is)."""
    if (torch.is_autocast_enabled("cpu") and torch.get_autocast_dtype("cpu") == torch.bfloat16
            and cpu_runs_bf16_lstm()):
        return call(*args)
    return in_fp32(call, *args, device_types=("cpu",))


def bucketed_lstm(lstm: nn.LSTM, x: torch.Tensor, state: tuple[torch.Tensor, torch.Tensor], lengths: torch.Tensor,
                  rows: int = BUCKET_ROWS) -> torch.Tensor:
    """`lstm` (batch first, one direction, any layers) over x [n, T, input] from state (h, c) [layers, n, hidden], in
    length buckets of `rows` rows (`length_buckets`), each cut to its longest row: the outputs [n, T, hidden], those
    of `lstm(x, state)` at each row's first lengths[row] positions (a row's outputs do not depend on what follows
    them), 0 past its bucket's longest row, laid out time-major as torch lays out a batch-first LSTM's outputs (so
    that dropout over them draws the same mask: the draws follow the memory layout). No final state. lengths [n] on
    the CPU; under CPU autocast in bf16 or fp32 (`cpu_autocast_lstm`). With dropout between layers in training the
    draws inside differ from those over the whole batch."""
    return cpu_autocast_lstm(_bucketed_lstm, lstm, x, state, lengths, rows)


def _bucketed_lstm(lstm, x, state, lengths, rows):
    buckets, inverse = length_buckets(lengths, rows)
    total, device = x.shape[1], x.device
    parts = []
    for bucket, longest in buckets:
        index = bucket.to(device)
        outputs, _ = lstm(x[index, :longest], tuple(s.index_select(1, index) for s in state))
        parts.append(nn.functional.pad(outputs, (0, 0, 0, total - longest)))
    return torch.cat(parts)[inverse.to(device)].transpose(0, 1).contiguous().transpose(0, 1)


def lstm_states(lstm: nn.LSTM, x: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
    """`lstm` (one layer, batch first) over the real positions of x [n, T, input]: its states [n, T, hidden *
    directions] ([forward ; backward] where bidirectional), 0 at the padding; a row of length 0 runs over its first
    position, as one of length 1. lengths [n] on the CPU. Padded input (module docstring); under CPU autocast in bf16
    or fp32 (`cpu_autocast_lstm`)."""
    return cpu_autocast_lstm(_lstm_states, lstm, x, lengths)


def _lstm_states(lstm: nn.LSTM, x: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
    if lstm.num_layers != 1 or not lstm.batch_first or lstm.proj_size:
        raise ValueError("lstm_states runs a one-layer batch-first LSTM without projection")
    lengths = lengths.clamp_min(1)
    mask = (torch.arange(x.shape[1])[None, :] < lengths[:, None])[..., None].to(x.device)
    if not lstm.bidirectional:
        return lstm(x)[0] * mask
    zeros = x.new_zeros(1, x.shape[0], lstm.hidden_size)
    forward_weights, backward_weights = lstm.all_weights
    forward = torch.lstm(x, (zeros, zeros), forward_weights, lstm.bias, 1, 0.0, lstm.training, False, True)[0]
    steps = torch.arange(x.shape[1])[None, :]
    reverse = torch.where(steps < lengths[:, None], lengths[:, None] - 1 - steps, steps).to(x.device)
    backward = torch.lstm(x.gather(1, reverse[..., None].expand_as(x)), (zeros, zeros), backward_weights, lstm.bias,
                          1, 0.0, lstm.training, False, True)[0]
    return torch.cat([forward, backward.gather(1, reverse[..., None].expand_as(backward))], dim=2) * mask
