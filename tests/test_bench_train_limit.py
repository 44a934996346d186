"""benchmarks/bench_train_limit.py on a few real pairs: a row per kind with positive times and counted FLOPs (the
fused LSTM layer, which torch's FLOP counter does not know, counted by its formula: an `lstm` step counts more than a
word-averaging one), the matmul row, and the fused reference's ratio; in-place addmm_ and torch's CPU flash attention
counted; the update-step trainers (train-paraphraser's three tasks on real parsed pairs, train-nmt through the
recipe on 60 real cs-en pairs) each with a row of positive times, target units and FLOPs; the SCPN's encoders
alone, packed and in buckets of each size asked; cuDNN's fused RNN (nn.LSTM on CUDA) counted per layer and direction
without a GPU; a device or precision the machine cannot time is one line."""
from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest
import warm
import yaml

REPO = Path(__file__).resolve().parents[1]
SCRIPT = REPO / "benchmarks" / "bench_train_limit.py"


def bench(*argv: str) -> dict[str, list[str]]:
    """The table rows the benchmark prints for `argv`, by their first cell (1 thread)."""
    result = subprocess.run([sys.executable, str(SCRIPT), *argv], capture_output=True, text=True, timeout=300,
                            env={"OMP_NUM_THREADS": "1", "PATH": "/usr/bin:/bin"})
    assert result.returncode == 0, result.stderr
    return {line.split(" | ")[0].strip("| "): line.strip("|").split("|") for line in result.stdout.splitlines()
            if line.startswith("| ") and not line.startswith("| kind")}


def numbers(cells: list[str]) -> list[float | None]:
    """wall s, CPU s, pairs/CPU-s, target units/CPU-s, GFLOP, GFLOP/s, % matmul, x ref (None: blank)."""
    return [float(cell.strip().rstrip("%")) if cell.strip() else None for cell in cells[2:]]


