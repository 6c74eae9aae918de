"""The board game's Action phase (BG-ACT-*, BG-RAID-*, BG-MARCH-*, BG-COMBAT-*, BG-CP-*).

Pure domain code, one module per rule family (the concepts the phases share -- control, supply,
Power, adjacency and transport, ports, strength, mustering, victory -- live one level up, in
:mod:`domain.board`):

* ``state``      -- :class:`ActionState`, the phase's working data inside ``BoardState.action``;
* ``events`` / ``commands`` -- the phase's facts and the players' requests;
* ``evolve``     -- bookkeeping for the phase's events (no rules);
* ``turns``      -- BG-ACT-01/02/03: whose turn it is, one order at a time, and the step guards;
* ``flow``       -- running the phase: every automatic consequence, and the clean-up (BG-ACT-05);
* ``raids`` / ``marches`` / ``consolidate`` -- the three order steps;
* ``targets``    -- what a march into an area meets (a move, a combat, a neutral force);
* ``sea_orders`` -- MOD-SEA-01/02: Mother of Dragons sea tokens on land leave before any order resolves;
* ``sweeps``     -- upkeep after units move: empty-area orders, ports, enemy Power tokens;
* ``combat`` / ``house_cards`` / ``retreats`` -- BG-COMBAT-* and the 42 House cards;
* ``tides`` / ``tides_events`` -- BG-TIDES-*: the optional Tides of Battle variant and its events;
* ``decisions`` / ``timeouts`` / ``view`` -- pending decisions, documented defaults, what a reader sees;
* ``decider``    -- ``decide_action``/``start_action_phase``.
"""
