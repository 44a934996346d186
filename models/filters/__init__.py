"""Pair filters (score() + accept()), quantile helpers, dedup / sampling keys and the filter plan of
`paranmt filter`. Pure Python: no Beam import."""
