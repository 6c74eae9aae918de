"""Run a module under cProfile and write the profile when it ends, SIGTERM included.

    python bench/cprofile_run.py OUT.prof MODULE [ARGS...]

Profiling runs between ``SIGUSR1`` (start) and ``SIGUSR2`` (stop and write ``OUT.prof``), so start-up
and set-up are left out; without them the whole run is profiled.

``python -m cProfile -o`` writes nothing when uvicorn ends on SIGTERM: uvicorn re-raises the signal
after its graceful shutdown, and the default action kills the process before cProfile writes. Here
the handler in place before uvicorn starts (uvicorn restores it before re-raising) writes the file.

``CITADEL_PROFILE_CLOCK=cpu`` times with the thread's CPU clock instead of the wall clock: on a busy
machine a wall-clock profile charges the time the process waited for a core to whatever it was
doing then (a socket write that woke the client, mostly); the CPU clock charges only work done.
Its own cost is higher (a system call per timing).
"""

from __future__ import annotations

import cProfile
import os
import runpy
import signal
import sys
import time
from typing import Any


def main() -> None:
    out, module, *args = sys.argv[1:]
    prof = (
        cProfile.Profile(time.thread_time) if os.environ.get("CITADEL_PROFILE_CLOCK") == "cpu" else cProfile.Profile()
    )

    def dump(*_: Any) -> None:
        if not windowed:
            prof.disable()
            prof.dump_stats(out)
        sys.exit(0)

    windowed = False

    def start(*_: Any) -> None:
        nonlocal windowed
        windowed = True
        prof.enable()

    def stop(*_: Any) -> None:
        prof.disable()
        prof.dump_stats(out)

    signal.signal(signal.SIGTERM, dump)
    signal.signal(signal.SIGUSR1, start)
    signal.signal(signal.SIGUSR2, stop)
    sys.argv = [module, *args]
    prof.enable()
    prof.disable()
    try:
        runpy.run_module(module, run_name="__main__", alter_sys=True)
    finally:
        if not windowed:
            prof.dump_stats(out)


if __name__ == "__main__":
    main()
