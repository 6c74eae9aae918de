"""The ability engine: each implemented card's ability as one named class (a module per faction,
plus :mod:`.neutral` for the neutral cards and plots), the registry (:mod:`.registry`) and the
contract every ability follows (:mod:`.base`). The rules reach the abilities only through
:mod:`..current` (constant values) and :mod:`.triggers` (timing points)."""
