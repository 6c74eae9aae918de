"""The seven phases (CG-ROUND-01), one module each, and :mod:`.flow`, which chains them.

Each phase module holds its rules (what is legal, what it produces); :mod:`.flow` alone decides
what comes next, so no phase imports another.
"""
