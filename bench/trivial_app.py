"""The ceiling for ``bench/http_wrk.py``: a trivial Litestar app under the API's server flags.

One route at the same path as Citadel's command endpoint (``POST /v1/games/{game_id}/commands``)
that reads the body and answers a constant small JSON document, served by the same uvicorn set-up
as ``citadel api`` (``service/http/server.py``: its HTTP protocol class, no access log, the same
worker count). What Citadel does per command beyond that is the price of the game.

    python -m bench.trivial_app --port P [--workers N]
"""

from __future__ import annotations

import argparse
from typing import Any

import uvicorn
from litestar import Litestar, Request, Response, post

from service.http.server import ProblemHttpProtocol

ANSWER = b'{"version":1,"events":[]}'


@post("/v1/games/{game_id:str}/commands", status_code=200)
async def command(request: Request[Any, Any, Any], game_id: str) -> Response[bytes]:
    await request.body()
    return Response(content=ANSWER, media_type="application/json", headers={"ETag": '"1"'})


app = Litestar(route_handlers=[command], debug=False)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m bench.trivial_app")
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=8001)
    ap.add_argument("--workers", type=int, default=1)
    args = ap.parse_args(argv)
    uvicorn.run(
        "bench.trivial_app:app",
        host=args.host,
        port=args.port,
        workers=args.workers,
        http=ProblemHttpProtocol,
        access_log=False,
    )


if __name__ == "__main__":
    main()
