"""A Citadel bot on the ``citadel-client`` package (``pip install ./clients``): a skeleton to start from.

    python simple_bot.py --game g_... --token seat1.xxxx    # play a seat you hold
    python simple_bot.py --game g_... --join "My bot"       # take a free seat, then play it

It follows the game over Server-Sent Events and, whenever something happens, answers its decisions
with :func:`choose`: make it smarter (this one takes the plainest legal answer, from the options alone).
"""

import argparse
from collections import Counter

from citadel_client import ApiProblem, SyncCitadelClient
from citadel_client import models as m


def first_units(units: dict[str, int], count: int) -> m.UnitCounts:
    """``count`` units from ``units`` (type -> how many), Footmen first (the cheapest)."""
    pool = sorted(
        (u for u, n in units.items() for _ in range(n)), key=["footman", "ship", "knight", "siege_engine"].index
    )
    return m.UnitCounts(**Counter(pool[:count]))


def choose(o: m.DecisionOptions) -> m.Command | None:
    """The answer to a decision from its options alone; None leaves it to the deadline's default."""
    match o:
        case m.ChooseHouseOptions():
            return m.ChooseHouse(house=o.houses[0])
        case m.AssignOrdersOptions(submitted=None):
            regular = [t for t, n in sorted(o.tokens.items()) if t not in o.special_tokens for _ in range(n)]
            return m.AssignOrders(orders=dict(zip(o.areas, regular)))
        case m.RavenOptions():
            return m.RavenPass()
        case m.RaidOptions():
            return m.ResolveRaid(area=min(o.targets))  # removes the Raid order, raids nothing
        case m.MarchOptions():
            return m.ResolveMarch(area=min(o.orders))  # a March that moves nothing
        case m.ConsolidateOptions():
            return m.ResolveConsolidatePower(area=min(o.orders))
        case m.SupportOptions():
            return m.DeclareSupport(side="none" if "none" in o.sides else o.sides[0])
        case m.HouseCardOptions():
            return m.ChooseHouseCard(card=o.cards[0])
        case m.AbilityOptions():
            return m.ChooseAbility(choice=None if o.may_skip else o.choices[0])
        case m.BladeOptions():
            return m.UseBlade(use=False)
        case m.CasualtyOptions():
            return m.ChooseCasualties(units=first_units(o.units, o.count))
        case m.RetreatOptions():
            return m.ChooseRetreat(area=o.areas[0])
        case m.RetreatLossesOptions():
            return m.ChooseRetreatLosses(units=first_units(o.units, o.count))
        case m.PortShipsOptions():
            return m.ReplacePortShips(count=0)
        case m.BidOptions():
            return m.Bid(amount=0)
        case m.ChoiceOptions():
            return m.WesterosChoice(choice=o.default if o.default or o.may_skip else o.options[0])
        case m.MusterOptions():
            return m.Muster()
    return None  # sealed orders, select_units, reconcile_armies: the server's default at the deadline


def act(api: SyncCitadelClient, game_id: str) -> int:
    """Answer every pending decision; the version the decisions were read at."""
    ds = api.decisions(game_id)
    for d in ds.decisions:
        if (command := choose(d.options)) is not None:
            try:
                api.command(game_id, command)
            except ApiProblem as e:
                if e.status != 409:  # 409: the game moved on (a deadline, another seat): read again
                    raise
    return ds.version


def play(api: SyncCitadelClient, game_id: str) -> str | None:
    """Play until the game ends; the winner."""
    for e in api.iter_sse(game_id, after=act(api, game_id)):  # resumes by itself if the connection drops
        if e.event["type"] == "game_ended":
            return str(e.event["winner"])
        act(api, game_id)
    return None


def main() -> None:
    p = argparse.ArgumentParser(description="Play a seat of a Citadel game with plain legal answers.")
    p.add_argument("--base", default="http://127.0.0.1:8000")
    p.add_argument("--game", required=True)
    p.add_argument("--token", help="the token of a seat you hold")
    p.add_argument("--join", metavar="NAME", help="take a free seat under this name")
    args = p.parse_args()
    with SyncCitadelClient(args.base) as anyone:
        token = args.token or anyone.join(args.game, args.join or "simple bot").token
        print("winner:", play(anyone.with_token(token), args.game))


if __name__ == "__main__":
    main()
