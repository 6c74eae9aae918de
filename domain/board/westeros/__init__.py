"""The board game's Westeros phase and wildling attacks (BG-ROUND-*, BG-WEST-*, BG-WCARD-*,
BG-SUPPLY-03/04, BG-MUSTER-06, BG-COK-*, BG-WILD-*).

Pure domain code, one module per rule family (the concepts the phases share -- control, supply,
Power, ports, mustering, victory -- live one level up, in :mod:`domain.board`):

* ``state``      -- :class:`WesterosState`, the phase's working data inside ``BoardState.westeros``;
* ``events`` / ``commands`` -- the phase's facts and the players' requests;
* ``evolve``     -- bookkeeping for the phase's events (no rules);
* ``steps``      -- opening a Westeros decision (``StepBegan`` with a deadline);
* ``deck``       -- BG-WEST-01..03: drawing the three cards, Winter Is Coming, the threat, the order;
* ``cards``      -- BG-WCARD-*: what each card does, and the holders' choices;
* ``reconcile``  -- BG-SUPPLY-03/04: when the Supply token moves, and the reconcile that follows;
* ``mustering``  -- BG-MUSTER-06: houses muster one at a time (what they may buy: :mod:`domain.board.mustering`);
* ``bidding``    -- BG-COK-*: Clash of Kings and the sealed bids;
* ``wildlings``  -- BG-WILD-*: attacks and the nine wildling cards;
* ``units``      -- picking, destroying and replacing units; ports following control afterwards;
* ``decisions`` / ``timeouts`` / ``view`` -- pending decisions, documented defaults, what a reader sees;
* ``decider``    -- ``start_westeros_phase``/``decide_westeros``/``reveal_bids``.

The end of the game (BG-VIC-*) is :mod:`domain.board.victory`.
"""
