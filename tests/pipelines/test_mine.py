"""`paranmt mine` and `paranmt eval-xling` end to end on real newstest2017 sentences with the bilingual encoder;
mined.tsv read back by `paranmt build`."""
import csv
import gzip
import json
import random

import pandas as pd
import pyarrow.parquet as pq
import pytest

from paranmt.pipelines.cli import main
from paranmt.models.mining.calibrate import DENSE_THRESHOLD


@pytest.fixture(scope="module")
def corpora(bitext, tmp_path_factory):
    """200 Czech sentences (gz) and, shuffled, their 200 English translations plus 100 unrelated ones."""
    cs = (bitext / "newstest2017.ces").read_text(encoding="utf-8").splitlines()
    en = (bitext / "newstest2017.eng").read_text(encoding="utf-8").splitlines()
    root = tmp_path_factory.mktemp("corpora")
    source, target = root / "cs.txt.gz", root / "en.txt"
    with gzip.open(source, "wt", encoding="utf-8") as handle:
        handle.write("\n".join(cs[2500:2700] + ["", cs[2500]]) + "\n")       # an empty line and a repeat
    english = en[2500:2700] + en[2800:2900]
    random.Random(1).shuffle(english)
    target.write_text("\n".join(english) + "\n", encoding="utf-8")
    return source, target, dict(zip(cs[2500:2700], en[2500:2700]))


def test_mine_writes_ranked_pairs_that_build_reads(tmp_path, corpora, capsys):
    source, target, gold = corpora
    out = tmp_path / "mined"
    assert main(["mine", "--source", str(source), "--target", str(target), "--output", str(out)]) == 0
    table = pq.read_table(out / "mined.parquet")
    assert table.column_names == ["cs", "en", "margin", "cos"]
    frame = table.to_pandas()
    assert 150 <= len(frame) <= 200
    # every Czech sentence has its translation here: the calibration takes the input as mostly parallel
    assert frame["margin"].is_monotonic_decreasing and (frame["margin"] >= DENSE_THRESHOLD).all()
    correct = sum(gold.get(c) == e for c, e in zip(frame["cs"], frame["en"]))
    assert correct / len(frame) > 0.95
    assert frame["cs"].is_unique and frame["en"].is_unique            # max strategy: one to one
    lines = (out / "mined.tsv").read_text(encoding="utf-8").splitlines()
    assert len(lines) == len(frame) and all(len(line.split("\t")) == 4 for line in lines)
    assert lines[0].split("\t")[:2] == [frame["cs"][0], frame["en"][0]]        # no header line
    tsv = pd.read_csv(out / "mined.tsv", sep="\t", header=None, quoting=csv.QUOTE_NONE)
    assert tsv[2].tolist() == pytest.approx(frame["margin"].tolist(), abs=1e-5)
    summary = json.loads((out / "mine.json").read_text())
    assert summary["threshold"] == DENSE_THRESHOLD and summary["calibration"]["dense"]
    assert summary["source_counts"]["empty"] == 1 and summary["source_counts"]["duplicate"] == 1
    assert summary["mined"] == len(frame) and summary["index"] == "exact"
    assert not list(out.glob(".mine-work-*"))
    assert f"mined {len(frame)} pairs from 200 cs x 300 en" in capsys.readouterr().out

    shards = tmp_path / "shards"
    assert main(["build", "--input", str(out / "mined.tsv"), "--format", "tsv", "--columns", "cs=0,ref=1",
                 "--output", str(shards), "--stages", "read", "--direct_running_mode", "in_memory"]) == 0
    assert f"read {len(frame)} = written {len(frame)} + rejected 0" in capsys.readouterr().out
    built = pd.concat(pd.read_parquet(p) for p in shards.glob("*.parquet"))
    assert sorted(built["cs"]) == sorted(frame["cs"]) and sorted(built["ref"]) == sorted(frame["en"])


def test_mine_strategies_and_hnsw_agree_on_real_sentences(tmp_path, corpora):
    source, target, gold = corpora
    found = {}
    for strategy, index in (("intersection", "exact"), ("forward", "exact"), ("max", "hnsw")):
        out = tmp_path / f"{strategy}-{index}"
        assert main(["mine", "--source", str(source), "--target", str(target), "--output", str(out),
                     "--strategy", strategy, "--index", index, "--threshold", "1.2", "--block-size", "64"]) == 0
        frame = pd.read_parquet(out / "mined.parquet")
        found[strategy] = set(zip(frame["cs"], frame["en"]))
    assert found["intersection"] <= found["forward"]
    assert len(found["max"] & found["forward"]) > 0.9 * len(found["max"])


