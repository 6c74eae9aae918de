"""Melee titles (CG-MELEE-01..05, CG-PHASE-05/19, CG-SEEDFIX-09/12/14): the one place for them.

Each round of a melee, after the first player is chosen and the When Revealed abilities resolved
(CG-SEEDFIX-12), the 6 titles are shuffled from the seed and 2 (3 players), 1 (4-5) or 0 (6) are
set aside (:func:`set_aside`, a public event); then the first player picks one in secret, then each
player in player order among those left (:func:`pick`: a pending ``title`` decision with the legal
titles and a default); once the last pick is in, all are revealed and enter play at once
(:func:`reveal`). In taxation, before its action window, all return to the pool (:func:`return_all`,
CG-PHASE-19). A seat may take the same title as last round.

What a borne title does (CG-MELEE-05), read where each rule computes its value:

* relations (CG-MELEE-01): :func:`supports`, :func:`rivals`; the support restriction
  (CG-MELEE-04) is :func:`initiation_forbidden`; the rival bonus (CG-MELEE-03) is :func:`rival_bonus`;
* Master of Coin: +2 income; Master of Laws: +1 card in the draw phase, +1 reserve
  (:func:`income_bonus`, :func:`draw_bonus`, :func:`reserve_bonus`);
* Hand of the King / Master of Ships / Master of Whispers: +1 STR on the bearer's side in power /
  military / intrigue challenges where it controls a participating character (:func:`strength_bonus`);
* Hand of the King: one extra power challenge, against a different opponent than its other
  (:func:`extra_challenges`, :func:`other_opponent_required`);
* Master of Ships: +1 claim in military challenges it initiates against a rival (:func:`claim_bonus`);
* Master of Whispers: its intrigue claim may be applied to any number of other opponents
  (:func:`extra_intrigue_victims`: documented as the bearer's best choice, every other opponent);
* Crown Regent: +2 STR for dominance (:func:`dominance_bonus`); once per round, right after any
  challenge is initiated and before the reactions to its initiation, its bearer may force the
  attacker to redirect it to a different opponent (:func:`regent_bearer`, :func:`redirect_options`;
  the ``regent`` then ``redirect`` decisions of :mod:`.phases.flow`). Type and attackers stay; the
  stealth choices are dropped (documented: no new stealth targets are picked); it still counts as
  initiated against the first defender.
"""

from __future__ import annotations

from ..core.errors import RuleViolation
from . import events as ev
from .catalog import CARDS
from .emitter import Emitter
from .state import CardState

HAND = "01208"
COIN = "01209"
LAWS = "01210"
SHIPS = "01207"
WHISPERS = "01206"
REGENT = "01211"
TITLES: tuple[str, ...] = (WHISPERS, SHIPS, HAND, COIN, LAWS, REGENT)
"""The 6 title cards of the Core Set (type ``title`` in the card data), by code."""

CHALLENGE_STR = {HAND: "power", SHIPS: "military", WHISPERS: "intrigue"}


def name(code: str) -> str:
    return CARDS[code].name


def set_aside_count(players: int) -> int:
    """CG-PHASE-05: 2 titles set aside with 3 players, 1 with 4 or 5, none with 6."""
    return 2 if players <= 3 else 1 if players <= 5 else 0


def title_of(state: CardState, seat: str) -> str | None:
    """The title ``seat`` bears (revealed this round), or None."""
    return state.titles.get(seat)


def supports(title: str | None, other: str | None) -> bool:
    """CG-MELEE-01: ``title`` supports ``other`` (from the card data's relations)."""
    if title is None or other is None:
        return False
    facts = CARDS[title].title
    return facts is not None and name(other) in facts.supports


def rivals(title: str | None, other: str | None) -> bool:
    """CG-MELEE-01: ``other`` is one of ``title``'s rivals."""
    if title is None or other is None:
        return False
    facts = CARDS[title].title
    return facts is not None and name(other) in facts.rivals


# -- the picks (CG-PHASE-05, CG-MELEE-02) ----------------------------------------------------------


def purpose(round_no: int) -> str:
    return f"titles/{round_no}"


def set_aside(em: Emitter) -> None:
    """CG-PHASE-05: shuffle the 6 titles from the seed, set aside 2/1/0, the first player picks first."""
    s = em.state
    order = em.ctx.rng(purpose(s.round)).shuffled(list(TITLES))
    n = set_aside_count(len(s.player_order()))
    em.emit(ev.CardsTitlesSetAside(round=s.round, order=order, set_aside=order[:n], pickers=s.player_order()))


def available(state: CardState) -> list[str]:
    """The titles the seat picking now may take: not set aside, not picked by an earlier seat."""
    taken = {p.title_pick for p in state.players if p.title_pick}
    return [t for t in sorted(TITLES) if t not in state.titles_set_aside and t not in taken]


def default_pick(state: CardState, seat: str) -> str:
    """The documented default at the deadline: the available title with the lowest code."""
    return available(state)[0]


def check_pick(state: CardState, seat: str, title: str) -> None:
    if title not in available(state):
        raise RuleViolation(
            f"{title} is not a title you may pick now (set aside or taken): choose one of {available(state)}",
            rule="CG-PHASE-05",
            code="title_unavailable",
        )


