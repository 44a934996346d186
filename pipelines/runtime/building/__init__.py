"""The jobs of `paranmt build` (the command: pipelines/build.py), one module each; `paranmt check-dataflow` plans and
composes its job with the same `plan` and `graph`:

    arguments.py    what the declarations of build and check-dataflow share (`BUILD_ARGUMENTS`: flags, output)
    plan.py         validate and plan before any work: models checked and identified, input matched and planned,
                    stages built (`plan_build` -> BuildPlan)
    output.py       the output directory before any work: lock, --resume / --overwrite, the same config and the
                    same input files as the run that wrote it (`prepare_output`, `check_same_input`)
    graph.py        the Beam graph: Read -> stages -> Write, one element per shard (`build_pipeline`)
    progress.py     the launcher's progress thread (shards, pairs/s, ETA, what each worker does)
    supervise.py    the run under the watchdog: a dead worker, a stall, Ctrl-C -> one line (`run_supervised`)
    report.py       manifest.json, metrics.json and the accounting line (`report_build`)

Beam, the transforms and the models are imported inside the functions that use them, so that importing these
modules (`paranmt build --help`, `paranmt check-dataflow --help`) costs no more than the config
(benchmarks/RESULTS.md, "CLI start-up": 17.7 s -> 0.97 s on a loaded machine; 3-5 s idle before).
"""
