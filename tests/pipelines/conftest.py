"""Fixtures of the command tests."""
import pytest


@pytest.fixture
def one_line(capsys):
    """one_line(command) -> the line a command ended with on stderr: its last line and the only one starting
    `paranmt COMMAND:`, with no traceback before it (what every refusal, stop and error of a command must be)."""
    def get(command: str) -> str:
        err = capsys.readouterr().err.strip()
        assert "Traceback" not in err, err
        lines = [line for line in err.splitlines() if line.startswith(f"paranmt {command}:")]
        assert len(lines) == 1 and err.splitlines()[-1] == lines[0], err
        return lines[0]
    return get