def pick(em: Emitter, seat: str, title: str, by_default: bool) -> None:
    em.emit(ev.CardsTitleChosen(seat_id=seat, title=title, by_default=by_default))


def reveal(em: Emitter) -> None:
    """CG-PHASE-05: the chosen titles are revealed and enter play at the same time."""
    s = em.state
    picks = {p.seat_id: p.title_pick for p in s.players if p.title_pick and p.seat_id not in s.eliminated}
    em.emit(ev.CardsTitlesRevealed(titles=picks))


def return_all(em: Emitter) -> None:
    """CG-PHASE-19: all titles go back to the pool at the same time, before taxation's window."""
    if em.state.titles:
        em.emit(ev.CardsTitlesReturned(titles=dict(em.state.titles)))


# -- what the titles do (CG-MELEE-03/04/05) --------------------------------------------------------


def initiation_forbidden(state: CardState, seat: str, defender: str) -> bool:
    """CG-MELEE-04: a player cannot initiate a challenge against a player whose title its own supports."""
    return supports(title_of(state, seat), title_of(state, defender))


def rival_bonus(em: Emitter, winner: str, loser: str) -> None:
    """CG-MELEE-03, CG-SEEDFIX-09: winning a challenge (attacking or defending) against an opponent
    bearing one of the winner's rival titles gains 1 power, once per rival opponent per round."""
    s = em.state
    if rivals(title_of(s, winner), title_of(s, loser)) and f"rival:{winner}:{loser}" not in s.melee_log:
        em.emit(ev.CardsRivalBonus(seat_id=winner, rival=loser))


def income_bonus(state: CardState, seat: str) -> int:
    return 2 if title_of(state, seat) == COIN else 0


def draw_bonus(state: CardState, seat: str) -> int:
    return 1 if title_of(state, seat) == LAWS else 0


def reserve_bonus(state: CardState, seat: str) -> int:
    return 1 if title_of(state, seat) == LAWS else 0


def dominance_bonus(state: CardState, seat: str) -> int:
    return 2 if title_of(state, seat) == REGENT else 0


def strength_bonus(state: CardState, seat: str, challenge: str, participants: list[str]) -> int:
    """+1 STR on ``seat``'s side in a challenge of its title's type where it controls a participant."""
    title = title_of(state, seat)
    if title is None or CHALLENGE_STR.get(title) != challenge:
        return 0
    mine = any(c in state.in_play and state.in_play[c].controller == seat for c in participants)
    return 1 if mine else 0


def extra_challenges(state: CardState, seat: str, challenge: str) -> int:
    """The Hand of the King: one extra power challenge."""
    return 1 if challenge == "power" and title_of(state, seat) == HAND else 0


def earlier_defenders(state: CardState, seat: str, challenge: str) -> list[str]:
    """The opponents ``seat`` already challenged with ``challenge`` this round."""
    prefix = f"challenge:{seat}:{challenge}:"
    return [k[len(prefix) :] for k in state.melee_log if k.startswith(prefix)]


def other_opponent_required(state: CardState, seat: str, challenge: str, defender: str) -> bool:
    """The Hand of the King's extra power challenge must target a different opponent than its
    other power challenge: True when ``defender`` was already challenged with ``challenge``."""
    return bool(state.melee) and defender in earlier_defenders(state, seat, challenge)


def claim_bonus(state: CardState, attacker: str, defender: str, challenge: str) -> int:
    """Master of Ships: claim 1 higher in military challenges it initiates against a rival."""
    title = title_of(state, attacker)
    if challenge == "military" and title == SHIPS and rivals(title, title_of(state, defender)):
        return 1
    return 0


def extra_intrigue_victims(state: CardState, attacker: str, defender: str) -> list[str]:
    """Master of Whispers: its intrigue claim may also be applied to any other opponents
    (documented: the bearer's best choice, every other opponent still in the game)."""
    if title_of(state, attacker) != WHISPERS:
        return []
    return [s for s in state.opponents(attacker) if s != defender]


def regent_bearer(state: CardState) -> str | None:
    """The Crown Regent's bearer when it may redirect the challenge just initiated: its once per
    round not used, and the attacker has another opponent to redirect to; else None."""
    ch = state.challenge
    bearer = next((s for s, t in state.titles.items() if t == REGENT and s not in state.eliminated), None)
    if ch is None or bearer is None or "regent" in state.melee_log or not redirect_options(state):
        return None
    return bearer


def redirect_options(state: CardState) -> list[str]:
    """The opponents of the attacker a redirected challenge may go to: any but the defender."""
    ch = state.challenge
    assert ch is not None
    return [s for s in state.opponents(ch.attacker) if s != ch.defender]


def check_redirect(state: CardState, seat: str) -> None:
    if seat not in redirect_options(state):
        raise RuleViolation(
            f"{seat} is not an opponent you may redirect this challenge to: one of {redirect_options(state)}",
            rule="CG-MELEE-05",
            code="not_an_opponent",
        )
