"""The encoders of SPEC §8 against their equations: cells step by step, iRNN's identity start, the GRAN variants,
CHARAGRAM's n-grams and count threshold, N-part combinations, recurrent encoders over sentencepiece units."""
import numpy as np
import pytest
import torch

from paranmt.models.encoders import (RECURRENT_KINDS, EncoderError, check_kind, create_encoder,
                                     load_encoder)
from paranmt.models.encoders.cells import ElmanRNN, PeepholeLSTM
from paranmt.models.encoders.featurizers import CharNgramFeaturizer, char_ngrams


@pytest.fixture(scope="module")
def sentences(bitext):
    return (bitext / "newstest2016.eng").read_text(encoding="utf-8").splitlines()[:200]


def randomize(module: torch.nn.Module, seed: int = 0) -> None:
    """Non-trivial values everywhere (peepholes start at 0, which would hide them)."""
    generator = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for parameter in module.parameters():
            parameter.copy_(torch.rand(parameter.shape, generator=generator) - 0.5)


def test_peephole_lstm_matches_a_hand_written_step():
    torch.manual_seed(0)
    cell = PeepholeLSTM(3, 2, output_gate=True, peepholes=True)
    randomize(cell)
    x = torch.rand(1, 2, 3)
    w, u = cell.input_map.weight, cell.hidden_map.weight
    b = cell.input_map.bias
    h, c = torch.zeros(2), torch.zeros(2)
    for t in range(2):
        z = w @ x[0, t] + b + u @ h
        i = torch.sigmoid(z[0:2] + cell.peephole_input * c)
        f = torch.sigmoid(z[2:4] + cell.peephole_forget * c)
        c = f * c + i * torch.tanh(z[4:6])
        o = torch.sigmoid(z[6:8] + cell.peephole_output * c)      # the output peephole sees the new c_t
        h = o * torch.tanh(c)
    assert torch.allclose(cell(x, torch.ones(1, 2)), h[None], atol=1e-6)

    no_gate = PeepholeLSTM(3, 2, output_gate=False)
    randomize(no_gate)
    z = no_gate.input_map.weight @ x[0, 0] + no_gate.input_map.bias
    c = torch.sigmoid(z[0:2]) * torch.tanh(z[4:6])                   # c_0 = 0: peepholes and forget gate vanish
    assert no_gate.hidden_map.weight.shape == (6, 2), "no output gate: three gate blocks"
    assert torch.allclose(no_gate(x[:, :1], torch.ones(1, 1)), torch.tanh(c)[None], atol=1e-6)


def test_padding_leaves_the_state_unchanged():
    cell = PeepholeLSTM(3, 2)
    randomize(cell)
    x = torch.rand(1, 3, 3)
    padded = torch.cat([x[:, :2], torch.rand(1, 1, 3)], dim=1)
    assert torch.allclose(cell(padded, torch.tensor([[1.0, 1.0, 0.0]])), cell(x[:, :2], torch.ones(1, 2)))
    rnn = ElmanRNN(3, 2, activation="relu")
    assert torch.equal(rnn(x, torch.zeros(1, 3)), torch.zeros(1, 2)), "length 0 keeps the zero state"


def test_plain_rnn_step():
    rnn = ElmanRNN(2, 2, activation="tanh")
    randomize(rnn)
    x = torch.rand(1, 2, 2)
    h1 = torch.tanh(rnn.input_map.weight @ x[0, 0] + rnn.input_map.bias)
    h2 = torch.tanh(rnn.input_map.weight @ x[0, 1] + rnn.input_map.bias + rnn.hidden_map.weight @ h1)
    assert torch.allclose(rnn(x, torch.ones(1, 2))[0], h2, atol=1e-6)


def test_irnn_starts_as_identity_and_equals_word_averaging(sentences):
    irnn = create_encoder("irnn", sentences, dim=8)
    assert torch.equal(irnn.cell.input_map.weight, torch.eye(8)) and torch.equal(irnn.cell.hidden_map.weight,
                                                                                  torch.eye(8))
    assert torch.equal(irnn.cell.input_map.bias, torch.zeros(8))
    # h_T = sum_t x_t with identity weights and activation, divided by T: the mean of the word embeddings
    inputs = irnn.prepare(sentences[:5])
    mask = torch.arange(inputs[0].shape[1])[None, :] < inputs[1][:, None]
    mean = (irnn.embedding(inputs[0]) * mask[..., None]).sum(1) / inputs[1][:, None]
    assert np.allclose(irnn.encode(sentences[:5]), mean.detach().numpy(), atol=1e-5)
    with pytest.raises(EncoderError, match="hidden size == embedding size"):
        create_encoder("irnn", sentences, dim=8, hidden=6)


