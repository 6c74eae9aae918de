"""The card bot's choices (clients/card_bot.py), checked by the domain alone: complete jousts where
every decision is answered by the bot's per-kind function from the decision as a client receives it
(the server's ``CardDecision`` encoded to JSON, decoded with the client's model), its command
reaching the rules as the API decodes it (the client's JSON decoded into the server's command
union), and where the bot's fallback for *every* decision met is one the rules accept.

A decision the server offers must be answerable from its options alone: a refused choice is a bug
of the options or of the rules (by hand, over many games: ``PYTHONPATH=. .venv/bin/python -m
tests.api.test_card_bot_choices 1000``)."""

from __future__ import annotations

import itertools
import random
import sys
from collections import Counter

import msgspec

from clients import card_bot
from clients.citadel_client import cards as client_cards
from domain.cards.commands import CardCommand
from domain.cards.decisions import decisions_for
from domain.cards.rules import DEFAULTS, decide
from domain.core.commands import Actor
from domain.core.errors import GameError
from tests.domain.cards.play import Table

_enc = msgspec.json.Encoder()
_dec = msgspec.json.Decoder(client_cards.CardDecision)
_cmd = msgspec.json.Decoder(CardCommand)
PAIRINGS = list(itertools.permutations(client_cards.LEGAL_DECKS, 2))


def _client_decision(t: Table, seat: str) -> client_cards.CardDecision | None:
    ds = decisions_for(t.state, seat).decisions
    return _dec.decode(_enc.encode(ds[0])) if ds else None


def _refused(t: Table, seat: str, command: object) -> str | None:
    """Why the rules refuse ``command`` (as the API decodes it) now, without playing it."""
    try:
        decide(t.state, _cmd.decode(_enc.encode(command)), Actor(kind="seat", seat_id=seat), t.ctx())
    except GameError as e:
        return f"{e.code}: {e.detail}"
    return None


def melee_decks(i: int) -> tuple[str, ...]:
    """The ``i``-th melee: 3 to 6 seats in turn, the legal decks in rotation (repeated)."""
    decks = client_cards.LEGAL_DECKS
    return tuple(decks[(i + k) % len(decks)] for k in range(3 + i % 4))


def play(n: int, seed: int = 0, melee: bool = False) -> tuple[Counter[str], list[str]]:
    """``n`` jousts (or melees of 3 to 6 seats) answered by the card bot; (decision kinds answered,
    and ``kind:command`` sent; refusals)."""
    kinds: Counter[str] = Counter()
    refusals: list[str] = []
    for i in range(n):
        decks = melee_decks(i) if melee else PAIRINGS[i % len(PAIRINGS)]
        t = Table(seed=f"card-bot-{'melee' if melee else 'choices'}-{seed}-{i}", decks=decks)
        rng = random.Random(f"{seed}/{i}")
        t.start()
        for _ in range(5000):
            if t.state.phase == "ended":
                break
            acted = False
            for seat in t.state.seat_ids():
                d = _client_decision(t, seat)
                if d is None or not card_bot.actionable(d):
                    continue
                fallback = card_bot.FALLBACKS[d.kind](d)
                why = _refused(t, seat, fallback)
                if why:
                    refusals.append(f"game {i}: fallback {d.kind}: {why}")
                command = card_bot.random_command(d, rng)
                assert command is not None
                why = _refused(t, seat, command)
                if why:
                    refusals.append(f"game {i}: {d.kind} {_enc.encode(command).decode()}: {why}")
                    command = fallback
                t.seat(seat, _cmd.decode(_enc.encode(command)))
                kinds[d.kind] += 1
                kinds[f"{d.kind}:{command.__struct_config__.tag}"] += 1
                acted = True
                break
            assert acted, f"game {i}: nobody can act at {t.state.phase}/{t.state.step}"
        assert t.state.phase == "ended" and t.state.winner, f"game {i} did not end"
    return kinds, refusals


def test_card_bot_choices_and_fallbacks_are_never_refused():
    kinds, refusals = play(12)
    assert refusals == []
    assert {"mulligan", "setup", "plot", "first_player", "marshal", "challenge", "defend", "claim"} <= set(kinds)
    assert {"marshal:marshal_card", "marshal:end_marshaling", "action:pass_action"} <= set(kinds), kinds


def test_card_bot_choices_and_fallbacks_are_never_refused_in_melees():
    """Melee (CG-GEN-01, CG-PHASE-05, CG-MELEE-05): titles, defenders named, the Crown Regent's redirect."""
    kinds, refusals = play(6, melee=True)
    assert refusals == []
    assert {"title", "challenge:declare_challenge"} <= set(kinds), kinds


def test_the_card_bot_has_a_chooser_and_a_fallback_for_every_decision_kind():
    assert set(card_bot.CHOOSERS) == set(card_bot.FALLBACKS) == set(DEFAULTS) == set(client_cards.COMMANDS)


def test_the_card_bot_declares_no_more_participants_than_max_cards_and_who_must_defend():
    """``max_cards`` (Jousting Contest, The Knight of Flowers) caps the attackers and the defenders;
    ``must_defend`` (Dornish Paramour) is always among the defenders."""
    rng = random.Random(3)
    pool = ["s1-01", "s1-02", "s1-03", "s1-04"]
    attack = client_cards.CardDecision(
        seat_id="seat1", kind="challenge", commands=[], challenge_types={"power": pool}, max_cards=1
    )
    defend = client_cards.CardDecision(
        seat_id="seat1", kind="defend", commands=[], challenge_types={"power": pool}, max_cards=2
    )
    for _ in range(200):
        a = card_bot.challenge(attack, rng)
        assert isinstance(a, client_cards.EndChallenges) or (
            isinstance(a, client_cards.DeclareChallenge) and len(a.attackers) == 1
        )
        d = card_bot.defend(defend, rng)
        assert isinstance(d, client_cards.DeclareDefenders) and len(d.defenders) <= 2
        d = card_bot.defend(msgspec.structs.replace(defend, must_defend=["s1-03"]), rng)
        assert isinstance(d, client_cards.DeclareDefenders) and "s1-03" in d.defenders and len(d.defenders) <= 2


if __name__ == "__main__":
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    kinds, refusals = play(games, seed=1)
    answered = {k: v for k, v in kinds.items() if ":" not in k}
    sent = {k: v for k, v in kinds.items() if ":" in k}
    print(f"{games} jousts: {sum(answered.values())} decisions answered {answered}; refused: {len(refusals)}")
    print(f"commands sent, by decision kind: {sent}")
    for r in refusals[:20]:
        print("  " + r)