def load_bench():
    spec = importlib.util.spec_from_file_location("bench_train_limit", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_benchmark_prints_a_row_per_kind(shared_data, tmp_path):
    lines = (shared_data / "bitext" / "cs-en" / "newstest2016.eng").read_text(encoding="utf-8").splitlines()
    pairs = tmp_path / "pairs.tsv"
    pairs.write_text("".join(f"{a}\t{b}\n" for a, b in zip(lines[:60], lines[60:120])), encoding="utf-8")
    rows = bench("--input", str(pairs), "--kinds", "word", "lstm", "--megabatch", "2", "--batch-size", "10",
                 "--dim", "16", "--work", str(tmp_path / "work"))
    assert set(rows) == {"word", "lstm", "matmul 1024² fp32"}, rows
    word, lstm = numbers(rows["word"]), numbers(rows["lstm"])
    assert word[3] is None and lstm[3] is None, "no target units for the encoders"
    assert all(value > 0 for value in word[:3] + lstm[:3] + lstm[4:] + word[7:]), rows
    assert lstm[4] > word[4], "the LSTM layer's FLOPs are counted"
    assert float(rows["matmul 1024² fp32"][7]) > 0


def test_the_update_step_trainers_get_a_row_each(shared_data, tmp_path):
    """train-paraphraser (scpn, plain, parse generator) on real parsed pairs and train-nmt on a recipe over 60 real
    cs-en pairs (a tiny transformer): positive times, pairs and target units per CPU-second, counted FLOPs; no
    fused reference. The paraphraser's FLOPs grow with its target units: the parse generator's targets (parse
    tokens) are longer than the sentence tasks' pieces. The SCPN's encoders alone: a positive time per variant."""
    data = tmp_path / "bitext"
    data.mkdir()
    for side in ("ces", "eng"):
        lines = (shared_data / "bitext" / "cs-en" / f"newstest2017.{side}").read_text(encoding="utf-8").splitlines()
        (data / f"news.{side}").write_text("\n".join(lines[:30]) + "\n", encoding="utf-8")
        (data / f"train.{side}").write_text("\n".join(lines[30:90]) + "\n", encoding="utf-8")
    config = tmp_path / "nmt.yaml"
    config.write_text(yaml.safe_dump({
        "nice": 0, "data": {"inputs": [str(data)], "suffixes": ["ces", "eng"], "heldout": ["news"], "valid": "news",
                            "valid_lines": 5},
        "sentencepiece": {"vocab_size": 200},
        "model": {"arch": "transformer", "share_all_embeddings": True, "encoder_embed_dim": 16,
                  "decoder_embed_dim": 16, "encoder_ffn_embed_dim": 32, "decoder_ffn_embed_dim": 32,
                  "encoder_layers": 1, "decoder_layers": 1, "encoder_attention_heads": 2,
                  "decoder_attention_heads": 2},
        "train": {"optimizer": "adam", "lr": 0.001, "criterion": "label_smoothed_cross_entropy",
                  "label_smoothing": 0.1, "max_tokens": 512, "seed": 1}}))
    rows = bench("--input", str(REPO / "tests" / "fixtures" / "paraphrase" / "pairs.tsv"), "--kinds",
                 "--paraphrasers", "scpn", "plain", "parse-generator", "--paraphraser-pairs", "40",
                 "--paraphraser-steps", "1", "--nmt-config", str(config), "--nmt-steps", "2",
                 "--scpn-encoder-buckets", "4", "16", "--work", str(tmp_path / "work"))
    trainers = ["train-paraphraser scpn", "train-paraphraser plain", "train-paraphraser parse-generator", "train-nmt"]
    encoders = ["packed sequence", "buckets of 4 rows", "buckets of 16 rows"]
    header = "SCPN encoders alone (sentence + parse, forward + backward)"
    assert set(rows) == {*trainers, "matmul 1024² fp32", header, *encoders}, rows
    assert all(float(rows[name][2]) > 0 for name in encoders), rows
    for name in trainers:
        wall, cpu, pairs, units, gflop, gflops, share, ref = numbers(rows[name])
        assert min(wall, cpu, pairs, gflop, gflops, share) > 0 and ref is None, (name, rows[name])
        assert units > pairs, f"{name}: a target holds more than one unit"
    assert (tmp_path / "work" / "train-nmt" / "bin").is_dir(), "the recipe's preprocess step made the data-bin"


def test_in_place_addmm_is_counted():
    """The stepped cells' W_h h_{t-1} is an in-place `addmm_`, which torch's FLOP table lacks: counted as addmm."""
    import torch
    from torch.utils.flop_counter import FlopCounterMode

    bench = load_bench()
    z, h, weight = torch.zeros(4, 6), torch.ones(4, 3), torch.ones(6, 3)
    with FlopCounterMode(display=False, custom_mapping=bench.FLOP_FORMULAS) as counter:
        z.addmm_(h, weight.t())
        torch.addmm(z, h, weight.t())
    assert counter.get_total_flops() == 2 * (2 * 4 * 3 * 6)


def test_cpu_flash_attention_is_counted():
    """torch's CPU attention kernel (what fairseq's and nn.Transformer's attention run on the CPU), which the
    counter's table lacks, is counted as torch counts its other fused attentions: 2 x (2 x batch x heads x queries x
    keys x head dim) forward, 2.5 times that backward (five products of those shapes)."""
    import torch
    from torch.utils.flop_counter import FlopCounterMode

    bench = load_bench()
    q, k, v = (torch.randn(2, 3, length, 8, requires_grad=True) for length in (5, 7, 7))
    with FlopCounterMode(display=False) as plain:
        torch.nn.functional.scaled_dot_product_attention(q, k, v)
    assert plain.get_total_flops() == 0, "the counter's own table lacks the CPU kernel"
    with FlopCounterMode(display=False, custom_mapping=bench.FLOP_FORMULAS) as counter:
        torch.nn.functional.scaled_dot_product_attention(q, k, v).sum().backward()
    forward = 2 * (2 * 2 * 3 * 5 * 7 * 8)
    assert counter.get_total_flops() == forward + 5 * forward // 2


def test_cudnn_rnn_is_counted_per_layer_and_direction():
    """nn.LSTM on CUDA is one `_cudnn_rnn` over all its layers and directions (a flat weight list), which torch's FLOP
    counter does not know: counted per layer and direction by the gates' formula (2 x positions x (in + hidden) x 4
    hidden), the count of oneDNN's per-layer ops of the same LSTM on the CPU; its backward twice the forward; a
    packed input's positions are its rows. The forward is dispatched on meta tensors in its schema's own argument
    order (no GPU needed)."""
    import torch
    from torch.utils.flop_counter import FlopCounterMode

    bench = load_bench()
    steps, rows, dim, hidden = 7, 4, 5, 3
    lstm = torch.nn.LSTM(dim, hidden, num_layers=2, bidirectional=True)

    def forward(positions: int) -> int:       # two directions of layer 1 (in: dim), of layer 2 (in: 2 hidden)
        return 2 * (2 * positions * (dim + hidden) * 4 * hidden) + 2 * (2 * positions * (3 * hidden) * 4 * hidden)

    weights = [w.to("meta") for w in lstm._flat_weights]
    x, state = torch.empty(steps, rows, dim, device="meta"), torch.empty(4, rows, hidden, device="meta")
    with FlopCounterMode(display=False, custom_mapping=bench.FLOP_FORMULAS) as counter:
        torch.ops.aten._cudnn_rnn(x, weights, 4, None, state, state, 2, hidden, 0, 2, False, 0.0, True, True, [],
                                  None)
    assert counter.get_total_flops() == forward(steps * rows)
    shapes = [tuple(w.shape) for w in weights]
    assert bench.cudnn_rnn_backward_flops((steps, rows, dim), shapes, 4) == 2 * forward(steps * rows)
    assert bench.cudnn_rnn_flops((20, dim), shapes, 4) == forward(20)
    with FlopCounterMode(display=False, custom_mapping=bench.FLOP_FORMULAS) as cpu:
        lstm(torch.randn(steps, rows, dim))
    assert cpu.get_total_flops() == forward(steps * rows)


@pytest.mark.parametrize("argv, message", [
    (["--device", "cuda"], "device=cuda was requested but no CUDA device is available"),
    (["--fp16", "on"], "fp16 training needs a CUDA device"),
    (["--fp16", "bf16", "--nmt-config", "nmt.yaml"], "train-nmt with --fp16 bf16 is not benchmarked here"),
], ids=["cuda-missing", "fp16-on-cpu", "nmt-in-bf16"])
def test_a_device_or_precision_it_cannot_time_is_one_line(argv, message, tmp_path):
    """On a machine without CUDA: --device cuda, fp16 on the CPU and train-nmt in another precision than the
    recipe's are each one line and exit 2, before any work (the loop's device choice, models/loop.py `select`)."""
    import torch

    if torch.cuda.is_available():
        pytest.skip("this machine has CUDA")
    result = warm.run([sys.executable, str(SCRIPT), "--input", "missing.tsv", *argv], cwd=tmp_path,
                      capture_output=True, text=True, timeout=120)
    assert result.returncode == 2 and not result.stdout, result
    assert result.stderr.splitlines() == [result.stderr.strip()], result.stderr
    assert result.stderr.startswith(f"bench_train_limit.py: configuration error: {message}"), result.stderr
    assert not any(tmp_path.iterdir())


def test_pairs_to_parse_without_stanza_are_one_line(tmp_path):
    """Where stanza is not installed (an image that only trains, e.g. the GPU machine's), --paraphrasers on pairs
    without parses is one line naming it and the way round it (pairs with parses, or a parse cache), exit 2."""
    pairs = tmp_path / "pairs.tsv"
    pairs.write_text("a man is walking .\tsomeone walks .\n" * 4, encoding="utf-8")
    hide = ("import importlib.abc, runpy, sys\n"
            "class Hide(importlib.abc.MetaPathFinder):\n"
            "    def find_spec(self, name, path, target=None):\n"
            "        if name.split('.')[0] == 'stanza':\n"
            "            raise ModuleNotFoundError(f'No module named {name!r}', name=name)\n"
            "sys.meta_path.insert(0, Hide())\n"
            "sys.argv = ['bench_train_limit.py', *sys.argv[1:]]\n"
            f"runpy.run_path({str(SCRIPT)!r}, run_name='__main__')\n")
    result = subprocess.run([sys.executable, "-c", hide, "--input", str(pairs), "--kinds", "--paraphrasers", "scpn",
                             "--work", str(tmp_path / "work")], capture_output=True, text=True, timeout=120,
                            env={"OMP_NUM_THREADS": "1", "PATH": "/usr/bin:/bin"})
    assert result.returncode == 2 and not result.stdout, result
    assert result.stderr.splitlines() == ["bench_train_limit.py: configuration error: --paraphraser-input: its pairs "
                                          "lack parses and the parser needs stanza, which is not installed: give "
                                          "pairs with their parses, or a --work whose parses.tsv holds them"], result
