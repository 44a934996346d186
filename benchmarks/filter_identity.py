"""Kept rows of `paranmt filter` per config, saved once and compared later: the check that a faster filter keeps
exactly the rows an earlier version kept (issue 16).

    .venv/bin/python benchmarks/filter_identity.py save    --input SHARDS --dir work/filter_identity/NAME
    .venv/bin/python benchmarks/filter_identity.py compare --input SHARDS --dir work/filter_identity/NAME

`save` runs every config of CONFIGS on SHARDS and writes DIR/<config>.ids (the kept ids, sorted) and
DIR/<config>.report.json (rows in / kept and the per-step counts of the filter report); `compare` runs them again
and exits 1 when any kept id set or step count differs. `fixture --output DIR` writes the test suite's fixture
shards (real STS/SICK/SOW-REAP pairs, tests/pipelines/corpus_tools/conftest.py) as a demo-like input.
"""
from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

import pyarrow.parquet as pq
import yaml

from paranmt.pipelines.cli import CommandLineParser, exit_code
from paranmt.schemas import layout

REPO = Path(__file__).resolve().parents[1]
LENGTH = {"type": "tokens", "min_tokens": 1, "max_tokens": 30, "sides": ["ref", "bt"]}
CONFIGS = {
    "paranmt-5m": "paranmt-5m",
    "simile": "simile",
    "lexicon": "lexicon",
    "length": {"filters": [LENGTH]},
    "length-ratio-dedup": {"filters": [LENGTH, {"type": "length_ratio", "max_ratio": 2}], "dedup": ["pair"],
                           "dedup_normalization": "exact"},
    "every-type": {"filters": [{"type": "english", "sides": ["ref", "bt"]},
                               {"type": "template", "require": "differ"},
                               {"type": "length_ratio", "max_ratio": 1.5},
                               {"type": "range", "column": "bt_score", "min": -1.2},
                               {"type": "quantile", "column": "trigram_overlap", "lower": 0.0, "upper": 0.9}],
                   "dedup": ["bt", "ref"], "dedup_normalization": "normalized"},
}


def kept_ids(directory: Path) -> list[str]:
    return sorted(i for path in layout.local_shards(str(directory)) for i in pq.read_table(path, columns=["id"])
                  .column("id").to_pylist())


def run(config, shards: str, work: Path) -> tuple[list[str], dict]:
    if isinstance(config, dict):
        path = work / "config.yaml"
        path.write_text(yaml.safe_dump(config))
        config = str(path)
    output = work / "out"
    subprocess.run([sys.executable, "-m", "paranmt.pipelines.cli", "filter", "--config", config, "--input", shards,
                    "--output", str(output), "--overwrite"], check=True, stdout=subprocess.DEVNULL)
    report_path = next(p for p in (output / layout.FILTER_REPORT, output / layout.LEGACY_NAMES[layout.FILTER_REPORT])
                       if p.exists())
    report = json.loads(report_path.read_text())
    return kept_ids(output), {"rows_in": report["rows_in"], "rows_kept": report["rows_kept"],
                              "filters": report["filters"]}


def main() -> int:
    parser = CommandLineParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("action", choices=("save", "compare", "fixture"))
    parser.add_argument("--input")
    parser.add_argument("--dir")
    parser.add_argument("--output")
    parser.add_argument("--configs", default=",".join(CONFIGS))
    args = parser.parse_args()
    if args.action == "fixture":
        sys.path.insert(0, str(REPO / "tests" / "pipelines" / "corpus_tools"))
        from conftest import fixture_rows, write_shards  # the test suite's fixture, on the real shared data
        write_shards(fixture_rows(REPO.parent / "shared" / "data"), Path(args.output))
        return 0
    directory = Path(args.dir)
    directory.mkdir(parents=True, exist_ok=True)
    failures = 0
    for name in args.configs.split(","):
        with tempfile.TemporaryDirectory() as work:
            ids, counts = run(CONFIGS[name], args.input, Path(work))
        if args.action == "save":
            (directory / f"{name}.ids").write_text("\n".join(ids) + "\n")
            (directory / f"{name}.report.json").write_text(json.dumps(counts, indent=1))
            print(f"{name}: kept {len(ids)} saved")
            continue
        saved_ids = (directory / f"{name}.ids").read_text().split()
        saved_counts = json.loads((directory / f"{name}.report.json").read_text())
        same = ids == saved_ids and counts == saved_counts
        failures += not same
        print(f"{name}: kept {len(ids)} (saved {len(saved_ids)}): {'identical' if same else 'DIFFERENT'}"
              + ("" if same else f"; only now {len(set(ids) - set(saved_ids))}, only saved "
                                 f"{len(set(saved_ids) - set(ids))}; counts {counts} vs {saved_counts}"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(exit_code(main))
