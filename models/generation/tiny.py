"""Tiny paraphrasers for tests and benchmarks: every task and architecture trained for a few updates on real
parsed pairs (the default: tests/fixtures/paraphrase/pairs.tsv, SICK/MRPC/STS pairs parsed by assets/parser-en).
They run the real code paths quickly; their output is not meant to be good."""
from __future__ import annotations

from pathlib import Path

from paranmt.models.generation.data import pair_instances, read_parsed_pairs, top_templates
from paranmt.models.generation.paraphraser import Paraphraser
from paranmt.models.generation.train import ParaphraserTrainConfig, ParaphraserTrainer

TINY_SIZES = {"scpn": dict(vocab_size=400, embed_dim=32, hidden=48, parse_embed_dim=16, parse_hidden=32),
              "transformers": dict(vocab_size=400, hf_d_model=32, hf_layers=1, hf_heads=2, hf_ffn=64)}


def train_tiny_paraphraser(task: str, arch: str, output: str | Path, pairs_file: str | Path, steps: int = 30,
                           resume: bool = False, **overrides) -> Paraphraser:
    """Train `task`/`arch` for `steps` updates (batch 16, lr 3e-3, CPU, 1 thread; `overrides`: other
    ParaphraserTrainConfig fields) on the parsed pairs of `pairs_file`, save it into `output` and return it."""
    pairs = read_parsed_pairs([str(pairs_file)])
    instances, _ = pair_instances(task, pairs, "none" if task == "plain" else "template")
    templates = top_templates([p for pair in pairs for p in (pair.p1, pair.p2) if p])
    settings = dict(TINY_SIZES[arch], task=task, arch=arch, batch_size=16, lr=3e-3, max_steps=steps,
                    checkpoint_every=max(1, steps // 2), log_every=10, device="cpu", threads=1,
                    max_target_units=60)
    settings.update(overrides)
    config = ParaphraserTrainConfig(**settings)
    return ParaphraserTrainer(config, output).fit(instances, templates, resume=resume)
