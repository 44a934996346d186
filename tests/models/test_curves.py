"""models/curves.py: a run's metrics.jsonl as series (mapping dev metrics, the best evaluation, a resume's rewind,
a partly written last line, the stop reason) and as metrics.png."""
import json

from paranmt.models.curves import draw_curves, read_records, run_curves, thinned

ENCODER_RUN = [  # the lines of an encoder training (`paranmt train`, log_every 2, dev at checkpoints), resumed
    {"step": 2, "epoch": 0, "megabatch": 1, "loss": 0.9, "pairs_per_s": 50.0, "elapsed_s": 1.0},
    {"step": 4, "epoch": 0, "megabatch": 1, "loss": 0.8, "pairs_per_s": 52.0, "elapsed_s": 2.0},
    {"step": 4, "epoch": 0, "dev": {"STS2017/track5.en-en": 60.0, "STS2016/headlines": 50.0}},
    {"step": 6, "epoch": 1, "megabatch": 1, "loss": 0.7, "pairs_per_s": 51.0, "elapsed_s": 3.0},
    {"step": 8, "epoch": 1, "megabatch": 1, "loss": 0.6, "pairs_per_s": 51.0, "elapsed_s": 4.0},   # after the
    {"step": 6, "epoch": 1, "megabatch": 1, "loss": 0.65, "pairs_per_s": 49.0, "elapsed_s": 3.0},  # checkpoint at 4:
    {"step": 8, "epoch": 1, "dev": {"STS2017/track5.en-en": 70.0, "STS2016/headlines": 56.0}},    # lost, redone
    {"step": 10, "epoch": 2, "megabatch": 1, "loss": 0.5, "pairs_per_s": 50.0, "elapsed_s": 5.0},
    {"step": 12, "epoch": 2, "dev": {"STS2017/track5.en-en": 66.0, "STS2016/headlines": 52.0}},
    {"done": True, "step": 12, "epoch": 2, "stopped": "patience"},
]


def test_an_encoder_run_gives_its_fields_its_datasets_their_mean_and_the_best_evaluation(tmp_path):
    metrics = tmp_path / "metrics.jsonl"
    metrics.write_text("".join(json.dumps(r) + "\n" for r in ENCODER_RUN) + '{"step": 14, "epoch": 2, "lo')
    records = read_records(metrics)
    assert records == ENCODER_RUN, "the partly written last line is skipped"
    curves = draw_curves(metrics, tmp_path / "metrics.png", ("loss", "megabatch"), ("dev", "max"), "train")
    assert list(curves.train) == ["loss", "megabatch"], "the fields the task shows, in its order"
    assert curves.train["loss"] == [(2, 0.9), (4, 0.8), (6, 0.65), (10, 0.5)], "a resume's rewind replaces"
    assert curves.dev["dev"] == {"dev: STS2017/track5.en-en": [(4, 60.0), (8, 70.0), (12, 66.0)],
                                 "dev: STS2016/headlines": [(4, 50.0), (8, 56.0), (12, 52.0)],
                                 "dev: mean": [(4, 55.0), (8, 63.0), (12, 59.0)]}
    assert curves.best == ("dev", 8, 63.0) and curves.epoch_ends == [6, 10]
    assert (curves.done, curves.stopped, curves.last_step) == (True, "patience", 12)
    assert (tmp_path / "metrics.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_loss_metric_keeps_its_minimum_and_every_field_without_a_shown_list():
    records = [{"step": 5, "epoch": 0, "loss": 3.0, "instances_per_s": 10.0, "elapsed_s": 1.0},
               {"step": 5, "epoch": 0, "dev_loss": 2.0}, {"step": 10, "epoch": 0, "dev_loss": 1.5},
               {"step": 15, "epoch": 0, "dev_loss": 1.5}, {"step": "x"}]
    curves = run_curves(records, None, ("dev_loss", "min"))
    assert set(curves.train) == {"loss", "instances_per_s"} and curves.dev == {"dev_loss": {"dev_loss": [
        (5, 2.0), (10, 1.5), (15, 1.5)]}}
    assert curves.best == ("dev_loss", 10, 1.5), "the first evaluation at the best value (keep-best is strict)"
    assert not curves.done and curves.stopped is None and curves.epoch_ends == []


def test_a_long_line_is_drawn_as_the_means_of_runs_of_its_points():
    points = [(step, float(step % 2)) for step in range(1, 2502)]          # 2501 updates, values 1 0 1 0 ...
    steps, values = thinned(points, most=1000)
    assert len(steps) == 834 and steps[0] == 3 and steps[-1] == 2501, "runs of 3, the last one shorter"
    assert values[0] == 2 / 3 and values[1] == 1 / 3 and values[-1] == 0.5, "the last run: updates 2500 and 2501"
    assert thinned(points[:5], most=1000)[0].tolist() == [1, 2, 3, 4, 5]
