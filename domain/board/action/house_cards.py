"""The 42 House cards of the six base houses (section 15.9), by the moment their text acts
(BG-COMBAT-09):

1. cancel -- Tyrion Lannister;
2. immediately -- Mace Tyrell, Queen of Thorns, Doran Martell, Aeron Damphair;
3. strength and icons, all the time -- Stannis, Davos, Theon, Balon, Asha, Nymeria, Catelyn,
   Kevan, Victarion, Salladhor Saan (see :func:`card_strength`, :func:`icons` and
   :mod:`.strength`), The Blackfish (no casualties);
4. if you win / lose -- Tywin Lannister, Roose Bolton, Renly Baratheon, Cersei Lannister;
5. end of combat -- Arianne Martell (the winning attacker does not move in), Robb Stark (the
   winner picks the retreat area) in :mod:`.combat`;
6. after combat -- Patchface, Ser Loras Tyrell.

House Arryn's cards (Mother of Dragons) live in :mod:`.arryn_cards`, the shared Vassal House deck's
in :mod:`.vassal_cards`; the hooks below call them.

When both cards act at the same moment they resolve in turn order; no text resolves twice.
Cards without text (Eddard, Greatjon, Rodrik, Gregor, Jaime, Hound, Brienne, Melisandre, Euron,
Dagmar, Garlan, Randyll, Margaery, Alester, Red Viper, Areo, Obara, Darkstar) only use their
printed values.
"""

from __future__ import annotations

from .. import board_data, power
from ..adjacency import adjacent
from ..board_data import HouseCard, all_house_cards
from ..emitter import Emitter
from ..state import BoardState
from ..strength import castle_area, is_supported, standing, supports
from ..supply import available_units
from ..tracks import track_order, tracks_of
from . import arryn_cards as arryn
from . import events as aev
from . import vassal_cards as vassal
from .card_choices import offer_optional
from .state import Combat

TRACKS = ("iron_throne", "fiefdoms", "kings_court")
IMMEDIATE = ("mace_tyrell", "queen_of_thorns", "doran_martell", "aeron_damphair", *vassal.IMMEDIATE)
WIN_LOSE = ("tywin_lannister", "roose_bolton", "renly_baratheon", "cersei_lannister", *arryn.WIN_LOSE)
AFTER = ("patchface", "ser_loras_tyrell", *arryn.AFTER, *vassal.AFTER)


def all_cards() -> dict[str, HouseCard]:
    """Every House card by id (the board facts, :func:`domain.board.board_data.all_house_cards`), with
    Mother of Dragons' House Arryn cards (their strength and icons, MOD-DATA-01) and the shared Vassal
    House deck (MOD-VASSAL-29)."""
    mod = board_data.mother_of_dragons()
    return {**all_house_cards(), **{c.id: c for c in (*mod.arryn_house_cards, *mod.vassal_house_cards)}}


def defender(c: Combat) -> str:
    """The defending house. Only an attack on a neutral force has none (BG-MARCH-12), and it goes from
    ``support`` straight to ``neutral``: no House card, no text and no later stage ever asks."""
    if c.defender is None:
        raise AssertionError(f"the attack on the neutral force in '{c.area}' has no defender")
    return c.defender


def opponent(c: Combat, house: str) -> str:
    """The other combatant (a combat with a defender, see :func:`defender`)."""
    return defender(c) if house == c.attacker else c.attacker


def outcome(c: Combat) -> tuple[str, str]:
    """``(winner, loser)``, set by ``CombatDecided`` (BG-COMBAT-13) before every stage that reads them."""
    if c.winner is None or c.loser is None:
        raise AssertionError(f"the combat in '{c.area}' is not decided yet (stage '{c.stage}')")
    return c.winner, c.loser


def combatants(state: BoardState, c: Combat) -> list[str]:
    """Attacker and defender in turn order (simultaneous texts resolve in turn order)."""
    return [h for h in state.turn_order() if h in (c.attacker, c.defender)]


def done(c: Combat, house: str, card: str) -> bool:
    return f"{house}:{card}" in c.done


