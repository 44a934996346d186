"""The core install (`pip install paranmt`, no extras): filter, stats, export and report run on real pairs, and a
command that needs an extra stops with one line naming it.

`make test-core` runs this file in .venv-core, which holds setup.py's install_requires only (PARANMT_CORE_INSTALL=1
says so): the extras' modules are really absent there, as the first test checks. Under `make test` (everything
installed) the same commands run in child processes from which the extras' modules are hidden (a meta-path finder
refusing them, as a missing package does), so both installs run the same checks.
"""
import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq

from paranmt.pipelines.runtime.extras import EXTRAS
from paranmt.schemas import layout

CORE_INSTALL = os.environ.get("PARANMT_CORE_INSTALL") == "1"
EXTRA_MODULES = sorted({module for modules in EXTRAS.values() for module in modules})
LOCAL = ["--runner=DirectRunner", "--direct_running_mode=in_memory", "--direct_num_workers=1"]
CHILD = f"""
import importlib.abc, json, sys
class Missing(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if any(name == m or name.startswith(m + ".") for m in {EXTRA_MODULES!r}):
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
sys.meta_path.insert(0, Missing())
from paranmt.pipelines.cli import main
for argv in json.loads(sys.argv[1]):
    code = main(argv)
    if code:
        sys.exit(code)
"""


def paranmt(*args: str, then: tuple[list[str], ...] = ()) -> subprocess.CompletedProcess:
    """`paranmt ARGS`, then `paranmt` with each argument list of `then` in turn, in one child process without the
    extras' modules (its imports made once); the child stops at the first command that fails, with its exit code."""
    return subprocess.run([sys.executable, "-c", CHILD, json.dumps([list(args), *then])],
                          capture_output=True, text=True, timeout=600)


def test_the_core_install_has_no_extra_and_its_command_runs():
    installed = [m for m in EXTRA_MODULES if importlib.util.find_spec(m.split(".")[0]) is not None
                 and (m.count(".") == 0 or importlib.util.find_spec(m) is not None)]
    assert installed == ([] if CORE_INSTALL else EXTRA_MODULES)
    script = Path(sys.executable).with_name("paranmt")
    result = subprocess.run([str(script), "--help"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and "filter" in result.stdout


def test_filter_stats_export_without_extras(corpus_shards, tmp_path):
    corpus, stats = tmp_path / "paranmt-5m", tmp_path / "stats"
    result = paranmt(
        "filter", "--config", "paranmt-5m", "--tsv", "--input", str(corpus_shards), "--output", str(corpus), *LOCAL,
        then=(["stats", "--input", str(corpus_shards), "--output", str(stats), *LOCAL],
              ["export", "--format", "paranmt-txt", "--input", str(corpus), "--output", str(tmp_path / "p.txt"),
               *LOCAL],
              ["export", "--format", "hf", "--input", str(corpus), "--output", str(tmp_path / "hf"), *LOCAL]))
    assert result.returncode == 0, result.stderr[-3000:]

    rows = [row for path in sorted(corpus.glob("*.parquet")) for row in pq.read_table(path).to_pylist()]
    low, _ = json.loads((corpus / layout.FILTER_REPORT).read_text())["quantile_bounds"]["para_score_quantile"]
    assert rows and all(r["para_score"] >= low and r["ref_len"] <= 30 and r["bt_len"] <= 30 for r in rows)
    lines = (tmp_path / "p.txt").read_text(encoding="utf-8").splitlines()
    assert sorted(line.split("\t")[0] for line in lines) == sorted(" ".join(r["ref"].lower().split()) for r in rows)
    hf_rows = sum(pq.read_metadata(p).num_rows for p in (tmp_path / "hf").rglob("*.parquet"))
    assert hf_rows == len(rows)
    report = json.loads((stats / "stats.json").read_text())
    assert report["corpora"]["all"]["table1"]["rows"] == 4012          # 3000 STS-B + 1000 SICK + 12 SOW-REAP
    assert (stats / "score_histograms.png").read_bytes()[:4] == b"\x89PNG"


def test_commands_that_need_an_extra_name_it(sample_dir, tmp_path):
    for args, extra, module in (
            (["train", "--train", str(sample_dir / "tatoeba-every13th"), "--output", str(tmp_path / "t")],
             "train", "torch"),
            (["mine", "--source", str(sample_dir / "tatoeba-every13th.cs"),
              "--target", str(sample_dir / "tatoeba-every13th.en"), "--output", str(tmp_path / "m")],
             "mine", "torch"),
            (["check-dataflow", "--job-dir", str(tmp_path / "job"), "--input", f"{sample_dir}/*", "--format",
              "moses", "--stages", "read,clean", "--output", "gs://paranmt-demo-bucket/out", "--runner",
              "DataflowRunner", "--project", "paranmt-demo", "--region", "europe-west4", "--temp_location",
              "gs://paranmt-demo-bucket/tmp"], "dataflow", "google.")):
        result = paranmt(*args)
        assert result.returncode == 2, result.stderr[-3000:]
        [line] = result.stderr.strip().splitlines()
        assert line.startswith(f"paranmt {args[0]}: needs {module}") and f"pip install 'paranmt[{extra}]'" in line


def test_report_without_extras(corpus_shards, tmp_path):
    result = paranmt("report", "--input", str(corpus_shards), "--output", str(tmp_path / "r"), "--per-band", "2")
    assert result.returncode == 0, result.stderr[-3000:]
    rows = sum(pq.read_metadata(path).num_rows for path in corpus_shards.glob("*.parquet"))
    assert f"paranmt report: {rows:,} rows of" in result.stdout
    page = (tmp_path / "r" / "index.html").read_text(encoding="utf-8")
    assert f'<section id="build" data-rows="{rows}">' in page and 'id="samples"' in page
