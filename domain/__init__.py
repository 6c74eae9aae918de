"""Pure game rules: no I/O, no clock, no global randomness.

``domain.core`` holds what every game shares (the Decider shape, the seeded RNG, the hash chain);
``domain.board`` is A Game of Thrones: The Board Game (second edition).
"""
