"""`paranmt build` as a new user meets it: an input with no records is one line and exit 2, `build --help` names
every stage."""
import gzip
import subprocess
import sys

import warm

from paranmt.schemas.stages import STAGE_ORDER


def cli(*args: str, cwd=None) -> subprocess.CompletedProcess:
    return warm.run([sys.executable, "-m", "paranmt.pipelines.cli", *args], capture_output=True, text=True,
                    timeout=300, cwd=cwd)


def test_an_empty_input_file_is_one_line_exit_2_before_any_work(tmp_path):
    (tmp_path / "empty.tsv").write_bytes(b"")
    result = cli("build", "--input", str(tmp_path / "empty.tsv"), "--format", "tsv", "--output",
                 str(tmp_path / "out"), "--stages", "read,clean")
    assert result.returncode == 2
    assert [line for line in result.stderr.splitlines() if "apitools" not in line] == [
        f"paranmt build: configuration error: input {str(tmp_path / 'empty.tsv')!r}: the matched file(s) are "
        f"empty: nothing to build"]
    assert not (tmp_path / "out").exists()


def test_an_input_without_records_is_one_line_exit_2(tmp_path):
    """A compressed file with nothing inside (and CzEng 2.0 files of separators only) is found while reading."""
    with gzip.open(tmp_path / "part.gz", "wb"):
        pass
    (tmp_path / "doc.tsv").write_text("\n\n")
    result = cli("build", "--input", str(tmp_path / "part.gz"), "--format", "tsv", "--output", str(tmp_path / "a"),
                 "--stages", "read,clean", "--direct_running_mode", "in_memory")
    assert result.returncode == 2, result.stderr
    assert [line for line in result.stderr.splitlines() if line.startswith("paranmt")] == [
        f"paranmt build: the input {str(tmp_path / 'part.gz')!r} holds no records (its files are empty or hold only "
        f"separators): nothing was written"]
    separators = cli("build", "--input", str(tmp_path / "doc.tsv"), "--format", "czeng20", "--output",
                     str(tmp_path / "b"), "--stages", "read,clean", "--direct_running_mode", "in_memory")
    assert separators.returncode == 2 and "holds no records" in separators.stderr


def test_build_help_names_every_stage():
    result = cli("build", "--help")
    assert result.returncode == 0
    text = " ".join(result.stdout.split())
    assert " -> ".join(STAGE_ORDER) in text and ",".join(STAGE_ORDER) in text


def test_build_help_imports_neither_beam_nor_the_stages():
    """`paranmt build --help` took 3-5 s (18 s on a loaded machine) importing Beam and the stages it only names;
    the build module now imports them where they are used (benchmarks/RESULTS.md, "CLI start-up")."""
    code = ("import sys\nfrom paranmt.pipelines.cli import main\n"
            "try:\n    main(['build', '--help'])\nexcept SystemExit:\n    pass\n"
            "print('LOADED', sorted({m.split('.')[0] for m in sys.modules} & {'apache_beam', 'torch', 'pyarrow', "
            "'sacremoses', 'stanza', 'ctranslate2'}), sorted(m for m in sys.modules if m.startswith("
            "('paranmt.transforms', 'paranmt.models'))))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert "--stages" in result.stdout and result.stdout.splitlines()[-1] == "LOADED [] []"
