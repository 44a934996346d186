"""Where the servers of a local Beam run listen, and what they serve: this machine's loopback interface only, unless
the user names another in PARANMT_LISTEN_HOST; and no file beyond what the job itself staged.

Why: Beam 2.77's local runners start plaintext, unauthenticated gRPC servers in the launcher, bound to every
interface (`add_insecure_port('[::]:0')`), and Beam has no setting for that address (apache/beam#21087):
- the FnApiRunner's control (with the provision and artifact services), data, state and logging servers, for the
  whole run (fn_api_runner/worker_handlers.py `GrpcServer`);
- one logging server per worker process of `--direct_running_mode multi_processing`, for that worker's life
  (portability/local_job_service.py `SubprocessSdkWorker`);
- the worker pool that the DirectRunner starts while it tries the Prism runner first (worker_pool_main.py
  `BeamFnExternalWorkerPoolServicer`: it starts an SDK harness for whoever asks), stopped when Prism fails; where
  the machine has network, Prism does not fail: Beam downloads its binary (Go, from GitHub) and runs the pipeline in
  it, with servers of its own, outside the watchdog.
Every worker reaches them as `localhost:PORT`, so loopback is all a local run needs; on every interface, anyone who
could reach the machine could talk to them, and the artifact service read any file the user can read (a path or a
`file://` URL in the request) and handed it over.

`listen_locally()` (applied by `pipeline_options`, in the launcher: Beam's worker processes start no server) wraps
`grpc.server` once per process: a server bound to every interface (`[::]` or `0.0.0.0`) listens on `localhost`
instead (127.0.0.1 and ::1, one port), or on PARANMT_LISTEN_HOST as well when the user names an interface
(`0.0.0.0` or `::`: every interface, as Beam would). A server bound to a named address is left as it is. It also
makes the artifact service serve only the artifacts that the environments of the pipeline declare (its staged
dependencies; a local run of paranmt declares none) and those carried inside the request (embedded), refusing any
other file or URL with PERMISSION_DENIED. And it keeps Beam's DirectRunner off Prism (the switch Beam has for that,
`is_interactive`: its interactive runner's DirectRunner skips Prism too), so that a local run is the FnApiRunner
everywhere, never reaches for the network, and starts no worker pool (`--runner PrismRunner`, asked for by name,
still runs Prism). tests/pipelines/test_listening.py lists the sockets of each of these
servers, and of a running build, so a Beam upgrade that changes them fails there.
"""
from __future__ import annotations

import ipaddress
import os
import re
import threading

from paranmt.schemas.cluster import HOST
from paranmt.schemas.errors import ConfigError

LISTEN_VARIABLE = "PARANMT_LISTEN_HOST"
EVERY_INTERFACE = ("[::]", "0.0.0.0")        # the hosts Beam binds its servers to
LOOPBACK = "localhost"                          # grpc binds 127.0.0.1 and ::1 on one port

_declared: set[tuple[str, bytes]] = set()       # (type urn, payload) of every artifact a pipeline's environments name
_lock = threading.Lock()


def listen_host() -> str | None:
    """The interface the user named in PARANMT_LISTEN_HOST (an IP address or a host name of this machine; `0.0.0.0`
    or `::` for every interface), as grpc takes it (an IPv6 address in brackets); None when unset. ConfigError
    for a value that is neither."""
    value = os.environ.get(LISTEN_VARIABLE, "").strip()
    if not value:
        return None
    try:
        address = ipaddress.ip_address(value.strip("[]"))
    except ValueError:
        if not re.fullmatch(HOST, value):
            raise ConfigError(f"{LISTEN_VARIABLE}={value!r} is not an IP address or host name of an interface of "
                              f"this machine (e.g. 127.0.0.1, 10.0.0.5, or 0.0.0.0 for every interface)") from None
        return value
    return f"[{address}]" if address.version == 6 else str(address)


def bound_addresses(address: str) -> list[str]:
    """The addresses a server asked to listen on `address` (`host:port`) listens on: for a host of every
    interface, localhost, and the named interface too (alone, when it names every interface); else `address`."""
    host, _, port = address.rpartition(":")
    if host not in EVERY_INTERFACE:
        return [address]
    named = listen_host()
    if named is None or named == LOOPBACK:
        return [f"{LOOPBACK}:{port}"]
    if named in ("0.0.0.0", "[::]"):
        return [f"{named}:{port}"]
    return [f"{LOOPBACK}:{port}", f"{named}:{port}"]


def listen_locally() -> None:
    """Make every gRPC server this process starts from now on listen as `bound_addresses` says, and the artifact
    service serve only declared artifacts (module docstring). Idempotent; ConfigError for a bad
    PARANMT_LISTEN_HOST."""
    import grpc
    from apache_beam.runners.direct.direct_runner import SwitchingDirectRunner
    from apache_beam.runners.portability import artifact_service
    from apache_beam.runners.portability.fn_api_runner import worker_handlers

    listen_host()
    with _lock:
        if getattr(grpc.server, "paranmt_listening", False):
            return
        create_server = grpc.server

        def server(*args, **kwargs):
            created = create_server(*args, **kwargs)
            add_port = created.add_insecure_port

            def add_insecure_port(address: str) -> int:
                first, *others = bound_addresses(address)
                port = add_port(first)
                for other in others:
                    add_port(f"{other.rpartition(':')[0]}:{port}")
                return port

            created.add_insecure_port = add_insecure_port
            return created

        server.paranmt_listening = True
        grpc.server = server
        SwitchingDirectRunner._is_interactive = True        # what its is_interactive() sets: no Prism first

        manager_init = worker_handlers.WorkerHandlerManager.__init__

        def declare(self, environments, *args, **kwargs):
            with _lock:
                _declared.update((dependency.type_urn, dependency.type_payload)
                                 for environment in environments.values() for dependency in environment.dependencies)
            manager_init(self, environments, *args, **kwargs)

        worker_handlers.WorkerHandlerManager.__init__ = declare

        get_artifact = artifact_service.ArtifactRetrievalService.GetArtifact

        def declared_only(self, request, context=None):
            from apache_beam.portability import common_urns

            artifact = request.artifact
            if artifact.type_urn != common_urns.artifact_types.EMBEDDED.urn and \
                    (artifact.type_urn, artifact.type_payload) not in _declared:
                if context is not None:
                    context.abort(grpc.StatusCode.PERMISSION_DENIED, "not an artifact of this job")
                raise PermissionError("not an artifact of this job")
            yield from get_artifact(self, request, context)

        artifact_service.ArtifactRetrievalService.GetArtifact = declared_only