@pytest.mark.parametrize("change, message", [
    ({"--source": "/no/such/file"}, "is not a file"),
    ({"--k": "0"}, "configuration error: k must be >= 1, not 0"),
    ({"--encoder": "/no/such/encoder"}, "encoder directory /no/such/encoder does not exist"),
])
def test_mine_configuration_errors_are_one_line(tmp_path, corpora, capsys, change, message):
    source, target, _ = corpora
    flags = {"--source": str(source), "--target": str(target), "--output": str(tmp_path / "o"), **change}
    assert main(["mine", *(item for pair in flags.items() for item in pair)]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_eval_xling_writes_results_csv(tmp_path, bitext, capsys):
    cs, en = tmp_path / "cs.txt", tmp_path / "en.txt"
    cs.write_text("\n".join((bitext / "newstest2017.ces").read_text(encoding="utf-8").splitlines()[1500:1800]))
    en.write_text("\n".join((bitext / "newstest2017.eng").read_text(encoding="utf-8").splitlines()[1500:1800]))
    out = tmp_path / "xling"
    assert main(["eval-xling", "--source", str(cs), "--target", str(en), "--output", str(out)]) == 0
    frame = pd.read_csv(out / "results.csv")
    assert frame.columns.tolist() == ["task", "setting", "metric", "value", "n"]
    value = {(r.task, r.setting, r.metric): r.value for r in frame.itertuples()}
    for direction in ("cs->en", "en->cs"):
        assert value[("retrieval", f"{direction} cosine", "p_at_1")] > 0.85
        assert value[("retrieval", f"{direction} margin", "p_at_1")] > 0.85
    assert 1.2 <= value[("mining", "max auto threshold", "threshold")] <= 1.7
    assert value[("mining", "max best threshold", "f1")] >= value[("mining", "max auto threshold", "f1")] > 0.7
    assert value[("mining", "max best threshold", "gold")] == 60
    assert "| retrieval | cs->en cosine | p_at_1 |" in (out / "summary.md").read_text()
    assert "retrieval\tcs->en cosine\tp_at_1" in capsys.readouterr().out
    en.write_text("only one line\n")
    assert main(["eval-xling", "--source", str(cs), "--target", str(en), "--output", str(out)]) == 2
    assert f"--output {out} already holds the results of an earlier run (2 file(s)); give --overwrite" in \
        capsys.readouterr().err
    assert main(["eval-xling", "--source", str(cs), "--target", str(en), "--output", str(out), "--overwrite"]) == 2
    assert "lines but" in capsys.readouterr().err


def mining_counts(mined, gold: set, threshold: float) -> tuple[int, int, int]:
    """(correct, mined, gold) of the pairs with margin >= threshold."""
    keep = mined.margin >= threshold
    kept = set(zip(mined.source[keep].tolist(), mined.target[keep].tolist()))
    return len(kept & gold), len(kept), len(gold)


def pooled_f1(counts) -> float:
    correct, mined, gold = map(sum, zip(*counts))
    return 2 * correct / (mined + gold)


@pytest.mark.parametrize("share", [0.02, 0.3])
def test_the_calibrated_threshold_holds_f1_from_few_to_many_translations(bitext, share):
    """Issue 24 item 11: held-out newstest2017 lines 1501-3005 (the calibration constant was chosen on lines 1-1500):
    2,000 Czech and 2,000 English sentences of which 2% or 30% are translations of each other (the rest: Czech-only
    and English-only newstest2017 lines, then newstest2012 Czech and newstest2013 English sentences), three draws.
    The fixed 1.45 lost up to 12 F1 points at 30% on such data; the calibrated threshold stays within 0.05 of the
    F1 of the best single threshold (chosen knowing the answers) at both ends, pooled over the draws."""
    import numpy as np

    from paranmt.models.encoders import load_encoder
    from paranmt.models.mining.calibrate import calibrate_threshold
    from paranmt.models.mining.corpus import normalize_rows
    from paranmt.models.mining.margin import mine_vectors

    cs = (bitext / "newstest2017.ces").read_text(encoding="utf-8").splitlines()[1500:]
    en = (bitext / "newstest2017.eng").read_text(encoding="utf-8").splitlines()[1500:]
    extra_cs = (bitext / "newstest2012.ces").read_text(encoding="utf-8").splitlines()
    extra_en = (bitext / "newstest2013.eng").read_text(encoding="utf-8").splitlines()
    encoder = load_encoder("assets/encoder-xling")
    vectors = {text: vector for texts in (cs, en, extra_cs, extra_en)
               for text, vector in zip(texts, normalize_rows(encoder.encode(texts, 512)))}
    size, gold_count = 2000, round(share * 2000)
    runs, thresholds = [], np.arange(1.0, 2.0, 0.01)
    for seed in (1, 2, 3):
        order = np.random.default_rng(seed).permutation(len(cs)).tolist()
        gold, rest = order[:gold_count], order[gold_count:]
        sources = ([cs[i] for i in gold + rest[: len(rest) // 2]] + extra_cs)[:size]
        targets = ([en[i] for i in gold + rest[len(rest) // 2:]] + extra_en)[:size]
        mined = mine_vectors(np.stack([vectors[t] for t in sources]), np.stack([vectors[t] for t in targets]))
        calibration = calibrate_threshold(mined.margin)
        assert not calibration.dense
        runs.append((mined, {(i, i) for i in range(gold_count)}, calibration.threshold))
    calibrated = pooled_f1(mining_counts(mined, gold, chosen) for mined, gold, chosen in runs)
    best = max(pooled_f1(mining_counts(mined, gold, t) for mined, gold, _ in runs) for t in thresholds)
    fixed = pooled_f1(mining_counts(mined, gold, 1.45) for mined, gold, _ in runs)
    print(f"share {share}: calibrated F1 {calibrated:.3f}, best threshold {best:.3f}, fixed 1.45 {fixed:.3f}")
    assert calibrated >= best - 0.05, (calibrated, best, fixed)
    if share == 0.3:
        assert calibrated >= fixed + 0.03
