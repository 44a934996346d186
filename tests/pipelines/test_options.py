"""Local Beam defaults of every pipeline and what the user's own options do to them."""
import os

import pytest

from paranmt.pipelines.runtime.options import pipeline_options


@pytest.mark.parametrize("given, mode, expected", [
    ([], "in_memory", {"runner": "DirectRunner", "direct_running_mode": "in_memory", "direct_num_workers": 1}),
    ([], "multi_processing", {"direct_running_mode": "multi_processing", "direct_num_workers": os.cpu_count()}),
    (["--direct_running_mode", "multi_processing"], "in_memory",
     {"direct_running_mode": "multi_processing", "direct_num_workers": os.cpu_count()}),
    (["--direct_running_mode=in_memory"], "multi_processing",
     {"direct_running_mode": "in_memory", "direct_num_workers": 1}),
    (["--direct_num_workers=3"], "in_memory", {"direct_running_mode": "in_memory", "direct_num_workers": 3}),
])
def test_the_users_options_win_and_in_memory_runs_one_worker(given, mode, expected):
    options = pipeline_options(given, running_mode=mode).get_all_options()
    assert {key: options[key] for key in expected} == expected


def test_another_runner_gets_no_direct_runner_defaults():
    options = pipeline_options(["--runner=DataflowRunner"]).get_all_options()
    # Beam's own defaults (in_memory, 1 worker), not the local multi_processing ones
    assert (options["runner"], options["direct_running_mode"], options["direct_num_workers"]) == \
        ("DataflowRunner", "in_memory", 1)
