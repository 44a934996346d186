"""The shared training loop (models/loop.py) on a small least-squares task: exact resume, stops, per-epoch
lines, keep-best across a resume, patience (an early stop that survives a resume), the recovery of an interrupted
checkpoint swap, and config checks."""
import json

import matplotlib.pyplot as plt
import numpy as np
import pytest
import torch

from paranmt.models.curves import curves_figure, read_records, run_curves
from paranmt.models.loop import Loop, LoopConfig, LoopState, Task, Window, epoch_order
from paranmt.schemas.config import load_config
from paranmt.schemas.errors import ConfigError, TrainingDiverged


class LeastSquares(Task):
    """Fit y = X w (+ noise) with a linear layer, one Adam step per batch of `size` rows; dev metric: the MSE on
    held-out rows; batches draw a dropout-like row mask from the task's own RNG, so resuming needs its state."""
    unit = "update"

    def __init__(self, size=8, evaluate_at="epoch", best=None, lr=0.05):
        generator = np.random.default_rng(0)
        self.x = torch.tensor(generator.normal(size=(60, 3)), dtype=torch.float32)
        self.y = self.x @ torch.tensor([1.0, -2.0, 0.5]) + 0.1 * torch.tensor(generator.normal(size=60),
                                                                                dtype=torch.float32)
        self.size, self.evaluate_at, self.best, self.lr = size, evaluate_at, best, lr
        self.kept = []

    def setup(self, checkpoint, device):
        self.model = torch.nn.Linear(3, 1)
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=self.lr)
        self.rng = np.random.default_rng(7)
        if checkpoint is not None:
            self.model.load_state_dict(torch.load(checkpoint.directory / "model.pt", weights_only=True))
            self.optimizer.load_state_dict(checkpoint.state["optimizer"])
            self.rng.bit_generator.state = json.loads(checkpoint.state["rng"])

    def steps_per_epoch(self):
        return -(-48 // self.size)

    def epoch_size(self):
        return self.steps_per_epoch()

    def batches(self, state):
        order = epoch_order(1, state.epoch, 48)
        for position in range(state.position, self.epoch_size()):
            index = order[position * self.size:(position + 1) * self.size]
            yield 1, index[self.rng.random(len(index)) < 0.9]

    def step(self, index, state):
        loss = torch.mean((self.model(self.x[index]).squeeze(1) - self.y[index]) ** 2)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return 1, {"loss": loss.item()}

    def record(self, window: Window, state: LoopState):
        return {"loss": window.sums["loss"] / window.updates}

    def parameters(self):
        return self.model.parameters()

    def evaluate(self, state):
        with torch.no_grad():
            return {"dev_mse": torch.mean((self.model(self.x[48:]).squeeze(1) - self.y[48:]) ** 2).item()}

    def keep_best(self, state, metrics):
        self.kept.append((state.step, metrics["dev_mse"]))

    def state_dict(self):
        return {"optimizer": self.optimizer.state_dict(), "rng": json.dumps(self.rng.bit_generator.state)}

    def save(self, directory):
        torch.save(self.model.state_dict(), directory / "model.pt")


def lines(directory):
    return [json.loads(line) for line in (directory / "metrics.jsonl").read_text().splitlines()]


def test_a_stopped_run_resumes_exactly(tmp_path):
    config = dict(epochs=3, checkpoint_every=4, log_every=2, seed=3, device="cpu")
    whole = LeastSquares()
    Loop(whole, LoopConfig(**config), tmp_path / "whole").run()
    Loop(LeastSquares(), LoopConfig(**config, max_steps=7), tmp_path / "parts").run()
    assert lines(tmp_path / "parts")[-1] == {"done": True, "step": 7, "epoch": 1, "device": "cpu"}
    resumed = LeastSquares()
    state = Loop(resumed, LoopConfig(**config), tmp_path / "parts", resume=True).run()
    assert (state.step, state.epoch, state.position) == (18, 3, 0)
    assert torch.equal(whole.model.weight, resumed.model.weight)
    dev = [r for r in lines(tmp_path / "whole") if "dev_mse" in r]
    assert [r["epoch"] for r in dev] == [1, 2, 3] and dev == [r for r in lines(tmp_path / "parts") if "dev_mse" in r]
    losses = {r["step"]: r["loss"] for r in lines(tmp_path / "whole") if "loss" in r}
    assert {r["step"]: r["loss"] for r in lines(tmp_path / "parts") if "loss" in r and r["step"] > 8} == \
        {step: loss for step, loss in losses.items() if step > 8}


def test_an_interrupted_swap_leaves_a_checkpoint_that_resumes(tmp_path):
    Loop(LeastSquares(), LoopConfig(epochs=1, max_steps=3, device="cpu"), tmp_path).run()
    (tmp_path / "checkpoint").rename(tmp_path / "checkpoint.old")          # cut short between the two renames
    state = Loop(LeastSquares(), LoopConfig(epochs=1, device="cpu"), tmp_path, resume=True).run()
    assert [r["step"] for r in lines(tmp_path) if r.get("done")] == [3, 6] and state.step == 6
    assert (tmp_path / "checkpoint").is_dir() and not (tmp_path / "checkpoint.old").exists()


def test_the_time_budget_stops_after_the_update_that_spends_it(tmp_path):
    state = Loop(LeastSquares(), LoopConfig(epochs=5, time_budget_minutes=1e-9, device="cpu"), tmp_path).run()
    assert state.step == 1 and lines(tmp_path)[-1]["step"] == 1


def test_per_epoch_lines_carry_the_dev_metric_also_for_an_epoch_cut_short(tmp_path):
    metrics = tmp_path / "metrics.jsonl"
    task = LeastSquares(best=("dev_mse", "min"))
    state = Loop(task, LoopConfig(epochs=3, max_steps=15, log_every=0, device="cpu"), metrics_file=metrics).run()
    records = [json.loads(line) for line in metrics.read_text().splitlines()]
    assert [(r["epoch"], r["step"]) for r in records] == [(1, 6), (2, 12), (3, 15)]
    assert all(set(r) == {"epoch", "step", "loss", "dev_mse"} for r in records)
    assert state.step == 15 and not (tmp_path / "checkpoint").exists(), "no output directory: no checkpoints"
    assert task.kept[0] == (6, records[0]["dev_mse"])


def test_keep_best_sees_only_improvements_and_remembers_them_across_a_resume(tmp_path):
    config = dict(epochs=2, checkpoint_every=3, log_every=3, device="cpu")
    first = LeastSquares(evaluate_at="checkpoint", best=("dev_mse", "min"))
    Loop(first, LoopConfig(**config, max_steps=6), tmp_path).run()
    second = LeastSquares(evaluate_at="checkpoint", best=("dev_mse", "min"))
    state = Loop(second, LoopConfig(**config), tmp_path, resume=True).run()
    dev = [(r["step"], r["dev_mse"]) for r in lines(tmp_path) if "dev_mse" in r]
    assert [step for step, _ in dev] == [3, 6, 9, 12], "each checkpoint and the end, once per update"
    running, expected = float("inf"), []
    for step, value in dev:
        if value < running:
            running = value
            expected.append((step, value))
    assert first.kept + second.kept == expected and state.best_dev == running


def stop_of(values, patience):
    """The index of the evaluation after which `patience` evaluations in a row brought no new (lower) best."""
    best, stale = float("inf"), 0
    for index, value in enumerate(values):
        best, stale = (value, 0) if value < best else (best, stale + 1)
        if stale == patience:
            return index
    return None


@pytest.mark.parametrize("evaluate_at, log_every", [("checkpoint", 2), ("epoch", 0)])
def test_patience_stops_once_the_dev_metric_stops_improving(tmp_path, caplog, evaluate_at, log_every):
    """Fixed seed: the run with patience 2 stops right after the second dev evaluation in a row without a new best
    of the same run without patience, saying so, and its model is that of the uninterrupted run at that point."""
    config = dict(epochs=30, checkpoint_every=2, log_every=log_every, seed=3, device="cpu")
    Loop(LeastSquares(evaluate_at=evaluate_at, best=("dev_mse", "min")), LoopConfig(**config), tmp_path / "all").run()
    dev = [(r["step"], r["dev_mse"]) for r in lines(tmp_path / "all") if "dev_mse" in r]
    stop = stop_of([value for _, value in dev], 2)
    assert stop is not None and dev[stop][0] < 180, "the fixture's dev metric must stall before the last update"
    caplog.set_level("INFO", logger="paranmt.models.loop")
    task = LeastSquares(evaluate_at=evaluate_at, best=("dev_mse", "min"))
    state = Loop(task, LoopConfig(**config, patience=2), tmp_path / "patient").run()
    assert state.step == dev[stop][0] and state.stale == 2
    assert [(r["step"], r["dev_mse"]) for r in lines(tmp_path / "patient") if "dev_mse" in r] == dev[:stop + 1]
    assert lines(tmp_path / "patient")[-1] == {"done": True, "step": dev[stop][0], "epoch": state.epoch,
                                               "device": "cpu", "stopped": "patience"}
    assert "stopped: dev metric not improved for 2 evaluations" in caplog.text
    assert not any(r.get("stopped") for r in lines(tmp_path / "all")), "patience 0 (the default) never stops"
    assert "warm-up" not in caplog.text, "a task without a warm-up is not warned about one"
    warming = LeastSquares(evaluate_at=evaluate_at, best=("dev_mse", "min"))
    warming.warmup_updates = dev[stop][0] + 1
    Loop(warming, LoopConfig(**config, patience=2), tmp_path / "warming").run()
    assert (f"the patience ran out at update {dev[stop][0]}, before the learning-rate warm-up's "
            f"{dev[stop][0] + 1} updates ended") in caplog.text


def test_a_resumed_run_keeps_its_patience_count(tmp_path):
    """Cut between two stale evaluations and resumed, a run stops where the uninterrupted one stopped; a run that
    had already run out of patience does not train again (its resume is refused, nothing written)."""
    config = dict(epochs=30, checkpoint_every=2, log_every=2, seed=3, device="cpu", patience=3)
    whole = LeastSquares(evaluate_at="checkpoint", best=("dev_mse", "min"))
    end = Loop(whole, LoopConfig(**config), tmp_path / "whole").run()
    dev = [r["dev_mse"] for r in lines(tmp_path / "whole") if "dev_mse" in r]
    assert end.step < 180 and end.stale == 3 and stop_of(dev, 3) == len(dev) - 1
    cut = end.step - 2                              # one stale evaluation before the stop
    Loop(LeastSquares(evaluate_at="checkpoint", best=("dev_mse", "min")), LoopConfig(**{**config, "max_steps": cut}),
         tmp_path / "parts").run()
    saved = torch.load(tmp_path / "parts" / "checkpoint" / "trainer_state.pt", weights_only=True)
    assert (saved["step"], saved["stale"]) == (cut, 2)
    resumed = LeastSquares(evaluate_at="checkpoint", best=("dev_mse", "min"))
    state = Loop(resumed, LoopConfig(**config), tmp_path / "parts", resume=True).run()
    assert (state.step, state.stale) == (end.step, 3) and torch.equal(whole.model.weight, resumed.model.weight)
    before = (tmp_path / "parts" / "metrics.jsonl").read_text()
    with pytest.raises(ConfigError, match=f"finished training \\(update {end.step}, .*it reached patience 3\\): "
                                          "nothing to resume; raise --patience to train further"):
        Loop(LeastSquares(evaluate_at="checkpoint", best=("dev_mse", "min")), LoopConfig(**config),
             tmp_path / "parts", resume=True).run()
    assert (tmp_path / "parts" / "metrics.jsonl").read_text() == before and before.splitlines()[-1].endswith(
        '"stopped": "patience"}')


def test_a_training_that_diverges_stops_before_it_saves_weights_that_are_not_numbers(tmp_path):
    """Issue 47: a learning rate of inf trained to a model of NaNs, saved, exit 0. A huge one still diverges: the
    loop stops at the first update whose weights are not finite, and what it saved before (the checkpoint of
    update 1) holds finite weights; no checkpoint, no `done` line after it. The metrics file ends with a line
    saying the run diverged after update 2 (a table of runs reads why it stopped from it), drawn in metrics.png."""
    task = LeastSquares(lr=1e30)
    with pytest.raises(TrainingDiverged, match=r"^the training diverged: the loss is (nan|inf) and the weights are no "
                                               r"longer finite numbers after update 2 \(lr 1e\+30 is likely too "
                                               r"high\): lower it, then$"):
        Loop(task, LoopConfig(epochs=5, checkpoint_every=1, log_every=1, device="cpu", lr=1e30), tmp_path).run()
    saved = torch.load(tmp_path / "checkpoint" / "model.pt", weights_only=True)
    state = torch.load(tmp_path / "checkpoint" / "trainer_state.pt", weights_only=True)
    assert state["step"] == 1 and all(bool(torch.isfinite(w).all()) for w in saved.values())
    *trained, last = lines(tmp_path)
    assert last == {"done": False, "stopped": "diverged", "step": 2, "epoch": 0, "device": "cpu"}
    assert not any(r.get("done") for r in trained) and max(r["step"] for r in trained) == 1
    assert not bool(torch.isfinite(task.model.weight).all())
    curves = run_curves(read_records(tmp_path / "metrics.jsonl"), task.shown, task.best)
    assert (curves.done, curves.stopped, curves.last_step) == (False, "diverged", 2)
    figure = curves_figure(curves, "fit")
    assert figure._suptitle.get_text() == "fit (stopped at update 2: diverged)"
    plt.close(figure)
    assert (tmp_path / "metrics.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_stopped_run_resumed_at_a_limit_it_reached_makes_no_update_and_a_finished_one_is_left_as_it_is(tmp_path):
    """Issue 47: `--resume` at a limit trained one update more. A run stopped (Ctrl-C) after its checkpoint of
    update 2, resumed with max_steps 2, makes no update: it ends with the checkpoint's weights. Resumed again, it is
    finished: refused, nothing written; with max_steps raised it goes on."""
    class Interrupted(LeastSquares):
        def step(self, index, state):
            if state.step == 3:
                raise KeyboardInterrupt
            return super().step(index, state)

    config = dict(epochs=5, checkpoint_every=2, log_every=1, device="cpu")
    with pytest.raises(KeyboardInterrupt):
        Loop(Interrupted(), LoopConfig(**config), tmp_path).run()
    saved = torch.load(tmp_path / "checkpoint" / "model.pt", weights_only=True)
    resumed = LeastSquares()
    state = Loop(resumed, LoopConfig(**config, max_steps=2), tmp_path, resume=True).run()
    assert state.step == 2 and torch.equal(resumed.model.weight, saved["weight"])
    assert [r["step"] for r in lines(tmp_path)] == [1, 2, 3, 2] and lines(tmp_path)[-1]["done"]
    before = (tmp_path / "metrics.jsonl").read_text()
    with pytest.raises(ConfigError, match="holds a finished training \\(update 2, epoch 0; it reached max_steps 2\\)"):
        Loop(LeastSquares(), LoopConfig(**config, max_steps=2), tmp_path, resume=True).run()
    assert (tmp_path / "metrics.jsonl").read_text() == before
    assert Loop(LeastSquares(), LoopConfig(**config, max_steps=4), tmp_path, resume=True).run().step == 4


def test_patience_needs_a_dev_metric(tmp_path):
    with pytest.raises(ConfigError, match="patience 2 needs a dev evaluation"):
        Loop(LeastSquares(), LoopConfig(epochs=1, patience=2, device="cpu"), tmp_path).run()


def test_loop_settings_are_checked():
    with pytest.raises(ConfigError, match="device"):
        LoopConfig(device="tpu").validate()
    with pytest.raises(ConfigError, match="max_steps"):
        LoopConfig(max_steps=-1).validate()
    with pytest.raises(ConfigError, match="weights_dtype"):
        LoopConfig(weights_dtype="int8").validate()
    with pytest.raises(ConfigError, match="patience"):
        LoopConfig(patience=-1).validate()
    with pytest.raises(ConfigError, match="fp16 must be one of auto, on, off, bf16, not 'bf61'"):
        LoopConfig(fp16="bf61").validate()


def test_every_trainer_config_is_a_loop_config_and_refuses_the_loop_fields_it_does_not_use():
    """finetune-sts and train-words run the loop on the CPU without checkpoints: their configs share LoopConfig's
    fields (their own defaults kept) and refuse a device, precision, checkpoint interval or weights dtype they would
    ignore."""
    from paranmt.models.training.paragram import ParagramConfig
    from paranmt.models.training.sts_finetune import FinetuneConfig

    for cls, lr in ((FinetuneConfig, 1e-3), (ParagramConfig, 0.05)):
        config = load_config(cls, None, {"max_steps": 3, "time_budget_minutes": 0.5}).validate()
        assert isinstance(config, LoopConfig) and (config.lr, config.epochs, config.max_steps) == (lr, 10, 3)
        for key, value in (("device", "cuda"), ("checkpoint_every", 5), ("weights_dtype", "float16"), ("fp16", "bf16")):
            with pytest.raises(ConfigError, match=f"^{key} is not a setting of this trainer"):
                load_config(cls, None, {key: value}).validate()


def trainer_configs():
    from paranmt.models.bgt.trainer import BGTConfig
    from paranmt.models.generation.train import ParaphraserTrainConfig
    from paranmt.models.training.paragram import ParagramConfig
    from paranmt.models.training.sts_finetune import FinetuneConfig
    from paranmt.models.training.trainer import TrainConfig

    return (LoopConfig, TrainConfig, BGTConfig, ParaphraserTrainConfig, ParagramConfig, FinetuneConfig)


def test_no_trainer_setting_takes_a_number_that_is_not_finite():
    """Issue 47: `--set lr=inf` trained an encoder of NaNs. Every float setting of every trainer (learning rates,
    margins, dropout, weight decay, clipping, time budgets, ...) refuses inf, naming the key."""
    import dataclasses
    import typing

    from paranmt.schemas.config import CommandLineValue

    checked = 0
    for cls in trainer_configs():
        hints = typing.get_type_hints(cls)
        for spec in dataclasses.fields(cls):
            if hints[spec.name] not in (float, float | None):
                continue
            for value in ("inf", "-.inf"):
                with pytest.raises(ConfigError, match=f"^{spec.name} must be a finite number, not -?inf$"):
                    load_config(cls, None, {spec.name: CommandLineValue(value)}).validate()
            checked += 1
    assert checked >= 20


@pytest.mark.parametrize("key", ["dim", "hidden", "embed_dim", "vocab_size", "sp_vocab_size", "latent", "ffn",
                                 "hf_d_model", "layers", "decoder_layers"])
def test_a_size_no_machine_holds_is_refused_before_anything_is_allocated(key):
    """Issue 47: `--set dim=1e12` was a traceback from the allocator. Every size is bounded, naming the key."""
    from paranmt.schemas.config import CommandLineValue

    configs = [cls for cls in trainer_configs() if key in {spec.name for spec in __import__("dataclasses").fields(cls)}]
    assert configs
    for cls in configs:
        with pytest.raises(ConfigError, match=f"^{key} must be between [12] and [0-9]+, not 1000000000000$"):
            load_config(cls, None, {key: CommandLineValue("1e12")}).validate()


def test_a_model_larger_than_the_memory_is_refused_naming_the_settings_that_make_it():
    """Sizes each within its bound can still make a model no machine holds: validate() estimates it."""
    from paranmt.models.bgt.trainer import BGTConfig
    from paranmt.models.generation.train import ParaphraserTrainConfig
    from paranmt.models.training.trainer import TrainConfig

    for config, named in ((TrainConfig(encoder="word", dim=65536, vocab_size=10_000_000),
                           "encoder word with dim 65536, vocab_size 10000000"),
                          (BGTConfig(dim=65536, heads=4, sp_vocab_size=10_000_000),
                           "sp_vocab_size 10000000, dim 65536"),
                          (ParaphraserTrainConfig(vocab_size=10_000_000, embed_dim=65536),
                           "vocab_size 10000000, embed_dim 65536")):
        with pytest.raises(ConfigError, match=f"^{named}.* make a model of about [0-9,]+ parameters; training it "
                                              "needs about [0-9,.]+ GB of memory .* more than this machine's"):
            config.validate()
    assert TrainConfig(encoder="word", dim=300).validate().model_size()[0] == 200_000 * 300


def test_a_run_draws_its_curves_after_each_dev_evaluation_and_at_the_end(tmp_path, monkeypatch):
    """metrics.png is redrawn from the whole metrics.jsonl after each dev evaluation (`draw_every_s` 0 here) and
    once more after the done line; with the default 30 s between redraws a seconds-long run draws only the last."""
    from matplotlib.image import imread

    from paranmt.models import curves
    drawn, draw_curves = [], curves.draw_curves

    def draw(metrics, png, shown, best, title):
        drawn.append(draw_curves(metrics, png, shown, best, title))
        drawn[-1].png = imread(png)
        return drawn[-1]

    monkeypatch.setattr(curves, "draw_curves", draw)
    loop = Loop(LeastSquares(best=("dev_mse", "min")), LoopConfig(epochs=3, checkpoint_every=0, log_every=2,
                                                                   device="cpu"), tmp_path / "run")
    loop.draw_every_s = 0
    loop.run()
    assert [[step for step, _ in c.dev["dev_mse"]["dev_mse"]] for c in drawn] == [[6], [6, 12], [6, 12, 18],
                                                                                 [6, 12, 18]]
    assert [c.done for c in drawn] == [False, False, False, True] and drawn[-1].last_step == 18
    assert drawn[0].png.ndim == 3 and drawn[0].png.shape[0] > 100, "a readable image after the first evaluation"
    assert [step for step, _ in drawn[-1].train["loss"]] == list(range(2, 19, 2))
    assert drawn[-1].epoch_ends == [6, 12, 18]
    best = min(drawn[-1].dev["dev_mse"]["dev_mse"], key=lambda point: point[1])
    assert drawn[-1].best == ("dev_mse", *best)
    assert (tmp_path / "run" / "metrics.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert not (tmp_path / "run" / "metrics.png.tmp").exists()
    drawn.clear()
    Loop(LeastSquares(), LoopConfig(epochs=3, checkpoint_every=4, log_every=2, device="cpu"), tmp_path / "quick").run()
    assert [c.done for c in drawn] == [True], "redraws at most every 30 s: only the last one"


def test_a_resumed_run_draws_both_runs_and_skips_the_line_a_killed_run_left_half_written(tmp_path, monkeypatch):
    from paranmt.models import curves
    config = dict(epochs=3, checkpoint_every=4, log_every=2, device="cpu")
    Loop(LeastSquares(best=("dev_mse", "min")), LoopConfig(**config, max_steps=7), tmp_path).run()
    with open(tmp_path / "metrics.jsonl", "a") as metrics:
        metrics.write('{"step": 8, "epoch": 1, "lo')                    # killed while writing a line
    Loop(LeastSquares(best=("dev_mse", "min")), LoopConfig(**config), tmp_path, resume=True).run()
    records = curves.read_records(tmp_path / "metrics.jsonl")
    assert len(records) == len((tmp_path / "metrics.jsonl").read_text().splitlines()) - 1, "only the cut line lost"
    drawn = curves.run_curves(records, ("loss",), ("dev_mse", "min"))
    assert [step for step, _ in drawn.train["loss"]] == list(range(2, 19, 2)), "both runs' updates"
    assert [step for step, _ in drawn.dev["dev_mse"]["dev_mse"]] == [6, 12, 18] and drawn.done
    assert (tmp_path / "metrics.png").stat().st_size > 0


def test_a_plot_that_fails_is_one_warning_and_the_training_goes_on(tmp_path, monkeypatch, caplog):
    from paranmt.models import curves

    def fail(*args):
        raise OSError("No space left on device")

    monkeypatch.setattr(curves, "draw_curves", fail)
    loop = Loop(LeastSquares(best=("dev_mse", "min")), LoopConfig(epochs=3, checkpoint_every=4, log_every=2,
                                                                   device="cpu"), tmp_path)
    loop.draw_every_s = 0
    with caplog.at_level("WARNING", logger="paranmt.models.loop"):
        state = loop.run()
    assert state.step == 18 and lines(tmp_path)[-1]["done"] and (tmp_path / "checkpoint").is_dir()
    assert [r.getMessage() for r in caplog.records if r.levelname == "WARNING"] == [
        "metrics.png not drawn (OSError: No space left on device); training goes on without it"]
    assert not (tmp_path / "metrics.png").exists()
