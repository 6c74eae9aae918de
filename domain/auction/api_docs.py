"""What the API document says of the auction's types beyond their annotations and docstrings
(:class:`~domain.core.game.SchemaDocs`; ``service/http/openapi.py`` applies it)."""

from __future__ import annotations

from ..core.errors import ErrorKind
from ..core.game import SchemaDocs
from .commands import AuctionCreateBody, PlaceBid

DESCRIPTIONS: dict[str, str] = {
    "game_id": "The game's id: `g_` and 32 hexadecimal digits.",
    "version": "The game's version: the number of events in its stream (also the `ETag`).",
    "seat_id": "The seat's id: `seat1`, `seat2`... in joining order.",
    "seats": "The seats, in joining order.",
    "name": "The player's display name.",
    "player_count": "The number of seats: 2 to 4 (AU-SETUP-01).",
    "settings": "The options chosen at creation.",
    "seed_commitment": "sha256 of the seed behind every random draw, revealed at the end.",
    "round": "The round, from 1.",
    "rounds": "How many rounds the auction lasts.",
    "deadline": "When the server applies the default (RFC 3339 UTC with milliseconds), or null.",
    "amount": "Coins bid (null while sealed, for other readers).",
    "by_default": "True when the server placed this bid at the deadline (the documented default).",
    "bids": "Each seat's bid, by seat id.",
    "winner": "The seat that won.",
    "price": "What the winner paid.",
    "tie_break": "How a tie was broken, if there was one.",
    "candidates": "The seats that tied.",
    "draw": "The index drawn among the candidates (recorded random outcome).",
    "points": "Points by seat id.",
    "coins": "Coins left, by seat id (or of this seat).",
    "starting_coins": "Coins each seat starts with.",
    "phase": "`lobby`, `bidding` or `ended`.",
    "step": "What the game waits for now.",
    "step_version": "The version at which the current step began.",
    "results": "The results of the rounds played.",
    "you": "Your seat, or null for the public view.",
    "has_bid": "True once this seat has sealed a bid this round.",
    "bid": "This seat's bid (yours only, or everyone's once revealed).",
    "decisions": "What you must decide now (empty if nothing).",
    "waiting_for": "The seats the game waits for.",
    "kind": "The decision kind (`place_bid`).",
    "commands": "The command `type`s that answer this decision.",
    "max_amount": "The largest bid you may place: your coins.",
    "submitted": "Your sealed bid, if any.",
    "default": "What the server does at the deadline.",
    "decision_timeout_s": "Seconds each decision may take before the default applies.",
    "organizer_is_referee": "Tournament mode: the organizer does not play and may read the complete export.",
}

PROBLEM_CODES: dict[str, tuple[ErrorKind, str]] = {
    "illegal_move": ("invalid", "the rules do not allow this (see `rule`)"),
    "invalid_player_count": ("invalid", "not a player count this game allows"),
    "unknown_command": ("invalid", "a command this game does not know"),
    "not_your_turn": ("conflict", "another house (or seat) must act now"),
    "wrong_phase": ("conflict", "the command means nothing at this phase or step (see `rule`)"),
    "nothing_pending": ("conflict", "nothing of yours is waiting to be decided"),
    "bids_closed": ("conflict", "every bid is in; the round is being revealed"),
    "not_started": ("conflict", "the game has not started"),
    "game_over": ("conflict", "the game is over"),
    "game_full": ("conflict", "every seat is taken"),
    "game_started": ("conflict", "the game has started"),
    "seats_missing": ("conflict", "not every seat is taken yet"),
    "forbidden": ("forbidden", "this actor may not issue this command"),
}

DOCS = SchemaDocs(
    descriptions=DESCRIPTIONS,
    examples=(PlaceBid(amount=3), AuctionCreateBody(kind="auction", player_count=3)),
    problem_codes=PROBLEM_CODES,
)
