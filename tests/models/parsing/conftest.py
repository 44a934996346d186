"""The shipped parser (assets/parser-en), loaded once for all parsing tests."""
import pytest

from paranmt.models.parsing.parser import StanzaParser


@pytest.fixture(scope="session")
def shipped_parser(repo):
    return StanzaParser(str(repo / "assets" / "parser-en"), device="cpu", batch_size=16)
