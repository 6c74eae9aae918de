"""Clients of the Citadel API that speak HTTP only: the typed Python client
(:mod:`clients.citadel_client`), the random bot (:mod:`clients.bot`) and examples.

Nothing here imports the server's packages (``domain``, ``service``, ``workers``, ``projections``):
everything a client knows comes from the API's JSON (``openapi/openapi.json``).
tests/test_clients_http_only.py keeps it that way.
"""
