"""The paraphrase lexicon of `paranmt lexicon` (SPEC §4: cross-sentence PMI, adjusted PMI, SimLex-999
evaluation). Pure Python: no Beam import."""
