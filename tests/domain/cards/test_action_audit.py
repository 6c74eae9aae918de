"""Card Actions, events (action and reaction) and declined reactions in random whole games are
re-derived by the offline audit (domain/cards/audit.py reads use_action, play_event and decline
back from cards_action_used, cards_event_played and cards_reaction_declined)."""

from __future__ import annotations

import random

from domain.cards import events as ev
from domain.cards.game import GAME

from .play import Table, envelopes, play_random

PAIRINGS = [("watch_stag", "lannister_rose"), ("targaryen_sun", "stark_kraken"), ("lannister_rose", "targaryen_sun")]


def test_random_games_with_actions_events_and_reactions_audit_clean():
    wanted = {ev.CardsActionUsed, ev.CardsEventPlayed, ev.CardsWindowOpened, ev.CardsReactionsOpened}
    seen: set[type] = set()
    for n, decks in enumerate(PAIRINGS * 6):  # at least 6 games, more until every kind was played
        if n >= 6 and wanted <= seen:
            break
        t = Table(seed=f"acts{n}", decks=decks)
        play_random(t, random.Random(n), timeouts=0.05)
        seen |= {type(e) for e in t.events}
        report = GAME.audit(envelopes(t), t.seed)
        assert report.problems == [] and report.rules_ok and report.game_over, (decks, report.problems)
    assert wanted <= seen
