"""What the API document says of the card game's types beyond their annotations and docstrings."""

from __future__ import annotations

from ..core.errors import ErrorKind
from ..core.game import SchemaDocs
from .commands import CardsCreateBody, ChooseMulligan, DeclareChallenge, MarshalCard
from .decks import DeckChoice

DESCRIPTIONS: dict[str, str] = {
    "game_id": "The game's id: `g_` and 32 hexadecimal digits.",
    "version": "The game's version: the number of events in its stream (also the `ETag`).",
    "seat_id": "A seat's id: `seat1` or `seat2`.",
    "name": "A name (a player's display name, a deck's name, or a card's title).",
    "player_count": "The number of seats: 2 (a joust, CG-GEN-01).",
    "settings": "The options chosen at creation.",
    "seed_commitment": "sha256 of the seed behind every shuffle and random draw, revealed at the end.",
    "deadline": "When the server applies the documented default (RFC 3339 UTC with milliseconds), or null.",
    "step_version": "The version at which the current step began (a timeout names it).",
    "by_default": "True when the server made this choice at the deadline (the documented default).",
    "phase": "The phase: `lobby`, `setup`, `plot`, `draw`, `marshaling`, `challenges`, `dominance`, `standing`, "
    "`taxation` or `ended`.",
    "step": "What the game waits for now.",
    "round": "The round, from 1.",
    "card": "A card id (`s1-07`: seat 1's 7th draw card; `s1-p3`: its 3rd plot).",
    "cards": "Card ids (see `card`), or card id -> card code.",
    "code": "A Core Set card code (`01141`) or a faction code.",
    "count": "How many cards.",
    "faction": "A faction code (`stark`...).",
    "agenda": "The agenda's card code, or null.",
    "plots": "Plot cards (by code and count in a deck; by seat in a reveal).",
    "draw": "Draw cards by code and count (at least 60).",
    "decks": "One deck per seat, in seat order.",
    "deck": "A submitted deck list.",
    "winner": "The seat that won, or null.",
    "reason": "Why, in words.",
    "power": "Power by seat.",
    "amount": "How much power.",
    "gold": "Gold (by seat, or of this seat).",
    "order": "A shuffled order (hidden for a deck until the end).",
    "number": "The seat's n-th shuffle: names the random stream `shuffle/<seat>/<n>`.",
    "seats": "Seat ids.",
    "kind": "The kind of game (`cards`), or the decision's kind (its step).",
    "commands": "The command `type`s that answer this decision.",
    "default": "What the server does at the deadline.",
    "decisions": "What you must decide now (empty if nothing).",
    "waiting_for": "The seats the game waits for.",
    "you": "Your seat, or null for the public view.",
    "decision_timeout_s": "Seconds each decision may take before its default applies.",
    "organizer_is_referee": "Tournament mode: the organizer does not play and may read the complete export.",
    "challenge_type": "`military`, `intrigue` or `power`.",
    "attackers": "Attacking characters (card ids).",
    "defenders": "Defending characters (card ids).",
    "defender": "The defending seat.",
    "attacker": "The attacking seat.",
    "stealth": "Attacker with stealth -> the defending character it bypasses (CG-CHAL-02).",
    "mulligan": "True: take the one mulligan; false: keep the hand (null: not decided yet).",
    "plot": "A plot's card id.",
    "attach_to": "The character (card id) an attachment goes on.",
    "characters": "Characters (card ids).",
    "first_player": "The first player's seat.",
    "initiative": "Initiative by seat (CG-PHASE-03).",
    "tie_break": "How an initiative tie was broken at random, or null.",
    "placed": "Where cards entered play.",
    "on": "The card this one is attached to, or placed under as a duplicate.",
    "as": "`character`, `location`, `attachment` or `duplicate`.",
    "cost": "Gold paid.",
    "totals": "Dominance totals by seat (CG-PHASE-14).",
    "challenge_types": "Challenge type -> eligible characters.",
}

PROBLEM_CODES: dict[str, tuple[ErrorKind, str]] = {
    "illegal_deck": ("invalid", "a deck breaks a deck rule (the detail names it; `rule` is its id)"),
    "illegal_move": ("invalid", "the rules do not allow this (see `rule`)"),
    "invalid_player_count": ("invalid", "the card game is a joust: 2 seats"),
    "unknown_command": ("invalid", "a command this game does not know"),
    "not_your_turn": ("conflict", "the game does not wait for this seat's decision now"),
    "wrong_phase": ("conflict", "the command means nothing at this step (see `rule`)"),
    "choices_closed": ("conflict", "every sealed choice is in; the reveal is under way"),
    "nothing_pending": ("conflict", "nothing waits for the system"),
    "not_started": ("conflict", "the game has not started"),
    "game_over": ("conflict", "the game is over"),
    "game_full": ("conflict", "every seat is taken"),
    "game_started": ("conflict", "the game has started"),
    "seats_missing": ("conflict", "not every seat is taken yet"),
    "forbidden": ("forbidden", "this actor may not issue this command"),
}

DOCS = SchemaDocs(
    descriptions=DESCRIPTIONS,
    examples=(
        ChooseMulligan(mulligan=False),
        MarshalCard(card="s1-07"),
        DeclareChallenge(challenge_type="power", attackers=["s1-07", "s1-12"]),
        CardsCreateBody(kind="cards", decks=[DeckChoice(name="stark_kraken"), DeckChoice(name="lannister_rose")]),
    ),
    problem_codes=PROBLEM_CODES,
)
