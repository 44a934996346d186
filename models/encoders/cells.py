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

How they run: the input maps W_x x_t + b of every position at once, then one step per position over the rows
still inside their sentence (rows sorted by length, longest first, so they are a shrinking prefix): no step is
computed for padding. `ElmanRNN` steps under autograd (`scan_last`: each position's inputs come from one `unbind`
of the [n, T, k] tensor, whose backward is one stack; indexing x[:, t] per step would zero-fill a full [n, T, k]
gradient per step). `PeepholeLSTM` and gran-4's gated sum (`TwoGateScan`, used by models/encoders/recurrent.py)
are autograd Functions with their own backward (`run_sorted` runs them): the forward keeps what the backward
needs, the backward steps back with the few operations that depend on the incoming gradient (the rest computed
for all steps at once) and takes the weight gradients in one matmul over all steps instead of one per step, as
oneDNN's fused LSTM layer does (benchmarks/RESULTS.md, "Trainers at the machine's limit"). Under autocast (CPU or
CUDA) those two Functions run in fp32 (`run_sorted`, models/device.py `in_fp32`): their forward writes into buffers of
one dtype with in-place and `out=` operations, which autocast does not cast, and a recurrence of many steps would
accumulate half-precision rounding in its state.
"""
from __future__ import annotations

from collections.abc import Callable

import torch
from torch import nn

from paranmt.models.device import in_fp32
from paranmt.models.recurrence import length_order

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
    rows, inverse, active = sorted_rows(mask)
    steps = list(zip(*(x[rows].unbind(1) for x in inputs)))
    states = tuple(s[rows] for s in states)
    done = []                                       # the states of the rows that ended, shortest rows first
    for t, n in enumerate(active):
        if n < len(states[0]):
            done.append(tuple(s[n:] for s in states))
            states = tuple(s[:n] for s in states)
        states = step(*(x[:n] for x in steps[t]), *states)
    done.append(states)
    return tuple(torch.cat(parts[::-1])[inverse] for parts in zip(*done))


def sorted_rows(mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, list[int]]:
    """(order, inverse, active) of `mask` [n, T]'s rows: `order` sorts them by length, longest first (stable),
    `inverse` undoes it, and active[t] is the number of sorted rows still inside their sentence at position t
    (a shrinking prefix), for t up to the longest length."""
    lengths = (mask > 0).sum(1).cpu()
    order, inverse = length_order(lengths)
    active = (lengths[order][None, :] > torch.arange(int(lengths.max()) if len(lengths) else 0)[:, None]).sum(1)
    return order.to(mask.device), inverse.to(mask.device), active.tolist()


def run_sorted(scan: type[torch.autograd.Function], mask: torch.Tensor, inputs: tuple[torch.Tensor, ...],
               parameters: tuple) -> torch.Tensor:
    """`scan.apply(active, *inputs_time_major, *parameters)` over the rows of `inputs` (each [n, T, ...]) sorted by
    length (longest first; `sorted_rows`), put time-major [T, n, ...]; its output [n, ...] back in the rows'
    order. Length buckets arrive sorted, and then nothing is reordered. In fp32 under autocast (module docstring)."""
    order, inverse, active = sorted_rows(mask)
    in_order = bool((order == torch.arange(len(order), device=order.device)).all())
    out = in_fp32(scan.apply, active, *((x if in_order else x[order]).transpose(0, 1) for x in inputs), *parameters)
    return out if in_order else out[inverse]


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

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        peepholes = ((self.peephole_input, self.peephole_forget, self.peephole_output if self.output_gate else None)
                     if self.peepholes else (None, None, None))
        return run_sorted(PeepholeScan, mask, (x,), (self.input_map.weight, self.input_map.bias,
                                                      self.hidden_map.weight, *peepholes))


class PeepholeScan(torch.autograd.Function):
    """`PeepholeLSTM` over rows sorted by length (longest first), with its own backward (run by `run_sorted`): the
    last states h_T [n, H] from `active`, x [T, n, d] (time-major), W_x [G H, d], b, W_h [G H, H] (gates in the
    order input, forget, cell, output; G = 3 without the output gate) and the peephole vectors (None without them;
    w_co None also without the output gate).

    The forward computes W_x x_t + b for all positions in one matmul, then steps, keeping each step's activated
    gates, c_t and tanh(c_t), with [x_t ; h_{t-1}] side by side in one buffer. The backward first computes, for all
    steps at once, the factors that do not depend on the incoming gradients, so that a step back is five
    operations:
        dz_o = dh * A,  A = tanh(c_t) o (1 - o)                       (output gate)
        dc = dc' + dh * B,  B = o (1 - tanh^2 c_t) + A w_co           (1 - tanh^2 c_t without the output gate)
        [dz_i, dz_f, dz_c] = dc * [g i (1 - i), c_{t-1} f (1 - f), i (1 - g^2)]    (g = tanh(z_c))
        dc_{t-1} = dc * (f + w_ci g i (1 - i) + w_cf c_{t-1} f (1 - f))
        dh_{t-1} = dz W_h
    then the gradients of x and of both weight matrices over all steps at once: dx = dz W_x and
    [dW_x dW_h] = sum_t dz_t^T [x_t ; h_{t-1}], one matmul each, as oneDNN's fused LSTM layer does."""

    @staticmethod
    def forward(ctx, active, x, input_weight, input_bias, weight, peephole_i, peephole_f, peephole_o):
        steps, n, size = x.shape
        width, hidden = weight.shape
        output_gate = width == 4 * hidden
        both = x.new_zeros(steps + 1, n, size + hidden)             # [x_t ; h_{t-1}] at t; h_T of a row at T
        both[:steps, :, :size] = x
        gates = torch.addmm(input_bias, both[:steps, :, :size].reshape(steps * n, size), input_weight.t())
        gates = gates.view(steps, n, width)                         # W_x x_t + b, then the activated gates
        h = both[..., size:]                                        # h[t + 1] = h_t
        c = x.new_zeros(steps + 1, n, hidden)
        tanh_c = x.new_zeros(steps, n, hidden) if output_gate else h[1:]       # tanh(c_t) (= h_t without o)
        weight_t = weight.t()
        input_forget = None if peephole_i is None else torch.stack([peephole_i, peephole_f])
        for t, rows in enumerate(active):
            z, c_prev = gates[t, :rows], c[t, :rows]
            z.addmm_(h[t, :rows], weight_t)
            if input_forget is not None:
                z[:, :2 * hidden].view(rows, 2, hidden).addcmul_(c_prev[:, None], input_forget)
            z[:, :2 * hidden].sigmoid_()
            z[:, 2 * hidden:3 * hidden].tanh_()
            c_t = torch.mul(z[:, hidden:2 * hidden], c_prev, out=c[t + 1, :rows])
            c_t.addcmul_(z[:, :hidden], z[:, 2 * hidden:3 * hidden])
            torch.tanh(c_t, out=tanh_c[t, :rows])
            if not output_gate:
                continue
            if peephole_o is not None:
                z[:, 3 * hidden:].addcmul_(c_t, peephole_o)
            z[:, 3 * hidden:].sigmoid_()
            torch.mul(z[:, 3 * hidden:], tanh_c[t, :rows], out=h[t + 1, :rows])
        lengths = (torch.tensor(active, dtype=torch.long)[:, None] > torch.arange(n)[None, :]).sum(0)
        ctx.save_for_backward(input_weight, weight, peephole_i, peephole_f, peephole_o, gates, both, c, tanh_c)
        ctx.active = active
        return h[lengths.to(x.device), torch.arange(n, device=x.device)]

    @staticmethod
    def backward(ctx, grad_last):
        input_weight, weight, peephole_i, peephole_f, peephole_o, gates, both, c, tanh_c = ctx.saved_tensors
        steps, n, width = gates.shape
        hidden = weight.shape[1]
        output_gate = width == 4 * hidden
        i, f, cell = gates[..., :hidden], gates[..., hidden:2 * hidden], gates[..., 2 * hidden:3 * hidden]
        c_prev = c[:steps]
        factors = gates.new_empty(steps, n, 3 * hidden)                     # [g i', c_{t-1} f', i (1 - g^2)]
        torch.mul(cell, torch.addcmul(i, i, i, value=-1), out=factors[..., :hidden])      # i' = i (1 - i)
        torch.mul(c_prev, torch.addcmul(f, f, f, value=-1), out=factors[..., hidden:2 * hidden])
        torch.addcmul(i, i, cell * cell, value=-1, out=factors[..., 2 * hidden:])
        keep = f if peephole_i is None else torch.addcmul(f, factors[..., :hidden], peephole_i).addcmul_(
            factors[..., hidden:2 * hidden], peephole_f)
        squared = tanh_c * tanh_c
        if output_gate:
            o = gates[..., 3 * hidden:]
            to_output = tanh_c * torch.addcmul(o, o, o, value=-1)
            through = torch.addcmul(o, o, squared, value=-1)                  # o (1 - tanh^2 c_t)
            if peephole_o is not None:
                through.addcmul_(to_output, peephole_o)
        else:
            through = squared.neg_().add_(1)
        grad_z = gates.new_zeros(steps, n, width)
        grad_h = grad_last.contiguous().clone()        # a row's gradient waits there until its last step
        grad_c = gates.new_zeros(n, hidden)
        for t in reversed(range(len(ctx.active))):
            rows = ctx.active[t]
            dz, dh = grad_z[t, :rows], grad_h[:rows]
            if output_gate:
                torch.mul(dh, to_output[t, :rows], out=dz[:, 3 * hidden:])
            dc = torch.addcmul(grad_c[:rows], dh, through[t, :rows])
            torch.mul(dc[:, None], factors[t, :rows].view(rows, 3, hidden),
                      out=dz[:, :3 * hidden].view(rows, 3, hidden))
            torch.mul(dc, keep[t, :rows], out=grad_c[:rows])
            torch.mm(dz, weight, out=grad_h[:rows])
        flat = grad_z.view(steps * n, width)
        grad_x = flat.mm(input_weight).view(steps, n, -1)
        grad_weights = flat.t().mm(both[:steps].view(steps * n, -1))           # [dW_x dW_h]
        size = input_weight.shape[1]
        grad_i = grad_f = grad_o = None
        if peephole_i is not None:
            grad_i = (grad_z[..., :hidden] * c_prev).sum((0, 1))
            grad_f = (grad_z[..., hidden:2 * hidden] * c_prev).sum((0, 1))
            if peephole_o is not None:
                grad_o = (grad_z[..., 3 * hidden:] * c[1:]).sum((0, 1))
        return None, grad_x, grad_weights[:, :size], flat.sum(0), grad_weights[:, size:], grad_i, grad_f, grad_o


