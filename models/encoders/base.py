"""The encoder interface: `encode(list[str]) -> np.ndarray [n, dim]`, save/load a directory.

A saved encoder directory holds `config.json` (`{"format": FORMAT, "kind": ..., ...}`), `weights.npz` (numpy
arrays, loaded without pickle) and the featurizer's file (`vocab.txt` or `sp.model`); combinations keep each part
in a subdirectory. Similarity between sentences is always the cosine of their embeddings
(`encoder.similarity(a, b)`).
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import torch
from torch import nn

from paranmt.models.encoders.featurizers import load_featurizer
from paranmt.models.files import reading

FORMAT = "paranmt-encoder/1"


class SentenceEncoder(nn.Module):
    """Base class: subclasses implement `prepare` (sentences -> model inputs), `forward` (inputs -> [n, dim]),
    `spec()` (JSON-able constructor arguments) and `_save_parts`/`_load_parts`."""

    kind: str = ""
    dim: int
    weights_dtype: str = "float32"     # dtype of the weights file the encoder was loaded from

    def prepare(self, sentences: list[str]):
        raise NotImplementedError

    @property
    def device(self) -> torch.device:
        return next(self.parameters()).device

    def embed(self, sentences: list[str]) -> torch.Tensor:
        """Embeddings with autograd (training path; dropout active when the module is in training mode)."""
        return self(self.prepare(sentences))

    @torch.no_grad()
    def encode(self, sentences: list[str], batch_size: int = 1024) -> np.ndarray:
        """float32 embeddings [len(sentences), dim], eval mode, in batches of `batch_size` sentences."""
        was_training = self.training
        self.eval()
        try:
            parts = [self(self.prepare(sentences[i:i + batch_size])).float().cpu().numpy()
                     for i in range(0, len(sentences), batch_size)]
        finally:
            self.train(was_training)
        return np.concatenate(parts) if parts else np.zeros((0, self.dim), dtype=np.float32)

    def similarity(self, a: str | list[str], b: str | list[str], pairwise: bool = False) -> np.ndarray:
        """Cosine similarities of embeddings (a str counts as a list of one sentence).

        Default: the matrix S[i, j] = cos(g(a_i), g(b_j)), shape [len(a), len(b)] (as sentence-transformers'
        `model.similarity`). `pairwise=True`: the vector s_i = cos(g(a_i), g(b_i)) of two equally long lists,
        shape [len(a)] (as `model.similarity_pairwise`). float32, clipped to [-1, 1]; NaN where a sentence has no
        known units (zero vector, cosine undefined).
        """
        a, b = [a] if isinstance(a, str) else list(a), [b] if isinstance(b, str) else list(b)
        if pairwise and len(a) != len(b):
            raise ValueError(f"pairwise similarity needs lists of equal length, got {len(a)} and {len(b)}")
        x, y = self.encode(a), self.encode(b)
        return cosine_rows(x, y) if pairwise else cosine_matrix(x, y)

    def spec(self) -> dict:
        raise NotImplementedError

    def save(self, directory: str | Path, dtype: str = "float32") -> Path:
        """Write config.json, weights.npz (`dtype`: float32 or float16) and featurizer files into `directory`."""
        directory = Path(directory)
        directory.mkdir(parents=True, exist_ok=True)
        config = {"format": FORMAT, "kind": self.kind, "dim": self.dim, **self.spec(),
                  **self._save_parts(directory, dtype)}
        (directory / "config.json").write_text(json.dumps(config, indent=2, sort_keys=True) + "\n")
        return directory

    def _save_parts(self, directory: Path, dtype: str) -> dict:
        """Save weights + featurizer; return the config entries that describe them."""
        raise NotImplementedError

    def save_weights(self, directory: Path, dtype: str) -> dict:
        arrays = {name: tensor.detach().cpu().numpy().astype(dtype) for name, tensor in self.state_dict().items()}
        np.savez(directory / "weights.npz", **arrays)
        return {"weights": "weights.npz", "weights_dtype": dtype}

    def load_weights(self, directory: Path, config: dict) -> None:
        file = directory / str(config["weights"])
        with reading(file, "encoder weights file (.npz)"):
            with np.load(file, allow_pickle=False) as arrays:
                state = {name: torch.from_numpy(arrays[name].astype(np.float32)) for name in arrays.files}
            self.load_state_dict(state)
        self.weights_dtype = config["weights_dtype"]



class FeaturizedEncoder(SentenceEncoder):
    """An encoder over the units of one featurizer (`self.featurizer`): saved as the featurizer's file and
    weights.npz, loaded back by `from_config` with the constructor arguments `options(config)` reads from
    config.json (the averaging, recurrent and BGT encoders). `saved_options`: constructor argument -> the
    config.json key it is read back from, for what a class adds to its bases' (or reads from another key)."""

    featurizer: object
    saved_options: dict[str, str] = {}

    @classmethod
    def options(cls, config: dict) -> dict:
        """Constructor arguments beyond the featurizer, from a saved config.json: those that `saved_options` of the
        class and of its bases name (a class's entry for an argument replaces its bases')."""
        keys: dict[str, str] = {}
        for klass in reversed(cls.__mro__):
            keys.update(vars(klass).get("saved_options", {}))
        return {argument: config[key] for argument, key in keys.items()}

    def _save_parts(self, directory: Path, dtype: str) -> dict:
        return {"featurizer": self.featurizer.save(directory), **self.save_weights(directory, dtype)}

    @classmethod
    def from_config(cls, directory: Path, config: dict) -> "FeaturizedEncoder":
        encoder = cls(load_featurizer(directory, config["featurizer"]), **cls.options(config))
        encoder.load_weights(directory, config)
        return encoder

