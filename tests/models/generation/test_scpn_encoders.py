"""The SCPN's BiLSTM encoders as rewritten for speed (issue 43 item 2: length buckets of padded input, the backward
direction over each row reversed within its length, so that torch runs its fused LSTM layer on the CPU) against
a frozen copy of the packed-sequence code they replaced, kept below as the reference: the same states at every
position (the final states among them) and the same gradients within float tolerance, on rows of random lengths
(0, 1 and the full width included, more rows than one bucket, padding beyond the longest row); the same SCPN loss
and parameter gradients; and the shipped SCPN, saved under the old code, loads with the same parameter names and
encodes and decodes real sentences the same."""
import pytest
import torch
from safetensors import safe_open
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

from paranmt.models.generation.data import read_parsed_pairs
from paranmt.models.generation.paraphraser import load_generator
from paranmt.models.generation.scpn import ENCODER_BUCKET_ROWS, SCPN, WEIGHTS_FILE, BiLSTMEncoder, SCPNSizes
from paranmt.models.generation.units import PAD
from paranmt.schemas.paths import asset_path

TOLERANCE = {"atol": 1e-5, "rtol": 1e-4}


# ---- the replaced implementation (main before issue 43 item 2), verbatim but for the name ----

def old_bilstm_forward(self, embedded, lengths):
    packed = pack_padded_sequence(embedded, lengths.cpu().clamp(min=1), batch_first=True, enforce_sorted=False)
    states, _ = self.lstm(packed)
    states, _ = pad_packed_sequence(states, batch_first=True, total_length=embedded.size(1))
    return states


# ---- the comparison ----

def random_lengths(rows: int, width: int, seed: int) -> torch.Tensor:
    lengths = torch.randint(0, width + 1, (rows,), generator=torch.Generator().manual_seed(seed))
    lengths[:4] = torch.tensor([1, 0, width, 1])
    return lengths[torch.randperm(rows, generator=torch.Generator().manual_seed(seed + 1))]


def states_and_gradients(encoder, embedded, lengths, forward):
    encoder.zero_grad()
    embedded = embedded.clone().requires_grad_(True)
    states = forward(encoder, embedded, lengths)
    weights = torch.rand(states.shape, generator=torch.Generator().manual_seed(3)) - 0.5
    (states * weights).sum().backward()
    grads = {name: p.grad.clone() for name, p in encoder.named_parameters()}
    return states.detach(), embedded.grad, grads


@pytest.mark.parametrize("rows, width, seed", [(4 * ENCODER_BUCKET_ROWS + 13, 23, 0), (5, 9, 1), (1, 1, 2)])
def test_bucketed_encoder_gives_the_packed_states_and_gradients(rows, width, seed):
    torch.manual_seed(seed)
    encoder = BiLSTMEncoder(12, 2 * 10).train()
    with torch.no_grad():
        for parameter in encoder.parameters():
            parameter.uniform_(-0.4, 0.4)
    lengths = random_lengths(rows, width, seed) if rows > 4 else torch.ones(rows, dtype=torch.long)
    embedded = torch.randn(rows, width + 3, 12, generator=torch.Generator().manual_seed(seed))   # padding beyond
    old_states, old_input_grad, old_grads = states_and_gradients(encoder, embedded, lengths, old_bilstm_forward)
    new_states, new_input_grad, new_grads = states_and_gradients(encoder, embedded, lengths, BiLSTMEncoder.forward)

    assert new_states.shape == old_states.shape == (rows, width + 3, 20)
    torch.testing.assert_close(new_states, old_states, **TOLERANCE)
    padding = torch.arange(width + 3)[None, :] >= lengths.clamp(min=1)[:, None]
    assert (new_states[padding] == 0).all()
    # the final states: the forward direction's at each row's last real unit, the backward direction's at its first
    packed = pack_padded_sequence(embedded, lengths.clamp(min=1), batch_first=True, enforce_sorted=False)
    with torch.no_grad():
        _, (final, _) = encoder.lstm(packed)
    last = new_states[torch.arange(rows), lengths.clamp(min=1) - 1, :10]
    torch.testing.assert_close(last, final[0], **TOLERANCE)
    torch.testing.assert_close(new_states[:, 0, 10:], final[1], **TOLERANCE)
    torch.testing.assert_close(new_input_grad, old_input_grad, **TOLERANCE)
    assert old_grads.keys() == new_grads.keys()
    for name in old_grads:
        torch.testing.assert_close(new_grads[name], old_grads[name], **TOLERANCE, msg=name)


def test_scpn_loss_and_gradients_are_those_of_the_packed_encoders(monkeypatch):
    torch.manual_seed(0)
    network = SCPN(SCPNSizes(vocab=40, condition_vocab=15, embed_dim=12, hidden=16, parse_embed_dim=8,
                             parse_hidden=10, dropout=0.0))
    generator = torch.Generator().manual_seed(1)
    rows = ENCODER_BUCKET_ROWS + 6

    def ids(width, vocab, lengths):
        values = torch.randint(PAD + 4, vocab, (rows, width), generator=generator)
        return values.masked_fill(torch.arange(width)[None, :] >= lengths[:, None], PAD)

    source = ids(17, 40, random_lengths(rows, 15, 4).clamp(min=1))
    condition = ids(25, 15, random_lengths(rows, 25, 5))               # empty parses included
    target = ids(12, 40, random_lengths(rows, 12, 6).clamp(min=1))

    def loss_and_gradients():
        network.zero_grad()
        loss = network.loss(source, condition, target)
        loss.backward()
        return loss.detach(), {name: p.grad.clone() for name, p in network.named_parameters()}

    new_loss, new_grads = loss_and_gradients()
    monkeypatch.setattr(BiLSTMEncoder, "forward", old_bilstm_forward)
    old_loss, old_grads = loss_and_gradients()
    torch.testing.assert_close(new_loss, old_loss, **TOLERANCE)
    for name in old_grads:
        torch.testing.assert_close(new_grads[name], old_grads[name], **TOLERANCE, msg=name)


def test_the_shipped_scpn_saved_before_loads_and_encodes_and_decodes_the_same(monkeypatch, paraphrase_pairs):
    directory = asset_path("assets/paraphraser-scpn")
    generator = load_generator(directory, device="cpu")
    with safe_open(f"{directory}/{WEIGHTS_FILE}", "pt") as saved:
        names = set(saved.keys())
    assert names == set(SCPN(generator.network.sizes).state_dict())
    assert {"encoder.lstm.weight_hh_l0_reverse", "parse_encoder.lstm.weight_ih_l0"} <= names
    pairs = read_parsed_pairs([str(paraphrase_pairs)])[:6]
    sources, conditions = [p.s1 for p in pairs], [p.p2 for p in pairs]
    source, condition = generator._tensors(sources, conditions)

    def run():
        with torch.no_grad():
            memory = generator.network.encode(source, condition)
        return memory, generator.generate(sources, conditions, beam=3, n_best=2)

    new_memory, new_outputs = run()
    monkeypatch.setattr(BiLSTMEncoder, "forward", old_bilstm_forward)
    old_memory, old_outputs = run()
    for key in ("states", "parse_states"):
        torch.testing.assert_close(new_memory[key], old_memory[key], **TOLERANCE)
    assert [[text for text, _ in hypotheses] for hypotheses in new_outputs] == \
        [[text for text, _ in hypotheses] for hypotheses in old_outputs]
    for new, old in zip(new_outputs, old_outputs):
        assert [score for _, score in new] == pytest.approx([score for _, score in old], abs=1e-4)
