"""Device choice for NMT: CUDA + fp16 when present, CPU with threads otherwise (availability flag injected), and
the CTranslate2 compute type that follows from the device and the stored weights."""
import pytest

from paranmt.models.nmt.device import Device, ct2_compute_type, select_device


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
    import torch
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
