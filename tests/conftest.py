"""Shared fixtures: the repository root, the bundled demo sample and the real data in ../shared/data; a fake object
store for the model cache's remote path.

Under pytest-xdist (`make test` runs `-n N`), each worker and every process it starts gets its share of the cores
for the math libraries (torch, OpenMP, MKL, OpenBLAS): N workers each using every core would oversubscribe them.
A value already in the environment is kept."""
import fcntl
import io
import os
import shutil
import sys
from pathlib import Path

import pytest
from apache_beam.io.filesystem import FileMetadata
from apache_beam.io.localfilesystem import LocalFileSystem

WORKERS = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
if WORKERS > 1:
    for variable in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
        os.environ.setdefault(variable, str(max(1, (os.cpu_count() or 1) // WORKERS)))

REPO = Path(__file__).resolve().parents[1]
SHARED_DATA = REPO.parent / "shared" / "data"
sys.path.insert(0, str(REPO / "tests" / "support"))      # `import warm`: the warm launcher (tests/support/warm.py)
import warm  # noqa: E402  (after the thread counts above: its server starts with this environment)


@pytest.fixture(scope="session")
def repo() -> Path:
    return REPO


@pytest.fixture(scope="session")
def shared_data() -> Path:
    if not SHARED_DATA.is_dir():
        pytest.fail(f"the real data folder {SHARED_DATA} is missing (CI puts ../shared beside the clone)")
    return SHARED_DATA


@pytest.fixture(scope="session")
def sample_dir() -> Path:
    return REPO / "data" / "sample"


class ObjectStoreFileSystem(LocalFileSystem):
    """`paranmt-objects://KEY` is the object ROOT/KEY: a real Beam FileSystem that behaves like an object store (no
    directories, listing by prefix, like gs://) over a local folder, so that the model cache's whole copy path
    (transforms/io/model_cache.py: match, exists, open) goes through Beam's FileSystems offline. Every open() is
    appended to OPEN_LOG (one line per open, from any process), and reads of keys ending in TRUNCATE_SUFFIX stop
    after half the object (a broken download)."""
    SCHEME = "paranmt-objects"
    ROOT = ""
    OPEN_LOG = ""
    TRUNCATE_SUFFIX = None

    @classmethod
    def scheme(cls):
        return cls.SCHEME

    def has_dirs(self):
        return False

    def _local(self, url: str) -> str:
        return os.path.join(self.ROOT, url[len(f"{self.SCHEME}://"):])

    def _list(self, prefix):
        for directory, _, files in os.walk(self.ROOT):
            for name in files:
                local = os.path.join(directory, name)
                url = f"{self.SCHEME}://{os.path.relpath(local, self.ROOT)}"
                if url.startswith(prefix):
                    yield FileMetadata(url, os.path.getsize(local), os.path.getmtime(local))

    def exists(self, path):
        return os.path.isfile(self._local(path))

    def metadata(self, path):
        local = self._local(path)
        return FileMetadata(path, os.path.getsize(local), os.path.getmtime(local))

    def open(self, path, mime_type="application/octet-stream", compression_type=None):
        with open(self.OPEN_LOG, "a") as log:
            log.write(f"{os.getpid()} {path}\n")
        handle = open(self._local(path), "rb")
        if self.TRUNCATE_SUFFIX and path.endswith(self.TRUNCATE_SUFFIX):
            data = handle.read(os.path.getsize(self._local(path)) // 2)
            handle.close()
            return io.BytesIO(data)
        return handle


@pytest.fixture
def object_store(tmp_path, monkeypatch) -> type[ObjectStoreFileSystem]:
    """The fake object store (`ObjectStoreFileSystem`, returned): ROOT the empty folder tmp_path/objects, opens logged
    to tmp_path/opens.log, no truncation; the model cache in tmp_path/cache."""
    root = tmp_path / "objects"
    root.mkdir()
    monkeypatch.setattr(ObjectStoreFileSystem, "ROOT", str(root))
    monkeypatch.setattr(ObjectStoreFileSystem, "OPEN_LOG", str(tmp_path / "opens.log"))
    monkeypatch.setattr(ObjectStoreFileSystem, "TRUNCATE_SUFFIX", None)
    monkeypatch.setenv("PARANMT_MODEL_CACHE", str(tmp_path / "cache"))
    return ObjectStoreFileSystem


@pytest.fixture(scope="session")
def bitext(shared_data) -> Path:
    return shared_data / "bitext" / "cs-en"


@pytest.fixture(scope="session")
def paraphrase_pairs() -> Path:
    """200 real paraphrase pairs with their parses (tests/fixtures/paraphrase/SOURCE.txt)."""
    return REPO / "tests" / "fixtures" / "paraphrase" / "pairs.tsv"


@pytest.fixture(scope="session")
def built_once(tmp_path_factory):
    """built_once(name, build) -> the directory `name` that `build(directory)` filled, once per test session. Under
    pytest-xdist the workers share it: the first to ask builds it in the session's folder (above the workers' own)
    while the others wait on its lock, so that an expensive fixture (a trained model, a built corpus) is made once,
    not once per worker. Tests only read it."""
    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent

    def get(name: str, build) -> Path:
        directory, done = root / name, root / f"{name}.done"
        with open(root / f"{name}.lock", "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not done.exists():
                shutil.rmtree(directory, ignore_errors=True)
                directory.mkdir()
                build(directory)
                done.touch()
        return directory

    return get


@pytest.fixture(scope="session")
def tiny_paraphraser(built_once, paraphrase_pairs):
    """tiny_paraphraser(task, arch) -> the directory of a tiny paraphraser of that task (scpn, parse-generator,
    plain) and architecture (scpn, transformers), trained for a few updates on `paraphrase_pairs`
    (models/generation/tiny.py); each is built once per session, on first use. Load it with
    paranmt.models.generation.paraphraser.load_generator."""
    def get(task: str, arch: str) -> Path:
        from paranmt.models.generation.tiny import train_tiny_paraphraser

        return built_once(f"paraphraser-{task}-{arch}",
                          lambda out: train_tiny_paraphraser(task, arch, out, paraphrase_pairs))

    return get


@pytest.fixture(scope="session")
def signal_when():
    """signal_when(argv, ready, signum, setup="") -> (exit code, stderr): run `paranmt ARGV` in its own process
    (after the Python lines `setup`), send it `signum` once `ready()` is true, and wait for it to end. SIGINT raises
    KeyboardInterrupt there as a terminal's Ctrl-C does (a shell starts background jobs with SIGINT ignored).
    A `setup` that stalls the command sleeps in steps of 0.1 s, not in one long sleep: the signal may land on another
    of the process's threads (torch's, grpc's), and Python runs its handler only when the main thread next runs
    bytecode, which one long sleep would put off until it ends."""
    import subprocess
    import sys
    import time

    def run(argv: list[str], ready, signum: int, setup: str = "") -> tuple[int, str]:
        code = ("import signal, sys\nsignal.signal(signal.SIGINT, signal.default_int_handler)\n" + setup +
                "\nfrom paranmt.pipelines.cli import main\nsys.exit(main(sys.argv[1:]))")
        process = warm.popen([sys.executable, "-c", code, *argv], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, start_new_session=True)
        deadline = time.time() + 240
        while not ready() and process.poll() is None and time.time() < deadline:
            time.sleep(0.01)
        assert process.poll() is None, "the command ended before the signal"
        process.send_signal(signum)
        try:
            _, err = process.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()
            pytest.fail("still running 60 s after the signal")
        return process.returncode, err

    return run


@pytest.fixture(scope="session")
def tiny_data_folder(shared_data, tmp_path_factory) -> Path:
    """A folder laid out like ../shared/data with the few files `paranmt paraphrase-data` reads, each holding the
    first two or three of its real rows that make paraphrase pairs (SICK ENTAILMENT >= 4, MRPC quality 1, STS-B
    >= 4) and two SUBJ and CR sentences: ~20 sentences to parse."""
    root = tmp_path_factory.mktemp("tiny-data")
    picks = {"sts/SICK/SICK_train.txt": (True, 3, lambda r: r[4] == "ENTAILMENT" and float(r[3]) >= 4),
             "sts/SICK/SICK_trial.txt": (True, 2, lambda r: r[4] == "ENTAILMENT" and float(r[3]) >= 4),
             "transfer/mrpc-msr-para-train.tsv": (True, 2, lambda r: r[0] == "1"),
             "sts/stsbenchmark/sts-train.csv": (False, 2, lambda r: float(r[4]) >= 4),
             "transfer/subj.tsv": (True, 2, lambda r: True), "transfer/cr.tsv": (True, 2, lambda r: True)}
    for name, (header, count, wanted) in picks.items():
        lines = (shared_data / name).read_text(encoding="utf-8").splitlines(keepends=True)
        rows = [line for line in lines[int(header):] if wanted(line.rstrip("\n").split("\t"))][:count]
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text("".join(lines[:int(header)] + rows), encoding="utf-8")
    return root


@pytest.fixture(scope="session")
def untrained_encoder(built_once, shared_data):
    """untrained_encoder(kind) -> the directory of an untrained 20-d encoder of that kind (`paranmt train --epochs
    0`: its weights as initialized) with the word vocabulary of 2,000 real wmt22 cs-en pairs; each kind is built
    once per session, on first use."""
    def get(kind: str) -> Path:
        import csv
        import gzip

        from paranmt.pipelines.cli import main

        def build(root: Path) -> None:
            with gzip.open(shared_data / "wmt-bt" / "wmt22.cs-en.tsv.gz", "rt", encoding="utf-8") as handle:
                rows = list(csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE))[:2000]
            (root / "pairs.tsv").write_text("".join(f"{r['ref']}\t{r['bt']}\n" for r in rows), encoding="utf-8")
            assert main(["train", "--train", str(root / "pairs.tsv"), "--encoder", kind, "--epochs", "0",
                         "--dim", "20", "--output", str(root / kind)]) == 0

        return built_once(f"untrained-{kind}", build) / kind

    return get
