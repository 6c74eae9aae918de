"""Where a game created from a scenario fixture opens (the fixture's ``start_at``, docs/fixtures.md).

A fixture describes a position (:mod:`.scenario`); the start of the game (``StartGame``) deals the
houses and the decks as the fixture says and then opens its start point **through the rules
themselves**, so that what follows is exactly what a played game would record:

* ``action``   -- the threshold of the Action phase (the worker opens it, BG-ACT-01);
* ``raven``    -- the orders on the board are the revealed ones; the Messenger Raven holder decides
  (BG-PLAN-07), as after Reveal Orders;
* ``westeros`` -- the Westeros phase of the fixture's round opens (BG-WEST-01): from its beginning,
  or with the cards of the decks before ``westeros.start_deck`` already resolved (they go to the
  bottom of their decks, BG-WEST-03);
* ``muster``   -- as ``westeros``; the first card resolved must open a mustering (BG-WCARD-02);
* ``combat``   -- the attacker's turn of the March step: its March in ``combat.from_area`` is
  resolved into ``combat.to_area`` (BG-MARCH-01), every supporting house declares as the fixture
  says (BG-COMBAT-04), and the combat waits for both House cards (BG-COMBAT-09);
* ``retreat``  -- as ``combat``, then the House cards, abilities, the Blade and the casualties the
  fixture gives, until the loser's retreat is to be chosen (BG-COMBAT-19).

Every step goes through the same functions a command would; a fixture that the rules refuse on
the way (a march that is not legal, a card not in hand, a combat that never reaches a retreat
choice) is refused when the game is created (:func:`rehearse`), with the rule it breaks.
"""

from __future__ import annotations

from ..core.context import Context
from ..core.errors import RuleViolation
from . import events as ev
from .action import combat, flow, marches
from .action import events as aev
from .action.house_cards import combatants
from .emitter import Emitter
from .events import Event
from .evolve import evolve
from .orders import order_type
from .scenario_schema import CombatSetup, Scenario
from .state import WESTEROS_STEP, BoardState
from .westeros import deck
from .westeros import events as wev

__all__ = ["opening", "rehearse"]

#: The step each pending start point opens on.
TARGET_STEP = {"muster": "muster", "combat": "choose_house_card", "retreat": "choose_retreat"}


def _fail(detail: str, rule: str | None) -> RuleViolation:
    return RuleViolation(detail, rule=rule, code="invalid_scenario")


def opening(state: BoardState, ctx: Context) -> list[Event]:
    """The events that open the fixture's start point; ``state`` is the game right after
    ``GameStarted``. Raises :class:`RuleViolation` (``invalid_scenario``) if the rules refuse it."""
    fx = state.fixture
    assert fx is not None, "a start point other than planning comes from a fixture"
    em = Emitter(state, ctx)
    match fx.start_at:
        case "action":
            em.emit(ev.StepBegan(phase="action", step="awaiting_action_phase", round=state.round))
        case "raven":
            em.emit(ev.StepBegan(phase="planning", step="messenger_raven", round=state.round, deadline=em.deadline()))
        case "westeros" | "muster":
            _open_westeros(em, fx)
        case "combat" | "retreat":
            _open_combat(em, fx)
        case _:
            raise AssertionError(f"no opening for start_at {fx.start_at!r}")
    target = TARGET_STEP.get(fx.start_at)
    if target is not None and em.state.step != target:
        raise _fail(
            f"the fixture does not reach {fx.start_at}: the game stops at step '{em.state.step}'",
            {"muster": "BG-WCARD-02", "combat": "BG-COMBAT-02", "retreat": "BG-COMBAT-19"}[fx.start_at],
        )
    return em.events


def rehearse(state: BoardState, started: ev.GameStarted, ctx: Context) -> None:
    """Open the start point once at creation (nothing is kept): a fixture the rules refuse on the
    way is refused as ``invalid_scenario`` with the rule the refusal names."""
    try:
        opening(evolve(state, started), ctx)
    except RuleViolation as e:
        if e.code == "invalid_scenario":
            raise
        raise _fail(f"the fixture's start point cannot be reached: {e.detail}", e.rule) from e


