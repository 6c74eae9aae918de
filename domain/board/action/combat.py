"""Combat (BG-COMBAT-01..28) and attacks on neutral forces (BG-MARCH-12), as a chain of stages.

``Combat.stage`` names where the combat stands; :func:`run` performs the automatic work of that
stage and either opens a player decision (returns True) or moves to the next stage. The stages
follow BG-COMBAT-02 and the card timing of BG-COMBAT-09:

``support`` (one house at a time in turn order, BG-COMBAT-04) -> ``cards`` (both choose sealed,
revealed together) -> ``cancel`` (Tyrion) -> ``immediately`` -> ``blade`` (BG-COMBAT-11) ->
``decide`` (BG-COMBAT-12/13, cards discarded, BG-COMBAT-25) -> ``win_lose`` -> ``casualties``
(BG-COMBAT-14..17) -> ``retreat`` (BG-COMBAT-18..22; ``choose_retreat_losses`` when supply forces losses, BG-COMBAT-20)
-> ``finish`` (BG-COMBAT-24/26/27/28, ports)
-> ``after`` (Patchface, Ser Loras) -> over. A neutral force goes ``support`` -> ``neutral``.
"""

from __future__ import annotations

from ...core.errors import NotYourTurn, RuleViolation
from .. import board_data, power
from .. import mod_events as mev
from ..adjacency import can_support
from ..emitter import Emitter
from ..orders import order_type
from ..sealed_inputs import HOUSE_CARD, seal
from ..state import WEAKEST_FIRST, BoardState
from ..strength import initial_strength, standing
from ..tracks import tracks_of
from . import events as aev
from . import house_cards as hc
from . import tides
from . import vassal_cards as vassal
from .retreats import best_retreat_areas, finish_retreat, retreat, valid_losses
from .state import Combat
from .sweeps import after_moves, remove_enemy_power_token
from .targets import defender_of, destination_kind
from .turns import action_of, combat_of, open_decision, require_step

#: The order in which the engine picks casualties by default (weakest first).
CASUALTY_ORDER = WEAKEST_FIRST


def support_queue(state: BoardState, attacker: str, defender: str | None, area: str) -> list[str]:
    """BG-COMBAT-03/04: houses other than the combatants with a Support order that can reach
    ``area``, in turn order."""
    out = []
    for h in state.turn_order():
        if h in (attacker, defender) or state.family(h) in (state.family(attacker), state.family(defender or "")):
            continue  # MOD-VASSAL-18: a combatant's family backs its side without a declaration
        if any(
            o.house == h and order_type(o.order) == "support" and can_support(state, a, area)
            for a, o in state.orders.items()
        ):
            out.append(h)
    return out


def begin_combat(
    em: Emitter, attacker: str, from_area: str, area: str, units: dict[str, int], march_order: str
) -> None:
    s = em.state
    neutral = destination_kind(s, attacker, area) == "neutral"
    defender = None if neutral else defender_of(s, area)
    em.emit(
        aev.CombatBegan(
            attacker=attacker,
            defender=defender,
            area=area,
            from_area=from_area,
            march_order=march_order,
            units=dict(units),
            support_queue=support_queue(s, attacker, defender, area),
        )
    )


def _stage(em: Emitter, stage: str) -> bool:
    em.emit(aev.CombatStageBegan(stage=stage))
    return False


def card_options(state: BoardState, c: Combat, house: str) -> list[str]:
    """BG-COMBAT-09: any card in hand, except one Tyrion cancelled."""
    return sorted(card for card in state.houses[house].hand if card != c.cancelled.get(house))


def run(em: Emitter) -> bool:
    c = combat_of(em.state)
    return STAGES[c.stage](em, c)


# --- stages ----------------------------------------------------------------------------------


def st_support(em: Emitter, c: Combat) -> bool:
    if c.support_queue:
        return open_decision(em, "declare_support")
    return _stage(em, "neutral" if c.defender is None else "cards")


