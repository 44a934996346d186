"""Recurrent encoders over unit embeddings x_1..x_T (units from a word or sentencepiece featurizer; SPEC §3, §8).

LSTM family (h_t from torch's LSTM unless stated otherwise):
- `lstm` (LSTMavg): g(s) = mean_t h_t                                                      (dim = hidden)
- `blstm`:    g(s) = mean_t (h_t^fwd + h_t^bwd) / 2  (directions averaged, not concatenated)  (dim = hidden)
- `blstm-ff`: g(s) = tanh(W [mean_t h_t^fwd ; mean_t h_t^bwd] + b)  (directions through one feed-forward layer)
- `lstm-last`: g(s) = h_T, the state after the last unit (P17's "LSTM")                      (dim = hidden)
- `lstm-og` / `lstm-nog`: g(s) = h_T of the Gers peephole LSTM (`cells.PeepholeLSTM`) with / without the output
  gate (the ICLR'16 suite's "LSTM o.g." / "LSTM no o.g."; `peepholes=False` drops the peepholes)
Plain RNNs (`cells.ElmanRNN`):
- `rnn`:  g(s) = h_T, h_t = f(W_x x_t + W_h h_{t-1} + b), f = `activation` (tanh or relu)    (dim = hidden)
- `irnn`: the same with W_x = W_h = I, b = 0 at initialization, f = identity, g(s) = h_T / T  (needs hidden = dim)
GRAN family (P17; gates g = sigmoid(W_x x_t + W_h h_t + b) unless stated; dim = word dim unless stated):
- `gran`:   a_t = x_t * g_t; g(s) = mean_t a_t
- `gran-2`: a_t = h_t * g_t (the gate multiplies h_t; g_t of hidden size); g(s) = mean_t a_t   (dim = hidden)
- `gran-3`: g_i,t = sigmoid(W_xi x_t + W_hi h_t + b_i), i = 1, 2; a_t = g_1,t * x_t + g_2,t * a_{t-1}, a_0 = 0;
            g(s) = a_T / T
- `gran-4`: `gran-3` with + W_ai a_{t-1} inside both gates
- `gran-5`: a_t = g_1,t * x_t + g_2,t * h_t; g(s) = mean_t a_t                                 (needs hidden = dim)
- `bigran`: `gran` on the forward and on the backward LSTM states (own gates each), the two means combined by
            `bidirectional_combine`: `sum` (g_fwd + g_bwd) or `ff` (tanh(W [g_fwd ; g_bwd] + b)) (AMBIG, P17)

Means run over the real (unpadded) positions; an empty sentence embeds to the zero vector. Dropout (probability
`dropout`) acts on the unit embeddings; word dropout drops whole units (never all units of a sentence).

How they run: a batch is cut into length buckets (models/recurrence.py `length_buckets`: rows sorted by length,
BUCKET_ROWS a bucket, each padded to its longest; every formula above is row by row), and each bucket is embedded
and composed on its own. torch's LSTM takes the bucket as padded input (models/recurrence.py `lstm_states`), which
on the CPU is oneDNN's fused LSTM layer forward and backward (a packed sequence would be ATen's step loop, whose
backward zero-fills a full-size gradient per step); a row's states at its real positions do not depend on the
padding after them, and the backward direction runs over each row reversed within its length. The GRANs' gates
read those states at all positions at once; `gran-3`'s scan is the closed form a_T = sum_t g_1,t * x_t *
prod_{s > t} g_2,s (the products as exp of suffix sums of log g_2); `gran-4` and the cells step over the rows still
inside their sentence (models/encoders/cells.py).
"""
from __future__ import annotations


import torch
import torch.nn.functional as F
from torch import nn

from paranmt.models.encoders.base import FeaturizedEncoder
from paranmt.models.encoders.cells import ElmanRNN, PeepholeLSTM, TwoGateScan, run_sorted
from paranmt.models.recurrence import length_buckets, lstm_states


