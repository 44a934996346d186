"""cs->en neural machine translation: the training recipe and the `Translator` backends (no Beam inside)."""
