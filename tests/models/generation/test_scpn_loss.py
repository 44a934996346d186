"""The SCPN's training loss as rewritten for speed (issue 43: the target's log P(y_t) computed at the target units
only, instead of the full (B, T, V) distribution of `decode`, and the decoder's LSTMs in length buckets) against the
formula it replaced, kept below as the reference: gather the target's log-probability from `decode`'s (B, T, V)
(the LSTMs over the whole padded batch) and average it over the real units. The same loss and parameter gradients
at a fixed seed, dropout on (the same random draws), with and without the copy mechanism and the parse condition,
over more rows than one bucket with rows of PAD, and a target unit that only copying explains; with 3 decoder
layers (dropout between the upper ones: no buckets in training); and the shipped SCPN, saved before the change,
loads with the same parameter names and gives the same loss on real pairs."""
import pytest
import torch
from safetensors import safe_open

from paranmt.models.generation.data import pair_instances, read_parsed_pairs
from paranmt.models.generation.paraphraser import load_generator
from paranmt.models.generation.scpn import DECODER_BUCKET_ROWS, SCPN, WEIGHTS_FILE, SCPNSizes
from paranmt.models.generation.units import BOS, EOS, PAD
from paranmt.schemas.paths import asset_path

TOLERANCE = {"atol": 1e-6, "rtol": 1e-5}


# ---- the replaced formula (SCPN.loss before the change), verbatim but for the name ----

def old_loss(self, source, condition, target):
    memory = self.encode(source, condition)
    previous = torch.cat([torch.full_like(target[:, :1], BOS), target[:, :-1]], dim=1)
    log_probs, _ = self.decode(memory, previous)
    mask = target != PAD
    gold = log_probs.gather(2, target.unsqueeze(2)).squeeze(2)
    return -(gold * mask).sum() / mask.sum().clamp(min=1)


# ---- the comparison ----

def batch(rows: int, vocab: int, condition_vocab: int, seed: int):
    generator = torch.Generator().manual_seed(seed)

    def ids(width, vocab, shortest):
        lengths = torch.randint(shortest, width + 1, (rows,), generator=generator)
        lengths[0] = width
        values = torch.randint(EOS + 1, vocab, (rows, width), generator=generator)
        return values.masked_fill(torch.arange(width)[None, :] >= lengths[:, None], PAD)

    source = ids(15, vocab, 1)
    condition = ids(20, condition_vocab, 0) if condition_vocab else None
    target = ids(13, vocab, 1)
    target[1, 0] = source[1, 0]                         # a unit the source holds (copy and vocabulary both)
    target[1, 1] = source[1, 0]
    return source, condition, target


def loss_and_gradients(network, formula, source, condition, target, seed):
    network.zero_grad()
    torch.manual_seed(seed)
    loss = formula(network, source, condition, target)
    loss.backward()
    return loss.detach(), {name: p.grad.clone() for name, p in network.named_parameters() if p.grad is not None}


@pytest.mark.parametrize("condition_vocab, copy, layers, training",
                         [(15, True, 2, True), (0, True, 2, True), (15, False, 2, True), (0, False, 2, True),
                          (15, True, 3, True), (15, True, 3, False)])
def test_the_loss_and_gradients_are_those_of_the_full_distribution(condition_vocab, copy, layers, training):
    torch.manual_seed(0)
    network = SCPN(SCPNSizes(vocab=40, condition_vocab=condition_vocab, embed_dim=12, hidden=16,
                             parse_embed_dim=8, parse_hidden=10, decoder_layers=layers, dropout=0.3,
                             copy=copy)).train(training)
    source, condition, target = batch(2 * DECODER_BUCKET_ROWS + 5, 40, condition_vocab, 1)
    new, new_grads = loss_and_gradients(network, SCPN.loss, source, condition, target, 7)
    old, old_grads = loss_and_gradients(network, old_loss, source, condition, target, 7)
    assert new.item() > 0
    torch.testing.assert_close(new, old, **TOLERANCE)
    assert new_grads.keys() == old_grads.keys()
    assert "output.weight" in new_grads and ("copy_switch.weight" in new_grads) == copy
    for name in old_grads:
        torch.testing.assert_close(new_grads[name], old_grads[name], **TOLERANCE, msg=name)
    if training:            # the same dropout draws: another seed gives another loss
        other, _ = loss_and_gradients(network, SCPN.loss, source, condition, target, 8)
        assert abs(other.item() - new.item()) > 1e-4


def test_the_floor_of_a_target_neither_vocabulary_nor_copy_explains():
    torch.manual_seed(0)
    network = SCPN(SCPNSizes(vocab=40, condition_vocab=0, embed_dim=12, hidden=16, dropout=0.0)).eval()
    with torch.no_grad():
        network.output.bias[:] = -60.0
        network.output.bias[EOS + 1] = 60.0                   # P_voc(y) ~ e^-120 for every other unit
        network.copy_switch.bias[:] = 60.0                    # g ~ 1: no copying
    source, _, target = batch(3, 40, 0, 2)
    target = target.masked_fill((target != PAD) & (target == EOS + 1), EOS + 2)
    new, old = network.loss(source, None, target), old_loss(network, source, None, target)
    assert new.item() == pytest.approx(-torch.log(torch.tensor(1e-12)).item(), rel=1e-4)
    torch.testing.assert_close(new, old, **TOLERANCE)


def test_the_shipped_scpn_saved_before_loads_and_gives_the_same_loss(paraphrase_pairs):
    directory = asset_path("assets/paraphraser-scpn")
    generator = load_generator(directory, device="cpu")
    with safe_open(f"{directory}/{WEIGHTS_FILE}", "pt") as saved:
        names = set(saved.keys())
    assert names == set(SCPN(generator.network.sizes).state_dict())
    pairs = read_parsed_pairs([str(paraphrase_pairs)])[:12]
    instances, _ = pair_instances("scpn", pairs, "none", 40)
    with torch.no_grad():
        new = generator.loss(instances)
        original = SCPN.loss
        try:
            SCPN.loss = old_loss
            old = generator.loss(instances)
        finally:
            SCPN.loss = original
    assert 0.1 < new.item() < 10
    torch.testing.assert_close(new, old, **TOLERANCE)