def st_neutral(em: Emitter, c: Combat) -> bool:
    """BG-MARCH-12: units + March modifier + support must reach the token's strength; then the token
    leaves the game and the units move in. Otherwise they stay where they are."""
    s = em.state
    total = initial_strength(s, c)[c.attacker]
    need = s.areas[c.area].neutral
    won = total >= need
    em.emit(
        aev.CombatDecided(
            strength={c.attacker: total, "neutral_force": need},
            winner=c.attacker if won else "neutral_force",
            loser="neutral_force" if won else c.attacker,
            casualties=0,
        )
    )
    if won:
        em.emit(aev.NeutralForceRemoved(area=c.area))
        em.emit(
            aev.UnitsMoved(
                house=c.attacker, from_area=c.from_area, to_area=c.area, units=dict(c.units), reason="BG-MARCH-12"
            )
        )
        remove_enemy_power_token(em, c.attacker, c.area, "BG-MARCH-05")
    if c.from_area in em.state.orders:
        o = em.state.orders[c.from_area]
        em.emit(aev.OrderRemoved(area=c.from_area, house=o.house, order=o.order, reason="BG-MARCH-08"))
    after_moves(em)
    em.emit(aev.CombatEnded(area=c.area))
    return False


def draw_vassal_cards(em: Emitter, c: Combat) -> None:
    """MOD-VASSAL-14: for a vassal in combat, its commander shuffles the shared Vassal House deck and
    draws 3 cards as the vassal's hand for this combat (the shuffle from its own stream of the seed)."""
    for h in hc.combatants(em.state, c):
        s = em.state
        if h not in s.vassals or s.has_left(h) or s.houses[h].hand or h in c.cards or h in c.no_card:
            continue
        number = s.vassal_draws + 1
        deck = em.ctx.rng(vassal_shuffle_purpose(number)).shuffled(list(s.vassal_house_deck))
        em.emit(
            mev.VassalHouseCardsDrawn(
                house=h, commander=s.family(h), number=number, deck=deck, cards=deck[:VASSAL_HAND]
            )
        )


VASSAL_HAND = 3
"""MOD-VASSAL-14: the commander draws 3 vassal cards as a temporary hand."""


def vassal_shuffle_purpose(number: int) -> str:
    """The random stream of the ``number``-th shuffle of the Vassal House deck (MOD-VASSAL-14)."""
    return f"vassal_cards/{number}"


def restore_vassal_deck(em: Emitter, c: Combat) -> None:
    """MOD-VASSAL-16: at the end of the combat all seven vassal cards go back into the deck."""
    for h in (c.attacker, c.defender):
        if h is not None and h in em.state.vassals and not em.state.has_left(h):  # MOD-FLEX-02: its own cards
            em.emit(mev.VassalHouseDeckRestored(house=h))


def st_cards(em: Emitter, c: Combat) -> bool:
    draw_vassal_cards(em, c)
    c = combat_of(em.state)
    s = em.state
    for h in hc.combatants(s, c):
        if h not in c.cards and h not in c.no_card and not card_options(s, c, h):
            sealed_card(em, h, None)  # BG-COMBAT-10
    c = combat_of(em.state)
    missing = [h for h in hc.combatants(em.state, c) if h not in c.cards and h not in c.no_card]
    if missing:
        return open_decision(em, "choose_house_card", fresh=False)
    cards = {h: c.cards.get(h) for h in hc.combatants(em.state, c)}
    em.emit(aev.HouseCardsRevealed(cards=cards, salts={h: c.salts[h] for h in cards if h in c.salts}))
    return _stage(em, "cancel")


def st_cancel(em: Emitter, c: Combat) -> bool:
    """Tyrion Lannister: cancel the opponent's card; it goes back to hand and another is chosen.
    Jaqen H'ghar (vassal card): cancel it and reveal a random card of that hand instead
    (:func:`.vassal_cards.jaqen_h_ghar`). In turn order; no text resolves twice."""
    for h in hc.combatants(em.state, c):
        if c.cards.get(h) in vassal.CANCEL and not hc.done(c, h, vassal.JAQEN):
            vassal.jaqen_h_ghar(em, c, h)
            return False  # re-run: the drawn card may have a cancel text of its own
        if c.cards.get(h) == "tyrion_lannister" and not hc.done(c, h, "tyrion_lannister"):
            if c.cards.get(hc.opponent(c, h)) is None:
                em.emit(aev.AbilityResolved(house=h, card="tyrion_lannister"))
                continue
            em.emit(aev.AbilityChoicePending(house=h, card="tyrion_lannister", choices=["cancel"], may_skip=True))
            return open_decision(em, "house_card_ability")
    return _stage(em, "immediately")


