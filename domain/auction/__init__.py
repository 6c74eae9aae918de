"""A sealed-bid auction: the smallest complete game on the engine.

It exists to prove that the engine (``domain/core``, the service, the workers, the projections and
the exports) is game-agnostic: nothing outside this package knows its rules, and it uses every part
of the :class:`~domain.core.game.Game` protocol -- seats, a seeded random draw, a deadline with a
documented default, sealed (hidden) inputs, a reveal by the system, an offline audit and an
event upcaster.

The rules, in short: 2-4 seats each start with 10 coins. For ``rounds`` rounds (1-5, default 3)
every seat seals a bid of 0 up to its coins (amendable until every bid is in). The reveal gives
1 point to the highest bid, which pays its bid; a tie is broken by a seeded draw written into the
event. A missed deadline bids 0. After the last round the most points wins, then the most coins
left, then the lowest seat number.

Where each rule lives:

* :mod:`.commands` -- the player command (``place_bid``) and the create body;
* :mod:`.state` -- the state and the settings;
* :mod:`.events` -- the events (facts) and the schema number; :mod:`.upcasters` -- old schemas;
* :mod:`.rules` -- ``decide``: who may do what, the reveal, the tie-break, the timeout default,
  the end of the game and its winner;
* :mod:`.evolve` -- ``evolve``/``fold``: applying events (bookkeeping only, no rules);
* :mod:`.redaction` -- the one place hidden information (sealed bids) is filtered per reader;
* :mod:`.decisions` -- what each seat must decide now, and whom the game waits for;
* :mod:`.narrative` -- the public log lines;
* :mod:`.audit` -- the offline audit of an export (chain, seed, tie-break draws, rules);
* :mod:`.game` -- :data:`GAME`, the adapter to the ``Game`` protocol.
"""
