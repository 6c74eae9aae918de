"""The watch page: a web page to follow a game in a browser (docs/watch-page.md).

``GET /watch/{game_id}`` serves one static HTML page, ``GET /watch/assets/{name}`` its script and
style sheet (``service/http/static/``, shipped as package data). The page itself holds no game
data: its script draws the board from ``GET /v1/reference/board`` (``board-mother-of-dragons`` for a
Mother of Dragons game) and everything else from the
public API a spectator uses (the public view, the log, the SSE stream, ``at_version`` views of an
ended game), so it sees exactly what any spectator may see, behind the organizer's delay if one
is set.

One thing the page is given by the server: the names of the hosted games' events (the tags of
the OpenAPI document's ``Event`` union). The SSE stream names each message by its event type,
and an ``EventSource`` only hands a named message to a listener registered for that name.

The routes are left out of the OpenAPI document: they answer HTML, CSS and JavaScript, not the
API's JSON.
"""

from __future__ import annotations

from functools import cache
from importlib.resources import files
from typing import Annotated, get_args

from litestar import Controller, Response, get
from litestar.params import PathParameter

from domain import registry

from ..bodies import GameId
from ..errors import ApiError

STATIC = files("service.http") / "static"
ASSETS = {"watch.js": "text/javascript; charset=utf-8", "watch.css": "text/css; charset=utf-8"}
"""The page's assets by name, with their media types; nothing else under ``static/`` is served."""
HEADERS = {
    "Cache-Control": "no-cache",
    # Only this service: no script, style, font or connection elsewhere (the page is the API's client).
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'",
    "X-Content-Type-Options": "nosniff",
}


def event_types() -> list[str]:
    """Every hosted game's event type names, sorted (what an ``EventSource`` must listen to)."""
    return sorted(
        {t.__struct_config__.tag for game in registry.GAMES.values() for t in get_args(game.event_type)} - {None}
    )


@cache
def asset_bytes(name: str) -> bytes:
    return (STATIC / name).read_bytes()


@cache
def page() -> bytes:
    """The page's HTML, with the event type names filled in."""
    html = (STATIC / "watch.html").read_text(encoding="utf-8")
    return html.replace("{{EVENT_TYPES}}", " ".join(event_types())).encode()


AssetName = Annotated[
    str, PathParameter(description="An asset of the page", pattern=r"^[a-z]+\.[a-z]+$", max_length=40)
]


class WatchController(Controller):
    path = "/watch"
    include_in_schema = False

    @get("/{game_id:str}", media_type="text/html", opt={"query": {"at"}})
    async def watch_page(self, game_id: GameId) -> Response[bytes]:
        """The page; its script reads the game id from the address, and ``?at=N`` (an ended game's
        replay opened at version N); a missing game is the API's 404, shown by the page."""
        return Response(page(), media_type="text/html; charset=utf-8", headers=HEADERS)

    @get("/assets/{name:str}")
    async def asset(self, name: AssetName) -> Response[bytes]:
        """The page's script or style sheet."""
        if name not in ASSETS:
            raise ApiError(404, "not_found", f"no asset {name!r}")
        return Response(asset_bytes(name), media_type=ASSETS[name], headers=HEADERS)
