"""`--resume` goes on with the settings the stopped run saved (pipelines/runtime/arguments.load_command_config,
`Config.SAVED_AS`): saved settings <- `--config` <- the flags given <- `--set`. Real trainers on tiny inputs: a run
with non-default settings, stopped by --max-steps, resumed with only its inputs, --output, --resume and a larger
--max-steps keeps them; a flag given at the resume wins and is a warning naming it; a saved file that cannot be
read is one line, exit 2; train-nmt's settings, its inputs included, come from its work directory."""
import json
from pathlib import Path

from paranmt.models.training.trainer import TrainConfig
from paranmt.pipelines.cli import main
from paranmt.schemas.config import load_config


def steps_done(model: Path) -> int:
    return json.loads((model / "metrics.jsonl").read_text().splitlines()[-1])["step"]


def dev_steps(model: Path) -> list[int]:
    """The steps at which the held-out loss was logged."""
    return [record["step"] for record in map(json.loads, (model / "metrics.jsonl").read_text().splitlines())
            if "dev_loss" in record]


def test_train_paraphraser_resumes_with_the_saved_settings(tmp_path, paraphrase_pairs, caplog):
    out = tmp_path / "plain"
    inputs = ["train-paraphraser", "--input", str(paraphrase_pairs), "--output", str(out)]
    assert main([*inputs, "--task", "plain", "--embed-dim", "16", "--hidden", "16", "--dropout", "0.3",
                 "--batch-size", "8", "--require-different", "none", "--checkpoint-every", "1", "--device", "cpu",
                 "--max-steps", "2"]) == 0
    assert main([*inputs, "--resume", "--max-steps", "3"]) == 0
    saved = json.loads((out / "train_config.json").read_text())
    assert {key: saved[key] for key in ("task", "embed_dim", "hidden", "dropout", "batch_size", "require_different",
                                        "device", "max_steps")} == {
        "task": "plain", "embed_dim": 16, "hidden": 16, "dropout": 0.3, "batch_size": 8, "require_different": "none",
        "device": "cpu", "max_steps": 3}
    model = json.loads((out / "paraphraser.json").read_text())["training"]["config"]
    assert (model["dropout"], model["batch_size"], model["max_steps"]) == (0.3, 8, 3) and steps_done(out) == 3
    assert "resuming with a changed config (fields: max_steps: 2 -> 3)" in caplog.text   # the one change given
    caplog.clear()
    # a flag given at the resume wins over the saved value, and the warning names it with both values
    assert main([*inputs, "--resume", "--max-steps", "4", "--batch-size", "4"]) == 0
    saved = json.loads((out / "train_config.json").read_text())
    assert (saved["batch_size"], saved["dropout"], saved["max_steps"]) == (4, 0.3, 4) and steps_done(out) == 4
    assert "resuming with a changed config (fields: batch_size: 8 -> 4; max_steps: 3 -> 4)" in caplog.text


def test_train_paraphraser_resumes_with_the_held_out_data_it_recorded(tmp_path, paraphrase_pairs, caplog, one_line):
    """--resume without --dev goes on with the held-out data DIR/train_data.json records (one line names it); gone
    files are one line, exit 2; a record of an older version (no held-out data recorded) goes on without, warned."""
    dev = tmp_path / "dev.tsv"
    dev.write_text("".join(paraphrase_pairs.read_text().splitlines(keepends=True)[:20]))
    out = tmp_path / "plain"
    inputs = ["train-paraphraser", "--input", str(paraphrase_pairs), "--output", str(out)]
    assert main([*inputs, "--dev", str(dev), "--task", "plain", "--embed-dim", "8", "--hidden", "8",
                 "--batch-size", "8", "--checkpoint-every", "1", "--device", "cpu", "--max-steps", "1"]) == 0
    record = out / "train_data.json"
    first = json.loads(record.read_text())
    assert (first["dev"], first["dev_sentences"]) == ([str(dev)], []) and first["dev_instances"] > 0
    caplog.clear()
    assert main([*inputs, "--resume", "--max-steps", "2"]) == 0
    assert f"--resume: held-out data as the stopped run recorded in {record}: --dev {dev}" in caplog.text
    resumed = json.loads(record.read_text())
    assert (resumed["dev"], resumed["dev_instances"]) == ([str(dev)], first["dev_instances"])
    assert dev_steps(out) == [1, 2] and steps_done(out) == 2
    dev.rename(tmp_path / "moved.tsv")
    assert main([*inputs, "--resume", "--max-steps", "3"]) == 2
    assert one_line("train-paraphraser") == (
        f"paranmt train-paraphraser: configuration error: --resume: the held-out data of the stopped run (--dev "
        f"{dev}, recorded in {record}) is gone: {dev} not found; give --dev / --dev-sentences again")
    record.write_text(json.dumps({key: value for key, value in resumed.items()
                                  if key not in ("dev", "dev_sentences")}))        # as an older version wrote it
    caplog.clear()
    assert main([*inputs, "--resume", "--max-steps", "3"]) == 0
    warnings = [r.getMessage() for r in caplog.records if r.levelname == "WARNING" and "held-out" in r.getMessage()]
    assert warnings == [f"--resume: {record} does not record the held-out data of the stopped run (an older "
                        f"version's record; it had {first['dev_instances']} held-out instances); going on without a "
                        f"held-out set: give --dev / --dev-sentences to evaluate on one"]
    assert json.loads(record.read_text())["dev_instances"] == 0 and dev_steps(out) == [1, 2] and steps_done(out) == 3


