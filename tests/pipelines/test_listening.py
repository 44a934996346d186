"""Nothing a run starts listens beyond this machine, and the artifact service hands out no file the job did not stage
(issue 47, "An open door"): a running build's sockets (DirectRunner multi_processing, a Dask LocalCluster), each
server Beam's local runners start (so that a Beam upgrade that changes them fails here), PARANMT_LISTEN_HOST naming
another interface, and a client with no credentials asking the artifact service for a private file."""
import ipaddress
import os
import signal
import subprocess
import sys
import threading
import time

import psutil
import pytest

from paranmt.pipelines.cli import main
from paranmt.pipelines.runtime.listening import LISTEN_VARIABLE, bound_addresses, listen_locally

from .test_watchdog import DASK, FAULTY_BUILD, MARKED, MULTI, build_args, first_shard, start, stopped


def loopback(ip: str) -> bool:
    address = ipaddress.ip_address(ip)
    return address.is_loopback or bool(getattr(address, "ipv4_mapped", None) and address.ipv4_mapped.is_loopback)


def listening(processes) -> set[tuple[str, int]]:
    """(ip, port) of every TCP socket the processes listen on."""
    found = set()
    for process in processes:
        try:
            connections = process.net_connections(kind="tcp")
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
        found.update((c.laddr.ip, c.laddr.port) for c in connections if c.status == psutil.CONN_LISTEN)
    return found


@pytest.mark.parametrize("runner", [MULTI, DASK], ids=["direct", "dask"])
def test_a_running_build_listens_on_loopback_only(tmp_path, sample_dir, runner):
    """Sampled while the build runs (a stage sleeps on one row, after the first shard is written): every listening
    socket of the launcher and its workers is on 127.0.0.1 / ::1 (Beam's defaults were [::], every interface)."""
    out = tmp_path / "out"
    process = start([sys.executable, str(FAULTY_BUILD), f"sleep-at={MARKED}", *build_args(sample_dir, out), *runner])
    first_shard(process, out)
    tree = [psutil.Process(process.pid), *psutil.Process(process.pid).children(recursive=True)]
    sockets = listening(tree)
    os.killpg(process.pid, signal.SIGTERM)
    code, err, _ = stopped(process, time.time())
    assert code == 143, err
    assert sockets, "the run listens on nothing: the sample missed it"
    assert all(loopback(ip) for ip, _ in sockets), sorted(sockets)


@pytest.fixture
def servers_here():
    """listen_locally() applied in this process; servers_here() -> (ip, port) of its listening sockets."""
    listen_locally()
    return lambda: listening([psutil.Process()])


def grpc_server(worker_manager=None):
    """The FnApiRunner's GrpcServer (control with provision and artifact services, data, state, logging)."""
    from apache_beam.portability.api import beam_provision_api_pb2
    from apache_beam.runners.portability.fn_api_runner import worker_handlers
    from apache_beam.runners.portability.fn_api_runner.fn_runner import ExtendedProvisionInfo

    provision = ExtendedProvisionInfo(beam_provision_api_pb2.ProvisionInfo())
    manager = worker_manager or worker_handlers.WorkerHandlerManager({}, provision)
    return worker_handlers.GrpcServer(manager.state_servicer, provision, manager)


def ports_of(server) -> list[int]:
    return [server.control_port, server.data_port, server.state_port, server.logging_port]


def test_each_server_of_beams_local_runners_listens_on_loopback_only(servers_here, monkeypatch):
    from apache_beam.portability.api import beam_provision_api_pb2
    from apache_beam.runners.portability import local_job_service
    from apache_beam.runners.portability.fn_api_runner.fn_runner import ExtendedProvisionInfo
    from apache_beam.runners.worker.worker_pool_main import BeamFnExternalWorkerPoolServicer

    monkeypatch.delenv(LISTEN_VARIABLE, raising=False)
    server = grpc_server()
    address, pool = BeamFnExternalWorkerPoolServicer.start()
    try:
        ports = [*ports_of(server), int(address.rpartition(":")[2])]
        # a multi_processing worker's logging server lives as long as the worker (here `sleep 3`)
        worker = local_job_service.SubprocessSdkWorker(
            b"sleep 3", "localhost:1", ExtendedProvisionInfo(beam_provision_api_pb2.ProvisionInfo()))
        before = set(servers_here())
        thread = threading.Thread(target=worker.run)
        thread.start()
        time.sleep(1.5)
        sockets = servers_here()
        thread.join()
    finally:
        server.close()
        pool.stop(0)
    logging_ports = {port for _, port in sockets - before}
    assert len(logging_ports) == 1
    ours = [(ip, port) for ip, port in sockets if port in {*ports, *logging_ports}]
    assert {port for _, port in ours} == {*ports, *logging_ports}, sockets
    assert all(loopback(ip) for ip, _ in ours), ours


def test_a_named_interface_is_listened_on_besides_loopback(servers_here, monkeypatch):
    """127.0.0.2 stands for another interface of this machine (the whole 127/8 is local on Linux)."""
    monkeypatch.setenv(LISTEN_VARIABLE, "127.0.0.2")
    server = grpc_server()
    try:
        sockets = servers_here()
    finally:
        server.close()
    for port in ports_of(server):
        assert any(ip.endswith("127.0.0.2") and p == port for ip, p in sockets)
        assert any(ip in ("::1", "127.0.0.1", "::ffff:127.0.0.1") and p == port for ip, p in sockets)
    monkeypatch.setenv(LISTEN_VARIABLE, "0.0.0.0")
    assert bound_addresses("[::]:0") == ["0.0.0.0:0"]
    monkeypatch.setenv(LISTEN_VARIABLE, "::")
    assert bound_addresses("[::]:0") == ["[::]:0"]
    assert bound_addresses("localhost:5") == ["localhost:5"]