class TwoGateScan(torch.autograd.Function):
    """`gran-4`'s recurrence over rows sorted by length (longest first), with its own backward (run by
    `run_sorted`): a_t = g_1,t * x_t + g_2,t * a_{t-1}, a_0 = 0, [g_1,t ; g_2,t] = sigmoid(p_t + W_a a_{t-1}), from
    `active`, p [T, n, 2 d] (the gates' other terms), x [T, n, d] (both time-major) and W_a [2 d, d]; returns each
    row's last a [n, d]. A step back is three operations (the factors computed for all steps at once):
        [dz_1, dz_2] = da * [x_t g_1 (1 - g_1), a_{t-1} g_2 (1 - g_2)],   dx_t = da * g_1,
        da_{t-1} = da * g_2 + dz W_a
    and dW_a = sum_t dz_t^T a_{t-1} is one matmul over all steps."""

    @staticmethod
    def forward(ctx, active, pre_gates, x, weight):
        steps, n, size = x.shape
        gates = pre_gates.contiguous().clone()                      # then the gates g_1 ; g_2
        x = x.contiguous()
        a = x.new_zeros(steps + 1, n, size)                         # a[t + 1] = a_t
        weight_t = weight.t()
        for t, rows in enumerate(active):
            g = gates[t, :rows].addmm_(a[t, :rows], weight_t).sigmoid_()
            torch.mul(g[:, :size], x[t, :rows], out=a[t + 1, :rows]).addcmul_(g[:, size:], a[t, :rows])
        lengths = (torch.tensor(active, dtype=torch.long)[:, None] > torch.arange(n)[None, :]).sum(0)
        ctx.save_for_backward(x, weight, gates, a)
        ctx.active = active
        return a[lengths.to(x.device), torch.arange(n, device=x.device)]

    @staticmethod
    def backward(ctx, grad_last):
        x, weight, gates, a = ctx.saved_tensors
        steps, n, size = x.shape
        g1, g2 = gates[..., :size], gates[..., size:]
        factors = gates.new_empty(steps, n, 2 * size)
        torch.mul(x, torch.addcmul(g1, g1, g1, value=-1), out=factors[..., :size])
        torch.mul(a[:steps], torch.addcmul(g2, g2, g2, value=-1), out=factors[..., size:])
        grad_z = gates.new_zeros(steps, n, 2 * size)
        grad_x = x.new_zeros(steps, n, size)
        grad_a = grad_last.contiguous().clone()        # a row's gradient waits there until its last step
        for t in reversed(range(len(ctx.active))):
            rows = ctx.active[t]
            da, dz = grad_a[:rows], grad_z[t, :rows]
            torch.mul(da[:, None], factors[t, :rows].view(rows, 2, size), out=dz.view(rows, 2, size))
            torch.mul(da, g1[t, :rows], out=grad_x[t, :rows])
            torch.addmm(da * g2[t, :rows], dz, weight, out=grad_a[:rows])
        grad_weight = grad_z.view(steps * n, 2 * size).t().mm(a[:steps].view(steps * n, size))
        return None, grad_z, grad_x, grad_weight
