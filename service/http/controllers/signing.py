"""The deployment's public key for replay signatures (service/engine/signing.py, docs/replay-format.md)."""

from __future__ import annotations

import base64
from typing import Any

import msgspec
from litestar import Controller, Request, Response, get

from domain.core.head import ALGORITHM

from ..access import runtime
from ..bodies import json_response
from ..models import SigningKeyOut
from ..problems import problems

_enc = msgspec.json.Encoder()


class SigningController(Controller):
    path = "/v1"
    tags = ["replays"]

    @get(
        "/signing-key",
        summary="Public key of replay signatures",
        description="The deployment's Ed25519 public key: every replay export's `signed_head` is signed with it "
        "(`key_id` names it). Organizers fetch it once and keep it, then verify exports offline with "
        "`citadel-verify FILE --public-key KEY` (docs/replay-format.md). The key is configured by "
        "`CITADEL_SIGNING_KEY`; without it a key is generated once and kept in Redis.",
        responses=problems(429, 503),
    )
    async def signing_key(self, request: Request[Any, Any, Any]) -> Response[SigningKeyOut]:
        signer = await runtime(request).signing.signer()
        out = SigningKeyOut(
            key_id=signer.key_id,
            algorithm=ALGORITHM,
            public_key=base64.b64encode(signer.public_raw).decode(),
            public_key_pem=signer.public_pem,
        )
        return json_response(200, _enc.encode(out))
