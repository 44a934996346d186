"""What the commands share and no command owns, below them: only pipelines/cli.py imports a command module, and
nothing here imports one (tests/test_import_graph.py).

    arguments.py    the argument groups several commands add to their parsers
"""
