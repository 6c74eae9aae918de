"""A Game of Thrones: The Board Game, second edition.

Where the rules live. Concepts every phase shares, one module each at this level:

* ``setup``      -- BG-SETUP-*: the board at the start, from ``data/``;
* ``control``    -- BG-MAP-03..06: who controls what, who has units where;
* ``supply``     -- BG-SETUP-12, BG-SUPPLY-01..06, BG-COMP-03: barrels, armies, the supply limit,
  what a legal reconcile is, unit limits;
* ``power``      -- BG-POWER-01..05: Power tokens and the Power Pool;
* ``adjacency``  -- BG-MAP-01/07, BG-SETUP-06, BG-MARCH-03/09/10/11, BG-RAID-02, BG-COMBAT-03:
  adjacency and ship transport as each action sees them;
* ``ports``      -- BG-MAP-07: ports follow control (entering, orphaned and captured ports);
* ``strength``   -- BG-COMP-04, BG-COMBAT-05/07/08/12: combat strength and support;
* ``mustering``  -- BG-MUSTER-01..05: mustering points, costs, where new units go;
* ``victory``    -- BG-VIC-01..04, BG-ROUND-03: castles and strongholds, seven at once, final scoring;
* ``orders``     -- BG-ORDER-01: the order tokens;
* ``tracks``     -- BG-SETUP-09, BG-COK-01: the three Influence tracks, read typed (position 1 first).

The phases, each a package:

* ``planning``   -- BG-PLAN-*: assigning, revealing, the Messenger Raven, their defaults;
* ``action``     -- BG-ACT-*, BG-RAID-*, BG-MARCH-*, BG-COMBAT-*, BG-CP-*, BG-TIDES-*: the Action
  phase (with the optional Tides of Battle variant);
* ``westeros``   -- BG-WEST-*, BG-WCARD-*, BG-SUPPLY-03/04 (when the token moves), BG-MUSTER-06,
  BG-COK-*, BG-WILD-*: the Westeros phase and the wildling attacks.

Mother of Dragons (``settings.expansion``, docs/mother-of-dragons.md), as settings of the same engine:

* ``mother_of_dragons`` / ``house_choice`` -- MOD-SETUP-*: the 7-house setup, the seats' house choice;
* ``gifts``      -- MOD-GIFT-01..03: gifts of Power at any time;
* ``flexible_presence`` -- MOD-FLEX-01/02: a player who leaves becomes a vassal;
* sea orders live in ``orders`` and ``action/sea_orders`` (MOD-SEA-*), House Arryn's cards in
  ``action/arryn_cards`` (MOD-DATA-01).

Tying it together:

* ``game``       -- the board game as a ``domain.core.game.Game``: the one object the service knows;
* ``decider``    -- ``create``/``decide``/``pending_system_work`` (re-exports ``evolve``/``fold``);
* ``evolve``     -- ``evolve``/``fold``: bookkeeping only, below every decider;
* ``emitter``    -- how the Action and Westeros phases build a batch (each event applied at once);
* ``timeouts``   -- the documented default for every decision at its deadline (per phase);
* ``decisions``  -- what each seat must decide now, with its legal options;
* ``redaction``  -- the one filter for hidden information;
* ``narrative``  -- the game log's sentences;
* ``scenario``   -- scenario fixtures: a game created from a described position (its schema in
  ``scenario_schema``; ``fixture_start`` opens its start point through the rules, docs/fixtures.md);
* ``audit``      -- the offline check of a replay export: every event re-derived by the rules;
* ``replay``     -- which command opened each batch of an export (what the audit re-runs);
* ``events``/``commands``/``state``/``board_data`` -- the data.
"""
