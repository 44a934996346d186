"""The project's one device choice, used by every model, trainer and command: the device (`auto`: CUDA when torch
sees it, else CPU with a thread count), the training precision (`training_dtype`: fp16 on CUDA, bf16 on request;
`MixedPrecision`: autocast, loss scaling and the update of every trainer) and the CTranslate2 compute type that
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


def training_dtype(device: Device, fp16: str = "auto", bf16: bool | None = None):
    """The dtype a training step's forward pass autocasts to (a torch dtype), or None for fp32, from the device and
    the trainers' `fp16` setting (FP16_CHOICES):
    - `auto`: fp16 on a CUDA device that runs fp16, else fp32;
    - `on`: fp16 (CUDA only: a ConfigError on the CPU);
    - `off`: fp32;
    - `bf16`: bfloat16 (no loss scaling: it has fp32's exponent range), on a CUDA device that supports it (a
      ConfigError on one that does not) or on the CPU (torch's CPU autocast: fast where the CPU has AMX or
      avx512_bf16, slower than fp32 elsewhere).
    bf16: whether the CUDA device supports bfloat16; None asks torch (tests pass a fixed flag)."""
    import torch

    if fp16 not in FP16_CHOICES:
        raise ConfigError(f"fp16 must be one of {', '.join(FP16_CHOICES)}, not {fp16!r}")
    if fp16 == "on" and device.kind != "cuda":
        raise ConfigError("fp16 training needs a CUDA device")
    if fp16 == "bf16":
        if device.kind == "cuda" and not (torch.cuda.is_bf16_supported() if bf16 is None else bf16):
            raise ConfigError("fp16 bf16: this GPU does not support bfloat16 (torch.cuda.is_bf16_supported()): use "
                              "fp16 on (fp16 with loss scaling) or off")
        return torch.bfloat16
    if device.kind == "cuda" and (fp16 == "on" or fp16 == "auto" and device.fp16):
        return torch.float16
    return None


class MixedPrecision:
    """How a training step runs in the precision `training_dtype` chose (`select`): the forward pass under autocast
    to `dtype` on `device_type` (`autocast`; dtype None: fp32, no autocast), the backward pass with loss scaling
    when `dtype` is float16 (`backward`: torch's GradScaler scales the loss up so that small fp16 gradients do not
    flush to zero), and the update (`step`): the gradients unscaled, their norm clipped if asked, each optimizer's
    step (skipped, and the scale lowered, when a gradient overflowed), the scale updated. The weights, their
    gradients (dense or sparse) and the optimizers' states stay fp32 (master weights): autocast casts copies. In
    fp32 and bf16 the scaler is disabled and every call is the plain step (`loss.backward()`, `optimizer.step()`).
    The scaler's state goes into a trainer's checkpoint (`state_dict`; empty when disabled)."""

    def __init__(self, device_type: str = "cpu", dtype=None):
        import torch

        self.device_type, self.dtype = device_type, dtype
        self.scaler = torch.amp.GradScaler(device_type, enabled=dtype == torch.float16)

    @classmethod
    def select(cls, device: Device, fp16: str = "auto", bf16: bool | None = None) -> "MixedPrecision":
        """The precision of training on `device` under the `fp16` setting (`training_dtype`; a ConfigError where the
        device cannot run it)."""
        return cls(device.kind, training_dtype(device, fp16, bf16))

    def autocast(self):
        """The context of a training step's forward pass: autocast to `dtype`, or nothing in fp32."""
        if self.dtype is None:
            return contextlib.nullcontext()
        import torch

        return torch.autocast(device_type=self.device_type, dtype=self.dtype)

    def backward(self, loss) -> None:
        """The backward pass of `loss` (scaled in fp16)."""
        self.scaler.scale(loss).backward()

    def step(self, optimizers, clip: tuple | None = None) -> None:
        """One update of each of `optimizers` from the gradients of `backward`; clip: (parameters, max norm): their
        gradients' norm clipped to it first (unscaled in fp16)."""
        import torch

        optimizers = list(optimizers)
        if clip is not None:
            for optimizer in optimizers:
                self.scaler.unscale_(optimizer)
            torch.nn.utils.clip_grad_norm_(*clip)
        for optimizer in optimizers:
            self.scaler.step(optimizer)
        self.scaler.update()

    def state_dict(self) -> dict:
        return self.scaler.state_dict()

    def load_state_dict(self, state: dict | None) -> None:
        """Go on from a checkpoint's scaler state; None or an empty one (a checkpoint from before the scaler was
        saved, or of a run in fp32 or bf16) keeps the scaler's initial state."""
        if state:
            self.scaler.load_state_dict(state)


def in_fp32(call, *args, device_types: tuple[str, ...] = ("cpu", "cuda")):
    """`call(*args)` in fp32 when autocast is on for the device of its first tensor argument and that device's type
    is one of `device_types`: autocast off inside and the floating tensors of `args` (also those in tuples) cast to
    float32; otherwise `call(*args)` as it is (fp32 computes exactly what it computed before). For code that cannot
    run under autocast (models/encoders/cells.py, models/recurrence.py say why)."""
    import torch

    first = next(a for a in args if isinstance(a, torch.Tensor))
    kind = first.device.type
    if kind not in device_types or not torch.is_autocast_enabled(kind):
        return call(*args)

    def fp32(value):
        if isinstance(value, tuple):
            return tuple(fp32(v) for v in value)
        return value.float() if isinstance(value, torch.Tensor) and value.is_floating_point() else value

    with torch.autocast(device_type=kind, enabled=False):
        return call(*(fp32(a) for a in args))


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
