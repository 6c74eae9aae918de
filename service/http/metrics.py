"""Tiny in-process Prometheus metrics (counters and one latency histogram), no dependency needed."""

from __future__ import annotations

from collections import Counter


class LabelledCounter:
    def __init__(self, name: str, help: str, label: str):
        self.name, self.help, self.label = name, help, label
        self.values: Counter[str] = Counter()

    def inc(self, value: str, n: int = 1) -> None:
        self.values[value] += n

    def render(self) -> list[str]:
        out = [f"# HELP {self.name} {self.help}", f"# TYPE {self.name} counter"]
        out += [f'{self.name}{{{self.label}="{k}"}} {v}' for k, v in sorted(self.values.items())]
        return out


class Histogram:
    BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0)

    def __init__(self, name: str, help: str):
        self.name, self.help = name, help
        self.counts = [0] * (len(self.BUCKETS) + 1)
        self.sum = 0.0

    def observe(self, seconds: float) -> None:
        self.sum += seconds
        for i, b in enumerate(self.BUCKETS):
            if seconds <= b:
                self.counts[i] += 1
                return
        self.counts[-1] += 1

    def render(self) -> list[str]:
        out = [f"# HELP {self.name} {self.help}", f"# TYPE {self.name} histogram"]
        acc = 0
        for b, c in zip(self.BUCKETS, self.counts):
            acc += c
            out.append(f'{self.name}_bucket{{le="{b}"}} {acc}')
        acc += self.counts[-1]
        out += [f'{self.name}_bucket{{le="+Inf"}} {acc}', f"{self.name}_sum {self.sum}", f"{self.name}_count {acc}"]
        return out


class Metrics:
    """The service's metrics: what ``GET /metrics`` renders."""

    def __init__(self) -> None:
        self.commands = LabelledCounter("citadel_commands_accepted_total", "Commands accepted, by type.", "type")
        self.rejected = LabelledCounter(
            "citadel_commands_rejected_total", "Commands rejected, by problem code.", "code"
        )
        self.latency = Histogram("citadel_command_seconds", "Time to accept a player command.")
        self.command_ways = LabelledCounter(
            "citadel_command_requests_total",
            "Seat command requests by the way they were answered: the command lane or the framework's route.",
            "way",
        )

    def render(self) -> str:
        """The Prometheus text format."""
        parts = self.commands.render() + self.rejected.render() + self.latency.render() + self.command_ways.render()
        return "\n".join(parts) + "\n"


METRICS = Metrics()
"""This process's metrics."""
COMMANDS = METRICS.commands
REJECTED = METRICS.rejected
LATENCY = METRICS.latency
COMMAND_WAYS = METRICS.command_ways


def render() -> str:
    return METRICS.render()
