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
- `cpu_lstm_fp32`: a call of torch's LSTM (`lstm_states`, the SCPN's decoder) runs in fp32 under CPU autocast:
  oneDNN has no bf16 or fp16 LSTM primitive on CPUs without avx512_bf16 / AMX (torch 2.13 on an AVX2 CPU: "could not
  create a primitive descriptor for the LSTM forward propagation primitive"); on CUDA the LSTM autocasts (cuDNN).
"""
from __future__ import annotations

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


def cpu_lstm_fp32(call, *args):
    """`call(*args)`, a call of torch's LSTM, in fp32 under CPU autocast (module docstring; models/device.py
    `in_fp32`), as it is otherwise."""
    return in_fp32(call, *args, device_types=("cpu",))


def bucketed_lstm(lstm: nn.LSTM, x: torch.Tensor, state: tuple[torch.Tensor, torch.Tensor], lengths: torch.Tensor,
                  rows: int = BUCKET_ROWS) -> torch.Tensor:
    """`lstm` (batch first, one direction, any layers) over x [n, T, input] from state (h, c) [layers, n, hidden], in
    length buckets of `rows` rows (`length_buckets`), each cut to its longest row: the outputs [n, T, hidden], those
    of `lstm(x, state)` at each row's first lengths[row] positions (a row's outputs do not depend on what follows
    them), 0 past its bucket's longest row, laid out time-major as torch lays out a batch-first LSTM's outputs (so
    that dropout over them draws the same mask: the draws follow the memory layout). No final state. lengths [n] on
    the CPU; fp32 under CPU autocast. With dropout between layers in training the draws inside differ from those
    over the whole batch."""
    return cpu_lstm_fp32(_bucketed_lstm, lstm, x, state, lengths, rows)


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
    position, as one of length 1. lengths [n] on the CPU. Padded input (module docstring); fp32 under CPU autocast
    (`cpu_lstm_fp32`)."""
    return cpu_lstm_fp32(_lstm_states, lstm, x, lengths)


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
