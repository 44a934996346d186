"""The project's one device choice, used by every model, trainer and command: the device (`auto`: CUDA when torch
sees it, else CPU with a thread count), the training precision (fp16 on CUDA) and the CTranslate2 compute type that
follows from the device and the stored weights.

The settings' choices (DEVICES, FP16_CHOICES, WEIGHTS_DTYPES, CT2_COMPUTE_TYPES) are config vocabulary, written once
in schemas/config.py so that the build's config (schemas/) checks them too; this module resolves them.
"""
from __future__ import annotations

import contextlib
import ctypes
import logging
import os
import sys
from dataclasses import dataclass

from paranmt.schemas.config import CT2_COMPUTE_TYPES, DEVICES, FP16_CHOICES
from paranmt.schemas.errors import ConfigError

log = logging.getLogger(__name__)

MALLOC_ENV = "PARANMT_MALLOC"            # "system": leave glibc's allocator settings as they are
M_TRIM_THRESHOLD, M_MMAP_MAX = -1, -4    # glibc's mallopt parameters (malloc.h)
KEEP_FREED_BYTES = 2**31 - 1             # mallopt takes an int: the largest trim threshold it can be given


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

    requested: one of DEVICES: "auto" (CUDA when available, else CPU), "cuda" (an error when CUDA is missing) or
    "cpu". cuda: whether CUDA is available; None asks torch (tests pass a fixed flag).
    CUDA runs in fp16; CPU in fp32 with `threads` intra-op threads (0 = the backend's default).
    """
    if requested not in DEVICES:
        raise ValueError(f"device must be auto, cpu or cuda, not {requested!r}")
    if threads < 0:
        raise ValueError(f"threads must be >= 0, not {threads}")
    has_cuda = cuda_available() if cuda is None else cuda
    if requested == "cuda" and not has_cuda:
        raise ValueError("device=cuda was requested but no CUDA device is available")
    if requested == "cuda" or (requested == "auto" and has_cuda):
        return Device("cuda", fp16=True, threads=0)
    return Device("cpu", fp16=False, threads=threads)


def half_precision(device: Device, fp16: str = "auto") -> bool:
    """Train in fp16 (autocast + gradient scaling)? `fp16` (FP16_CHOICES): `auto`: on a CUDA device that runs
    fp16; `on`: on CUDA (a ConfigError on CPU); `off`: never."""
    if fp16 not in FP16_CHOICES:
        raise ConfigError(f"fp16 must be one of {', '.join(FP16_CHOICES)}, not {fp16!r}")
    if fp16 == "on" and device.kind != "cuda":
        raise ConfigError("fp16 training needs a CUDA device")
    return device.kind == "cuda" and (fp16 == "on" or fp16 == "auto" and device.fp16)


def autocast(half: bool):
    """The context a training step's forward pass runs in: fp16 autocast on CUDA when `half` (half_precision),
    else nothing (fp32)."""
    if not half:
        return contextlib.nullcontext()
    import torch

    return torch.autocast(device_type="cuda", dtype=torch.float16)


def ct2_compute_type(device: Device, weights: str | None = None, requested: str = "auto") -> str:
    """CTranslate2's `compute_type` for a model whose ct2 weights are stored as `weights` (nmt.json
    `ct2_quantization`, written by convert-nmt; None = unknown) on `device`.

    requested "auto":
    - CUDA: "float16" with fp16, else "float32", whatever the stored weights (int8 weights are dequantized on
      load). CTranslate2's published GPU benchmark of this architecture (transformer-base OPUS-MT, one A10G,
      docs/dataflow.md) gives float16 9,297 target tokens/s against 8,363 for "int8_float16", so float16 is the
      faster choice; "int8_float16" (int8 matrix products, fp16 elsewhere) is the opt-in that keeps int8 weights
      in GPU memory (half of float16's: a larger model, or more models per GPU);
    - CPU: "int8" for int8 weights (int8, int8_float16, int8_float32, int8_bfloat16: int8 matrix products, fp32
      elsewhere), else "default" (the stored type, converted to the nearest one the CPU supports, e.g. float16 ->
      float32).
    Any other value of CT2_COMPUTE_TYPES is returned as it is (CTranslate2 falls back when the device lacks it)."""
    if requested not in CT2_COMPUTE_TYPES:
        raise ValueError(f"compute_type must be one of {', '.join(CT2_COMPUTE_TYPES)}, not {requested!r}")
    if requested != "auto":
        return requested
    if device.kind == "cuda":
        return "float16" if device.fp16 else "float32"
    return "int8" if weights and weights.startswith("int8") else "default"


def reuse_freed_memory() -> bool:
    """Let a CPU training step reuse the memory the previous step freed instead of getting it from the kernel again.

    glibc's malloc serves an allocation above its mmap threshold (at most 32 MiB) with a fresh mmap and unmaps it
    on free, so a step that allocates hundreds of MiB of activations (an LSTM over a mega-batch of sentences)
    page-faults them in again every step: two thirds of an LSTMavg probe's CPU time was kernel time. With
    M_MMAP_MAX = 0 (the heap serves every allocation) and M_TRIM_THRESHOLD = 2 GiB (freed heap is kept) the pages
    are faulted in once (benchmarks/RESULTS.md, "CPU training and glibc's allocator": 2.1x less CPU time, +64% peak
    RSS). Process-wide, for the allocations that follow. A no-op off Linux/glibc, and with PARANMT_MALLOC=system.
    Returns whether the settings were applied."""
    if os.environ.get(MALLOC_ENV, "").strip().lower() == "system" or not sys.platform.startswith("linux"):
        return False
    try:
        mallopt = ctypes.CDLL("libc.so.6").mallopt
    except (OSError, AttributeError):          # musl or another libc: nothing to tune
        return False
    applied = bool(mallopt(M_MMAP_MAX, 0)) and bool(mallopt(M_TRIM_THRESHOLD, KEEP_FREED_BYTES))
    log.debug("glibc malloc: mmap off, trim threshold %d bytes: %s", KEEP_FREED_BYTES, applied)
    return applied
