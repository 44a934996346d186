"""Turn fairseq training checkpoints into a model directory that both backends load (`paranmt convert-nmt`).

Layout written (see paranmt.models.nmt.model_dir.ModelDir):
    <out>/spm.model                      the sentencepiece model shared by source and target
    <out>/fairseq/model.pt               averaged weights (optionally fp16), no optimizer state
    <out>/fairseq/dict.<src>.txt, dict.<tgt>.txt
    <out>/ct2/                           the same weights converted by ctranslate2's fairseq converter
    <out>/nmt.json                       languages and file names

Averaging: the parameters of the last `average_last` epoch checkpoints (checkpoint<N>.pt, highest N) are averaged
element-wise in float32, theta = (1/K) sum_k theta_k (as fairseq's scripts/average_checkpoints.py); with K = 1
`checkpoint_last.pt` is exported as is.

fairseq checkpoints are pickles; torch >= 2.6 loads them with weights_only=True, which rejects the
`argparse.Namespace` fairseq stores in them. `allow_fairseq_checkpoints()` allowlists exactly that class, so
loading stays weights-only (no code from the file runs, paranmt.models.safe_load); a checkpoint that needs more
than that is refused with one line naming it (UnsafeFileError), whatever TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD says.
"""
from __future__ import annotations

import dataclasses
import json
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

from paranmt.models.files import ModelFileError, reading, write_text_atomically
from paranmt.schemas.config import CT2_WEIGHT_TYPES, Config, bounded, check_ranges, choice, setting
from paranmt.schemas.metadata import file_sha256

NMT_DESCRIPTOR = "nmt.json"


@dataclass
class ConvertConfig(Config):
    """The settings of `paranmt convert-nmt` (`--set`, the flags): languages, checkpoint averaging, weight types,
    and the size of the vocabulary map (paranmt.models.nmt.vmap)."""
    source_lang: str = setting("cs", help="source language (dict.<lang>.txt, the model's language pair)")
    target_lang: str = setting("en", help="target language")
    average_last: int = bounded(1, 1, help="average the last N epoch checkpoints (1 = checkpoint_last.pt as is)")
    fp32: bool = setting(False, flag={"action": "store_true"}, help="keep fp32 weights in fairseq/model.pt")
    quantization: str = choice("int8", CT2_WEIGHT_TYPES, help="ctranslate2 weight type")
    vmap_pairs: int = bounded(100_000, 1, help="sentence pairs read for the vocabulary map")
    vmap_per_source: int = bounded(20, 1, help="vocabulary map: target candidates per source piece")
    vmap_common: int = bounded(300, 1, help="vocabulary map: target pieces always allowed, the most frequent")

    def validate(self) -> "ConvertConfig":
        check_ranges(self)
        return self


def epoch_checkpoints(checkpoint_dir: Path) -> list[Path]:
    """checkpoint<N>.pt files sorted by N."""
    found = [(int(m.group(1)), p) for p in checkpoint_dir.glob("checkpoint*.pt")
             if (m := re.fullmatch(r"checkpoint(\d+)\.pt", p.name))]
    return [p for _, p in sorted(found)]


def allow_fairseq_checkpoints() -> None:
    """Allowlist `argparse.Namespace` for torch's weights-only unpickler (what fairseq 0.12 checkpoints need)."""
    import argparse

    import torch

    torch.serialization.add_safe_globals([argparse.Namespace])


def load_checkpoint(path: Path) -> dict:
    """torch.load of a fairseq checkpoint, weights-only with argparse.Namespace allowed (see module docstring);
    UnsafeFileError naming a refused file, ModelFileError naming one that is not a torch file or holds no model
    weights, and UnsafeFileError for one whose stored options hold a value fairseq would run as Python
    (fairseq_options.check_stored_options). Also the check of a checkpoint before fairseq itself loads it."""
    from paranmt.models.nmt.fairseq_options import check_stored_options
    from paranmt.models.safe_load import load_weights_only

    allow_fairseq_checkpoints()
    with reading(path, "fairseq checkpoint (a torch file)"):
        state = load_weights_only(path)
    if not isinstance(state, dict) or not isinstance(state.get("model"), dict):
        raise ModelFileError(f"{path} is not a readable fairseq checkpoint: it holds no `model` weights")
    check_stored_options(state, path)
    return state


SPECIAL_SYMBOLS = 4         # <s>, <pad>, </s>, <unk>: the rows of a fairseq embedding table before dict.txt's entries


