"""Primitives shared by every game: the Decider contract, errors, the seeded RNG, hashing."""