def st_immediately(em: Emitter, c: Combat) -> bool:
    for h in hc.combatants(em.state, c):
        c = combat_of(em.state)
        card = c.cards.get(h)
        if card in hc.IMMEDIATE and not hc.done(c, h, card):
            if hc.immediately_pending(em, c, h, card):
                return open_decision(em, "house_card_ability")
            return False  # re-run: a swapped-in card may have its own text
    return _stage(em, "blade")


def blade_holder(state: BoardState) -> str | None:
    """BG-COK-01: the Fiefdoms track's position 1 holds the Valyrian Steel Blade."""
    return state.blade_holder()


def blade_side(state: BoardState, c: Combat, holder: str) -> str | None:
    """The combatant the Blade holder may give +1: itself, or (MOD-VASSAL-15) a vassal it commands,
    even though the vassal is not first on the Fiefdoms track."""
    for h in (c.attacker, c.defender):
        if h is not None and state.family(h) == holder:
            return h
    return None


def st_blade(em: Emitter, c: Combat) -> bool:
    if tides.before_blade(em, c):  # BG-TIDES-03: draw, maybe redraw with the Blade, reveal
        return open_decision(em, "use_blade")
    s = em.state
    holder = blade_holder(s)
    if (
        holder is not None
        and blade_side(s, c, holder) is not None
        and not s.blade_used
        and not hc.done(c, holder, "blade")
    ):
        return open_decision(em, "use_blade")
    return _stage(em, "decide")


def final_strength(state: BoardState, c: Combat) -> dict[str, int]:
    """BG-COMBAT-12: initial strength + House card strength (with its texts) + the Blade (+ the
    revealed Tides of Battle card, BG-TIDES-03)."""
    out = initial_strength(state, c)
    for h in (c.attacker, hc.defender(c)):
        out[h] += hc.card_strength(state, c, h) + (1 if c.blade == h else 0) + tides.strength(c, h)
    return out


def st_decide(em: Emitter, c: Combat) -> bool:
    """BG-COMBAT-13: higher final strength wins; a tie goes to the house higher on Fiefdoms.
    Casualties = winner's swords - loser's towers, at least 0 (BG-COMBAT-15); none for a loser
    with The Blackfish. Both played cards go to their discard piles now (BG-COMBAT-25)."""
    s = em.state
    strength = final_strength(s, c)
    a, d = c.attacker, hc.defender(c)
    if strength[a] != strength[d]:
        winner = a if strength[a] > strength[d] else d
    else:
        fief = tracks_of(s).fiefdoms
        winner = a if fief.index(a) < fief.index(d) else d
    loser = d if winner == a else a
    swords, _ = hc.icons(s, c, winner)
    _, towers = hc.icons(s, c, loser)
    swords, towers = swords + tides.icons(c, winner)[0], towers + tides.icons(c, loser)[1]  # BG-TIDES-03
    casualties = max(0, swords - towers)
    if c.cards.get(loser) == "the_blackfish":
        casualties = 0
    em.emit(aev.CombatDecided(strength=strength, winner=winner, loser=loser, casualties=casualties))
    if winner in s.vassals:  # MOD-VASSAL-17: the commander of a winning vassal gains 1 Power
        power.gain(em, s.family(winner), 1, "MOD-VASSAL-17")
    for h in hc.combatants(s, c):
        card = c.cards.get(h)
        if card is not None:
            em.emit(aev.HouseCardsDiscarded(house=h, cards=[card], reason="BG-COMBAT-25"))
    return _stage(em, "win_lose")


