"""Checkpoint export: weights-only loading, optimizer stripping, fp16 storage and averaging, on the tiny model."""
from pathlib import Path

import pytest
import torch

from paranmt.models.nmt.export import average_checkpoints, load_checkpoint, strip_checkpoint
from paranmt.models.safe_load import UnsafeFileError

TINY = Path(__file__).resolve().parents[2] / "fixtures" / "nmt-tiny" / "fairseq" / "model.pt"


class NotAllowed:
    """A class torch's weights-only unpickler must refuse."""


def test_fairseq_checkpoints_load_weights_only_but_other_pickles_are_refused(tmp_path):
    state = load_checkpoint(TINY)
    assert state["model"] and "last_optimizer_state" not in state
    evil = tmp_path / "evil.pt"
    torch.save({"model": {}, "payload": NotAllowed()}, evil)
    with pytest.raises(UnsafeFileError, match=r"evil\.pt: refused: .*NotAllowed"):
        load_checkpoint(evil)


def test_strip_keeps_weights_in_fp16_and_drops_training_state():
    state = load_checkpoint(TINY)
    state["model"] = {k: v.float() for k, v in state["model"].items()}
    state["last_optimizer_state"] = {"huge": torch.zeros(10)}
    state["optimizer_history"] = [{"criterion_name": "x", "optimizer_state": {"a": 1}, "num_updates": 800}]
    stripped = strip_checkpoint(state, fp16=True)
    assert "last_optimizer_state" not in stripped
    assert stripped["optimizer_history"] == [{"criterion_name": "x", "num_updates": 800}]
    assert all(v.dtype == torch.float16 for v in stripped["model"].values() if v.is_floating_point())


def test_averaging_two_checkpoints_gives_the_elementwise_mean(tmp_path):
    state = load_checkpoint(TINY)
    shifted = dict(state, model={k: v.float() + 1.0 if v.is_floating_point() else v
                                 for k, v in state["model"].items()})
    torch.save(shifted, tmp_path / "checkpoint2.pt")
    averaged = average_checkpoints([TINY, tmp_path / "checkpoint2.pt"])
    for key, value in state["model"].items():
        if value.is_floating_point():
            assert torch.allclose(averaged["model"][key], value.float() + 0.5, atol=1e-3)
