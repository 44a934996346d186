"""The corpus report of `paranmt report` (pipelines/report.py): streaming collectors, seeded samples and bands,
differing words, the HTML page and the ratings table; pure Python, no Beam."""
