"""Fixtures for the encoder tests: the real STS Benchmark dev set."""
import pytest

from paranmt.models.evaluation.sts import discover_datasets


@pytest.fixture(scope="session")
def sts_dev(shared_data):
    """stsbenchmark/sts-dev from ../shared/data/sts (1,500 scored pairs)."""
    [dataset], _ = discover_datasets(shared_data / "sts", ["stsbenchmark/sts-dev"])
    return dataset
