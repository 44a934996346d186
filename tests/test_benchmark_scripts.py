"""The scripts of benchmarks/ take their arguments as `paranmt` does: a mistake on the command line (a required flag
or argument missing, a bad choice) or a missing input the project's readers open is one line on stderr
`SCRIPT: configuration error: ...`, exit 2, not argparse's usage block or a traceback (pipelines/cli.py
`CommandLineParser` and `exit_code`). Only the argument errors are run here: each script stops before any work."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest
import warm

REPO = Path(__file__).resolve().parents[1]
SCRIPTS = sorted((REPO / "benchmarks").glob("*.py"))


@pytest.mark.parametrize("argv, words", [
    (["plain_eval.py"], ["the following arguments are required: --input"]),
    (["bench_flat.py", "memry"], ["argument what: invalid choice: 'memry' (did you mean 'memory'?)"]),
    (["bench_langid.py", "--only", "lingau"], ["argument --only: invalid choice: 'lingau' (did you mean 'lingua'?)"]),
    (["bench_hf_translate.py", "--source", "missing.ces"], ["--source missing.ces does not exist"]),
    (["bench_train_limit.py", "--input", "missing.tsv", "--kinds", "lsmt"],
     ["argument --kinds: invalid choice: 'lsmt' (did you mean 'lstm'"]),
    (["bench_train_limit.py", "--input", "missing.tsv"], ["--input missing.tsv does not exist"]),
    (["bench_train_limit.py", "--input", "missing.tsv", "--scpn-encoder-buckets", "16"],
     ["--scpn-encoder-buckets needs --paraphrasers scpn"]),
    (["xsim_calibration.py", "--data", "data", "--languages", "es,fr"],
     ["--languages: assets/encoder-multi lists ar, cs,", "not fr"]),
    (["bench_encoders.py", "suite-table", "--root", "missing"], ["--root missing: not a directory"]),
], ids=["required-flag", "close-choice", "bad-choice", "missing-input", "kind-choice", "missing-pairs",
        "encoder-buckets-alone", "unlisted-language", "missing-root"])
def test_a_benchmark_mistake_is_one_line(argv, words, tmp_path):
    result = warm.run([sys.executable, str(REPO / "benchmarks" / argv[0]), *argv[1:]], cwd=tmp_path,
                      capture_output=True, text=True, timeout=120)
    err = result.stderr.splitlines()
    assert result.returncode == 2 and len(err) == 1 and not result.stdout, result
    assert err[0].startswith(f"{argv[0]}: configuration error: ") and "usage:" not in err[0], err
    assert all(word in err[0] for word in words), err
    assert not any(tmp_path.iterdir())      # stopped before any work


@pytest.mark.parametrize("script", SCRIPTS, ids=[script.name for script in SCRIPTS])
def test_every_benchmark_parses_and_runs_through_the_shared_entry(script):
    """Each script builds its parser as a CommandLineParser and runs its main() through exit_code, so each of
    the twenty says its mistakes as the ones run above do."""
    source = script.read_text(encoding="utf-8")
    assert "argparse.ArgumentParser(" not in source and "CommandLineParser(" in source, script.name
    assert source.rstrip().endswith('if __name__ == "__main__":\n    sys.exit(exit_code(main))'), script.name