def card_strength(state: BoardState, c: Combat, house: str) -> int:
    """Printed strength with its modifiers, never below 0 (BG-COMBAT-09).

    Balon Greyjoy: the opponent's card has printed strength 0. Stannis Baratheon: +1 if the
    opponent is higher on the Iron Throne track. Ser Davos Seaworth: +1 if Stannis is in the discard
    pile. Theon Greyjoy: +1 when defending a castle/stronghold area. Bronn (vassal card): 0 once the
    opponent discarded 2 Power (:func:`.vassal_cards.bronn_zeroed`)."""
    card = c.cards.get(house)
    if card is None or vassal.bronn_zeroed(c, house):
        return 0
    opp = opponent(c, house)
    value = 0 if c.cards.get(opp) == "balon_greyjoy" else all_cards()[card].strength
    track = tracks_of(state).iron_throne
    if card == "stannis_baratheon" and opp in track and track.index(opp) < track.index(house):
        value += 1
    if card == "ser_davos_seaworth" and "stannis_baratheon" in state.houses[house].discards:
        value += 1
    if card == "theon_greyjoy" and house == c.defender and castle_area(c.area):
        value += 1
    value += arryn.strength_bonus(state, c, house)  # Ser Vardis Egen, Godric Borrell
    return max(0, value)


def icons(state: BoardState, c: Combat, house: str) -> tuple[int, int]:
    """(swords, towers) of ``house``'s card with its texts: Davos +1 sword (Stannis discarded), Theon
    +1 sword (defending a castle), Asha +2 swords +1 tower (not supported), Nymeria +1 sword
    attacking / +1 tower defending."""
    card = c.cards.get(house)
    if card is None:
        return 0, 0
    facts = all_cards()[card]
    swords, towers = facts.swords, facts.fortifications
    if card == "ser_davos_seaworth" and "stannis_baratheon" in state.houses[house].discards:
        swords += 1
    if card == "theon_greyjoy" and house == c.defender and castle_area(c.area):
        swords += 1
    side = "attacker" if house == c.attacker else "defender"
    if card == "asha_greyjoy" and not is_supported(state, c, side):
        swords += 2
        towers += 1
    if card == "nymeria_sand":
        if house == c.attacker:
            swords += 1
        else:
            towers += 1
    more_swords, more_towers = arryn.icon_bonus(c, house)  # Ser Vardis Egen
    return swords + more_swords, towers + more_towers


# --- immediately ---------------------------------------------------------------------------------


def queen_of_thorns_choices(state: BoardState, c: Combat, house: str) -> list[str]:
    """Queen of Thorns: an opponent's order in an area next to the embattled area, not the March
    order of this combat."""
    opp = opponent(c, house)
    out = []
    for a in adjacent(state, c.area):
        o = state.orders.get(a)
        if o is not None and o.house == opp and not (opp == c.attacker and a == c.from_area):
            out.append(a)
    return sorted(out)


def doran_choices(state: BoardState, c: Combat, house: str) -> list[str]:
    """Doran Martell: the influence tracks on which the opponent is not already last (Review 2 "Doran
    Martell"); none when it is last on all three, and then the text does nothing."""
    opp = opponent(c, house)
    return [t for t in TRACKS if track_order(state, t)[-1] != opp]


def aeron_choices(state: BoardState, c: Combat, house: str) -> list[str]:
    """Aeron Damphair: with 2 available Power, any other card in hand."""
    if state.houses[house].power < 2:
        return []
    return sorted(card for card in state.houses[house].hand if card != "aeron_damphair")


def prevents_card_casualties(c: Combat, house: str) -> bool:
    """The Blackfish: ``house`` takes no casualties in this combat from sword icons, House card text
    (Mace Tyrell, Review 2 "Mace Tyrell vs The Blackfish") or Tides of Battle skulls. It does not save
    routed units or Siege Engines of a losing army (BG-COMBAT-14), nor units lost on retreat."""
    return c.cards.get(house) == "the_blackfish"