def _gran_inputs(encoder, sentence):
    inputs = encoder.prepare([sentence])
    x = encoder.embedding(inputs[0])[0]
    states = encoder.lstm(x[None])[0][0]
    return x, states


@torch.no_grad()
def test_gran_variants_follow_their_equations(sentences):
    sentence = "the cat sat on the mat"
    torch.manual_seed(0)
    gate = torch.sigmoid

    gran2 = create_encoder("gran-2", sentences, dim=6, hidden=4)
    x, h = _gran_inputs(gran2, sentence)
    expected = (h * gate(gran2.gate_x(x) + gran2.gate_h(h))).mean(0)
    assert gran2.dim == 4 and np.allclose(gran2.encode([sentence])[0], expected.numpy(), atol=1e-6)

    for kind in ("gran-3", "gran-4"):
        encoder = create_encoder(kind, sentences, dim=6, hidden=4)
        x, h = _gran_inputs(encoder, sentence)
        a = torch.zeros(6)
        for t in range(len(x)):
            z = encoder.gate_x(x[t]) + encoder.gate_h(h[t]) + (encoder.gate_a(a) if kind == "gran-4" else 0)
            a = gate(z[:6]) * x[t] + gate(z[6:]) * a
        assert np.allclose(encoder.encode([sentence])[0], (a / len(x)).numpy(), atol=1e-6), kind
    assert not hasattr(create_encoder("gran-3", sentences, dim=6), "gate_a")

    gran5 = create_encoder("gran-5", sentences, dim=6)
    x, h = _gran_inputs(gran5, sentence)
    g = gate(gran5.gate_x(x) + gran5.gate_h(h))
    assert np.allclose(gran5.encode([sentence])[0], (g[:, :6] * x + g[:, 6:] * h).mean(0).numpy(), atol=1e-6)
    with pytest.raises(EncoderError, match="hidden size == embedding size"):
        create_encoder("gran-5", sentences, dim=6, hidden=4)

    for combine in ("sum", "ff"):
        bigran = create_encoder("bigran", sentences, dim=6, hidden=4, bidirectional_combine=combine)
        x, h = _gran_inputs(bigran, sentence)
        gx = bigran.gate_x(x)
        forward = (x * gate(gx[:, :6] + bigran.gate_h_forward(h[:, :4]))).mean(0)
        backward = (x * gate(gx[:, 6:] + bigran.gate_h_backward(h[:, 4:]))).mean(0)
        expected = forward + backward if combine == "sum" else torch.tanh(
            bigran.combine(torch.cat([forward, backward])))
        assert np.allclose(bigran.encode([sentence])[0], expected.numpy(), atol=1e-6), combine


@torch.no_grad()
def test_lstm_last_and_blstm_ff_and_dan(sentences):
    sentence = "a man plays the guitar"
    last = create_encoder("lstm-last", sentences, dim=6, hidden=5)
    x, h = _gran_inputs(last, sentence)
    assert np.allclose(last.encode([sentence])[0], h[-1].numpy(), atol=1e-6)

    blstm = create_encoder("blstm-ff", sentences, dim=6, hidden=5)
    x, h = _gran_inputs(blstm, sentence)
    expected = torch.tanh(blstm.combine(h.mean(0)))           # [mean fwd ; mean bwd] through one tanh layer
    assert blstm.dim == 5 and np.allclose(blstm.encode([sentence])[0], expected.numpy(), atol=1e-6)

    dan = create_encoder("dan", sentences, dim=6, hidden=5, layers=2, activation="relu")
    x = dan.embedding(dan.prepare([sentence])[0]).mean(0)
    expected = torch.relu(dan.deeper[0](torch.relu(dan.projection(x))))
    assert np.allclose(dan.encode([sentence])[0], expected.numpy(), atol=1e-6)
    proj = create_encoder("proj", sentences, dim=6, hidden=5)
    x = proj.embedding(proj.prepare([sentence])[0]).mean(0)
    assert np.allclose(proj.encode([sentence])[0], proj.projection(x).numpy(), atol=1e-6)


def test_char_ngrams_pad_each_edge_and_optionally_span_words():
    assert char_ngrams("A  cat", (3,)) == [" a ", "a c", " ca", "cat", "at "]
    assert char_ngrams("A  cat", (3,), span_words=False) == [" a ", " ca", "cat", "at "]
    assert char_ngrams("Hi", (2, 3, 4)) == [" h", "hi", "i ", " hi", "hi ", " hi "]
    assert char_ngrams("   ") == []


