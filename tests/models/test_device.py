"""The project's one device choice (models/device.py): CUDA + fp16 when present, CPU with threads otherwise
(availability flag injected), the training precision for every (device, fp16 setting, bf16 support) and its
MixedPrecision step (fp16's loss scaling run on the CPU), and the CTranslate2 compute type that follows from the device
and the stored weights."""
import contextlib
import os
import resource
import subprocess
import sys

import pytest
import torch
import warm

from paranmt.models.device import (Device, MixedPrecision, ct2_compute_type, in_fp32, select_device,
                                   training_dtype)
from paranmt.schemas.errors import ConfigError


def test_auto_takes_cuda_in_fp16_when_present():
    assert select_device("auto", threads=4, cuda=True) == Device("cuda", fp16=True, threads=0)


def test_auto_falls_back_to_cpu_with_the_thread_setting():
    assert select_device("auto", threads=3, cuda=False) == Device("cpu", fp16=False, threads=3)


def test_cpu_request_ignores_an_available_gpu():
    assert select_device("cpu", threads=2, cuda=True) == Device("cpu", fp16=False, threads=2)


def test_cuda_request_without_cuda_is_a_clear_error():
    with pytest.raises(ValueError, match="no CUDA device"):
        select_device("cuda", cuda=False)


@pytest.mark.parametrize("requested, threads", [("gpu", 0), ("cpu", -1)])
def test_bad_requests_are_rejected(requested, threads):
    with pytest.raises(ValueError):
        select_device(requested, threads, cuda=False)


def test_asking_torch_on_this_cpu_machine_gives_cpu():
    assert select_device("auto", threads=1).kind in ("cpu", "cuda")
    assert (select_device("auto").kind == "cuda") == torch.cuda.is_available()


@pytest.mark.parametrize("device, weights, expected", [
    (Device("cuda", fp16=True, threads=0), "int8", "float16"),        # faster than int8_float16 on a GPU (docstring)
    (Device("cuda", fp16=True, threads=0), "int8_float16", "float16"),
    (Device("cuda", fp16=True, threads=0), "float32", "float16"),
    (Device("cuda", fp16=True, threads=0), None, "float16"),
    (Device("cuda", fp16=False, threads=0), "int8", "float32"),
    (Device("cpu", fp16=False, threads=1), "int8", "int8"),
    (Device("cpu", fp16=False, threads=1), "int8_float16", "int8"),
    (Device("cpu", fp16=False, threads=1), "float16", "default"),
    (Device("cpu", fp16=False, threads=1), None, "default"),
])
def test_auto_compute_type_follows_the_device_and_the_stored_weights(device, weights, expected):
    assert ct2_compute_type(device, weights) == expected


def test_auto_device_runs_an_int8_model_in_float16_on_a_gpu_and_in_int8_on_a_cpu():
    assert ct2_compute_type(select_device("auto", cuda=True), "int8") == "float16"
    assert ct2_compute_type(select_device("auto", threads=1, cuda=False), "int8") == "int8"


def test_an_explicit_compute_type_is_kept_and_an_unknown_one_rejected():
    assert ct2_compute_type(Device("cuda", True, 0), "int8", "int8_float16") == "int8_float16"   # the GPU opt-in
    with pytest.raises(ValueError, match="compute_type must be one of"):
        ct2_compute_type(Device("cpu", False, 1), "int8", "int4")


CUDA, CUDA_FP32, CPU = Device("cuda", fp16=True, threads=0), Device("cuda", fp16=False, threads=0), Device("cpu", False, 1)


@pytest.mark.parametrize("device, fp16, bf16, expected", [
    (CUDA, "auto", True, torch.float16), (CUDA, "auto", False, torch.float16),
    (CUDA, "on", True, torch.float16), (CUDA, "on", False, torch.float16),
    (CUDA, "off", True, None), (CUDA, "off", False, None),
    (CUDA, "bf16", True, torch.bfloat16),
    (CUDA_FP32, "auto", True, None), (CUDA_FP32, "on", False, torch.float16),
    (CPU, "auto", True, None), (CPU, "auto", False, None),
    (CPU, "off", True, None), (CPU, "off", False, None),
    (CPU, "bf16", True, torch.bfloat16), (CPU, "bf16", False, torch.bfloat16),     # torch's CPU autocast
])
@pytest.mark.filterwarnings("ignore:torch.cuda.amp.GradScaler is enabled, but CUDA is not available")
def test_training_runs_in_fp16_on_cuda_unless_turned_off_and_in_bf16_on_request(device, fp16, bf16, expected):
    assert training_dtype(device, fp16, bf16=bf16) is expected
    precision = MixedPrecision.select(device, fp16, bf16=bf16)
    assert precision.dtype is expected and precision.device_type == device.kind


