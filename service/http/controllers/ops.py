"""Operations: liveness, readiness, metrics."""

from __future__ import annotations

from typing import Any

import msgspec
from litestar import Controller, MediaType, Request, Response, get

from .. import metrics
from ..access import runtime
from ..bodies import json_response
from ..errors import ApiError
from ..models import Health
from ..problems import problems

_enc = msgspec.json.Encoder()


class OpsController(Controller):
    path = "/"
    tags = ["ops"]

    @get("/healthz", summary="Liveness", description="The process is up.")
    async def healthz(self) -> Response[Health]:
        return json_response(200, _enc.encode(Health(status="ok")))

    @get("/readyz", summary="Readiness", description="Redis answers.", responses=problems(503))
    async def readyz(self, request: Request[Any, Any, Any]) -> Response[Health]:
        rt = runtime(request)
        try:
            await rt.redis.ping()
        except Exception as e:  # any failure to reach Redis means not ready
            raise ApiError(503, "not_ready", f"redis: {e}") from None
        return json_response(200, _enc.encode(Health(status="ok", redis="ok")))

    @get(
        "/metrics",
        summary="Prometheus metrics",
        media_type=MediaType.TEXT,
        description="Counters and latency histogram in the Prometheus text format.",
    )
    async def metrics_endpoint(self, request: Request) -> str:
        return metrics.render() + "\n".join(runtime(request).store.replication.render()) + "\n"
