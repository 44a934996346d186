"""Device choice for NMT: CUDA + fp16 when present, CPU with threads otherwise (availability flag injected)."""
import pytest

from paranmt.models.nmt.device import Device, select_device


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
