"""torch's LSTM under CPU autocast (models/recurrence.py `cpu_autocast_lstm`): in bf16 where oneDNN has a bf16 LSTM
for this CPU (AMX, avx512_bf16), in fp32 elsewhere and under any other autocast; the probe's answer is this CPU's."""
import pytest
import torch

from paranmt.models import recurrence
from paranmt.models.recurrence import bucketed_lstm, cpu_runs_bf16_lstm, lstm_states

LENGTHS = torch.tensor([7, 3, 0, 5, 1, 7])


@pytest.fixture
def lstm():
    torch.manual_seed(0)
    return torch.nn.LSTM(6, 5, batch_first=True, bidirectional=True)


def run(lstm, autocast_dtype=None):
    """lstm_states over fixed inputs: (states, the input weights' gradient), under CPU autocast to autocast_dtype."""
    lstm.zero_grad()
    x = torch.randn(len(LENGTHS), int(LENGTHS.max()), 6, generator=torch.Generator().manual_seed(1))
    with torch.autocast("cpu", dtype=autocast_dtype or torch.bfloat16, enabled=autocast_dtype is not None):
        states = lstm_states(lstm, x, LENGTHS)
    states.float().pow(2).sum().backward()
    return states, lstm.weight_ih_l0.grad.clone()


def test_the_probe_answers_for_this_cpu_in_any_context():
    """True exactly where a bf16 LSTM runs forward and backward here (False: creating its primitive fails); asked
    first under no_grad, inference mode or autocast it gives the same answer."""
    answer = cpu_runs_bf16_lstm()
    bf16 = torch.nn.LSTM(3, 3, batch_first=True).to(torch.bfloat16)
    x = torch.randn(2, 4, 3, dtype=torch.bfloat16, requires_grad=True)
    if answer:
        bf16(x)[0].sum().backward()
        assert x.grad is not None and x.grad.dtype == torch.bfloat16
    else:
        with pytest.raises(RuntimeError):
            bf16(x)[0].sum().backward()
    for context in (torch.no_grad, torch.inference_mode, lambda: torch.autocast("cpu", dtype=torch.bfloat16)):
        cpu_runs_bf16_lstm.cache_clear()
        with context():
            assert cpu_runs_bf16_lstm() == answer
    cpu_runs_bf16_lstm.cache_clear()


def test_under_bf16_autocast_the_lstm_runs_in_bf16_where_the_cpu_can(lstm):
    """bf16 autocast on a CPU with a bf16 LSTM: bf16 states, within bf16's precision of the fp32 ones, and fp32
    gradients of the fp32 weights close to fp32's (skipped on a CPU without one: the next test is its case)."""
    if not cpu_runs_bf16_lstm():
        pytest.skip("this CPU has no bf16 LSTM in oneDNN (no AMX or avx512_bf16)")
    fp32_states, fp32_grad = run(lstm)
    states, grad = run(lstm, torch.bfloat16)
    assert states.dtype == torch.bfloat16 and grad.dtype == torch.float32
    assert not torch.equal(states.float(), fp32_states)
    assert torch.allclose(states.float(), fp32_states, atol=0.03)
    assert torch.allclose(grad, fp32_grad, rtol=0.05, atol=0.05)
    assert (states.float()[LENGTHS.clamp_min(1)[:, None] <= torch.arange(7)] == 0).all()    # 0 at the padding


def test_without_a_bf16_lstm_or_under_fp16_autocast_the_lstm_runs_in_fp32(lstm, monkeypatch):
    """Where the probe says no (forced here), bf16 autocast leaves the LSTM in fp32: the fp32 run's states and
    gradients exactly; fp16 autocast on the CPU keeps it in fp32 on every CPU. Bucketed runs too."""
    fp32_states, fp32_grad = run(lstm)
    states, grad = run(lstm, torch.float16)
    assert states.dtype == torch.float32 and torch.equal(states, fp32_states) and torch.equal(grad, fp32_grad)
    monkeypatch.setattr(recurrence, "cpu_runs_bf16_lstm", lambda: False)
    states, grad = run(lstm, torch.bfloat16)
    assert states.dtype == torch.float32 and torch.equal(states, fp32_states) and torch.equal(grad, fp32_grad)
    decoder = torch.nn.LSTM(6, 5, batch_first=True)
    x = torch.randn(len(LENGTHS), 7, 6)
    state = (torch.zeros(1, len(LENGTHS), 5), torch.zeros(1, len(LENGTHS), 5))
    with torch.autocast("cpu", dtype=torch.bfloat16):
        bucketed = bucketed_lstm(decoder, x, state, LENGTHS, rows=2)
    assert bucketed.dtype == torch.float32
    assert torch.equal(bucketed, bucketed_lstm(decoder, x, state, LENGTHS, rows=2))
