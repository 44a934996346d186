"""Evaluation of sentence encoders (STS)."""