def check_dictionaries(state: dict, data_dir: str | Path, source_lang: str, target_lang: str) -> None:
    """ModelFileError naming a dict.<lang>.txt in `data_dir` that is not a fairseq dictionary (UTF-8 lines
    `<token> <count> [#fairseq:overwrite]`) or whose entries do not fill the checkpoint `state`'s embedding table of
    its side (rows = SPECIAL_SYMBOLS + entries)."""
    for side, lang in (("encoder", source_lang), ("decoder", target_lang)):
        path = Path(data_dir) / f"dict.{lang}.txt"
        with reading(path, "fairseq dictionary (UTF-8 lines `<token> <count>`)"):
            lines = path.read_text(encoding="utf-8").splitlines()
            for line in lines:
                fields = line.rstrip().rsplit(" ", 2)
                int(fields[-2] if fields[-1] == "#fairseq:overwrite" else fields[-1])
                if len(fields) < 2:
                    raise ValueError(f"line {line!r} is not `<token> <count>`")
        table = state["model"].get(f"{side}.embed_tokens.weight")
        if table is not None and table.shape[0] != SPECIAL_SYMBOLS + len(lines):
            raise ModelFileError(f"{path} is not the model's dictionary: {len(lines)} entries, but the checkpoint's "
                                 f"{side} embeddings have {table.shape[0]} rows ({SPECIAL_SYMBOLS} + entries)")


def check_sentencepiece(path: str | Path) -> None:
    """ModelFileError naming `path` when sentencepiece cannot load it."""
    import sentencepiece

    with reading(path, "sentencepiece model"):
        sentencepiece.SentencePieceProcessor(model_file=str(path))


def average_checkpoints(paths: list[Path]) -> dict:
    """The first checkpoint's state with `model` replaced by the element-wise mean of all `model` tensors."""
    import torch

    if not paths:
        raise ValueError("no checkpoints to average")
    state = load_checkpoint(paths[0])
    sums = {k: v.float().clone() for k, v in state["model"].items()}
    for path in paths[1:]:
        other = load_checkpoint(path)["model"]
        if other.keys() != sums.keys():
            raise ValueError(f"{path} has different parameters than {paths[0]}")
        for key, value in other.items():
            sums[key] += value.float()
    state["model"] = {k: (v / len(paths)).to(torch.float32) for k, v in sums.items()}
    return state


def strip_checkpoint(state: dict, fp16: bool) -> dict:
    """Drop the optimizer state (only needed to resume training); store floating weights in fp16 when asked
    (fairseq casts them back to the model's dtype on load)."""
    import torch

    state = dict(state)
    state.pop("last_optimizer_state", None)
    history = state.get("optimizer_history") or [{"criterion_name": "CrossEntropyCriterion", "best_loss": None}]
    state["optimizer_history"] = [{k: v for k, v in h.items() if k != "optimizer_state"} for h in history]
    extra = dict(state.get("extra_state") or {})
    extra.pop("train_iterator", None)
    state["extra_state"] = extra
    if fp16:
        state["model"] = {k: v.half() if v.is_floating_point() else v for k, v in state["model"].items()}
    return state


def export_model(checkpoint_dir: str, data_bin: str, spm_model: str, out_dir: str, source_lang: str = "cs",
                 target_lang: str = "en", average_last: int = 1, fp16: bool = True,
                 quantization: str = "int8", ct2: bool = True) -> dict:
    """Write the model directory described in the module docstring; returns the nmt.json descriptor."""
    import torch

    checkpoints, out = Path(checkpoint_dir), Path(out_dir)
    if average_last > 1:
        chosen = epoch_checkpoints(checkpoints)[-average_last:]
        if len(chosen) < average_last:
            raise ValueError(f"asked to average {average_last} checkpoints, found {len(chosen)} in {checkpoints}")
        state = average_checkpoints(chosen)
    else:
        chosen = [checkpoints / "checkpoint_last.pt"]
        state = load_checkpoint(chosen[0])
    check_dictionaries(state, data_bin, source_lang, target_lang)
    check_sentencepiece(spm_model)
    fairseq_dir = out / "fairseq"
    fairseq_dir.mkdir(parents=True, exist_ok=True)
    torch.save(strip_checkpoint(state, fp16=fp16), fairseq_dir / "model.pt")
    for lang in (source_lang, target_lang):
        shutil.copyfile(Path(data_bin) / f"dict.{lang}.txt", fairseq_dir / f"dict.{lang}.txt")
    shutil.copyfile(spm_model, out / "spm.model")
    descriptor = {"source_lang": source_lang, "target_lang": target_lang, "spm": "spm.model",
                  "fairseq": "fairseq/model.pt", "ctranslate2": "ct2" if ct2 else None,
                  "checkpoints": [p.name for p in chosen],
                  "num_updates": int(state.get("optimizer_history", [{}])[-1].get("num_updates", 0) or 0)}
    if ct2:
        convert_fairseq_to_ctranslate2(str(fairseq_dir / "model.pt"), str(fairseq_dir), str(out / "ct2"),
                                       source_lang, target_lang, quantization)
        descriptor["ct2_quantization"] = quantization
    (out / NMT_DESCRIPTOR).write_text(json.dumps(descriptor, indent=2) + "\n")
    return descriptor