def test_charagram_count_threshold_and_unknown_ngrams_are_dropped():
    featurizer = CharNgramFeaturizer.build(["ab", "ab", "ac"], max_size=100, min_count=2, orders=(2,))
    # " ab " -> " a", "ab", "b " (twice); " ac " -> " a", "ac", "c ": " a" x3, "ab" x2, "b " x2 survive C = 2
    assert featurizer.tokens == ["<unk>", " a", "ab", "b "]
    assert featurizer.ids(["ac", "zz"]) == [[1], []], "n-grams outside V are left out, not mapped to <unk>"
    assert CharNgramFeaturizer.build(["ab", "ac"], 100, min_count=1, orders=(2,)).vocab_size == 6


@torch.no_grad()
def test_charagram_is_an_activation_of_bias_plus_ngram_sum(sentences, tmp_path):
    encoder = create_encoder("charagram", sentences, dim=8, ngram_min_count=2)
    assert encoder.featurizer.orders == (2, 3, 4)
    torch.nn.init.uniform_(encoder.bias, -1, 1)
    ids = encoder.featurizer.ids(["the cat"])[0]
    expected = torch.tanh(encoder.bias + encoder.embedding.weight[ids].sum(0))
    assert np.allclose(encoder.encode(["the cat"])[0], expected.numpy(), atol=1e-6)
    assert np.all(encoder.encode(["\u2603\u2603"])[0] == 0), "no known n-gram: the zero vector"
    linear = create_encoder("charagram-word", sentences, dim=8, activation="linear")
    assert linear.kind == "charagram-word" and not linear.featurizer.span_words
    linear.save(tmp_path / "cw")
    loaded = load_encoder(tmp_path / "cw")
    assert loaded.kind == "charagram-word" and loaded.activation_name == "linear"
    assert np.array_equal(loaded.encode(sentences[:3]), linear.encode(sentences[:3]))


@torch.no_grad()
def test_combinations_of_any_number_of_parts(sentences, tmp_path):
    assert check_kind("word+trigram+lstm") == (["word", "trigram", "lstm"], "sum")
    with pytest.raises(EncoderError, match="mixes"):
        create_encoder("word+trigram,lstm", sentences)
    with pytest.raises(EncoderError, match="unknown encoder 'bert'"):
        create_encoder("word,bert", sentences)
    summed = create_encoder("word+trigram+lstm", sentences, dim=8)
    parts = [part.encode(sentences[:4]) for part in summed.parts]
    assert np.allclose(summed.encode(sentences[:4]), sum(parts), atol=1e-6)
    concat = create_encoder("word,gran-3,charagram", sentences, dim=8)
    assert concat.dim == 24 and concat.kind == "word,gran-3,charagram"
    concat.save(tmp_path / "c")
    assert sorted(p.name for p in (tmp_path / "c").iterdir()) == ["config.json", "part-1", "part-2", "part-3"]
    assert np.array_equal(load_encoder(tmp_path / "c").encode(sentences[:4]), concat.encode(sentences[:4]))


@pytest.mark.parametrize("kind", [k for k in RECURRENT_KINDS] + ["proj", "dan", "add"])
def test_recurrent_and_projected_encoders_over_sentencepiece_units(kind, sentences, repo, tmp_path):
    torch.manual_seed(0)
    encoder = create_encoder(kind, sentences, dim=8, recurrent_units="sp",
                             sp_model=repo / "assets" / "encoder-sp" / "sp.model")
    assert encoder.featurizer.kind == "sp"
    vectors = encoder.encode(sentences[:3])
    encoder.save(tmp_path / kind)
    assert (tmp_path / kind / "sp.model").is_file()
    assert np.array_equal(load_encoder(tmp_path / kind).encode(sentences[:3]), vectors)



def test_random_copy_starts_every_part_as_a_fresh_encoder(sentences):
    """The random baseline re-initializes as a fresh encoder would: the iRNN back at identity, the CHARAGRAM bias
    and the peepholes back at 0, the embeddings redrawn."""
    from paranmt.models.encoders.base import random_copy

    irnn, charagram = create_encoder("irnn", sentences, dim=6), create_encoder("charagram", sentences, dim=6)
    peephole = create_encoder("lstm-og", sentences, dim=6, hidden=5)
    with torch.no_grad():
        for encoder in (irnn, charagram, peephole):
            for parameter in encoder.parameters():
                parameter.add_(0.5)                                 # "trained": away from every start
    fresh_irnn = random_copy(irnn, seed=2)
    assert torch.equal(fresh_irnn.cell.hidden_map.weight, torch.eye(6))
    assert torch.equal(fresh_irnn.cell.input_map.weight, torch.eye(6))
    assert not fresh_irnn.cell.input_map.bias.any()
    assert not torch.allclose(fresh_irnn.embedding.weight, irnn.embedding.weight)
    assert not random_copy(charagram, seed=2).bias.any()
    peepholes = [p for name, p in random_copy(peephole, seed=2).named_parameters() if "peephole" in name]
    assert len(peepholes) == 3 and not any(p.any() for p in peepholes)
