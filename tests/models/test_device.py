"""The project's one device choice (models/device.py): CUDA + fp16 when present, CPU with threads otherwise
(availability flag injected), the training precision, and the CTranslate2 compute type that follows from the device
and the stored weights."""
import contextlib
import os
import resource
import subprocess
import sys

import pytest
import torch
import warm

from paranmt.models.device import Device, autocast, ct2_compute_type, half_precision, select_device
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


@pytest.mark.parametrize("device, fp16, expected", [
    (Device("cuda", fp16=True, threads=0), "auto", True),
    (Device("cuda", fp16=True, threads=0), "on", True),
    (Device("cuda", fp16=True, threads=0), "off", False),
    (Device("cpu", fp16=False, threads=1), "auto", False),
    (Device("cpu", fp16=False, threads=1), "off", False),
])
def test_training_runs_in_fp16_on_cuda_unless_turned_off(device, fp16, expected):
    assert half_precision(device, fp16) is expected


def test_fp16_on_a_cpu_or_an_unknown_choice_is_a_config_error():
    with pytest.raises(ConfigError, match="fp16 training needs a CUDA device"):
        half_precision(select_device("cpu", cuda=True), "on")
    with pytest.raises(ConfigError, match="fp16 must be one of auto, on, off"):
        half_precision(select_device("auto", cuda=True), "yes")


def test_the_forward_pass_autocasts_to_fp16_only_in_half_precision():
    assert isinstance(autocast(half_precision(select_device("cpu"))), contextlib.nullcontext)
    context = autocast(half_precision(select_device("auto", cuda=True)))
    assert context.device == "cuda" and context.fast_dtype == torch.float16


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