def mace_tyrell(em: Emitter, c: Combat, house: str) -> None:
    """Mace Tyrell: at once, destroy one of the opponent's Footmen in this combat (a standing one
    first). House card text: nothing dies against The Blackfish (:func:`prevents_card_casualties`)."""
    s = em.state
    opp = opponent(c, house)
    if prevents_card_casualties(c, opp):
        return
    if opp == c.attacker:
        if c.units.get("footman", 0) > 0:
            em.emit(
                aev.UnitsDestroyed(
                    house=opp, area=c.from_area, units={"footman": 1}, reason="mace_tyrell", combat_units=True
                )
            )
    else:
        a = s.areas[c.area]
        if a.units.get("footman", 0) > 0:
            routed = 0 if standing(s, c.area).get("footman", 0) else 1
            em.emit(
                aev.UnitsDestroyed(
                    house=opp,
                    area=c.area,
                    units={"footman": 1},
                    routed={"footman": 1} if routed else {},
                    reason="mace_tyrell",
                )
            )


def immediately_pending(em: Emitter, c: Combat, house: str, card: str) -> bool:
    """Resolve or open the "immediately" text of ``card``. True when a choice is now pending."""
    if card in vassal.IMMEDIATE:
        return vassal.immediately_pending(em, c, house, card)
    s = em.state
    if card == "mace_tyrell":
        mace_tyrell(em, c, house)
        em.emit(aev.AbilityResolved(house=house, card=card))
        return False
    if card == "queen_of_thorns":
        choices = queen_of_thorns_choices(s, c, house)
    elif card == "doran_martell":
        choices = doran_choices(s, c, house)
    else:
        choices = aeron_choices(s, c, house)
    if not choices:
        em.emit(aev.AbilityResolved(house=house, card=card))
        return False
    em.emit(aev.AbilityChoicePending(house=house, card=card, choices=choices, may_skip=card == "aeron_damphair"))
    return True


# --- if you win / lose ------------------------------------------------------------------------------


def renly_choices(state: BoardState, c: Combat, house: str) -> list[str]:
    """Renly Baratheon: areas with one of the winner's Footmen in this combat (its supporting ones
    included), while it still has a Knight to place. A routed Footman is not in the combat
    (BG-COMBAT-22: it adds nothing), so only a standing one may be upgraded."""
    if available_units(state, house, "knight") < 1:
        return []
    out = set()
    if house == c.attacker and c.units.get("footman"):
        out.add(c.from_area)
    if house == c.defender and standing(state, c.area).get("footman"):
        out.add(c.area)
    side = "attacker" if house == c.attacker else "defender"
    for area, h, sd in supports(state, c):
        if h == house and sd == side and standing(state, area).get("footman"):
            out.add(area)
    return sorted(out)


def cersei_choices(state: BoardState, c: Combat, house: str) -> list[str]:
    """Cersei Lannister: any order of the loser on the board (not the March order of this combat,
    which the combat removes anyway)."""
    loser = opponent(c, house)
    return sorted(
        a for a, o in state.orders.items() if o.house == loser and not (loser == c.attacker and a == c.from_area)
    )


def win_lose_pending(em: Emitter, c: Combat, house: str, card: str) -> bool:
    """Resolve or open a win/lose text (right after the winner is set, before casualties)."""
    if card in arryn.WIN_LOSE:
        return arryn.win_lose_pending(em, c, house, card)
    s = em.state
    won = c.winner == house
    if card == "tywin_lannister" and won:
        power.gain(em, house, 2, "tywin_lannister")
    elif card == "roose_bolton" and not won:
        cards = list(s.houses[house].discards)
        if cards:
            em.emit(aev.HouseCardsReturned(house=house, cards=cards, reason="roose_bolton"))
    elif card in ("renly_baratheon", "cersei_lannister") and won:
        choices = renly_choices(s, c, house) if card == "renly_baratheon" else cersei_choices(s, c, house)
        return offer_optional(em, house, card, choices)
    em.emit(aev.AbilityResolved(house=house, card=card))
    return False


