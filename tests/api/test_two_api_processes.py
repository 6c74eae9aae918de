"""Two API processes writing one game (each with its own cache) lose no event, and a process that
loses the race recovers by reading the tail, not by loading the game cold (service/store/games.py,
``GameRepo.lost_race``): with several API processes a game's players reach different processes."""

import asyncio

import msgspec

from domain.board.commands import AssignOrders
from domain.core.commands import Actor
from domain.core.envelope import verify_chain
from service.engine.runtime import Runtime, build_runtime
from service.store.config import Config
from service.store.event_store import decode_entry
from service.store.keys import Keys
from tests.support.game_client import decisions, default_like_orders, new_started_game


class Counting:
    """Counts what one runtime's repository does (the real methods still run)."""

    def __init__(self, rt: Runtime) -> None:
        self.cold_loads = 0
        self.lost_races = 0
        cold, lost = rt.repo._cold_load, rt.repo.lost_race

        async def counted_cold(keys: Keys):
            self.cold_loads += 1
            return await cold(keys)

        def counted_lost(game_id: str) -> None:
            self.lost_races += 1
            lost(game_id)

        rt.repo._cold_load = counted_cold  # type: ignore[method-assign]
        rt.repo.lost_race = counted_lost  # type: ignore[method-assign]


def test_two_processes_racing_on_one_game_lose_nothing_and_recover_from_the_tail(api, service, sync_redis):
    g = new_started_game(api, players=3)
    seats = {seat: token for seat, token in g.seats.items()}
    amending = list(seats)[:2]  # the third seat never submits: the step stays open
    options = {s: decisions(api, g, seats[s])["decisions"][0]["options"] for s in amending}
    start_len = sync_redis.xlen(Keys(g.id, 16).events)
    rounds = 12

    def orders(seat: str, i: int) -> AssignOrders:
        o = default_like_orders(options[seat])
        if i % 2:  # alternate between two legal assignments so every command changes something
            o = dict(zip(o, reversed(list(o.values()))))
        return AssignOrders(orders=o)

    async def main() -> tuple[Counting, Counting, bytes, bytes, int]:
        a, b = build_runtime(Config.from_env()), build_runtime(Config.from_env())
        ca, cb = Counting(a), Counting(b)
        try:
            for i in range(rounds):
                # both processes decide at once: one of them appends second and must recover
                await asyncio.gather(
                    a.engine.execute(g.id, Actor(kind="seat", seat_id=amending[0]), orders(amending[0], i)),
                    b.engine.execute(g.id, Actor(kind="seat", seat_id=amending[1]), orders(amending[1], i)),
                )
            fresh = await a.repo.load_fresh(g.id)
            in_a, in_b = await a.repo.load(g.id), await b.repo.load(g.id)
            enc = msgspec.msgpack.Encoder()
            assert enc.encode(in_a.state) == enc.encode(fresh.state)
            return ca, cb, enc.encode(in_b.state), enc.encode(fresh.state), fresh.version
        finally:
            await a.close()
            await b.close()

    ca, cb, state_b, state_fresh, version = asyncio.run(main())
    envs = [decode_entry(f) for _, f in sync_redis.xrange(Keys(g.id, 16).events)]
    assert len(envs) == start_len + 2 * rounds == version, "every command appended exactly once"
    verify_chain(envs)
    assert state_b == state_fresh, "the recovered cache folds to the stream's state, byte for byte"
    assert ca.lost_races + cb.lost_races >= rounds - 2, "the two processes did race"
    # each process loads the game cold once (empty cache) and at most once more (its first lost race,
    # before it knows the game is shared); every later lost race restores the state before its batch
    assert ca.cold_loads <= 2 and cb.cold_loads <= 2, (ca.cold_loads, cb.cold_loads)
