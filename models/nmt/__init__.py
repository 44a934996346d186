"""cs->en neural machine translation: the training recipe and the `Translator` backends (no Beam inside)."""

from pathlib import Path


def paranmt_mrt_dir() -> Path:
    """The fairseq user directory holding the `mrt` criterion (`fairseq-train --user-dir`)."""
    return Path(__file__).resolve().parent / "paranmt_mrt"