@pytest.mark.parametrize("device, fp16, bf16, message", [
    (CPU, "on", True, "fp16 training needs a CUDA device"),
    (CPU, "on", False, "fp16 training needs a CUDA device"),
    (CUDA, "bf16", False, "fp16 bf16: this GPU does not support bfloat16"),
    (CUDA, "yes", True, "fp16 must be one of auto, on, off, bf16"),
    (CPU, "half", False, "fp16 must be one of auto, on, off, bf16"),
])
def test_a_precision_the_device_cannot_run_is_a_config_error(device, fp16, bf16, message):
    with pytest.raises(ConfigError, match=message):
        training_dtype(device, fp16, bf16=bf16)


@pytest.mark.filterwarnings("ignore:torch.cuda.amp.GradScaler is enabled", "ignore:CUDA is not available")
def test_the_forward_pass_autocasts_only_in_mixed_precision():
    assert isinstance(MixedPrecision.select(CPU).autocast(), contextlib.nullcontext)
    context = MixedPrecision.select(select_device("auto", cuda=True), "auto").autocast()
    assert context.device == "cuda" and context.fast_dtype == torch.float16
    context = MixedPrecision.select(CPU, "bf16").autocast()
    assert context.device == "cpu" and context.fast_dtype == torch.bfloat16


def tiny_step(precision: MixedPrecision, grad_scale: float = 1.0):
    """One SGD step (lr 0.1) of a linear layer of fixed weights through `precision`; the gradient of the loss times
    `grad_scale` (inf: an overflow). Returns (the weights after it, the gradient backward() left)."""
    layer = torch.nn.Linear(4, 1, bias=False)
    with torch.no_grad():
        layer.weight.copy_(torch.tensor([[0.5, -0.25, 1.0, 2.0]]))
    optimizer = torch.optim.SGD(layer.parameters(), lr=0.1)
    with precision.autocast():
        loss = layer(torch.tensor([[1.0, 2.0, 3.0, 4.0]])).sum() * grad_scale
    precision.backward(loss.float())
    grad = layer.weight.grad.clone()
    precision.step([optimizer], clip=(layer.parameters(), 100.0))
    return layer.weight.detach(), grad


def test_fp16_scales_the_loss_unscales_before_the_step_and_skips_an_overflow():
    """The fp16 path on the CPU (torch's GradScaler and fp16 autocast run there; training_dtype allows fp16 on CUDA
    only): the gradient is the loss's times the scale, the step is the fp32 step, an overflow skips it."""
    fp32_weights, fp32_grad = tiny_step(MixedPrecision())
    assert fp32_grad.tolist() == [[1.0, 2.0, 3.0, 4.0]]
    precision = MixedPrecision("cpu", torch.float16)
    precision.scaler = torch.amp.GradScaler("cpu", init_scale=1024.0)
    weights, grad = tiny_step(precision)
    assert grad.tolist() == [[1024.0, 2048.0, 3072.0, 4096.0]] and weights.dtype == torch.float32
    assert torch.allclose(weights, fp32_weights, atol=1e-3)       # fp16 rounding of the forward pass only
    weights, _ = tiny_step(precision, grad_scale=float("inf"))
    assert weights.tolist() == [[0.5, -0.25, 1.0, 2.0]] and precision.state_dict()["scale"] == 512.0


