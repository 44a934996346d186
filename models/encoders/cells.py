"""Recurrences that torch does not ship, run step by step over padded batches [n, T, d] (pure torch).

Every recurrence takes `x` [n, T, d_in] and `mask` [n, T] (1 at real positions, 0 at the padding after them) and
returns the state at the last real position of each row, [n, d_out]; padded steps leave the state unchanged, so a
row of length 0 keeps the zero initial state.

- `ElmanRNN` (plain RNN, SPEC §8): h_t = f(W_x x_t + W_h h_{t-1} + b), f in {tanh, relu, linear}.
  `identity_init=True` gives the iRNN initialization W_x = W_h = I, b = 0 (needs d_in == hidden).
- `PeepholeLSTM` (Gers et al. 2003, SPEC §8):
      i_t = sigmoid(W_xi x_t + W_hi h_{t-1} + w_ci * c_{t-1} + b_i)
      f_t = sigmoid(W_xf x_t + W_hf h_{t-1} + w_cf * c_{t-1} + b_f)
      c_t = f_t * c_{t-1} + i_t * tanh(W_xc x_t + W_hc h_{t-1} + b_c)
      o_t = sigmoid(W_xo x_t + W_ho h_{t-1} + w_co * c_t + b_o)
      h_t = o_t * tanh(c_t)            (output_gate=True)
      h_t = tanh(c_t)                  (output_gate=False: the papers' "no output gate" AMBIG, SPEC §8)
  The peephole weights w_c* are diagonal (vectors, elementwise), as in Gers et al.; `peepholes=False` drops them.

How they run (`scan_last`): the input maps W_x x_t + b of every position at once, then one step per position over
the rows still inside their sentence (rows sorted by length, longest first, so they are a shrinking prefix): no
step is computed for padding, and each position's inputs come from one `unbind` of the [n, T, k] tensor, whose
backward is one stack (indexing x[:, t] per step would zero-fill a full [n, T, k] gradient per step).
"""
from __future__ import annotations

from collections.abc import Callable

import torch
from torch import nn

ACTIVATIONS = {"tanh": torch.tanh, "relu": torch.relu, "linear": lambda v: v}


def activation_fn(name: str):
    if name not in ACTIVATIONS:
        raise ValueError(f"unknown activation {name!r}; choose one of {', '.join(ACTIVATIONS)}")
    return ACTIVATIONS[name]


def scan_last(step: Callable[..., tuple[torch.Tensor, ...]], inputs: tuple[torch.Tensor, ...], mask: torch.Tensor,
              states: tuple[torch.Tensor, ...]) -> tuple[torch.Tensor, ...]:
    """The states after each row's last real position of the recurrence `states = step(*inputs_t, *states)`.

    `inputs`: tensors [n, T, ...] read at each position; `mask` [n, T]: 1 at the real positions, which come first in
    each row (padding after them); `states`: the initial states, each [n, ...]. A row keeps its states through its
    padding (a row of length 0 keeps the initial ones)."""
    lengths = (mask > 0).sum(1).cpu()
    order = torch.argsort(lengths, descending=True, stable=True)
    active = (lengths[order][None, :] > torch.arange(int(lengths.max()) if len(lengths) else 0)[:, None]).sum(1)
    rows = order.to(mask.device)
    steps = list(zip(*(x[rows].unbind(1) for x in inputs)))
    states = tuple(s[rows] for s in states)
    done = []                                       # the states of the rows that ended, shortest rows first
    for t, n in enumerate(active.tolist()):
        if n < len(states[0]):
            done.append(tuple(s[n:] for s in states))
            states = tuple(s[:n] for s in states)
        states = step(*(x[:n] for x in steps[t]), *states)
    done.append(states)
    inverse = torch.empty_like(order)
    inverse[order] = torch.arange(len(order))
    return tuple(torch.cat(parts[::-1])[inverse.to(mask.device)] for parts in zip(*done))


class ElmanRNN(nn.Module):
    def __init__(self, input_size: int, hidden: int, activation: str = "tanh", identity_init: bool = False):
        super().__init__()
        self.activation_name, self.activation = activation, activation_fn(activation)
        self.input_map = nn.Linear(input_size, hidden)
        self.hidden_map = nn.Linear(hidden, hidden, bias=False)
        if identity_init and input_size != hidden:
            raise ValueError(f"identity initialization needs input size == hidden size, got {input_size} and {hidden}")
        self.identity_init = identity_init
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """The iRNN start when `identity_init` (the maps' own initialization otherwise, done by nn.Linear)."""
        if self.identity_init:
            with torch.no_grad():
                self.input_map.weight.copy_(torch.eye(self.input_map.out_features))
                self.input_map.bias.zero_()
                self.hidden_map.weight.copy_(torch.eye(self.hidden_map.out_features))

    def step(self, x_proj: torch.Tensor, h: torch.Tensor) -> tuple[torch.Tensor]:
        """One step from x_proj = W_x x_t + b and the previous h."""
        return (self.activation(x_proj + self.hidden_map(h)),)

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        h = x.new_zeros(x.shape[0], self.hidden_map.in_features)
        return scan_last(self.step, (self.input_map(x),), mask, (h,))[0]   # W_x x_t + b for every t at once


class PeepholeLSTM(nn.Module):
    def __init__(self, input_size: int, hidden: int, output_gate: bool = True, peepholes: bool = True):
        super().__init__()
        self.hidden, self.output_gate, self.peepholes = hidden, output_gate, peepholes
        gates = 4 if output_gate else 3                    # order: input, forget, cell candidate, output
        self.input_map = nn.Linear(input_size, gates * hidden)
        self.hidden_map = nn.Linear(hidden, gates * hidden, bias=False)
        if peepholes:
            self.peephole_input = nn.Parameter(torch.zeros(hidden))
            self.peephole_forget = nn.Parameter(torch.zeros(hidden))
            if output_gate:
                self.peephole_output = nn.Parameter(torch.zeros(hidden))

    def reset_parameters(self) -> None:
        """Peephole weights start at 0 (the maps are nn.Linear's own)."""
        with torch.no_grad():
            for name, parameter in self.named_parameters(recurse=False):
                parameter.zero_()

    def step(self, x_proj: torch.Tensor, h: torch.Tensor, c: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """One step from x_proj = W_x x_t + b (all gates) and the previous (h, c); returns the new (h, c)."""
        z = x_proj + self.hidden_map(h)
        zi, zf, zc = z[:, :self.hidden], z[:, self.hidden:2 * self.hidden], z[:, 2 * self.hidden:3 * self.hidden]
        if self.peepholes:
            zi, zf = zi + self.peephole_input * c, zf + self.peephole_forget * c
        c = torch.sigmoid(zf) * c + torch.sigmoid(zi) * torch.tanh(zc)
        if not self.output_gate:
            return torch.tanh(c), c
        zo = z[:, 3 * self.hidden:]
        if self.peepholes:
            zo = zo + self.peephole_output * c
        return torch.sigmoid(zo) * torch.tanh(c), c

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        h = c = x.new_zeros(x.shape[0], self.hidden)
        return scan_last(self.step, (self.input_map(x),), mask, (h, c))[0]