def convert_fairseq_to_ctranslate2(model_path: str, data_dir: str, output_dir: str, source_lang: str,
                                   target_lang: str, quantization: str | None = None) -> str:
    """ctranslate2's own fairseq converter, loading weights-only with argparse.Namespace allowed (no
    `unsafe_deserialization`; a refused checkpoint is one UnsafeFileError line). quantization: None/"float32",
    "float16", "int8", "int8_float16", ... (ctranslate2's names)."""
    from ctranslate2.converters import FairseqConverter

    from paranmt.models.safe_load import refusing

    allow_fairseq_checkpoints()
    converter = FairseqConverter(model_path, data_dir, source_lang=source_lang, target_lang=target_lang)
    with refusing(model_path):
        return converter.convert(output_dir, quantization=None if quantization in (None, "float32")
                                 else quantization, force=True)


MANIFEST = "MANIFEST.json"


def file_hashes(model_dir: Path) -> list[dict]:
    """[{'path', 'bytes', 'sha256'}] of every file under model_dir except the manifest, sorted by path."""
    return [{"path": str(p.relative_to(model_dir)), "bytes": p.stat().st_size, "sha256": file_sha256(p)}
            for p in sorted(model_dir.rglob("*")) if p.is_file() and p.name != MANIFEST]


def run_provenance(descriptor: dict, command: str, recipe=None, recipe_file: str | None = None) -> dict:
    """The provenance a training run's model directory records in MANIFEST.json: the exported model's descriptor,
    the command that exported it and, for a run of the NMT recipe (`recipe`, an NMTRecipe, of the YAML
    `recipe_file`), its settings, the command that trained it and the statistics of its data."""
    provenance = {"model": descriptor, "command": command}
    if recipe is not None:
        provenance["recipe_config_file"] = recipe_file
        provenance["recipe"] = dataclasses.asdict(recipe.config)
        provenance["recipe_command"] = f"paranmt train-nmt --config {recipe_file}"
        stats_path = recipe.work / "data_stats.json"
        if stats_path.exists():
            provenance["data"] = json.loads(stats_path.read_text())
    return provenance


def write_manifest(model_dir: str, provenance: dict) -> dict:
    """MANIFEST.json = provenance (recipe, data, commands) + file hashes + evaluations (kept across rewrites)."""
    root = Path(model_dir)
    path = root / MANIFEST
    previous = json.loads(path.read_text()) if path.exists() else {}
    manifest = {**provenance, "files": file_hashes(root),
                "total_bytes": sum(f["bytes"] for f in file_hashes(root)),
                "evaluation": previous.get("evaluation", [])}
    write_text_atomically(path, json.dumps(manifest, indent=2, ensure_ascii=False) + "\n")
    return manifest


def record_evaluation(model_dir: str, entry: dict) -> dict:
    """Add (or replace, keyed by backend + test set + beam) an evaluation entry in MANIFEST.json."""
    root = Path(model_dir)
    path = root / MANIFEST
    manifest = json.loads(path.read_text()) if path.exists() else {"files": file_hashes(root)}
    key = (entry.get("backend"), entry.get("test_set"), entry.get("beam"))
    kept = [e for e in manifest.get("evaluation", []) if (e.get("backend"), e.get("test_set"), e.get("beam")) != key]
    manifest["evaluation"] = kept + [entry]
    write_text_atomically(path, json.dumps(manifest, indent=2, ensure_ascii=False) + "\n")
    return manifest
