"""The recurrent encoders as rewritten for speed (issue 43: torch's LSTM over length buckets of padded input, the
backward direction over rows reversed within their length, gran-3's closed form, gran-4 and the cells stepping over
the rows still inside their sentence) against a frozen copy of the code they replaced, kept below as the
reference: the same encoder (fixed seed, every parameter non-trivial) gives the same embeddings and the same
parameter gradients within float tolerance, on real sentences of many lengths (more rows than one bucket), an
empty one included; and an encoder saved before loads and scores the same. The cells with their own backward
(the peephole LSTMs, gran-4's gated sum) also on rows in no length order, in float64: the old step loop's outputs
and torch.autograd.gradcheck's numerical gradients."""
import numpy as np
import pytest
import torch
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

from paranmt.models.encoders import RECURRENT_KINDS, create_encoder, load_encoder
from paranmt.models.encoders.cells import ElmanRNN, PeepholeLSTM, TwoGateScan, run_sorted
from paranmt.models.encoders.recurrent import GRAN3Encoder, GRAN4Encoder, LSTMLastEncoder, RecurrentEncoder
from paranmt.models.recurrence import BUCKET_ROWS


# ---- the replaced implementation (main before issue 43), verbatim but for the names ----

def old_lstm_states(self, x, lengths):
    """torch LSTM over the real positions: (states [n, T, hidden * directions], last states h_n)."""
    packed = pack_padded_sequence(x, lengths.clamp_min(1), batch_first=True, enforce_sorted=False)
    output, (last, _) = self.lstm(packed)
    states, _ = pad_packed_sequence(output, batch_first=True, total_length=x.shape[1])
    return states, last


def old_lstm_last_compose(self, x, lengths, mask):
    return old_lstm_states(self, x, lengths)[1][-1] * (lengths > 0).float().to(x.device)[:, None]


def old_gran3_compose(self, x, lengths, mask):
    states = old_lstm_states(self, x, lengths)[0]
    pre_gates = self.gate_x(x) + self.gate_h(states)                 # [n, T, 2 * word_dim]
    a = x.new_zeros(x.shape[0], self.word_dim)
    for t in range(x.shape[1]):
        z = pre_gates[:, t] + self.gate_a(a) if self.recurrent_gates else pre_gates[:, t]
        g1, g2 = torch.sigmoid(z).chunk(2, dim=1)
        a = torch.where(mask[:, t, None] > 0, g1 * x[:, t] + g2 * a, a)
    return a / lengths.clamp_min(1)[:, None].float().to(x.device)


def old_elman_forward(self, x, mask):
    inputs = self.input_map(x)                         # W_x x_t + b for every t at once
    h = x.new_zeros(x.shape[0], self.hidden_map.in_features)
    for t in range(x.shape[1]):
        step = self.activation(inputs[:, t] + self.hidden_map(h))
        h = torch.where(mask[:, t, None] > 0, step, h)
    return h


def old_peephole_step(self, x_proj, h, c):
    """The peephole LSTM's step as it was (the cell now runs cells.PeepholeScan, whose backward is its own)."""
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


def old_peephole_forward(self, x, mask):
    inputs = self.input_map(x)
    h = c = x.new_zeros(x.shape[0], self.hidden)
    for t in range(x.shape[1]):
        new_h, new_c = old_peephole_step(self, inputs[:, t], h, c)
        keep = mask[:, t, None] > 0
        h, c = torch.where(keep, new_h, h), torch.where(keep, new_c, c)
    return h


@pytest.fixture
def old_code(monkeypatch):
    """Within the test, every recurrent encoder runs the replaced code."""
    def use():
        monkeypatch.setattr(RecurrentEncoder, "lstm_states", lambda self, x, lengths: old_lstm_states(self, x,
                                                                                                      lengths)[0])
        monkeypatch.setattr(LSTMLastEncoder, "compose", old_lstm_last_compose)
        monkeypatch.setattr(GRAN3Encoder, "compose", old_gran3_compose)
        monkeypatch.setattr(GRAN4Encoder, "compose", old_gran3_compose)
        monkeypatch.setattr(ElmanRNN, "forward", old_elman_forward)
        monkeypatch.setattr(PeepholeLSTM, "forward", old_peephole_forward)
    return use


# ---- the comparison ----

VARIANTS = [(kind, {}) for kind in RECURRENT_KINDS] + [("bigran", {"bidirectional_combine": "ff"}),
                                                        ("rnn", {"activation": "relu"}),
                                                        ("lstm-og", {"peepholes": False})]


@pytest.fixture(scope="module")
def sentences(bitext):
    lines = (bitext / "newstest2016.eng").read_text(encoding="utf-8").splitlines()
    chosen = lines[:BUCKET_ROWS + 27] + ["", "Yes", lines[100] + " " + lines[101]]
    assert len({len(s.split()) for s in chosen}) > 20, "many lengths"
    return chosen


def build(kind: str, options: dict, sentences: list[str]):
    torch.manual_seed(0)
    encoder = create_encoder(kind, sentences, dim=16, hidden=16, **options)
    generator = torch.Generator().manual_seed(1)
    with torch.no_grad():
        for parameter in encoder.parameters():
            parameter.copy_((torch.rand(parameter.shape, generator=generator) - 0.5) * 0.6)
    return encoder