def test_fp16_unscales_sparse_gradients_for_sparse_adam_and_skips_them_on_an_overflow():
    """The encoder trainer's embedding tables: sparse gradients, SparseAdam (models/training/trainer.py), beside a
    dense Adam, through the scaler: the same update as without it, none on an overflow."""
    def step(precision, overflow=False):
        torch.manual_seed(0)
        table, layer = torch.nn.Embedding(6, 3, sparse=True), torch.nn.Linear(3, 1)
        optimizers = [torch.optim.SparseAdam([table.weight], lr=0.1), torch.optim.Adam(layer.parameters(), lr=0.1)]
        loss = layer(table(torch.tensor([1, 4, 4]))).sum() * (float("inf") if overflow else 1.0)
        precision.backward(loss)
        assert table.weight.grad.is_sparse
        precision.step(optimizers)
        return table.weight.detach(), layer.weight.detach()

    torch.manual_seed(0)
    initial = torch.nn.Embedding(6, 3).weight.detach()
    fp32_table, fp32_layer = step(MixedPrecision())
    assert [row for row in range(6) if not torch.equal(fp32_table[row], initial[row])] == [1, 4]
    precision = MixedPrecision("cpu", torch.float16)
    table, layer = step(precision)
    assert torch.equal(table, fp32_table) and torch.equal(layer, fp32_layer)     # x 2^16, then / 2^16: exact
    table, _ = step(precision, overflow=True)
    assert torch.equal(table, initial) and precision.state_dict()["scale"] == 32768.0


def test_the_scaler_state_goes_into_checkpoints_and_an_old_one_without_it_still_resumes():
    precision = MixedPrecision("cpu", torch.float16)
    precision.scaler = torch.amp.GradScaler("cpu", init_scale=1024.0)
    tiny_step(precision, grad_scale=float("inf"))
    saved = precision.state_dict()
    resumed = MixedPrecision("cpu", torch.float16)
    resumed.load_state_dict(saved)
    assert resumed.state_dict() == saved and saved["scale"] == 512.0
    fresh = MixedPrecision("cpu", torch.float16)
    for old in (None, {}, MixedPrecision().state_dict()):     # no scaler saved; a run in fp32 or bf16
        fresh.load_state_dict(old)
        assert fresh.state_dict()["scale"] == 65536.0
    fp32 = MixedPrecision()
    fp32.load_state_dict(saved)                                # an fp16 run resumed in fp32: nothing to scale
    assert fp32.state_dict() == {}


def test_bf16_autocasts_without_scaling_and_keeps_fp32_weights():
    precision = MixedPrecision.select(CPU, "bf16")
    weights, grad = tiny_step(precision)
    assert not precision.scaler.is_enabled() and grad.tolist() == [[1.0, 2.0, 3.0, 4.0]]
    assert weights.dtype == torch.float32 and torch.allclose(weights, tiny_step(MixedPrecision())[0], atol=1e-2)


def test_code_that_cannot_autocast_runs_in_fp32_inside_autocast_and_as_it_is_outside():
    def dtypes(*args):
        return [a.dtype if isinstance(a, torch.Tensor) else tuple(v.dtype for v in a) for a in args], \
            torch.is_autocast_enabled("cpu")

    half, ids = torch.ones(2, dtype=torch.bfloat16), torch.ones(2, dtype=torch.long)
    with torch.autocast("cpu", dtype=torch.bfloat16):
        assert in_fp32(dtypes, half, (half, half), ids) == ([torch.float32, (torch.float32,) * 2, torch.long], False)
        assert in_fp32(dtypes, half, device_types=("cuda",)) == ([torch.bfloat16], True)
    assert in_fp32(dtypes, half) == ([torch.bfloat16], False)


STEPS = """
import resource, torch
from paranmt.models.device import reuse_freed_memory
applied = reuse_freed_memory()
def step():                                     # a training step's activations: 3 x 64 MiB written, then freed
    activations = [torch.ones(16 * 2**20) for _ in range(3)]
step()
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for _ in range(20):
    step()
print(applied, resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's allocator settings")
@pytest.mark.parametrize("setting, reused", [("", True), ("system", False)])
def test_a_cpu_step_reuses_the_memory_the_last_step_freed_unless_told_not_to(setting, reused):
    """20 steps of 3 x 64 MiB: mapped afresh each step, they page-fault 20 x 192 MiB in; reused, the heap grows to
    its working size in the first steps (1-3 steps' pages measured) and then faults no more."""
    result = warm.run([sys.executable, "-c", STEPS], env={**os.environ, "PARANMT_MALLOC": setting},
                      capture_output=True, text=True, check=True)
    applied, faults = result.stdout.split()
    step_pages = 3 * 64 * 2**20 // resource.getpagesize()
    assert applied == str(reused)
    assert (int(faults) <= 5 * step_pages) if reused else (int(faults) >= 16 * step_pages), (setting, faults)