def test_a_listen_host_that_is_no_address_is_one_line(tmp_path, sample_dir, monkeypatch, one_line):
    monkeypatch.setenv(LISTEN_VARIABLE, "every interface; rm -rf ~")
    assert main([*build_args(sample_dir, tmp_path / "out")]) == 2
    assert "PARANMT_LISTEN_HOST='every interface; rm -rf ~' is not an IP address or host name" in one_line("build")
    assert not (tmp_path / "out").exists()


def artifact(path: str = "", data: bytes = b""):
    from apache_beam.portability import common_urns
    from apache_beam.portability.api import beam_runner_api_pb2

    if data:
        return beam_runner_api_pb2.ArtifactInformation(
            type_urn=common_urns.artifact_types.EMBEDDED.urn,
            type_payload=beam_runner_api_pb2.EmbeddedFilePayload(data=data).SerializeToString())
    return beam_runner_api_pb2.ArtifactInformation(
        type_urn=common_urns.artifact_types.FILE.urn,
        type_payload=beam_runner_api_pb2.ArtifactFilePayload(path=path).SerializeToString())


def test_the_artifact_service_hands_out_no_file_the_job_did_not_stage(servers_here, tmp_path):
    """The finding: from 127.0.0.1, a client with no credentials read a mode-0600 file through the artifact service
    of the control server. Now it is refused; what the job's environment declares and embedded data are served."""
    import grpc
    from apache_beam.portability.api import (beam_artifact_api_pb2, beam_artifact_api_pb2_grpc,
                                             beam_provision_api_pb2, beam_runner_api_pb2)
    from apache_beam.runners.portability.fn_api_runner import worker_handlers
    from apache_beam.runners.portability.fn_api_runner.fn_runner import ExtendedProvisionInfo

    secret, staged = tmp_path / "secret", tmp_path / "staged.tar.gz"
    secret.write_bytes(b"private key")
    secret.chmod(0o600)
    staged.write_bytes(b"a staged dependency")
    environment = beam_runner_api_pb2.Environment(dependencies=[artifact(str(staged))])
    manager = worker_handlers.WorkerHandlerManager(
        {"env": environment}, ExtendedProvisionInfo(beam_provision_api_pb2.ProvisionInfo()))
    server = grpc_server(manager)
    try:
        with grpc.insecure_channel(f"127.0.0.1:{server.control_port}") as channel:
            stub = beam_artifact_api_pb2_grpc.ArtifactRetrievalServiceStub(channel)

            def get(information) -> bytes:
                request = beam_artifact_api_pb2.GetArtifactRequest(artifact=information)
                return b"".join(chunk.data for chunk in stub.GetArtifact(request, timeout=10))

            with pytest.raises(grpc.RpcError) as refused:
                get(artifact(str(secret)))
            assert refused.value.code() == grpc.StatusCode.PERMISSION_DENIED
            assert get(artifact(str(staged))) == b"a staged dependency"
            assert get(artifact(data=b"inline")) == b"inline"
    finally:
        server.close()


def test_the_direct_runner_runs_the_pipeline_itself_never_prism(monkeypatch):
    """Beam 2.77's DirectRunner tries its Prism runner first: it starts a worker pool on every interface and
    downloads Prism's binary from GitHub (offline it fails and falls back; with network the run went to Prism,
    outside the watchdog). paranmt's local runs go straight to the FnApiRunner."""
    import apache_beam as beam
    from apache_beam.runners.portability import prism_runner
    from apache_beam.runners.worker.worker_pool_main import BeamFnExternalWorkerPoolServicer
    from apache_beam.testing.util import assert_that, equal_to

    from paranmt.pipelines.runtime.options import pipeline_options

    tried = []
    monkeypatch.setattr(prism_runner.PrismRunner, "run_pipeline", lambda *args: tried.append("prism"))
    monkeypatch.setattr(BeamFnExternalWorkerPoolServicer, "start", lambda *a, **k: tried.append("worker pool"))
    with beam.Pipeline(options=pipeline_options(["--direct_running_mode=in_memory"])) as pipeline:
        counted = pipeline | beam.Create([1, 2, 3]) | beam.combiners.Count.Globally()
        assert_that(counted, equal_to([3]))
    assert tried == []


def test_a_local_dask_cluster_listens_on_the_named_interface(monkeypatch):
    """--dask-workers with PARANMT_LISTEN_HOST: the LocalCluster's scheduler and workers on that address (127.0.0.2
    standing for another interface), none on every interface."""
    from paranmt.pipelines.runtime.dask_runner import close, start_client
    from paranmt.pipelines.runtime.options import pipeline_options

    monkeypatch.setenv(LISTEN_VARIABLE, "127.0.0.2")
    client, started = start_client(pipeline_options(["--dask-workers", "1"]))
    try:
        addresses = [started.cluster.scheduler_address, *client.scheduler_info()["workers"]]
        sockets = listening([psutil.Process(), *psutil.Process().children(recursive=True)])
    finally:
        close(client, started)
    assert all(address.startswith("tcp://127.0.0.2:") for address in addresses), addresses
    assert all(loopback(ip) for ip, _ in sockets), sorted(sockets)
