"""Corpus statistics of `paranmt stats` (SPEC §1: lengths, IDF, para score, vocabulary and parse entropy, score
bins, template frequencies). Pure Python: no Beam import."""
