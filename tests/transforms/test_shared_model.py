"""The model server that the processes of a machine share (`translate.share_across_processes`, Beam's
MultiProcessShared; issue 47, "An open door"): its files in a private folder of the run, a secret key of its own, a
client with Beam's public key b'mps' refused; a folder another user could enter is never used. On CPU, with the tiny
NMT model, through the stage table and the one adapter as a build runs it, and in a real multi-process build."""
import dataclasses
import multiprocessing
import os
import shutil
import stat
import tempfile
import threading
import time
from pathlib import Path

import pandas as pd
import pytest
from apache_beam.utils import multi_process_shared

from paranmt.schemas.build_config import BuildConfig, TranslateConfig
from paranmt.schemas.records import empty_row
from paranmt.transforms.heartbeat import DIR_VARIABLE
from paranmt.transforms.shared_model import FOLDER, KEY_FILE, MACHINE_FOLDER, shared_folder, shared_key

REPO = Path(__file__).resolve().parents[2]
TINY = REPO / "tests" / "fixtures" / "nmt-tiny"


def mode(path) -> int:
    return stat.S_IMODE(os.lstat(path).st_mode)


def tiny_config(share: bool) -> TranslateConfig:
    return TranslateConfig(model=str(TINY), beam=2, nbest=0, device="cpu", threads=1, batch_tokens=300,
                           group_size=64, share_across_processes=share)


@pytest.fixture
def run_folder(monkeypatch):
    """A run's folder as a launcher makes it (tempfile.mkdtemp, mode 0700), named to the stage's processes."""
    folder = tempfile.mkdtemp(prefix="paranmt-test-run-")
    monkeypatch.setenv(DIR_VARIABLE, folder)
    yield Path(folder)
    shutil.rmtree(folder, ignore_errors=True)


def test_the_shared_model_server_lives_in_the_run_folder_and_refuses_beams_public_key(bitext, run_folder,
                                                                                   stage_on_beam):
    cs = (bitext / "newstest2016.ces").read_text(encoding="utf-8").splitlines()[:8]
    shards = {"a": [empty_row(f"nt16:{i}", "newstest2016", line, "ref") for i, line in enumerate(cs)]}
    outputs, counters = stage_on_beam("translate", BuildConfig(translate=tiny_config(share=True)), shards)
    alone, _ = stage_on_beam("translate", BuildConfig(translate=tiny_config(share=False)), shards)
    assert [row["bt"] for row in outputs["a"].rows] == [row["bt"] for row in alone["a"].rows]
    assert counters["sentences"] == 8 and all(row["bt"] for row in outputs["a"].rows)

    folder = run_folder / FOLDER
    [address_file] = folder.glob("*.address")
    assert mode(run_folder) == mode(folder) == 0o700 and mode(folder / KEY_FILE) == 0o600
    key = (folder / KEY_FILE).read_bytes()
    assert multi_process_shared.AUTH_KEY == key and key != b"mps" and len(key) == 32
    host, port = address_file.read_text().split(":")
    assert host in ("localhost", "127.0.0.1")

    beams_key = multi_process_shared._SingletonRegistrar(address=(host, int(port)), authkey=b"mps")
    with pytest.raises(multiprocessing.AuthenticationError):
        beams_key.connect()
    multi_process_shared._SingletonRegistrar(address=(host, int(port)), authkey=key).connect()


def test_the_key_is_made_once_per_folder_and_kept(tmp_path):
    folder = tmp_path / "shared"
    folder.mkdir(mode=0o700)
    first = shared_key(str(folder))
    assert shared_key(str(folder)) == first and len(first) == 32
    assert sorted(p.name for p in folder.iterdir()) == [KEY_FILE] and mode(folder / KEY_FILE) == 0o600
    other = tmp_path / "other"
    other.mkdir(mode=0o700)
    assert shared_key(str(other)) != first


def machine_folder(tmp_path, monkeypatch) -> Path:
    """The folder used where no launcher names a run's folder, in a temporary directory of this test."""
    monkeypatch.delenv(DIR_VARIABLE, raising=False)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    return tmp_path / MACHINE_FOLDER.format(uid=os.geteuid())


