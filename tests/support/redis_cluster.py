"""A real Redis Cluster on 127.0.0.1 for the tests: three masters, one replica each.

Built from the same ``redis-server`` binary as the embedded Redis (``service/store/embedded_redis.py``),
joined with plain cluster commands (``CLUSTER MEET``, ``ADDSLOTS``, ``REPLICATE``), so no
``redis-cli`` is needed. ``cluster-node-timeout`` is 1 s: a killed master's replica takes over
within a few seconds (:meth:`LocalCluster.kill_master_of`).
"""

from __future__ import annotations

import random
import socket
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

import redis

from service.store import embedded_redis

SLOTS = 16384


def _bindable(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def cluster_port() -> int:
    """A free port whose cluster bus port (+10000) is free too (so at most 55535)."""
    rng = random.Random()
    for _ in range(200):
        port = rng.randrange(20000, 32000)  # below Linux's ephemeral range (32768+): clients don't take it
        if _bindable(port) and _bindable(port + 10000):
            return port
    raise RuntimeError("no free port pair for a Redis Cluster node")


@dataclass
class Node:
    proc: subprocess.Popen
    port: int
    client: redis.Redis = field(init=False)

    def __post_init__(self) -> None:
        self.client = redis.Redis(port=self.port, socket_timeout=2)

    @property
    def node_id(self) -> str:
        return self.client.execute_command("CLUSTER", "MYID").decode()


class LocalCluster:
    def __init__(self, root: Path, masters: int = 3) -> None:
        self.root = root
        self.nodes: list[Node] = []
        for i in range(masters * 2):
            extra = [
                "--cluster-enabled",
                "yes",
                "--cluster-config-file",
                f"nodes-{i}.conf",
                "--cluster-node-timeout",
                "1000",
            ]
            proc, port = embedded_redis.start(root / f"node{i}", cluster_port(), persist=True, extra_args=extra)
            self.nodes.append(Node(proc, port))
        self.masters, self.replicas = self.nodes[:masters], self.nodes[masters:]
        first = self.nodes[0].client
        for n in self.nodes[1:]:
            first.execute_command("CLUSTER", "MEET", "127.0.0.1", n.port)
        per = SLOTS // masters
        for i, m in enumerate(self.masters):
            end = SLOTS if i == masters - 1 else (i + 1) * per
            slots = list(range(i * per, end))
            for k in range(0, len(slots), 1000):
                m.client.execute_command("CLUSTER", "ADDSLOTS", *slots[k : k + 1000])
        self._wait(lambda: all(len(self._known(n)) == len(self.nodes) for n in self.nodes), "nodes to meet")
        for m, r in zip(self.masters, self.replicas):
            master_id = m.node_id
            self._wait(lambda r=r, mid=master_id: mid in self._known(r), "replica to know its master")
            r.client.execute_command("CLUSTER", "REPLICATE", master_id)
        self._wait(self.healthy, "cluster state ok with replicas in sync")

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.masters[0].port}/0"

    @staticmethod
    def _known(n: Node) -> set[str]:
        return {line.split()[0] for line in n.client.execute_command("CLUSTER", "NODES").decode().splitlines()}

    @staticmethod
    def _wait(cond, what: str, timeout: float = 90) -> None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            try:
                if cond():
                    return
            except redis.RedisError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"local Redis Cluster: timed out waiting for {what}")

    def describe(self) -> str:
        """CLUSTER NODES as a live node sees it (for failure messages)."""
        for n in self.alive():
            try:
                return n.client.execute_command("CLUSTER", "NODES").decode()
            except redis.RedisError:
                continue
        return "no live node"

    def alive(self) -> list[Node]:
        return [n for n in self.nodes if n.proc.poll() is None]

    def healthy(self) -> bool:
        """Every live node says ``cluster_state:ok`` and every live master has a connected replica."""
        for n in self.alive():
            if b"cluster_state:ok" not in n.client.execute_command("CLUSTER", "INFO"):
                return False
            info = n.client.info("replication")
            if info["role"] == "master" and info.get("connected_slaves", 0) < 1 and n in self.masters:
                return False
        return True

    def master_of(self, key: str) -> Node:
        node = self._serving(key)
        if node is None:
            raise RuntimeError(f"no master serves the slot of {key}")
        return node

    def _serving(self, key: str) -> Node | None:
        slot = self.alive()[0].client.execute_command("CLUSTER", "KEYSLOT", key)  # nodes[0] may be dead
        for n in self.alive():
            info = n.client.info("replication")
            if info["role"] != "master":
                continue
            for line in n.client.execute_command("CLUSTER", "NODES").decode().splitlines():
                parts = line.split()
                if "myself" in parts[2]:
                    for rng in parts[8:]:
                        lo, _, hi = rng.partition("-")
                        if lo.isdigit() and int(lo) <= slot <= int(hi or lo):
                            return n
        return None

    def kill_master_of(self, key: str) -> float:
        """SIGKILL the master serving ``key``; wait until a replica took over its slots (cluster
        state ok on every live node); returns the seconds that took."""
        victim = self.master_of(key)
        t0 = time.monotonic()
        victim.proc.kill()
        victim.proc.wait(timeout=10)
        self._wait(
            lambda: (
                all(b"cluster_state:ok" in n.client.execute_command("CLUSTER", "INFO") for n in self.alive())
                and (n := self._serving(key)) is not None
                and n.port != victim.port
            ),
            "a replica to take over",
        )
        return time.monotonic() - t0

    def stop(self) -> None:
        for n in self.nodes:
            n.client.close()
            embedded_redis.stop(n.proc)