def _open_westeros(em: Emitter, fx: Scenario) -> None:
    """BG-WEST-01 from the threshold; with a later ``start_deck`` the earlier decks' cards are
    revealed and put to the bottom (resolved before the position), the threat left as given."""
    s = em.state
    em.emit(ev.StepBegan(phase="westeros", step=WESTEROS_STEP, round=s.round, deadline=None))
    start = fx.westeros.start_deck if fx.westeros else "deck_i"
    if start == "deck_i":
        deck.start(em)
        return
    em.emit(wev.WesterosPhaseBegan(round=s.round))
    for d in deck.DECKS:
        deck.draw(em, d)
    for d in deck.DECKS[: deck.DECKS.index(start)]:
        w = em.state.westeros
        assert w is not None, "WesterosPhaseBegan opened the phase"
        em.emit(wev.WesterosCardResolved(deck=d, card=w.revealed[d]))
    deck.advance(em)


def _open_combat(em: Emitter, fx: Scenario) -> None:
    c = fx.combat
    assert c is not None, "validate_scenario requires combat with these start points"
    s = em.state
    attacker = s.areas[c.from_area].house if c.from_area in s.areas else None
    if attacker is None:
        raise _fail(f"combat.from_area '{c.from_area}' holds no units", "BG-MARCH-01")
    placed = s.orders.get(c.from_area)
    if placed is None or order_type(placed.order) != "march":
        raise _fail(f"combat.from_area '{c.from_area}' needs {attacker}'s March order (areas.order)", "BG-MARCH-01")
    em.emit(ev.StepBegan(phase="action", step="awaiting_action_phase", round=s.round))
    em.emit(aev.ActionPhaseBegan())
    em.emit(aev.OrderTurnBegan(order_type="march", house=attacker))
    em.emit(ev.StepBegan(phase="action", step="resolve_march", round=s.round, deadline=em.deadline()))
    marches.resolve_march(em, attacker, c.from_area, {c.to_area: c.units.as_dict()}, False)
    began = em.state.action.combat if em.state.action else None
    if began is None:
        raise _fail(f"marching into '{c.to_area}' starts no combat", "BG-COMBAT-01")
    extra = sorted(set(c.support) - set(began.support_queue))
    if extra:
        raise _fail(f"{', '.join(extra)} cannot support this combat (no Support order next to it)", "BG-COMBAT-03")
    flow.advance(em)
    target = TARGET_STEP[fx.start_at]
    for _ in range(64):
        if em.state.step == target or not _answer(em, c):
            return
        flow.advance(em)


def _answer(em: Emitter, c: CombatSetup) -> bool:
    """Take the fixture's answer to the decision the combat asks now; False if it asks none."""
    s = em.state
    cb = s.action.combat if s.action else None
    if cb is None:
        return False
    match s.step:
        case "declare_support":
            house = cb.support_queue[0]
            if house not in c.support:
                raise _fail(f"combat.support must say whom {house} supports", "BG-COMBAT-04")
            combat.declare_support(em, house, c.support[house])
        case "choose_house_card":
            house = next(h for h in combatants(s, cb) if h not in cb.cards and h not in cb.no_card)
            if house not in c.cards:
                raise _fail(f"combat.cards must give {house}'s House card", "BG-COMBAT-09")
            combat.choose_house_card(em, house, c.cards[house])
        case "house_card_ability":
            ability = cb.ability
            assert ability is not None, "the step opens with its ability"
            if ability.card not in c.abilities:
                raise _fail(f"combat.abilities must answer {ability.card}'s ability", "BG-COMBAT-09")
            combat.choose_ability(em, ability.house, c.abilities[ability.card])
        case "use_blade":
            holder = s.blade_holder()
            if c.use_blade is None or holder is None:
                raise _fail("combat.use_blade must say whether the Valyrian Steel Blade is used", "BG-COMBAT-11")
            combat.use_blade(em, holder, c.use_blade)
        case "choose_casualties":
            if c.casualties is None or cb.loser is None:
                raise _fail("combat.casualties must give the loser's casualties", "BG-COMBAT-15")
            combat.choose_casualties(em, cb.loser, c.casualties.as_dict())
        case _:
            return False
    return True