def st_win_lose(em: Emitter, c: Combat) -> bool:
    for h in hc.combatants(em.state, c):
        c = combat_of(em.state)
        card = c.played.get(h)
        if card in hc.WIN_LOSE and not hc.done(c, h, card):
            if hc.win_lose_pending(em, c, h, card):
                return open_decision(em, "house_card_ability")
    return _stage(em, "casualties")


def loser_army(state: BoardState, c: Combat) -> tuple[str, dict[str, int], bool]:
    """(area, units, are-they-attacking-units) of the losing army."""
    if c.loser == c.attacker:
        return c.from_area, dict(c.units), True
    a = state.areas[c.area]
    return c.area, dict(a.units) if a.house == c.defender else {}, False


def st_casualties(em: Emitter, c: Combat) -> bool:
    """BG-COMBAT-14: routed units and Siege Engines of the losing army die first; BG-COMBAT-17: a
    losing defender's garrison leaves the game; BG-COMBAT-15/16: then the casualties, chosen by the
    loser among its remaining units in the combat (all of them if the number reaches the army)."""
    s = em.state
    _, loser = hc.outcome(c)
    area, units, attacking = loser_army(s, c)
    routed = action_of(s).routed.get(area, {}) if not attacking else {}
    dead = {u: n for u, n in routed.items() if n}
    if units.get("siege_engine"):
        dead["siege_engine"] = units["siege_engine"]
    if dead:
        em.emit(
            aev.UnitsDestroyed(
                house=loser, area=area, units=dead, routed=dict(routed), reason="BG-COMBAT-14", combat_units=attacking
            )
        )
    if c.loser == c.defender and s.areas[c.area].garrison:
        em.emit(aev.GarrisonRemoved(area=c.area))
    s = em.state
    c = combat_of(s)
    area, units, attacking = loser_army(s, c)
    size = sum(units.values())
    n = min(c.casualties, size)
    if n <= 0:
        return _stage(em, "retreat")
    if n == size or len([u for u in units if units[u]]) == 1:
        kill = units if n == size else {next(u for u in units if units[u]): n}
        em.emit(aev.UnitsDestroyed(house=loser, area=area, units=kill, reason="BG-COMBAT-15", combat_units=attacking))
        return _stage(em, "retreat")
    return _stage(em, "choose_casualties")


def st_choose_casualties(em: Emitter, c: Combat) -> bool:
    return open_decision(em, "choose_casualties")


def attacker_may_go_home(state: BoardState, c: Combat) -> bool:
    """BG-COMBAT-18: the retreat home is impossible when the march came from another house's home area
    that the attacker emptied without leaving a Power token (control went back to the home house)."""
    facts = board_data.areas_for(state.settings.expansion)[c.from_area]
    if facts.home_of in (None, c.attacker) or facts.home_of not in state.houses_in_play:
        return True
    a = state.areas[c.from_area]
    staying = sum(a.units.values()) - sum(c.units.values())
    return staying > 0 or a.power_token == c.attacker


def st_retreat(em: Emitter, c: Combat) -> bool:
    """BG-COMBAT-18..21 (Robb Stark: the winner chooses the area)."""
    if tides.skulls_pending(em, c):  # BG-TIDES-04: skulls, after the casualties
        return open_decision(em, "choose_casualties")
    if after_casualties(em, c):  # Beric Dondarrion (vassal card)
        return open_decision(em, "house_card_ability")
    c = combat_of(em.state)
    s = em.state
    winner, loser = hc.outcome(c)
    area, units, attacking = loser_army(s, c)
    units = {u: n for u, n in units.items() if n}
    if not units:
        return _stage(em, "finish")
    robb = c.played.get(winner) == "robb_stark"
    if attacking:
        home_ok = attacker_may_go_home(s, c)
        if not robb:
            if home_ok:
                # Back where they marched from; supply still applies there (BG-COMBAT-20): armies
                # formed elsewhere meanwhile may leave no room for the whole army at home.
                if retreat(em, loser, c.from_area, c.from_area, units, True):
                    return _stage(em, "choose_retreat_losses")
            else:
                em.emit(
                    aev.UnitsDestroyed(house=loser, area=area, units=units, reason="BG-COMBAT-18", combat_units=True)
                )
            return _stage(em, "finish")
        legal = set(best_retreat_areas(s, c, loser, units, c.from_area, exclude=None))
        if home_ok:
            legal.add(c.from_area)
    else:
        legal = set(best_retreat_areas(s, c, loser, units, c.area, exclude=c.from_area))
    options = sorted(legal)
    if not options:
        em.emit(aev.UnitsDestroyed(house=loser, area=area, units=units, reason="BG-COMBAT-21", combat_units=attacking))
        return _stage(em, "finish")
    if len(options) == 1:
        return _stage(
            em, "choose_retreat_losses" if retreat(em, loser, area, options[0], units, attacking) else "finish"
        )
    em.emit(aev.RetreatPending(chooser=winner if robb else loser, options=options))
    return _stage(em, "choose_retreat")