# --- after combat ------------------------------------------------------------------------------------


def after_pending(em: Emitter, c: Combat, house: str, card: str) -> bool:
    """Patchface: look at the opponent's hand and discard one card of your choice. Ser Loras Tyrell:
    a winning attacker's March order moves into the conquered area to be resolved again."""
    if card in arryn.AFTER:
        return arryn.after_pending(em, c, house, card)
    if card in vassal.AFTER:
        return vassal.after_pending(em, c, house, card)
    s = em.state
    opp = opponent(c, house)
    if card == "patchface" and s.houses[opp].hand:
        em.emit(aev.AbilityChoicePending(house=house, card=card, choices=sorted(s.houses[opp].hand), may_skip=True))
        return True
    if card == "ser_loras_tyrell" and house == c.attacker == c.winner:
        a = s.areas[c.area]
        if a.house == house and any(a.units.values()) and c.area not in s.orders:
            em.emit(aev.OrderPlaced(area=c.area, house=house, order=c.march_order, reason="ser_loras_tyrell"))
    em.emit(aev.AbilityResolved(house=house, card=card))
    return False


# --- answering a choice ----------------------------------------------------------------------------------


def apply_choice(em: Emitter, c: Combat, house: str, card: str, choice: str | None, by_default: bool) -> None:
    """Carry out ``house``'s answer to a pending ability (validated by the caller): the card owner's,
    or the opponent's for Bronn (the resolved text is the owner's, :func:`.vassal_cards.owner_of`)."""
    s = em.state
    opp = opponent(c, house)
    owner = vassal.owner_of(c, house, card)
    chooser = house if owner != house else None
    em.emit(aev.AbilityResolved(house=owner, card=card, choice=choice, by_default=by_default, chooser=chooser))
    if choice is None:
        return
    if card in (*arryn.WIN_LOSE, *arryn.AFTER):
        arryn.apply_choice(em, c, house, card, choice)
    elif card in (*vassal.IMMEDIATE, *vassal.AFTER_CASUALTIES, *vassal.AFTER):
        vassal.apply_choice(em, c, house, card, choice)
    elif card == "tyrion_lannister":
        em.emit(aev.HouseCardCancelled(house=opp, card=c.cards[opp], by=house))
        em.emit(aev.CombatStageBegan(stage="cards"))
    elif card == "queen_of_thorns":
        o = s.orders[choice]
        em.emit(aev.OrderRemoved(area=choice, house=o.house, order=o.order, reason="queen_of_thorns"))
    elif card == "doran_martell":
        order = [h for h in getattr(s.tracks, choice) if h != opp] + [opp]
        em.emit(aev.InfluenceTrackChanged(track=choice, order=order, reason="doran_martell"))
    elif card == "aeron_damphair":
        em.emit(aev.PowerSpent(house=house, amount=2, reason="aeron_damphair"))
        em.emit(aev.HouseCardsDiscarded(house=house, cards=["aeron_damphair"], reason="aeron_damphair"))
        em.emit(aev.HouseCardSwapped(house=house, old_card="aeron_damphair", card=choice))
    elif card == "renly_baratheon":
        em.emit(
            aev.UnitUpgraded(
                house=house,
                area=choice,
                from_unit="footman",
                to_unit="knight",
                reason="renly_baratheon",
                combat_units=house == c.attacker and choice == c.from_area,
            )
        )
    elif card == "cersei_lannister":
        o = s.orders[choice]
        em.emit(aev.OrderRemoved(area=choice, house=o.house, order=o.order, reason="cersei_lannister"))
    elif card == "patchface":
        em.emit(aev.HouseCardsDiscarded(house=opp, cards=[choice], reason="patchface"))
        hs = em.state.houses[opp]
        if not hs.hand:  # Review 2 "Patchface": the BG-COMBAT-26 refresh applies at once
            back = [k for k in hs.discards if k != choice]
            if back:
                em.emit(aev.HouseCardsReturned(house=opp, cards=back, reason="BG-COMBAT-26"))
