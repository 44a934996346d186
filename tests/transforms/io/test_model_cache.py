"""transforms/io/model_cache.py: remote models copied once per machine through Beam FileSystems.

The "remote" is the fake object store of tests/conftest.py (`object_store`: a real Beam FileSystem registered for
the scheme `paranmt-objects://` that behaves like an object store and keeps its objects in a temporary directory),
so the whole copy path (match, exists, open) goes through Beam's FileSystems offline.
"""
import multiprocessing
import shutil
from pathlib import Path

import pytest

from paranmt.schemas.metadata import model_identity
from paranmt.schemas.paths import is_remote
from paranmt.transforms.io.model_cache import (ModelCacheError, cache_entry_name, local_model_path,
                                               remote_files)

REPO = Path(__file__).resolve().parents[3]
SCHEME = "paranmt-objects"                    # the fake object store's (tests/conftest.py)


@pytest.fixture
def store(object_store):
    """An object store holding the shipped parser model under `models/parser-en/` and one single-file model."""
    root = Path(object_store.ROOT)
    shutil.copytree(REPO / "assets" / "parser-en", root / "models" / "parser-en")
    shutil.copy(REPO / "assets" / "parser-en" / "parser.json", root / "models" / "settings.json")
    return root


def opens(object_store) -> list[str]:
    log = Path(object_store.OPEN_LOG)
    return log.read_text().splitlines() if log.exists() else []


def test_local_paths_are_returned_as_they_are(tmp_path):
    assert local_model_path("assets/nmt-cs-en") == "assets/nmt-cs-en"
    assert local_model_path(str(tmp_path)) == str(tmp_path)
    assert local_model_path(f"file://{tmp_path}") == str(tmp_path)
    assert not is_remote("/abs/path") and not is_remote("file:///x") and is_remote("gs://b/m")
    assert not (tmp_path / "cache").exists()


def test_a_remote_directory_is_copied_once_and_identical(store, object_store, tmp_path):
    url = f"{SCHEME}://models/parser-en"
    local = local_model_path(url)
    assert Path(local).parent == tmp_path / "cache"
    assert Path(local).name == cache_entry_name(url) and Path(local).name.endswith("-parser-en")
    assert model_identity(local)["sha256"] == model_identity(str(store / "models" / "parser-en"))["sha256"]
    first = opens(object_store)
    assert len(first) == len(list((store / "models" / "parser-en").iterdir()))
    assert local_model_path(url + "/") == local          # same entry, nothing copied again
    assert opens(object_store) == first
    assert not list((tmp_path / "cache").glob("*.partial-*"))


def test_a_single_file_model_keeps_its_name(store):
    local = local_model_path(f"{SCHEME}://models/settings.json")
    assert Path(local).is_file() and local.endswith("-settings.json")
    assert Path(local).read_bytes() == (store / "models" / "settings.json").read_bytes()
    # `models/settings` is a prefix of `models/settings.json` but neither a file nor a directory
    with pytest.raises(ModelCacheError, match="no model at"):
        local_model_path(f"{SCHEME}://models/settings")


def test_a_missing_model_is_a_clear_error(store):
    with pytest.raises(ModelCacheError, match=f"no model at {SCHEME}://models/nmt-cs-en"):
        local_model_path(f"{SCHEME}://models/nmt-cs-en")


def test_an_incomplete_copy_is_never_published(store, object_store, tmp_path, monkeypatch):
    url = f"{SCHEME}://models/parser-en"
    monkeypatch.setattr(object_store, "TRUNCATE_SUFFIX", "pos.pt")
    with pytest.raises(ModelCacheError, match="pos.pt is incomplete"):
        local_model_path(url)
    cache = tmp_path / "cache"
    assert not (cache / cache_entry_name(url)).exists()
    assert not list(cache.glob("*.partial-*"))
    monkeypatch.setattr(object_store, "TRUNCATE_SUFFIX", None)
    assert model_identity(local_model_path(url))["sha256"] == model_identity(str(store / "models" / "parser-en"))[
        "sha256"]


def test_a_stale_partial_copy_is_replaced(store, tmp_path):
    url = f"{SCHEME}://models/parser-en"
    stale = tmp_path / "cache" / f"{cache_entry_name(url)}.partial-999-dead"
    stale.mkdir(parents=True)
    (stale / "pos.pt").write_bytes(b"half")
    local = local_model_path(url)
    assert not stale.exists()
    assert (Path(local) / "pos.pt").stat().st_size == (store / "models" / "parser-en" / "pos.pt").stat().st_size


def test_the_listing_is_relative_to_the_model(store):
    files = remote_files(f"{SCHEME}://models/parser-en")
    assert sorted(relative for _, relative, _ in files) == sorted(p.name for p in (store / "models" /
                                                                                      "parser-en").iterdir())
    assert all(size > 0 for _, _, size in files)


def _resolve(url: str, queue) -> None:
    queue.put(local_model_path(url))


def test_parallel_processes_copy_once(store, object_store):
    """Four processes (as four SDK harness processes on one VM) ask for the same model at the same moment."""
    url = f"{SCHEME}://models/parser-en"
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    workers = [context.Process(target=_resolve, args=(url, queue)) for _ in range(4)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(60)
    assert all(worker.exitcode == 0 for worker in workers)
    paths = {queue.get(timeout=5) for _ in workers}
    assert len(paths) == 1
    number_of_files = len(list((store / "models" / "parser-en").iterdir()))
    assert len(opens(object_store)) == number_of_files            # one copy in total, not one per process
    assert model_identity(paths.pop())["sha256"] == model_identity(str(store / "models" / "parser-en"))["sha256"]