def after_casualties(em: Emitter, c: Combat) -> bool:
    """The texts that act once the casualties are taken, before the retreat (Beric Dondarrion,
    :func:`.vassal_cards.after_casualties_pending`). True when a choice is pending."""
    for h in hc.combatants(em.state, c):
        c = combat_of(em.state)
        card = c.played.get(h)
        if card in vassal.AFTER_CASUALTIES and not hc.done(c, h, card):
            if vassal.after_casualties_pending(em, c, h, card):
                return True
    return False


def st_choose_retreat(em: Emitter, c: Combat) -> bool:
    return open_decision(em, "choose_retreat")


def st_choose_retreat_losses(em: Emitter, c: Combat) -> bool:
    """BG-COMBAT-20: the retreating house chooses which retreating units supply destroys."""
    return open_decision(em, "choose_retreat_losses")


def st_finish(em: Emitter, c: Combat) -> bool:
    """BG-COMBAT-24: a winning attacker's surviving units move in (not against Arianne Martell) and
    an enemy Power token there goes to the Pool; BG-COMBAT-27: the March order goes, and a losing
    defender's order too; BG-COMBAT-28 / BG-ORDER-08: orders in empty areas go; BG-MAP-07: ports
    follow control; BG-COMBAT-26: a house that played its last card takes back its other discards."""
    s = em.state
    if c.winner == c.attacker:
        survivors = {u: n for u, n in c.units.items() if n}
        if survivors and c.played.get(hc.defender(c)) != "arianne_martell":
            em.emit(
                aev.UnitsMoved(
                    house=c.attacker, from_area=c.from_area, to_area=c.area, units=survivors, reason="BG-COMBAT-24"
                )
            )
            remove_enemy_power_token(em, c.attacker, c.area, "BG-COMBAT-24")
    o = em.state.orders.get(c.from_area)
    if o is not None and o.house == c.attacker and o.order == c.march_order:
        em.emit(aev.OrderRemoved(area=c.from_area, house=o.house, order=o.order, reason="BG-COMBAT-27"))
    o = em.state.orders.get(c.area)
    if c.loser == c.defender and o is not None and o.house == c.defender:
        em.emit(aev.OrderRemoved(area=c.area, house=o.house, order=o.order, reason="BG-COMBAT-27"))
    after_moves(em)
    s = em.state
    for h in hc.combatants(s, c):
        hs = s.houses[h]
        if not hs.hand:
            back = [card for card in hs.discards if card != c.played.get(h)]
            if back:
                em.emit(aev.HouseCardsReturned(house=h, cards=back, reason="BG-COMBAT-26"))
    return _stage(em, "after")


def st_after(em: Emitter, c: Combat) -> bool:
    for h in hc.combatants(em.state, c):
        c = combat_of(em.state)
        card = c.played.get(h)
        if card in hc.AFTER and not hc.done(c, h, card):
            if hc.after_pending(em, c, h, card):
                return open_decision(em, "house_card_ability")
    restore_vassal_deck(em, c)
    em.emit(aev.CombatEnded(area=c.area))
    return False


