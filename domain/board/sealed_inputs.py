"""Commit–reveal of the board game's sealed inputs (the scheme: :mod:`domain.core.commitment`).

Three inputs are sealed until every house's is in, and revealed at once:

* the orders a house places face down (BG-PLAN-03), revealed by ``orders_revealed`` (BG-PLAN-06);
* a bid of Power for an Influence track or against the wildlings (BG-COK-03, BG-WILD-01), revealed
  by ``bids_revealed``;
* the House card a combatant chooses face down, or none (BG-COMBAT-09/10), revealed by
  ``house_cards_revealed``.

Each submission event carries ``commitment`` (public to every reader at once) and ``salt`` (hidden
with the content by :mod:`.redaction`); the reveal carries each content with its salt in ``salts``.
:func:`seal` makes the pair when a submission is decided; :func:`check_reveals` is the offline
audit's check that every reveal opens the commitment published before it, so an organizer can show
that no sealed input was changed after anyone saw another's. Games created before commit–reveal
(``GameCreated.sealed_commitments`` false) carry no commitments and are reported as such.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from ..core.commitment import commit, draw_salt, opens, salt_purpose
from ..core.context import Context
from ..core.rederive import Recorded
from . import events as ev
from . import judge_events as jev
from . import mod_events as mev
from .action import events as aev
from .state import BoardState
from .westeros import events as wev

ORDERS = "orders"
BID = "bid"
HOUSE_CARD = "house_card"


def seal(state: BoardState, ctx: Context, seq: int, kind: str, house: str, content: Any) -> tuple[str | None, str]:
    """``(salt, commitment)`` for ``house``'s sealed ``content``, submitted by the event that will
    have sequence number ``seq``; ``(None, "")`` in a game created before commit–reveal."""
    if not state.sealed_commitments:
        return None, ""
    salt = draw_salt(ctx.rng(salt_purpose(seq, house)))
    return salt, commit(kind, house, salt, content)


class _Published(msgspec.Struct, frozen=True):
    seq: int
    commitment: str


def _submission(e: Any) -> tuple[str, str, Any, str | None, str] | None:
    """(kind, house, content or None when hidden, salt, commitment) of a submission event."""
    match e:
        case ev.OrdersSubmitted():
            return ORDERS, e.house, e.orders, e.salt, e.commitment
        case wev.BidSubmitted():
            return BID, e.house, e.amount, e.salt, e.commitment
        case aev.HouseCardChosen():
            # No card (BG-COMBAT-10) is a content of its own: null, known only with the salt.
            return HOUSE_CARD, e.house, e.card, e.salt, e.commitment
    return None


def _reveal(e: Any) -> tuple[str, dict[str, Any], dict[str, str]] | None:
    match e:
        case ev.OrdersRevealed():
            return ORDERS, dict(e.orders), e.salts
        case wev.BidsRevealed():
            return BID, dict(e.bids), e.salts
        case aev.HouseCardsRevealed():
            return HOUSE_CARD, dict(e.cards), e.salts
    return None


class RevealCheck(msgspec.Struct, frozen=True):
    """The verdict of :func:`check_reveals`."""

    committed: bool
    """The game commits its sealed inputs (``GameCreated.sealed_commitments``)."""
    problems: list[str]
    opened: int = 0
    """Revealed inputs whose salt opened their commitment."""


def check_reveals(recorded: Sequence[Recorded]) -> RevealCheck:
    """Every reveal checked against the commitments published before it.

    A problem names the event number of the reveal and of the commitment: a revealed content whose
    salt does not open its commitment (a changed content, a swapped commitment, a changed salt), a
    reveal without the salt of a committed input (a dropped reveal), a reveal of an input never
    committed, a submission without a commitment, and an unredacted submission whose own content
    and salt do not open its commitment."""
    problems: list[str] = []
    opened = 0
    if not recorded or not isinstance(recorded[0].event, ev.GameCreated) or not recorded[0].event.sealed_commitments:
        return RevealCheck(committed=False, problems=problems)
    published: dict[tuple[str, str], _Published] = {}
    face_up: dict[str, str] = {}
    """House -> the card Jaqen H'ghar drew for it at random, face up (MOD-VASSAL-29): public, not
    sealed, so a later reveal of it (after a Tyrion Lannister, BG-COMBAT-09) opens no commitment."""
    as_of: dict[int, dict[tuple[str, str], _Published]] = {}
    """The commitments outstanding after each event: a judge's rollback returns to those of its target."""
    for r in recorded:
        e = r.event
        if r.seq > 1:
            as_of[r.seq - 1] = published
        if isinstance(e, jev.JudgeRolledBack):
            published = dict(as_of.get(e.version, {}))
            continue
        if isinstance(e, mev.PlayerLeft):  # MOD-FLEX-01/02: withdrawn sealed inputs are never revealed
            published = {k: p for k, p in published.items() if k[1] not in e.withdrawn or k[0] == HOUSE_CARD}
            continue
        if isinstance(e, aev.HouseCardReplacedAtRandom):
            face_up[e.house] = e.card
            published = {k: p for k, p in published.items() if k != (HOUSE_CARD, e.house)}
            continue
        sub = _submission(e)
        if sub is not None:
            if sub[0] == HOUSE_CARD:
                face_up.pop(sub[1], None)  # chosen again, sealed: its reveal opens this commitment
            kind, house, content, salt, commitment = sub
            if not commitment:
                problems.append(f"event {r.seq}: {house}'s sealed {kind} carries no commitment")
            elif salt is not None and not r.redacted and not opens(commitment, kind, house, salt, content):
                problems.append(f"event {r.seq}: {house}'s sealed {kind} does not open its own commitment")
            published = {**published, (kind, house): _Published(seq=r.seq, commitment=commitment)}
            continue
        rev = _reveal(e)
        if rev is None:
            if isinstance(e, aev.CombatEnded):
                published = {k: p for k, p in published.items() if k[0] != HOUSE_CARD}
                face_up = {}
            continue
        kind, contents, salts = rev
        for house, content in sorted(contents.items()):
            if kind == HOUSE_CARD and face_up.get(house) == content:
                continue  # drawn face up by Jaqen H'ghar: nothing sealed to open
            p = published.get((kind, house))
            if p is None or not p.commitment:
                problems.append(f"event {r.seq}: {house}'s {kind} is revealed but was never committed")
                continue
            salt = salts.get(house)
            if salt is None:
                problems.append(
                    f"event {r.seq}: the reveal of {house}'s {kind} carries no salt to open the commitment "
                    f"of event {p.seq}"
                )
            elif not opens(p.commitment, kind, house, salt, content):
                problems.append(
                    f"event {r.seq}: {house}'s revealed {kind} {msgspec.json.encode(content).decode()} "
                    f"does not open the commitment of event {p.seq}"
                )
            else:
                opened += 1
        for key in [k for k in published if k[0] == kind and k[1] not in contents]:
            if kind != HOUSE_CARD:
                problems.append(
                    f"event {r.seq}: {key[1]}'s {kind} committed at event {published[key].seq} is not revealed"
                )
        if kind != HOUSE_CARD:  # House cards may be revealed again after Tyrion (until the combat ends)
            published = {k: p for k, p in published.items() if k[0] != kind}
    return RevealCheck(committed=True, problems=problems, opened=opened)
