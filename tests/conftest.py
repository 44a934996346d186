"""Shared fixtures: the repository root, the bundled demo sample and the real data in ../shared/data."""
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED_DATA = REPO.parent / "shared" / "data"


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


@pytest.fixture(scope="session")
def bitext(shared_data) -> Path:
    return shared_data / "bitext" / "cs-en"