STAGES = {
    "support": st_support,
    "neutral": st_neutral,
    "cards": st_cards,
    "cancel": st_cancel,
    "immediately": st_immediately,
    "blade": st_blade,
    "decide": st_decide,
    "win_lose": st_win_lose,
    "casualties": st_casualties,
    "choose_casualties": st_choose_casualties,
    "retreat": st_retreat,
    "choose_retreat": st_choose_retreat,
    "choose_retreat_losses": st_choose_retreat_losses,
    "finish": st_finish,
    "after": st_after,
}


# --- player answers --------------------------------------------------------------------------


def support_options(c: Combat) -> list[str]:
    return ["attacker", "none"] if c.defender is None else ["attacker", "defender", "none"]


def declare_support(em: Emitter, house: str, side: str, by_default: bool = False) -> None:
    """BG-COMBAT-03/04: the next house in turn order declares for all its adjacent Support orders."""
    require_step(em.state, "declare_support")
    c = combat_of(em.state)
    if not c.support_queue or c.support_queue[0] != house:
        raise NotYourTurn(
            f"support is declared one house at a time; waiting for {c.support_queue[0] if c.support_queue else 'nobody'}",
            rule="BG-COMBAT-04",
        )
    if side not in support_options(c):
        raise RuleViolation("a neutral force is never supported", rule="BG-MARCH-12")
    em.emit(aev.SupportDeclared(house=house, side=side, by_default=by_default))


def choose_house_card(em: Emitter, house: str, card: str, by_default: bool = False) -> None:
    """BG-COMBAT-09: a combatant picks a card from hand, face down."""
    s = em.state
    require_step(s, "choose_house_card")
    c = combat_of(s)
    if house not in (c.attacker, c.defender):
        raise NotYourTurn("only the attacker and the defender play House cards", rule="BG-COMBAT-01")
    if house in c.cards or house in c.no_card:
        raise RuleViolation("you have already chosen your House card", rule="BG-COMBAT-09", code="already_chosen")
    if card not in card_options(s, c, house):
        raise RuleViolation(f"'{card}' is not a House card you may play now", rule="BG-COMBAT-09", code="not_in_hand")
    sealed_card(em, house, card, by_default)


def sealed_card(em: Emitter, house: str, card: str | None, by_default: bool = False) -> None:
    """The House card's submission event, face down, with its public commitment
    (:mod:`..sealed_inputs`); no card (BG-COMBAT-10) is committed too."""
    seq = em.state.version + len(em.events) + 1
    salt, commitment = seal(em.state, em.ctx, seq, HOUSE_CARD, house, card)
    commander = em.state.commanders.get(house)
    em.emit(
        aev.HouseCardChosen(
            house=house, card=card, by_default=by_default, salt=salt, commitment=commitment, commander=commander
        )
    )


def choose_ability(em: Emitter, house: str, choice: str | None, by_default: bool = False) -> None:
    s = em.state
    require_step(s, "house_card_ability")
    c = combat_of(s)
    p = c.ability
    if p is None or p.house != house:
        raise NotYourTurn("no House card ability of yours is waiting", rule="BG-COMBAT-09")
    if choice is None and not p.may_skip:
        raise RuleViolation(f"{p.card} must be used: choose one of {', '.join(p.choices)}", rule="BG-COMBAT-09")
    if choice is not None and choice not in p.choices:
        raise RuleViolation(
            f"'{choice}' is not one of {', '.join(p.choices)}", rule="BG-COMBAT-09", code="illegal_choice"
        )
    hc.apply_choice(em, c, house, p.card, choice, by_default)


def use_blade(em: Emitter, house: str, use: bool, by_default: bool = False) -> None:
    """BG-COMBAT-11: the Blade holder, attacker or defender, may add +1 once per round."""
    s = em.state
    require_step(s, "use_blade")
    holder = blade_holder(s)
    if holder is None or s.family(house) != holder:  # for its vassal too (MOD-VASSAL-15)
        raise NotYourTurn("only the Valyrian Steel Blade holder decides this", rule="BG-COMBAT-11")
    house = holder
    if tides.redraw_pending(s, combat_of(s)):  # BG-TIDES-03 step 4.1
        tides.answer_redraw(em, house, use, by_default)
        return
    side = blade_side(s, combat_of(s), house) or house  # the combatant that gets +1 (MOD-VASSAL-15)
    em.emit(aev.BladeUsed(house=side) if use else aev.BladeDeclined(house=house, by_default=by_default))
    em.emit(aev.CombatStageBegan(stage="decide"))


