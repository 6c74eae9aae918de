"""Helpers for combat scenarios: Stark attacks Lannister in the north by default.

Map used: winterfell (Stark, attacker) -> karhold (Lannister, defender). castle_black touches both;
the_shivering_sea touches both. Fiefdoms (6 players): greyjoy, tyrell, martell, stark, baratheon,
lannister, so Stark wins ties against Lannister; Greyjoy holds the Blade.
"""

from __future__ import annotations

from tests.support.action_positions import Position, acmd


def north(
    att=None,
    dfn=None,
    extra=None,
    orders=None,
    march="march_0",
    defense=None,
    a="stark",
    d="lannister",
    no_blade=False,
    settings=None,
    **kw,
) -> Position:
    """``a`` attacks from winterfell, ``d`` defends karhold. ``no_blade`` marks the Blade used;
    ``settings`` are the game's (e.g. Tides of Battle on)."""
    units = {"winterfell": (a, att or {"knight": 1}), "karhold": (d, dfn or {"footman": 1})}
    units.update(extra or {})
    o = {"winterfell": march}
    if defense:
        o["karhold"] = defense
    o.update(orders or {})
    kw.setdefault("garrisons", {})
    kw.setdefault("supply", {h: 6 for h in ("stark", "lannister", "baratheon", "greyjoy", "tyrell", "martell")})
    sc = Position(6, settings=settings).setup(units, o, **kw)
    sc.state.blade_used = no_blade
    sc.begin()
    return sc


def attack(sc: Position, units=None, frm="winterfell", to="karhold", house="stark", extra_moves=None):
    moves = {to: units or dict(sc.state.areas[frm].units)}
    moves.update(extra_moves or {})
    return sc.run(house, acmd.ResolveMarch(area=frm, moves=moves))


def cards(sc: Position, **chosen):
    """Each house=card chooses (in the given order); returns the events of the last choice."""
    out = []
    for house, card in chosen.items():
        out = sc.run(house, acmd.ChooseHouseCard(card=card))
    return out


def fight(sc: Position, att_card: str, def_card: str, attacker="stark", defender="lannister"):
    attack_events = attack(sc, house=attacker) if sc.state.step == "resolve_march" else []
    return attack_events + cards(sc, **{attacker: att_card, defender: def_card})
