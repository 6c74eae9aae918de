"""The command lines of the service's processes: the one place that says how the API, an RQ worker
and the projector are started. ``citadel run`` (``service/cli.py``), the test suite's process
fixtures and the benchmarks all start them from here, so none drifts from what production runs.
Only the standard library: importing this builds no app and opens no connection."""

from __future__ import annotations

import sys

API_SERVER = "service.http.server"
WORKER_CLASS = "workers.worker.CitadelWorker"


def api_command(host: str, port: int, workers: int = 1) -> list[str]:
    """uvicorn serving the Litestar app (``workers`` processes; ``service/http/server.py``)."""
    return [
        sys.executable,
        "-m",
        API_SERVER,
        "--host",
        host,
        "--port",
        str(port),
        "--workers",
        str(workers),
    ]


def worker_command(queue_url: str, queue: str) -> list[str]:
    """An RQ worker of Citadel's worker class (it sweeps for due deadlines; no RQ scheduler)."""
    return [sys.executable, "-m", "rq.cli", "worker", "--worker-class", WORKER_CLASS, "-u", queue_url, queue]


def projector_command() -> list[str]:
    return [sys.executable, "-m", "projections.projector"]
