"""benchmarks/source_languages.py (P19 Table 5) on the first lines of four real wmt-bt files: a Latin-script source
(Czech) shares more sentencepieces with English than a Japanese one, URIEL's distances come from the bundled
database (none where it has no data: Livonian has no syntactic features), the printed rho is Spearman's over the
written table, the plot is a PNG, and a language the data does not have is one line."""
from __future__ import annotations

import csv
import gzip
import subprocess
import sys
from pathlib import Path

import pytest
import warm
from scipy.stats import spearmanr

REPO = Path(__file__).resolve().parents[1]
SCRIPT = REPO / "benchmarks" / "source_languages.py"
FILES = ("wmt22.cs-en", "wmt22.ja-en", "wmt21.ha-en", "wmt22.liv-en")


@pytest.fixture(scope="module")
def wmt_bt(shared_data, tmp_path_factory) -> Path:
    """The header and first 400 rows of four wmt-bt files, gzipped as the data ships them."""
    folder = tmp_path_factory.mktemp("wmt-bt")
    for name in FILES:
        with gzip.open(shared_data / "wmt-bt" / f"{name}.tsv.gz", "rt", encoding="utf-8") as handle:
            head = [line for _, line in zip(range(401), handle)]
        with gzip.open(folder / f"{name}.tsv.gz", "wt", encoding="utf-8") as handle:
            handle.writelines(head)
    return folder


def run(wmt_bt: Path, output: Path, measure: str) -> subprocess.CompletedProcess:
    return warm.run([sys.executable, str(SCRIPT), "--wmt-bt", str(wmt_bt), "--output", str(output),
                     "--segments", "30", "--sp-vocab", "300", "--measure", measure],
                    capture_output=True, text=True, timeout=600)


def test_overlap_distances_and_correlations(wmt_bt, tmp_path):
    result = run(wmt_bt, tmp_path, "quality=cs:3,ja:1,ha:2,li:4")
    assert result.returncode == 0, result.stderr
    rows = {row["language"]: row for row in csv.DictReader((tmp_path / "languages.tsv").open(), delimiter="\t")}
    assert sorted(rows) == ["cs", "ha", "ja", "li"]
    assert all(row["sources"] == "30" for row in rows.values())
    assert float(rows["cs"]["SP overlap"]) > float(rows["ja"]["SP overlap"]) > 0
    assert rows["li"]["syntactic"] == "nan" and float(rows["li"]["geographic"]) >= 0
    assert 0 < float(rows["cs"]["syntactic"]) < 1 and float(rows["ja"]["genetic"]) == pytest.approx(1.0)
    languages = sorted(rows)
    rho = spearmanr([float(rows[lang]["quality"]) for lang in languages],
                    [float(rows[lang]["SP overlap"]) for lang in languages])[0]
    line = next(line for line in result.stdout.splitlines() if line.startswith("| quality |") and "(p" in line)
    assert line.split("|")[2].strip().startswith(f"{100 * rho:.1f} (p ")
    assert ", n 3)" in line.split("|")[3]              # syntactic: Livonian left out
    assert (tmp_path / "languages.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_language_the_data_lacks_is_one_line(wmt_bt, tmp_path):
    result = run(wmt_bt, tmp_path, "quality=cs:3,xx:1")
    assert result.returncode == 2 and not result.stdout
    assert result.stderr.splitlines() == [("source_languages.py: configuration error: no wmt-bt source language "
                                              "xx (the data has cs, ha, ja, li)")]