def test_train_resumes_with_the_saved_settings_and_refuses_a_saved_file_it_cannot_read(pairs, tmp_path, one_line):
    model = tmp_path / "model"
    inputs = ["train", "--train", str(pairs), "--output", str(model)]
    assert main([*inputs, "--encoder", "word", "--dim", "8", "--batch-size", "8", "--megabatch-size", "1",
                 "--margin", "0.7", "--checkpoint-every", "1", "--device", "cpu", "--max-steps", "2"]) == 0
    saved = model / "train_config.json"
    written = saved.read_text()
    for corrupt, problem in (("{not json", f"{saved} is not a readable JSON file (JSONDecodeError: "),
                             (json.dumps({**json.loads(written), "negative_mode": "max"}),
                              "unknown training config key 'negative_mode'")):
        saved.write_text(corrupt)
        assert main([*inputs, "--resume", "--max-steps", "3"]) == 2
        line = one_line("train")
        assert line.startswith(f"paranmt train: configuration error: --resume: cannot continue with the training "
                               f"config the stopped run saved in {saved} ({problem}"), line
        assert line.endswith("repair it, or move it away to resume with the defaults and the flags given")
    saved.write_text(written)
    assert main([*inputs, "--resume", "--max-steps", "3", "--lr", "0.01"]) == 0
    resumed = json.loads(saved.read_text())
    assert (resumed["encoder"], resumed["dim"], resumed["margin"], resumed["lr"], resumed["max_steps"]) == (
        "word", 8, 0.7, 0.01, 3)
    assert json.loads((model / "config.json").read_text())["dim"] == 8 and steps_done(model) == 3


def test_train_nmt_resumes_with_the_recipe_its_work_directory_holds(nmt_recipe, tmp_path):
    """The recipe's inputs are settings: a --resume that names only the work directory reads them from it."""
    work = tmp_path / "work"
    assert main([*nmt_recipe, "--threads", "2"]) == 0
    assert main(["train-nmt", "--work-dir", str(work), "--steps", "data", "--resume"]) == 0
    saved = json.loads((work / "recipe_config.json").read_text())
    assert (saved["threads"], saved["nice"], saved["data"]["inputs"]) == (2, 0, [str(tmp_path / "data")])
    assert main(["train-nmt", "--work-dir", str(work), "--steps", "data", "--resume", "--threads", "1"]) == 0
    assert json.loads((work / "recipe_config.json").read_text())["threads"] == 1


def test_the_saved_settings_are_the_base_the_yaml_and_the_flags_override(tmp_path):
    """load_config: defaults <- mapping (the saved settings) <- YAML <- overrides."""
    yaml_file = tmp_path / "train.yaml"
    yaml_file.write_text("dim: 16\nlr: 0.5\n")
    saved = {**TrainConfig().to_dict(), "dim": 8, "lr": 0.1, "margin": 0.7}
    config = load_config(TrainConfig, str(yaml_file), {"lr": 0.25, "epochs": None}, mapping=saved)
    assert (config.dim, config.lr, config.margin, config.epochs) == (16, 0.25, 0.7, TrainConfig().epochs)
