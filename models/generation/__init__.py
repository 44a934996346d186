"""Paraphrase generation: syntactically controlled (SCPN) and plain paraphrasers, their training data, training and
loading (`load_generator`). SPEC §2 and §7; docs/paraphrase.md."""

RERANK = ("score", "template", "simile")    # how a paraphrase job's hypotheses are chosen (pipeline.py; torch-free)
ARCHS = ("scpn", "transformers")            # the generators' architectures (scpn.py, hf.py)