def default_casualties(units: dict[str, int], n: int) -> dict[str, int]:
    out: dict[str, int] = {}
    for u in CASUALTY_ORDER:
        k = min(n, units.get(u, 0))
        if k:
            out[u] = k
            n -= k
    return out


def choose_casualties(em: Emitter, house: str, units: dict[str, int], by_default: bool = False) -> None:
    """BG-COMBAT-15/16: the loser picks exactly the required number among its units in the combat."""
    s = em.state
    require_step(s, "choose_casualties")
    c = combat_of(s)
    if tides.skull_choice(c) is not None:  # BG-TIDES-04
        tides.choose_skull_losses(em, house, units, by_default)
        return
    if house != c.loser:
        raise NotYourTurn("the loser chooses its casualties", rule="BG-COMBAT-15")
    area, army, attacking = loser_army(s, c)
    units = {u: n for u, n in units.items() if n}
    need = min(c.casualties, sum(army.values()))
    if sum(units.values()) != need or any(n > army.get(u, 0) for u, n in units.items()):
        raise RuleViolation(
            f"choose exactly {need} of your units in the combat", rule="BG-COMBAT-15", code="casualty_count"
        )
    em.emit(aev.CasualtiesChosen(house=house, units=units, by_default=by_default))
    em.emit(aev.UnitsDestroyed(house=house, area=area, units=units, reason="BG-COMBAT-15", combat_units=attacking))
    em.emit(aev.CombatStageBegan(stage="retreat"))


def choose_retreat(em: Emitter, house: str, area: str, by_default: bool = False) -> None:
    s = em.state
    require_step(s, "choose_retreat")
    c = combat_of(s)
    if house != c.retreat_chooser:
        raise NotYourTurn(f"{c.retreat_chooser} chooses the retreat area", rule="BG-COMBAT-19")
    if area not in c.retreat_options:
        raise RuleViolation(
            f"'{area}' is not a legal retreat area; choose one of {', '.join(c.retreat_options)}",
            rule="BG-COMBAT-19",
            code="illegal_retreat",
        )
    _, loser = hc.outcome(c)
    src, units, attacking = loser_army(s, c)
    em.emit(aev.RetreatChosen(house=house, area=area, by_default=by_default))
    losses = retreat(em, loser, src, area, {u: n for u, n in units.items() if n}, attacking)
    em.emit(aev.CombatStageBegan(stage="choose_retreat_losses" if losses else "finish"))


def choose_retreat_losses(em: Emitter, house: str, units: dict[str, int], by_default: bool = False) -> None:
    """BG-COMBAT-20 (Review 2): the retreating house picks exactly the required number of its retreating
    units; they are destroyed and the others retreat."""
    s = em.state
    require_step(s, "choose_retreat_losses")
    c = combat_of(s)
    pending = c.retreat_losses
    if pending is None or house != pending.house:
        raise NotYourTurn("the retreating house chooses its supply losses", rule="BG-COMBAT-20")
    units = {u: n for u, n in units.items() if n}
    if not valid_losses(pending.units, pending.count, units):
        raise RuleViolation(
            f"choose exactly {pending.count} of your retreating units ({_listing(pending.units)})",
            rule="BG-COMBAT-20",
            code="retreat_loss_count",
        )
    src, army, attacking = loser_army(s, c)
    em.emit(aev.RetreatLossesChosen(house=house, units=units, by_default=by_default))
    finish_retreat(em, house, src, pending.area, {u: n for u, n in army.items() if n}, units, attacking)
    em.emit(aev.CombatStageBegan(stage="finish"))


def _listing(units: dict[str, int]) -> str:
    return ", ".join(f"{n} {u}" for u, n in sorted(units.items()))


__all__ = ["begin_combat", "run", "standing"]
