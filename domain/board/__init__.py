"""A Game of Thrones: The Board Game, second edition.

Where the rules live:

* ``setup``      -- BG-SETUP-*: the board at the start, from ``data/``;
* ``control``    -- BG-MAP-03..06: who controls what; supply barrels; victory points;
* ``orders``     -- BG-ORDER-01: the order tokens;
* ``planning``   -- BG-PLAN-*: assigning, revealing, the Messenger Raven;
* ``action``     -- BG-ACT-*, BG-RAID-*, BG-MARCH-*, BG-COMBAT-*, BG-CP-*: the Action phase (package);
* ``westeros``   -- BG-WEST-*, BG-WCARD-*, BG-SUPPLY-03/04, BG-MUSTER-*, BG-COK-*, BG-WILD-*,
  BG-VIC-*: the Westeros phase, wildling attacks and the end of the game (package);
* ``timeouts``   -- the documented default for every decision at its deadline;
* ``decisions``  -- what each seat must decide now, with its legal options;
* ``redaction``  -- the one filter for hidden information;
* ``decider``    -- ``decide``/``evolve``/``fold`` tying it together;
* ``events``/``commands``/``state`` -- the data.
"""
