"""A paranmt encoder as a sentence-transformers model: `SentenceTransformer(DIR)` loads an exported encoder.

An exported directory (`paranmt export-encoder --format sentence-transformers`) is a sentence-transformers model
with one module, `EncoderModule` (sentence-transformers' documented custom-module interface: `preprocess`,
`forward` on a features dict, `save`, `load`):

    DIR/modules.json                       [{"type": "paranmt.models.encoders.sentence_transformers.EncoderModule",
                                             "path": "0_EncoderModule", ...}]
    DIR/config_sentence_transformers.json  similarity_fn_name: cosine (what paranmt scores with)
    DIR/README.md                          model card: what the model is, how to load it (`MODEL_CARD`)
    DIR/0_EncoderModule/                   the paranmt encoder directory itself (`load_encoder` reads it)

sentence-transformers imports the module class from the installed paranmt package (nothing is downloaded; code
in the model directory is never run). `features["sentence_embedding"]` is the encoder's forward on
`SentenceEncoder.prepare(texts)`, so `model.encode(texts)` gives the vectors of `encoder.encode(texts)`: no
normalization, the same float32 weights; only the batch order differs (sentence-transformers sorts by length),
which no paranmt encoder depends on.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import torch
from sentence_transformers import SentenceTransformer
from sentence_transformers.base.modules import InputModule

from paranmt.models.encoders import load_encoder
from paranmt.models.encoders.base import SentenceEncoder


class EncoderModule(InputModule):
    save_in_root = False               # the encoder's config.json goes to 0_EncoderModule/, not the model root

    def __init__(self, encoder: SentenceEncoder):
        super().__init__()
        self.encoder = encoder

    def preprocess(self, inputs: list[str], prompt: str | None = None, **kwargs) -> dict[str, Any]:
        """{"paranmt_inputs": encoder.prepare(texts)}; a prompt is prepended to every text."""
        texts = [prompt + text for text in inputs] if prompt else list(inputs)
        return {"paranmt_inputs": self.encoder.prepare(texts)}

    def forward(self, features: dict[str, Any], **kwargs) -> dict[str, torch.Tensor | Any]:
        features["sentence_embedding"] = self.encoder(features["paranmt_inputs"])
        return features

    def get_embedding_dimension(self) -> int:
        return self.encoder.dim

    def get_config_dict(self) -> dict[str, Any]:
        return {"kind": self.encoder.kind, "dim": self.encoder.dim}

    def save(self, output_path: str, *args, safe_serialization: bool = True, **kwargs) -> None:
        """The paranmt encoder files (weights.npz is read without pickle, whatever `safe_serialization` says),
        in the dtype the encoder was loaded with."""
        self.encoder.save(output_path, self.encoder.weights_dtype)

    @classmethod
    def load(cls, model_name_or_path: str, subfolder: str = "", token: bool | str | None = None,
             cache_folder: str | None = None, revision: str | None = None, local_files_only: bool = False,
             **kwargs) -> "EncoderModule":
        """The module saved under `subfolder` of a local directory or a Hugging Face Hub model."""
        directory = cls.load_dir_path(model_name_or_path, subfolder=subfolder, token=token,
                                      cache_folder=cache_folder, revision=revision,
                                      local_files_only=local_files_only)
        return cls(load_encoder(directory))


MODEL_CARD = """---
library_name: sentence-transformers
pipeline_tag: sentence-similarity
tags: [sentence-transformers, sentence-similarity, paranmt]
---
# paranmt {kind} encoder ({dim} dimensions)

A paraphrastic sentence encoder trained with paranmt, exported by `paranmt export-encoder`. Loading it needs
paranmt and sentence-transformers (`pip install 'paranmt[sentence-transformers]'`): the module class
`{module}` is imported from the installed paranmt package; this directory holds no code.

```python
from sentence_transformers import SentenceTransformer

model = SentenceTransformer("PATH")     # sentence-transformers >= 6 also asks for trust_remote_code=True
embeddings = model.encode(["A man is playing a guitar.", "A man plays the guitar."])
print(model.similarity(embeddings, embeddings))                 # cosine
```

The embeddings are those of `paranmt encode --model PATH/0_EncoderModule` (not normalized); similarity is the
cosine.
"""


def export_sentence_transformer(encoder: SentenceEncoder, output: str | Path) -> Path:
    """Write `encoder` as a sentence-transformers model directory `output` (see the module docstring)."""
    output = Path(output)
    model = SentenceTransformer(modules=[EncoderModule(encoder)], similarity_fn_name="cosine", device="cpu")
    model.save(str(output))
    module = f"{EncoderModule.__module__}.{EncoderModule.__name__}"
    (output / "README.md").write_text(MODEL_CARD.format(kind=encoder.kind, dim=encoder.dim, module=module),
                                      encoding="utf-8")
    return output
