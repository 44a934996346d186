"""What the commands share and no command owns, below them: only pipelines/cli.py imports a command module, and
nothing here imports one (tests/test_import_graph.py).

    options.py          the Beam options of every pipeline (local defaults, --runner dask and its flags)
    dask_runner.py      `--runner dask`: Beam's DaskRunner with what paranmt needs of a runner (docs/cluster.md)
    worker_logging.py   the Dask worker plugin that sets up every worker's logging (apart: no Beam import)
    logs.py             the launcher's logging set-up
    watchdog.py         the supervisor of a local pipeline: a dead worker, a stall, Ctrl-C -> one line
    output_lock.py      one build (or shard job) per output directory
    shard_job.py        the scaffolding of filter, export, stats, lexicon and paraphrase on shards: inputs, output
                        checks, the output lock, the supervised pipeline, resume by finished shards, counts
    outputs.py          the output contract of every command that writes (apart from the inputs, --resume /
                        --overwrite, stopped in one line)
    listening.py        the servers of a local run on loopback only (PARANMT_LISTEN_HOST), their artifact service
                        limited to what the job staged
    extras.py           which extra installs what; a missing one is one line naming it
    arguments.py        the argument groups several commands add to their parsers, and flags from config fields
    building/           the jobs of `paranmt build`, one module each (check-dataflow plans with the same)
"""
