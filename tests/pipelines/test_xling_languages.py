"""`paranmt eval-xling` and `paranmt mine` on a pair other than Czech-English (issue 48): a small bilingual SP
encoder trained here on real Spanish-English pairs (newstest2012 and 6,000 Tatoeba pairs) with
configs/train/sp-bitext.yaml's objective, evaluated on 300 held-out Tatoeba pairs against a random encoder of the
same vocabulary; the directions and mine's columns are named by --source-lang / --target-lang; an encoder whose
MANIFEST.json lists other languages is refused in one line."""
import pandas as pd
import pytest

from paranmt.pipelines.cli import main


@pytest.fixture(scope="module")
def es_en(shared_data, tmp_path_factory):
    """(trained encoder, random encoder, held-out Spanish file, held-out English file)."""
    folder = shared_data / "bitext" / "es-en"
    root = tmp_path_factory.mktemp("es-en")
    spanish = (folder / "tatoeba-union.spa").read_text(encoding="utf-8").splitlines()
    english = (folder / "tatoeba-union.eng").read_text(encoding="utf-8").splitlines()
    held_out = set(range(0, 55 * 300, 55))
    kept = [i for i in range(len(spanish)) if i not in held_out and spanish[i] not in spanish[::55][:300]][:6000]
    (root / "tatoeba-train.spa").write_text("\n".join(spanish[i] for i in kept) + "\n", encoding="utf-8")
    (root / "tatoeba-train.eng").write_text("\n".join(english[i] for i in kept) + "\n", encoding="utf-8")
    for suffix in ("spa", "eng"):   # the first 1,000 news pairs: sentencepiece's training on all 3,003 took 4 CPU-s
        news = (folder / f"newstest2012.{suffix}").read_text(encoding="utf-8").splitlines()[:1000]
        (root / f"newstest2012-head.{suffix}").write_text("\n".join(news) + "\n", encoding="utf-8")
    train = [str(root / "newstest2012-head"), str(root / "tatoeba-train")]
    common = ["--train", *train, "--suffixes", "eng,spa", "--config", "configs/train/sp-bitext.yaml",
              "--set", "dev_sts_dir=null", "--sp-vocab-size", "2000", "--dim", "64", "--threads", "1"]
    trained, random = root / "trained", root / "random"
    assert main(["train", *common, "--epochs", "2", "--output", str(trained)]) == 0
    assert main(["train", *common, "--epochs", "0", "--sp-model", str(trained / "sp.model"),
                 "--output", str(random)]) == 0
    source, target = root / "heldout.spa", root / "heldout.eng"
    source.write_text("\n".join(spanish[::55][:300]) + "\n", encoding="utf-8")
    target.write_text("\n".join(english[::55][:300]) + "\n", encoding="utf-8")
    return trained, random, source, target


def evaluate(encoder, source, target, output) -> dict:
    assert main(["eval-xling", "--encoder", str(encoder), "--source", str(source), "--target", str(target),
                 "--source-lang", "es", "--target-lang", "en", "--output", str(output)]) == 0
    frame = pd.read_csv(output / "results.csv")
    return {(r.task, r.setting, r.metric): r.value for r in frame.itertuples()}


def test_eval_xling_names_the_directions_and_the_trained_encoder_beats_a_random_one(tmp_path, es_en, capsys):
    trained, random, source, target = es_en
    found = evaluate(trained, source, target, tmp_path / "trained")
    baseline = evaluate(random, source, target, tmp_path / "random")
    for direction in ("es->en", "en->es"):
        for scoring in ("cosine", "margin"):
            key = ("retrieval", f"{direction} {scoring}", "p_at_1")
            assert found[key] > 0.25 and found[key] > baseline[key] + 0.1, (key, found[key], baseline[key])
    assert not any("cs->en" in setting for _, setting, _ in found)
    assert found[("mining", "max best threshold", "f1")] > baseline[("mining", "max best threshold", "f1")]
    assert found[("mining", "max best threshold", "gold")] == 60
    assert "(es-en)" in (tmp_path / "trained" / "summary.md").read_text()
    assert "retrieval\tes->en cosine\tp_at_1" in capsys.readouterr().out


def test_mine_names_its_columns_by_the_languages(tmp_path, es_en):
    trained, _, source, target = es_en
    out = tmp_path / "mined"
    assert main(["mine", "--encoder", str(trained), "--source", str(source), "--target", str(target),
                 "--source-lang", "es", "--target-lang", "en", "--threshold", "1.0", "--output", str(out)]) == 0
    frame = pd.read_parquet(out / "mined.parquet")
    assert frame.columns.tolist() == ["es", "en", "margin", "cos"] and len(frame) > 0


@pytest.mark.parametrize("command", ["eval-xling", "mine"])
@pytest.mark.parametrize("languages, message", [
    (["--source-lang", "es"], "assets/encoder-xling encodes cs, en (its MANIFEST.json), not es: give --encoder DIR "
                              "trained on es-en"),
    (["--source-lang", "en"], "--source-lang and --target-lang are both en"),
    (["--target-lang", "e n"], "--target-lang must be a language code such as en, not 'e n'"),
])
def test_a_language_the_encoder_does_not_list_is_one_line(tmp_path, es_en, capsys, command, languages, message):
    _, _, source, target = es_en
    assert main([command, "--source", str(source), "--target", str(target), *languages,
                 "--output", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "out").exists()