def outputs_and_gradients(encoder, sentences: list[str]) -> tuple[torch.Tensor, dict, np.ndarray]:
    """Training-mode embeddings, the gradients of a fixed projection of them, and eval-mode `encode`."""
    encoder.train()
    encoder.zero_grad()
    out = encoder.embed(sentences)
    weights = torch.rand(out.shape, generator=torch.Generator().manual_seed(2)) - 0.5
    (out * weights).sum().backward()
    grads = {name: p.grad.to_dense().clone() for name, p in encoder.named_parameters() if p.grad is not None}
    return out.detach(), grads, encoder.encode(sentences, batch_size=64)


@pytest.mark.parametrize("kind, options", VARIANTS,
                         ids=[kind + "".join(f"-{value}" for value in options.values()) for kind, options in VARIANTS])
def test_rewritten_encoder_matches_the_replaced_code(kind, options, sentences, old_code):
    encoder = build(kind, options, sentences)
    new_out, new_grads, new_encoded = outputs_and_gradients(encoder, sentences)
    old_code()
    old_out, old_grads, old_encoded = outputs_and_gradients(encoder, sentences)
    assert new_out.abs().max() > 1e-3 and not torch.isnan(new_out).any()
    torch.testing.assert_close(new_out, old_out, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(new_encoded, old_encoded, rtol=1e-4, atol=1e-5)
    assert new_grads.keys() == old_grads.keys() and len(new_grads) == len(list(encoder.parameters()))
    for name in new_grads:
        torch.testing.assert_close(new_grads[name], old_grads[name], rtol=1e-4, atol=1e-5, msg=name)
    assert new_encoded[sentences.index("")].tolist() == [0.0] * encoder.dim, "an empty sentence is the zero vector"


def test_an_encoder_saved_by_the_replaced_code_scores_the_same(sentences, old_code, monkeypatch, tmp_path):
    """An encoder saved while the replaced code ran (a checkpoint of before) loads and embeds the same now."""
    encoders = {kind: build(kind, {}, sentences) for kind in ("lstm", "blstm", "gran-3", "gran-4", "lstm-og")}
    old_code()
    before = {kind: encoder.encode(sentences) for kind, encoder in encoders.items()}
    for kind, encoder in encoders.items():
        encoder.save(tmp_path / kind)
    monkeypatch.undo()
    for kind in encoders:
        np.testing.assert_allclose(load_encoder(tmp_path / kind).encode(sentences), before[kind], rtol=1e-4,
                                   atol=1e-5, err_msg=kind)


# ---- the cells' own backward, on rows in any order ----

def unsorted_batch(dtype=torch.float64):
    """x [6, 7, 5] and a mask of rows in no length order, one of length 0 and two of the longest length."""
    generator = torch.Generator().manual_seed(3)
    lengths = torch.tensor([3, 7, 0, 5, 7, 1])
    mask = (torch.arange(7)[None, :] < lengths[:, None]).to(dtype)
    return torch.randn(6, 7, 5, generator=generator, dtype=dtype), mask


def old_two_gate(pre_gates, x, weight, mask):
    """gran-4's scan as the replaced code stepped it (old_gran3_compose's loop with W_a a_{t-1})."""
    a = x.new_zeros(x.shape[0], x.shape[2])
    for t in range(x.shape[1]):
        g1, g2 = torch.sigmoid(pre_gates[:, t] + a @ weight.t()).chunk(2, dim=1)
        a = torch.where(mask[:, t, None] > 0, g1 * x[:, t] + g2 * a, a)
    return a


@pytest.mark.parametrize("output_gate, peepholes", [(True, True), (False, True), (True, False)])
def test_peephole_lstm_matches_the_step_loop_and_its_gradients_check(output_gate, peepholes):
    x, mask = unsorted_batch()
    torch.manual_seed(4)
    cell = PeepholeLSTM(5, 4, output_gate=output_gate, peepholes=peepholes).double()
    with torch.no_grad():
        for parameter in cell.parameters():
            parameter.uniform_(-0.8, 0.8)
    x.requires_grad_()
    torch.testing.assert_close(cell(x, mask), old_peephole_forward(cell, x, mask))
    assert cell(x, mask)[2].abs().max() == 0, "a row of length 0 keeps the zero state"
    assert torch.autograd.gradcheck(lambda *inputs: cell(inputs[0], mask), (x, *cell.parameters()))


def test_two_gate_scan_matches_the_step_loop_and_its_gradients_check():
    x, mask = unsorted_batch()
    generator = torch.Generator().manual_seed(5)
    pre_gates = torch.randn(6, 7, 10, generator=generator, dtype=torch.float64, requires_grad=True)
    weight = (torch.rand(10, 5, generator=generator, dtype=torch.float64) - 0.5).requires_grad_()
    x.requires_grad_()
    scan = lambda p, v, w: run_sorted(TwoGateScan, mask, (p, v), (w,))      # noqa: E731
    torch.testing.assert_close(scan(pre_gates, x, weight), old_two_gate(pre_gates, x, weight, mask))
    assert torch.autograd.gradcheck(scan, (pre_gates, x, weight))
