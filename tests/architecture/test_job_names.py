"""Job names are import paths in one place (service/engine/dispatch.py: the engine may not import the
workers above it): each must name a function of the workers, or a job would fail only at run time."""

from __future__ import annotations

import importlib
import inspect

import pytest

from service.engine.dispatch import JOBS


@pytest.mark.parametrize("spec", JOBS, ids=lambda s: s.func)
def test_every_job_name_is_a_worker_function(spec):
    module, _, name = spec.func.rpartition(".")
    assert module.startswith("workers.")
    assert inspect.isfunction(getattr(importlib.import_module(module), name))
