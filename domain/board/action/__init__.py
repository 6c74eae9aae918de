"""The board game's Action phase (BG-ACT-*, BG-RAID-*, BG-MARCH-*, BG-COMBAT-*, BG-CP-*).

Pure domain code, one module per rule family:

* ``state``      -- :class:`ActionState`, the phase's working data inside ``BoardState.action``;
* ``events`` / ``commands`` -- the phase's facts and the players' requests;
* ``emitter``    -- how ``decide`` builds a batch: each event is applied to a working copy at once;
* ``evolve``     -- bookkeeping for the phase's events (no rules);
* ``units`` / ``power`` / ``supply`` / ``transport`` -- unit strengths, the Power Pool, armies, ship
  transport and the adjacency each kind of action uses;
* ``flow``       -- BG-ACT-01/02/03: whose turn it is, one order at a time, and the clean-up;
* ``raids`` / ``marches`` / ``consolidate`` -- the three order steps;
* ``combat`` / ``house_cards`` / ``retreats`` -- BG-COMBAT-* and the 42 House cards;
* ``decisions`` / ``timeouts`` -- pending decisions with legal options and documented defaults;
* ``decider``    -- ``decide_action``/``evolve_action``/``start_action_phase``.
"""
