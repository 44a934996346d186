"""The shipped multilingual encoder assets/encoder-multi (issue 48): its MANIFEST (languages, files, size), its
cross-lingual STS2017 against the numbers of its MANIFEST.md, retrieval of held-out Spanish-English Tatoeba pairs
through `paranmt eval-xling`, a wmt-bt build whose rows in four languages and scripts all get an xsim (Livonian
under wmt-bt's label `li`), and `paranmt mine` taking that label."""
import gzip
import hashlib
import json
import re

import pandas as pd
import pytest

from paranmt.models.encoders import load_encoder
from paranmt.models.evaluation.sts import evaluate
from paranmt.models.files import manifest_problems
from paranmt.pipelines.cli import main

LANGUAGES = ["ar", "cs", "de", "en", "es", "ha", "he", "is", "ja", "liv", "ru", "tr", "uk", "zh"]


@pytest.fixture(scope="module")
def multi(repo):
    return repo / "assets" / "encoder-multi"


def test_the_manifest_lists_its_languages_and_files(multi):
    manifest = json.loads((multi / "MANIFEST.json").read_text())
    assert manifest["languages"] == LANGUAGES
    assert manifest_problems(multi) == []
    assert sum(entry["bytes"] for entry in manifest["files"]) <= 40 * 2 ** 20
    listed = re.findall(r"\| (\S+) \| [\d,]+ \| ([0-9a-f]{64}) \|", (multi / "MANIFEST.md").read_text())
    assert sorted(file for file, _ in listed) == sorted(entry["path"] for entry in manifest["files"])
    for file, digest in listed:
        assert hashlib.sha256((multi / file).read_bytes()).hexdigest() == digest, file


def test_cross_lingual_sts2017_is_the_manifests(multi, shared_data):
    table = (multi / "MANIFEST.md").read_text()
    encoder = load_encoder(multi)
    for track in ("track2.ar-en", "track4a.es-en", "track6.tr-en"):
        [result], _ = evaluate(encoder.encode, shared_data / "sts", [f"STS2017/{track}"])
        assert f"| {track} | {100 * result.pearson:.1f} |" in table, track


def test_eval_xling_retrieves_held_out_spanish_pairs(multi, shared_data, tmp_path):
    """The first 300 of the 1,000 Tatoeba pairs benchmarks/xling_data.py holds out of the training data (an even
    stride over tatoeba-union)."""
    folder = shared_data / "bitext" / "es-en"
    spanish = (folder / "tatoeba-union.spa").read_text(encoding="utf-8").splitlines()
    english = (folder / "tatoeba-union.eng").read_text(encoding="utf-8").splitlines()
    stride = len(spanish) // 1000
    (tmp_path / "es.txt").write_text("\n".join(spanish[::stride][:300]) + "\n", encoding="utf-8")
    (tmp_path / "en.txt").write_text("\n".join(english[::stride][:300]) + "\n", encoding="utf-8")
    out = tmp_path / "xling"
    assert main(["eval-xling", "--encoder", str(multi), "--source", str(tmp_path / "es.txt"), "--target",
                 str(tmp_path / "en.txt"), "--source-lang", "es", "--target-lang", "en", "--output", str(out)]) == 0
    frame = pd.read_csv(out / "results.csv")
    value = {(r.task, r.setting, r.metric): r.value for r in frame.itertuples()}
    assert value[("retrieval", "es->en margin", "p_at_1")] > 0.8
    assert value[("retrieval", "en->es margin", "p_at_1")] > 0.8


def test_a_wmt_bt_build_gets_an_xsim_for_every_listed_language(multi, shared_data, tmp_path, capsys):
    lines = []
    for name in ("wmt22.ja-en", "wmt23.he-en", "wmt22.uk-en", "wmt22.liv-en"):
        with gzip.open(shared_data / "wmt-bt" / f"{name}.tsv.gz", "rt", encoding="utf-8") as handle:
            head = next(handle)
            lines += [next(handle) for _ in range(5)]
    fields = [line.rstrip("\n").split("\t") for line in lines]
    rotated = [f[:3] + [fields[i - 1 if i % 5 else i + 4][3]] + f[4:] for i, f in enumerate(fields)]
    built = {}
    for name, records in (("aligned", fields), ("misaligned", rotated)):
        path = tmp_path / f"{name}.tsv"
        path.write_text(head + "".join("\t".join(f) + "\n" for f in records), encoding="utf-8")
        out = tmp_path / name
        assert main(["build", "--input", str(path), "--format", "tsv", "--columns",
                     "id=id,cs=source,ref=ref,bt=bt,src_lang=src_lang", "--output", str(out), "--stages",
                     "read,clean,xsim", "--set", f"xsim.encoder={multi}", "--set", "clean.max_length_ratio=0",
                     "--direct_running_mode", "in_memory"]) == 0          # one process: the encoder loads once
        printed = capsys.readouterr().out
        assert "read 20 = written 20 + rejected 0" in printed and "does not cover" not in printed
        built[name] = pd.read_parquet(out)
        # wmt-bt labels Livonian `li`; the MANIFEST lists `liv` (schemas/metadata.py LANGUAGE_ALIASES)
        assert built[name].groupby("src_lang")["xsim"].count().to_dict() == {"he": 5, "ja": 5, "li": 5, "uk": 5}
    # each row's own reference against another segment's of the same language (rotated within each five)
    assert built["aligned"]["xsim"].mean() > built["misaligned"]["xsim"].mean() + 0.1


def test_mine_takes_wmt_bts_livonian_label(multi, shared_data, tmp_path):
    """wmt-bt's `li` (Livonian) is the MANIFEST's `liv`: mine accepts it and names its column by it; an encoder
    listing neither still refuses it."""
    with gzip.open(shared_data / "wmt-bt" / "wmt22.liv-en.tsv.gz", "rt", encoding="utf-8") as handle:
        next(handle)
        fields = [next(handle).rstrip("\n").split("\t") for _ in range(40)]
    (tmp_path / "li.txt").write_text("".join(f[2] + "\n" for f in fields), encoding="utf-8")
    (tmp_path / "en.txt").write_text("".join(f[3] + "\n" for f in fields), encoding="utf-8")
    common = ["--source", str(tmp_path / "li.txt"), "--target", str(tmp_path / "en.txt"), "--source-lang", "li",
              "--target-lang", "en", "--threshold", "0.5"]
    assert main(["mine", "--encoder", str(multi), *common, "--output", str(tmp_path / "mined")]) == 0
    assert pd.read_parquet(tmp_path / "mined" / "mined.parquet").columns.tolist()[:2] == ["li", "en"]
    assert main(["mine", *common, "--output", str(tmp_path / "refused")]) == 2