class RecurrentEncoder(FeaturizedEncoder):
    uses_lstm = True                    # builds `self.lstm` (torch's LSTM); custom cells set False
    bidirectional = False
    square = False                      # needs hidden == word_dim
    output = "word"                     # "word": dim = word_dim; "hidden": dim = hidden
    saved_options = {"word_dim": "word_dim", "hidden": "hidden", "dropout": "dropout", "word_dropout": "word_dropout"}

    def __init__(self, featurizer, word_dim: int = 300, hidden: int = 300, dropout: float = 0.0,
                 word_dropout: float = 0.0, init_scale: float = 0.1):
        super().__init__()
        if self.square and hidden != word_dim:
            raise ValueError(f"{self.kind} needs hidden size == embedding size, got {hidden} and {word_dim}")
        self.featurizer, self.word_dim, self.hidden = featurizer, word_dim, hidden
        self.dropout, self.word_dropout = dropout, word_dropout
        self.embedding = nn.Embedding(featurizer.vocab_size, word_dim, sparse=True)
        nn.init.uniform_(self.embedding.weight, -init_scale, init_scale)
        if self.uses_lstm:
            self.lstm = nn.LSTM(word_dim, hidden, batch_first=True, bidirectional=self.bidirectional)

    @property
    def dim(self) -> int:
        return self.word_dim if self.output == "word" else self.hidden

    def spec(self) -> dict:
        return {"featurizer_kind": self.featurizer.kind, "word_dim": self.word_dim, "hidden": self.hidden,
                "dropout": self.dropout, "word_dropout": self.word_dropout}

    def prepare(self, sentences: list[str]) -> tuple[torch.Tensor, torch.Tensor]:
        """(padded ids [n, max_len], lengths [n])."""
        ids = self.featurizer.ids(sentences)
        lengths = torch.tensor([len(x) for x in ids], dtype=torch.long)
        padded = torch.zeros(len(ids), max(1, int(lengths.max()) if len(ids) else 1), dtype=torch.long)
        padded[torch.arange(padded.shape[1])[None, :] < lengths[:, None]] = torch.tensor(
            [unit for sentence in ids for unit in sentence], dtype=torch.long)     # row by row, left-aligned
        return padded, lengths

    def _drop_words(self, padded: torch.Tensor, lengths: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Remove each unit with probability word_dropout (keeping at least one), re-packing to the left."""
        mask = torch.arange(padded.shape[1])[None, :] < lengths[:, None]
        keep = mask & (torch.rand(padded.shape) >= self.word_dropout)
        keep = torch.where(keep.any(1, keepdim=True), keep, mask)
        new_lengths = keep.sum(1)
        order = torch.argsort((~keep).int(), dim=1, stable=True)
        return torch.gather(padded, 1, order), new_lengths

    def forward(self, inputs: tuple[torch.Tensor, torch.Tensor]) -> torch.Tensor:
        padded, lengths = inputs                      # CPU tensors; lengths stay on the CPU
        if self.training and self.word_dropout > 0:
            padded, lengths = self._drop_words(padded, lengths)
        if not len(lengths):
            return self.embedding.weight.new_zeros(0, self.dim)
        buckets, inverse = length_buckets(lengths)
        parts = [self._embed_bucket(padded[rows, :longest], lengths[rows]) for rows, longest in buckets]
        return torch.cat(parts)[inverse.to(parts[0].device)]

    def _embed_bucket(self, padded: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
        """`compose` over the unit embeddings of one length bucket (padded ids [b, longest], lengths [b])."""
        device = self.embedding.weight.device
        x = F.dropout(self.embedding(padded.to(device)), self.dropout, training=self.training)
        mask = (torch.arange(padded.shape[1])[None, :] < lengths[:, None]).float().to(device)
        return self.compose(x, lengths, mask)

    def compose(self, x: torch.Tensor, lengths: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """Sentence embeddings [n, dim] from unit embeddings x [n, T, word_dim], lengths [n] (CPU), mask [n, T]."""
        raise NotImplementedError

    def lstm_states(self, x: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
        """`self.lstm` over the real positions: states [n, T, hidden * directions], 0 at padded positions
        (models/recurrence.py `lstm_states`: padded input, the backward direction over each row reversed within its
        length)."""
        return lstm_states(self.lstm, x, lengths)

    @staticmethod
    def mean_over(outputs: torch.Tensor, mask: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
        return (outputs * mask[..., None]).sum(1) / lengths.clamp_min(1)[:, None].float().to(outputs.device)


class LSTMAvgEncoder(RecurrentEncoder):
    kind = "lstm"
    output = "hidden"

    def compose(self, x, lengths, mask):
        return self.mean_over(self.lstm_states(x, lengths), mask, lengths)


class BLSTMEncoder(RecurrentEncoder):
    kind = "blstm"
    output = "hidden"
    bidirectional = True

    def compose(self, x, lengths, mask):
        states = self.lstm_states(x, lengths)
        return self.mean_over((states[..., :self.hidden] + states[..., self.hidden:]) / 2, mask, lengths)


class BLSTMFeedForwardEncoder(RecurrentEncoder):
    kind = "blstm-ff"
    output = "hidden"
    bidirectional = True

    def __init__(self, featurizer, word_dim: int = 300, hidden: int = 300, **kwargs):
        super().__init__(featurizer, word_dim=word_dim, hidden=hidden, **kwargs)
        self.combine = nn.Linear(2 * hidden, hidden)

    def compose(self, x, lengths, mask):
        means = self.mean_over(self.lstm_states(x, lengths), mask, lengths)   # [mean fwd ; mean bwd]
        return torch.tanh(self.combine(means)) * (lengths > 0).float().to(x.device)[:, None]


class LSTMLastEncoder(RecurrentEncoder):
    kind = "lstm-last"
    output = "hidden"

    def compose(self, x, lengths, mask):
        last = (lengths.clamp_min(1) - 1).to(x.device)
        states = self.lstm_states(x, lengths)[torch.arange(x.shape[0], device=x.device), last]
        return states * (lengths > 0).float().to(x.device)[:, None]


class PeepholeLSTMEncoder(RecurrentEncoder):
    """`lstm-og` / `lstm-nog`: the last state of a `cells.PeepholeLSTM` with / without the output gate."""

    uses_lstm = False
    output = "hidden"
    saved_options = {"output_gate": "output_gate", "peepholes": "peepholes"}

    def __init__(self, featurizer, word_dim: int = 300, hidden: int = 300, output_gate: bool = True,
                 peepholes: bool = True, **kwargs):
        super().__init__(featurizer, word_dim=word_dim, hidden=hidden, **kwargs)
        self.kind = "lstm-og" if output_gate else "lstm-nog"
        self.cell = PeepholeLSTM(word_dim, hidden, output_gate=output_gate, peepholes=peepholes)

    def spec(self) -> dict:
        return {**super().spec(), "output_gate": self.cell.output_gate, "peepholes": self.cell.peepholes}

    def compose(self, x, lengths, mask):
        return self.cell(x, mask)


class RNNEncoder(RecurrentEncoder):
    """`rnn`: the last state of a plain RNN with activation tanh or relu."""

    kind = "rnn"
    uses_lstm = False
    output = "hidden"
    saved_options = {"activation": "activation"}

    def __init__(self, featurizer, word_dim: int = 300, hidden: int = 300, activation: str = "tanh", **kwargs):
        super().__init__(featurizer, word_dim=word_dim, hidden=hidden, **kwargs)
        self.cell = ElmanRNN(word_dim, hidden, activation=activation)

    def spec(self) -> dict:
        return {**super().spec(), "activation": self.cell.activation_name}

    def compose(self, x, lengths, mask):
        return self.cell(x, mask)


class IRNNEncoder(RecurrentEncoder):
    """`irnn`: identity-initialized linear RNN, final state divided by the length. Its composition regularizer
    (lambda_c) pulls W_x, W_h, b toward their initialization (identity, identity, 0), not toward 0."""

    kind = "irnn"
    uses_lstm = False
    square = True
    output = "hidden"
    composition_prior = "init"

    def __init__(self, featurizer, word_dim: int = 300, hidden: int = 300, **kwargs):
        super().__init__(featurizer, word_dim=word_dim, hidden=hidden, **kwargs)
        self.cell = ElmanRNN(word_dim, hidden, activation="linear", identity_init=True)

    def compose(self, x, lengths, mask):
        return self.cell(x, mask) / lengths.clamp_min(1)[:, None].float().to(x.device)


class GRANEncoder(RecurrentEncoder):
    """`gran`: the gate (of the output's size, `dim`) multiplies the unit embedding x_t (`output` word) or, for
    `gran-2`, the LSTM state h_t (`output` hidden)."""

    kind = "gran"

    def __init__(self, featurizer, word_dim: int = 300, hidden: int = 300, **kwargs):
        super().__init__(featurizer, word_dim=word_dim, hidden=hidden, **kwargs)
        self.gate_x = nn.Linear(word_dim, self.dim)
        self.gate_h = nn.Linear(hidden, self.dim, bias=False)

    def compose(self, x, lengths, mask):
        states = self.lstm_states(x, lengths)
        gated = x if self.output == "word" else states
        return self.mean_over(gated * torch.sigmoid(self.gate_x(x) + self.gate_h(states)), mask, lengths)

    @torch.no_grad()
    def gates(self, sentences: list[str]) -> list[torch.Tensor]:
        """The gate g_t = sigmoid(W_x x_t + W_h h_t + b) at each unit of each sentence ([units, dim] per sentence,
        in eval mode): what P17 §5.2 averages per part of speech."""
        was_training = self.training
        self.eval()
        try:
            padded, lengths = self.prepare(sentences)
            x = self.embedding(padded.to(self.device))
            g = torch.sigmoid(self.gate_x(x) + self.gate_h(self.lstm_states(x, lengths)))
        finally:
            self.train(was_training)
        return [g[row, :int(length)].cpu() for row, length in enumerate(lengths)]


class GRAN2Encoder(GRANEncoder):
    kind = "gran-2"
    output = "hidden"


class TwoGateGRANEncoder(RecurrentEncoder):
    """The GRANs with two gates per step, g_1 ; g_2 = sigmoid(W_x x_t + W_h h_t (+ W_a a_{t-1}, with
    `recurrent_gates`) + b), each of the word size (`gran-3`, `gran-4`, `gran-5`)."""

    recurrent_gates = False

    def __init__(self, featurizer, word_dim: int = 300, hidden: int = 300, **kwargs):
        super().__init__(featurizer, word_dim=word_dim, hidden=hidden, **kwargs)
        self.gate_x = nn.Linear(word_dim, 2 * word_dim)
        self.gate_h = nn.Linear(hidden, 2 * word_dim, bias=False)
        if self.recurrent_gates:
            self.gate_a = nn.Linear(word_dim, 2 * word_dim, bias=False)


class GRAN3Encoder(TwoGateGRANEncoder):
    """`gran-3`: a_t = g_1 * x_t + g_2 * a_{t-1}, a_0 = 0, so a_T = sum_t g_1,t * x_t * prod_{s > t} g_2,s over the
    real positions (the product as exp of a suffix sum of log g_2, which is <= 0: no overflow)."""

    kind = "gran-3"

    def compose(self, x, lengths, mask):
        pre_gates = self.gate_x(x) + self.gate_h(self.lstm_states(x, lengths))     # [n, T, 2 * word_dim]
        z1, z2 = pre_gates.chunk(2, dim=2)
        log_g2 = F.logsigmoid(z2) * mask[..., None]                                # padding: g_2 = 1
        inclusive = log_g2.flip(1).cumsum(1).flip(1)                               # sum_{s >= t} log g_2,s
        after = F.pad(inclusive[:, 1:], (0, 0, 0, 1))                              # sum_{s > t}
        a = (torch.sigmoid(z1) * x * mask[..., None] * torch.exp(after)).sum(1)
        return a / lengths.clamp_min(1)[:, None].float().to(x.device)


class GRAN4Encoder(TwoGateGRANEncoder):
    """`gran-4`: `gran-3` with W_a a_{t-1} inside both gates, stepped (cells.TwoGateScan) from the gates' other
    terms W_x x_t + W_h h_t + b, computed for every position at once."""

    kind = "gran-4"
    recurrent_gates = True

    def compose(self, x, lengths, mask):
        pre_gates = self.gate_x(x) + self.gate_h(self.lstm_states(x, lengths))     # [n, T, 2 * word_dim]
        a = run_sorted(TwoGateScan, mask, (pre_gates, x), (self.gate_a.weight,))
        return a / lengths.clamp_min(1)[:, None].float().to(x.device)


class GRAN5Encoder(TwoGateGRANEncoder):
    kind = "gran-5"
    square = True

    def compose(self, x, lengths, mask):
        states = self.lstm_states(x, lengths)
        g1, g2 = torch.sigmoid(self.gate_x(x) + self.gate_h(states)).chunk(2, dim=2)
        return self.mean_over(g1 * x + g2 * states, mask, lengths)


class BiGRANEncoder(RecurrentEncoder):
    kind = "bigran"
    bidirectional = True
    COMBINE = ("sum", "ff")
    saved_options = {"bidirectional_combine": "bidirectional_combine"}

    def __init__(self, featurizer, word_dim: int = 300, hidden: int = 300, bidirectional_combine: str = "sum",
                 **kwargs):
        super().__init__(featurizer, word_dim=word_dim, hidden=hidden, **kwargs)
        if bidirectional_combine not in self.COMBINE:
            raise ValueError(f"bidirectional_combine must be one of {', '.join(self.COMBINE)}, "
                             f"not {bidirectional_combine!r}")
        self.bidirectional_combine = bidirectional_combine
        self.gate_x = nn.Linear(word_dim, 2 * word_dim)                  # forward gate ; backward gate
        self.gate_h_forward = nn.Linear(hidden, word_dim, bias=False)
        self.gate_h_backward = nn.Linear(hidden, word_dim, bias=False)
        if bidirectional_combine == "ff":
            self.combine = nn.Linear(2 * word_dim, word_dim)

    def spec(self) -> dict:
        return {**super().spec(), "bidirectional_combine": self.bidirectional_combine}

    def compose(self, x, lengths, mask):
        states = self.lstm_states(x, lengths)
        gx_forward, gx_backward = self.gate_x(x).chunk(2, dim=2)
        forward = x * torch.sigmoid(gx_forward + self.gate_h_forward(states[..., :self.hidden]))
        backward = x * torch.sigmoid(gx_backward + self.gate_h_backward(states[..., self.hidden:]))
        g_forward, g_backward = self.mean_over(forward, mask, lengths), self.mean_over(backward, mask, lengths)
        if self.bidirectional_combine == "sum":
            return g_forward + g_backward
        both = torch.cat([g_forward, g_backward], dim=1)
        return torch.tanh(self.combine(both)) * (lengths > 0).float().to(x.device)[:, None]


RECURRENT_CLASSES = (LSTMAvgEncoder, BLSTMEncoder, BLSTMFeedForwardEncoder, LSTMLastEncoder, RNNEncoder,
                     IRNNEncoder, GRANEncoder, GRAN2Encoder, GRAN3Encoder, GRAN4Encoder, GRAN5Encoder, BiGRANEncoder)
