"""A Game of Thrones: The Card Game (2nd ed.), joust: the second real game on the engine.

Nothing outside this package knows its rules; the service hosts it through the
:class:`~domain.core.game.Game` protocol (``kind: "cards"``). What is built is the framework with
printed values only (no card ability yet); docs/card-game.md says plainly what is and is not.
Rule ids (``CG-...``) are those of the card-game digest; each function names the ones it implements.

Where each rule lives:

* :mod:`.catalog` -- the 219 Core Set records and the starter decks, typed, loaded once;
* :mod:`.decks` -- deck rules (CG-DECK-01..03, Banners, Fealty, the restricted list);
* :mod:`.commands`, :mod:`.events`, :mod:`.state` -- commands, facts, the fold's state;
* :mod:`.evolve` -- applying events (bookkeeping, leaving play: CG-UNIQUE-04/05, CG-KEY-08);
* :mod:`.emitter` -- a working copy that folds events as a decision emits them;
* :mod:`.setup` -- CG-SETUP-*: first player, shuffles, hands, the mulligan, facedown setup;
* :mod:`.phases` -- the seven phases, one module each (plot, draw, marshaling, challenges,
  dominance, standing, taxation) and :mod:`.phases.flow`, which chains them (CG-ROUND-01);
* :mod:`.power`, :mod:`.victory` -- power totals, 15 power and decking (CG-GEN-05, CG-END-*);
* :mod:`.rules` -- ``decide``: who may do what now, timeouts and their documented defaults;
* :mod:`.redaction` -- the one place hidden information is filtered per reader;
* :mod:`.decisions`, :mod:`.narrative`, :mod:`.audit`, :mod:`.game` -- the protocol's other members.
"""
