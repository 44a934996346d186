"""The exceptions that end a command with one line (pipelines/cli.py): ConfigError, a user's mistake found before any
work (exit 2), and PipelineStopped, a running pipeline that failed (exit 1)."""
from __future__ import annotations


class ConfigError(ValueError):
    """A configuration problem found before any work starts (one clear message)."""


class PipelineStopped(RuntimeError):
    """A running pipeline failed (a worker's exception, a full disk); the message is the one line the CLI prints
    (exit 1): what stopped, how far the run got, what to do (pipelines/runtime/watchdog.py)."""


class TrainingDiverged(PipelineStopped):
    """A training whose loss or weights stopped being finite numbers (a learning rate too high, usually), stopped
    before a model of NaNs is saved (models/loop.py); the message says what and at which update, and the
    command's stop line (pipelines/runtime/outputs.stops_in_one_line) adds what is kept."""
