"""The HTTP server: uvicorn serving the Litestar app, with one change.

A request the HTTP parser itself refuses (a header byte outside HTTP's grammar such as ``\\x7f``, a
malformed request line, a broken chunked body) never reaches the app, so uvicorn answers it with a
``text/plain`` 400 of its own. :class:`ProblemHttpProtocol` answers it like every other error of the
API: ``application/problem+json`` with the code ``malformed_request`` (RFC 9457, see
``service/http/problems.py``), and closes the connection, as uvicorn does.

Run: ``python -m service.http.server --host H --port P [--workers N]`` (``service/processes.py``).
"""

from __future__ import annotations

import argparse

import msgspec
import uvicorn
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from .problems import PROBLEM, Problem

APP = "service.http.app:app"
MALFORMED = "malformed_request"


def malformed_request_body(parser_message: str) -> bytes:
    """The problem document for a request the HTTP parser refused."""
    return msgspec.json.encode(
        Problem(
            type=f"https://citadel.example/problems/{MALFORMED}",
            title="Malformed request",
            status=400,
            detail=f"The request is not valid HTTP/1.1 ({parser_message}); nothing was done.",
            code=MALFORMED,
        )
    )


class ProblemHttpProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol, answering parse errors with a problem document."""

    def send_400_response(self, msg: str) -> None:
        body = malformed_request_body(msg)
        head = [b"HTTP/1.1 400 Bad Request\r\n"]
        for name, value in self.server_state.default_headers:
            head.append(name + b": " + value + b"\r\n")
        head.append(b"content-type: " + PROBLEM.encode() + b"\r\n")
        head.append(b"content-length: " + str(len(body)).encode() + b"\r\n")
        head.append(b"connection: close\r\n\r\n")
        self.transport.write(b"".join(head) + body)
        self.transport.close()


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m service.http.server", description=__doc__.split("\n")[0])
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=8000)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--no-access-log", action="store_true", help="accepted for compatibility (always off)")
    args = ap.parse_args(argv)
    uvicorn.run(APP, host=args.host, port=args.port, workers=args.workers, http=ProblemHttpProtocol, access_log=False)


if __name__ == "__main__":
    main()
