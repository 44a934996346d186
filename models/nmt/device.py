"""Device choice for NMT inference and training: CUDA (with fp16) when present, else CPU with a thread count."""
from __future__ import annotations

from dataclasses import dataclass


def cuda_available() -> bool:
    """True when torch sees at least one CUDA device."""
    try:
        import torch
    except ImportError:
        return False
    return bool(torch.cuda.is_available())


@dataclass(frozen=True)
class Device:
    kind: str          # "cuda" | "cpu"
    fp16: bool         # half precision (CUDA only)
    threads: int       # CPU threads for intra-op parallelism (0 = library default); unused on CUDA


def select_device(requested: str = "auto", threads: int = 0, cuda: bool | None = None) -> Device:
    """Resolve a device request.

    requested: "auto" (CUDA when available, else CPU), "cuda" (an error when CUDA is missing) or "cpu".
    cuda: whether CUDA is available; None asks torch (tests pass a fixed flag).
    CUDA runs in fp16; CPU in fp32 with `threads` intra-op threads (0 = the backend's default).
    """
    if requested not in ("auto", "cpu", "cuda"):
        raise ValueError(f"device must be auto, cpu or cuda, not {requested!r}")
    if threads < 0:
        raise ValueError(f"threads must be >= 0, not {threads}")
    has_cuda = cuda_available() if cuda is None else cuda
    if requested == "cuda" and not has_cuda:
        raise ValueError("device=cuda was requested but no CUDA device is available")
    if requested == "cuda" or (requested == "auto" and has_cuda):
        return Device("cuda", fp16=True, threads=0)
    return Device("cpu", fp16=False, threads=threads)
