"""Combat strength (BG-COMP-04, BG-COMBAT-05/07/08/12) with the House card texts that change unit
strength (Ser Kevan Lannister, Victarion Greyjoy, Salladhor Saan; Mother of Dragons' vassal card Syrio
Forel) or order values (Catelyn Stark).
"""

from __future__ import annotations

from . import board_data
from .action.state import Combat
from .adjacency import can_support
from .orders import order_type, token
from .state import BoardState


def castle_area(area: str) -> bool:
    return board_data.any_area(area).castle != "none"


def standing(state: BoardState, area: str) -> dict[str, int]:
    """Units in ``area`` that are not routed (routed units have strength 0, BG-COMBAT-22)."""
    a = state.areas[area]
    routed = state.action.routed.get(area, {}) if state.action else {}
    return {u: n - routed.get(u, 0) for u, n in a.units.items() if n - routed.get(u, 0) > 0}


def card_of(c: Combat, house: str | None) -> str | None:
    return c.cards.get(house) if (house and c.revealed) else None


def supports(state: BoardState, c: Combat) -> list[tuple[str, str, str]]:
    """BG-COMBAT-03/04: (area, house, side) for every Support order that backs a side. The
    combatants' own adjacent Support orders always back their own side; other houses back the side
    they declared. Against a neutral force only the marcher can be backed (BG-MARCH-12)."""
    out = []
    for area, placed in sorted(state.orders.items()):
        if order_type(placed.order) != "support" or not can_support(state, area, c.area):
            continue
        # MOD-VASSAL-18: a commander's and its vassals' Support orders always back their family's side
        if state.family(placed.house) == state.family(c.attacker):
            side = "attacker"
        elif c.defender is not None and state.family(placed.house) == state.family(c.defender):
            side = "defender"
        else:
            side = c.support.get(placed.house, "none")
        if side != "none":
            out.append((area, placed.house, side))
    return out


def side_of(c: Combat, house: str) -> str:
    return "attacker" if house == c.attacker else "defender"


def syrio_forel(state: BoardState, c: Combat, owner: str) -> bool:
    """Syrio Forel (vassal House card, MOD-VASSAL-29): "If this vassal is defending, all non-vassal
    footmen in the combat have strength 0": once revealed as the defending vassal's card, every
    Footman of a player house fighting or supporting on either side counts 0 (Swords and Ravens,
    ``SyrioForelHouseCardAbility``); vassals' Footmen keep their strength."""
    return (
        c.defender is not None
        and card_of(c, c.defender) == "syrio_forel"
        and c.defender in state.vassals
        and owner not in state.vassals
    )


def unit_value(state: BoardState, c: Combat, unit: str, owner: str, side: str) -> int:
    """BG-COMP-04 for one standing unit fighting or supporting on ``side``."""
    attacker_card = card_of(c, c.attacker)
    if unit == "footman":
        if syrio_forel(state, c, owner):
            return 0
        if side == "attacker" and owner == c.attacker and attacker_card == "ser_kevan_lannister":
            return 2
        return 1
    if unit == "knight":
        return 2
    if unit == "siege_engine":
        return 4 if side == "attacker" and castle_area(c.area) else 0
    # ship
    for h in (c.attacker, c.defender):
        if (
            h is not None
            and card_of(c, h) == "salladhor_saan"
            and owner != "baratheon"
            and is_supported(state, c, side_of(c, h))
        ):
            return 0
    if side == "attacker" and owner == c.attacker and attacker_card == "victarion_greyjoy":
        return 2
    return 1


def units_value(state: BoardState, c: Combat, units: dict[str, int], owner: str, side: str) -> int:
    return sum(n * unit_value(state, c, u, owner, side) for u, n in units.items())


def is_supported(state: BoardState, c: Combat, side: str) -> bool:
    return any(s == side for _, _, s in supports(state, c))


def support_value(state: BoardState, c: Combat, side: str) -> int:
    """BG-COMBAT-05: standing supporting units' strength plus the Support order's bonus."""
    total = 0
    for area, house, s in supports(state, c):
        if s == side:
            total += units_value(state, c, standing(state, area), house, side)
            total += token(state.orders[area].order).bonus
    return total


def attacker_units(state: BoardState, c: Combat) -> dict[str, int]:
    return dict(c.units)


def initial_strength(state: BoardState, c: Combat) -> dict[str, int]:
    """BG-COMBAT-07/08 (with the revealed cards' unit and order texts once cards are revealed).

    Attacker: marching units + March modifier + support, never below 0. Defender: standing units
    (Siege Engines 0) + Defense order (doubled by Catelyn Stark) + garrison + support."""
    march_bonus = token(c.march_order).bonus
    att = units_value(state, c, attacker_units(state, c), c.attacker, "attacker") + march_bonus
    att += support_value(state, c, "attacker")
    out = {c.attacker: max(0, att)}
    if c.defender is not None:
        d = units_value(state, c, standing(state, c.area), c.defender, "defender")
        placed = state.orders.get(c.area)
        if placed is not None and placed.house == c.defender and order_type(placed.order) == "defense":
            bonus = token(placed.order).bonus
            d += bonus * (2 if card_of(c, c.defender) == "catelyn_stark" else 1)
        d += state.areas[c.area].garrison
        d += support_value(state, c, "defender")
        out[c.defender] = d
    return out


def neutral_march_terms(
    state: BoardState, house: str, from_area: str, area: str, march_order: str
) -> tuple[int, dict[str, int]]:
    """BG-MARCH-12: what a march on the neutral force in ``area`` can reach, as ``(base, per unit
    type)``: the March modifier plus every adjacent Support order (its own always, other houses' if
    they chose to back it), and the strength each marching unit adds (Siege Engines only against a
    castle). The march reaches ``max(0, base + sum of its units' strengths)``."""
    c = Combat(attacker=house, defender=None, area=area, from_area=from_area, march_order=march_order, units={})
    for _, placed in state.orders.items():
        if placed.house != house:
            c.support[placed.house] = "attacker"
    base = token(march_order).bonus + support_value(state, c, "attacker")
    per_unit = {u: unit_value(state, c, u, house, "attacker") for u in ("footman", "knight", "ship", "siege_engine")}
    return base, per_unit


def potential_neutral_strength(
    state: BoardState, house: str, from_area: str, area: str, units: dict[str, int], march_order: str
) -> int:
    """BG-MARCH-12: the most a march of ``units`` on a neutral force could reach
    (:func:`neutral_march_terms`; the same sum as the attacker's :func:`initial_strength`)."""
    base, per_unit = neutral_march_terms(state, house, from_area, area, march_order)
    return max(0, base + sum(n * per_unit[u] for u, n in units.items()))