def test_without_a_run_folder_the_users_private_folder_of_the_machine_is_made(tmp_path, monkeypatch):
    expected = machine_folder(tmp_path, monkeypatch)
    assert shared_folder() == str(expected) and mode(expected) == 0o700
    assert shared_folder() == str(expected)


@pytest.mark.parametrize("make", ["open to others", "a symbolic link", "a file"])
def test_a_folder_others_could_enter_or_swap_is_refused(tmp_path, monkeypatch, make):
    """Another user who made the machine's folder first (here: open to others, or a link to a folder of theirs)
    gets no file of ours and no key: PermissionError naming it, before any server starts."""
    expected = machine_folder(tmp_path, monkeypatch)
    if make == "open to others":
        expected.mkdir()
        expected.chmod(0o777)
    elif make == "a symbolic link":
        (tmp_path / "theirs").mkdir(mode=0o700)
        expected.symlink_to(tmp_path / "theirs")
    else:
        expected.write_text("")
    with pytest.raises(PermissionError, match=f"{expected} is not a private folder of this user.*"
                                              "translate.share_across_processes: false"):
        shared_folder()
    assert not (tmp_path / "theirs" / KEY_FILE).exists()


def test_a_run_folder_open_to_others_is_refused(tmp_path, monkeypatch):
    (tmp_path / "run").mkdir()
    (tmp_path / "run").chmod(0o755)
    monkeypatch.setenv(DIR_VARIABLE, str(tmp_path / "run"))
    with pytest.raises(PermissionError, match="is not a private folder"):
        shared_folder()
    assert not (tmp_path / "run" / FOLDER).exists()


def test_a_multi_process_build_shares_the_model_through_its_run_folder(tmp_path, sample_dir):
    """`paranmt build` with two worker processes and the model shared: while it runs, the server's address file is
    in `shared-models/` of the run's own folder (0700, named after the launcher's pid), never in the temporary
    directory itself; every row is translated, as without sharing."""
    from paranmt.pipelines.cli import main

    source = tmp_path / "in"
    source.mkdir()
    for side in ("cs", "en"):
        lines = (sample_dir / f"tatoeba-every13th.{side}").read_text(encoding="utf-8").splitlines()[:40]
        (source / f"tatoeba-40.{side}").write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    temporary = Path(tempfile.gettempdir())
    seen, done = {}, threading.Event()

    def watch():
        while not done.is_set():
            for path in temporary.glob(f"paranmt-heartbeats-{os.getpid()}-*/{FOLDER}/*.address"):
                seen.setdefault(path, (mode(path.parent.parent), mode(path.parent)))
            time.sleep(0.01)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    def build(output: Path, share: bool, *runner: str) -> pd.DataFrame:
        assert main(["build", "--input", str(source / "*"), "--format", "moses", "--output", str(output),
                     "--stages", "read,clean,translate", "--shard-rows", "10", "--set", f"translate.model={TINY}",
                     "--set", "translate.threads=1", "--set", "translate.device=cpu",
                     "--set", f"translate.share_across_processes={str(share).lower()}", *runner]) == 0
        return pd.concat(pd.read_parquet(p) for p in sorted(output.glob("*.parquet")))

    try:
        shared = build(tmp_path / "shared", True, "--runner=DirectRunner", "--direct_running_mode=multi_processing",
                       "--direct_num_workers=2")
    finally:
        done.set()
        watcher.join()
    assert len(seen) == 1 and list(seen.values()) == [(0o700, 0o700)], seen
    assert not list(temporary.glob(f"paranmt-heartbeats-{os.getpid()}-*")), "the run's folder outlived it"
    assert len(shared) == 40 and shared["bt"].str.len().min() > 0
    alone = build(tmp_path / "alone", False, "--runner=DirectRunner", "--direct_running_mode=in_memory")
    assert dict(zip(shared["id"], shared["bt"])) == dict(zip(alone["id"], alone["bt"]))
