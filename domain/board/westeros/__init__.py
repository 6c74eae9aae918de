"""The board game's Westeros phase, wildling attacks and victory (BG-ROUND-*, BG-WEST-*, BG-WCARD-*,
BG-SUPPLY-03/04, BG-MUSTER-*, BG-COK-*, BG-WILD-*, BG-VIC-*).

Pure domain code, one module per rule family:

* ``state``      -- :class:`WesterosState`, the phase's working data inside ``BoardState.westeros``;
* ``events`` / ``commands`` -- the phase's facts and the players' requests;
* ``evolve``     -- bookkeeping for the phase's events (no rules);
* ``deck``       -- BG-WEST-01..03: drawing the three cards, Winter Is Coming, the threat, the order;
* ``cards``      -- BG-WCARD-*: what each card does, and the holders' choices;
* ``supply`` / ``mustering`` -- BG-SUPPLY-03/04 adjustment and reconcile; BG-MUSTER-*;
* ``bidding``    -- BG-COK-*: Clash of Kings and the sealed bids;
* ``wildlings``  -- BG-WILD-*: attacks and the nine wildling cards;
* ``units``      -- picking and destroying units, ports following control (BG-MAP-07);
* ``victory``    -- BG-VIC-*: seven castles at once, final scoring, the end of the game;
* ``decisions`` / ``timeouts`` / ``view`` -- pending decisions, documented defaults, what a reader sees;
* ``decider``    -- ``start_westeros_phase``/``decide_westeros``/``reveal_bids``.
"""