def random_copy(encoder: SentenceEncoder, seed: int = 1, init_scale: float = 0.1) -> SentenceEncoder:
    """A copy of `encoder` (same architecture, featurizer and vocabulary) with every parameter re-initialized as
    in a fresh encoder: embedding tables uniform in [-init_scale, init_scale], every other module by its own
    `reset_parameters` (torch's default initialization, MultiheadAttention's `_reset_parameters`, and paranmt's
    modules' own starts: the iRNN identity, zero CHARAGRAM bias and peepholes). Children are reset before their
    parent, so a parent's start (the iRNN identity over its nn.Linear maps) is what stays. The random baseline of the
    evaluations (SPEC §5: random encoders are strong monolingual baselines)."""
    import copy

    def reset(module: nn.Module) -> None:
        for child in module.children():
            reset(child)
        if isinstance(module, nn.Embedding):
            with torch.no_grad():
                module.weight.uniform_(-init_scale, init_scale)
            return
        # torch's MultiheadAttention (the bgt encoder's layers) names its reset `_reset_parameters`
        own = getattr(module, "reset_parameters", None) or getattr(module, "_reset_parameters", None)
        if own is not None:
            own()

    generator_state = torch.get_rng_state()
    torch.manual_seed(seed)
    try:
        clone = copy.deepcopy(encoder)
        reset(clone)
    finally:
        torch.set_rng_state(generator_state)
    return clone.eval()


def cosine_rows(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Row-wise cosine of two [n, d] matrices in one vectorized op, clipped to [-1, 1] (float rounding gives
    1.0000001 for identical sentences); a zero vector gives NaN (undefined)."""
    norms = np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1)
    return _cosine(np.einsum("ij,ij->i", a, b), norms)


def cosine_matrix(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Cosine of every row of a [n, d] with every row of b [m, d]: [n, m], clipped and NaN as `cosine_rows`."""
    norms = np.linalg.norm(a, axis=1)[:, None] * np.linalg.norm(b, axis=1)[None, :]
    return _cosine(a @ b.T, norms)


def _cosine(dots: np.ndarray, norms: np.ndarray) -> np.ndarray:
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(norms > 0, np.clip(dots / np.where(norms > 0, norms, 1.0), -1.0, 1.0), np.nan)
